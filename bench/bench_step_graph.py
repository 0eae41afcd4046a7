"""One compiled call of steps, the engine's against the ceiling's, in one process: where a step's time goes.

    python bench/bench_step_graph.py [--replicas 1] [--examples 400000] [--steps 200] [--rounds 40]

bench_ceiling times whole epochs, and on a shared machine its rounds spread by tens of percent; this times
one `tf.function` call of `--steps` steps of the tutorial's MLP (global batch 128), the engine's custom loop
(engine.train.loops.block_of_gathered_steps) against the ceiling's loop (bench_ceiling's, built here on the
same model, optimizer and examples), calls interleaved round by round, CPU time and wall time per step
(medians). "ceiling, dynamic slice" is the ceiling as first written: each replica's slice of the order cut
by tensors, so the step's shapes are unknown when it is traced.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))


def ceiling_call(strategy: Any, model: Any, optimizer: Any, loss_object: Any, columns: Any, static: bool) -> Any:
    """bench_ceiling's train_steps over these examples; `static`: the slice has its static length."""
    from engine.train.tf_runtime import tf

    features, labels = columns
    batch = 128
    per_replica = batch // strategy.num_replicas_in_sync

    def replica_step(order: Any, start: Any) -> Any:
        first = start + tf.distribute.get_replica_context().replica_id_in_sync_group * per_replica
        index = tf.slice(order, [first], [per_replica]) if static else order[first : first + per_replica]
        xb, yb = tf.gather(features, index), tf.gather(labels, index)
        with tf.GradientTape() as tape:
            loss = tf.nn.compute_average_loss(loss_object(yb, model(xb, training=True)), global_batch_size=batch)
        grads = tape.gradient(loss, model.trainable_variables)
        optimizer.apply_gradients(zip(grads, model.trainable_variables))  # noqa: B905 - AutoGraph rejects strict=
        return loss

    @tf.function
    def train_steps(order: Any, first: Any, count: Any) -> Any:
        total = tf.constant(0.0)
        for i in tf.range(first, first + count):
            total += strategy.reduce("SUM", strategy.run(replica_step, args=(order, i * batch)), axis=None)
        return total

    return train_steps


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--replicas", type=int, default=1)
    parser.add_argument("--examples", type=int, default=400_000)
    parser.add_argument("--steps", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=40)
    args = parser.parse_args()

    from engine.core.config import RunConfig
    from engine.core.plan import plan_devices
    from engine.core.sources import inspect
    from engine.train.datasets import make_source
    from engine.train.devices import apply_plan
    from engine.train.loops import Session, block_of_gathered_steps
    from engine.train.models import build_loss_and_metric, build_model, build_optimizer
    from engine.train.strategies import make_strategy
    from engine.train.tf_runtime import keras, tf

    config = RunConfig.from_dict(
        {
            "strategy": "mirrored",
            "virtual_devices": args.replicas,
            "global_batch_size": 128,
            "data": {"kind": "synthetic", "num_samples": args.examples},
        }
    )
    plan = plan_devices(config, [])
    apply_plan(plan)
    strategy = make_strategy(config, plan)
    source = make_source(config, inspect(config), "auto", 1)
    keras.utils.set_random_seed(config.seed)
    with strategy.scope():
        built = build_model(config, source.input_shape(), source.num_classes)
        optimizer = build_optimizer(config)
        optimizer.build(built.model.trainable_variables)
        loss_object, _ = build_loss_and_metric(source.num_classes, keras.losses.Reduction.NONE)
    s = Session(config, strategy, built.model, optimizer, source, built.from_logits, None)
    held = source.in_memory()
    calls = {
        "engine": tf.function(block_of_gathered_steps(s, *held)),
        "ceiling": ceiling_call(strategy, s.model, optimizer, loss_object, held, static=True),
        "ceiling, dynamic slice": ceiling_call(strategy, s.model, optimizer, loss_object, held, static=False),
    }
    order = tf.constant(source.order(0))
    last_first = source.steps_per_epoch - args.steps

    def run(name: str, first: int) -> None:
        tf.nest.map_structure(lambda t: t.numpy(), calls[name](order, tf.constant(first), tf.constant(args.steps)))

    for name in calls:  # traced and warmed
        run(name, 0)
        run(name, 0)
    times: dict[str, list[tuple[float, float]]] = {name: [] for name in calls}
    names = list(calls)
    for r in range(args.rounds):
        for name in names[r % len(names) :] + names[: r % len(names)]:
            wall, cpu = time.perf_counter(), time.process_time()
            run(name, (r * args.steps) % max(1, last_first))
            times[name].append((time.perf_counter() - wall, time.process_time() - cpu))
    cpu_ceiling = statistics.median(t[1] for t in times["ceiling"]) / args.steps * 1e6
    print(f"{args.replicas} replica(s), {args.examples} examples, {args.steps} steps a call, {args.rounds} rounds")
    for name, each in times.items():
        wall, cpu = (statistics.median(t[i] for t in each) / args.steps * 1e6 for i in (0, 1))
        print(f"{name:24s} µs/step: CPU {cpu:6.1f}, wall {wall:6.1f}; ceiling ÷ this, CPU {cpu_ceiling / cpu:.2f}")


if __name__ == "__main__":
    main()
