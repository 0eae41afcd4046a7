"""One compiled call of steps, the engine's against the ceiling's, in one process: where a step's time goes.

    python bench/bench_step_graph.py [--replicas 1] [--examples 400000] [--steps 200] [--rounds 40]

bench_ceiling times whole epochs of the whole Trainer; this times one `tf.function` call of `--steps`
steps of the tutorial's MLP (global batch 128), the graph alone, the engine's custom loop
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

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--replicas", type=int, default=1)
    parser.add_argument("--examples", type=int, default=400_000)
    parser.add_argument("--steps", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=40)
    args = parser.parse_args()

    from bench_ceiling import BATCH, ceiling_call  # bench/ is this script's folder

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
            "global_batch_size": BATCH,
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
        "ceiling": ceiling_call(strategy, s.model, optimizer, loss_object, held, config.global_batch_size),
        "ceiling, dynamic slice": ceiling_call(
            strategy, s.model, optimizer, loss_object, held, config.global_batch_size, static=False
        ),
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
