"""Engine throughput against the tutorial-style loop, as ratios measured in one process.

    python bench/bench_engine.py [--rounds 3] [--replicas 1 2]

For each replica count a child process (virtual CPU devices are fixed at
start-up) runs, interleaved round by round so machine noise hits all alike:
- tutorial: the seed's custom loop with its dataset bug fixed (batches from
  experimental_distribute_dataset), one step per tf.function call;
- engine custom / fit loops with steps_per_execution in SPE_VALUES and "auto".
Examples/s is the engine's own measure (training time of epochs 2..N; epoch 1
holds the tracing) and the same for the tutorial loop. Prints a markdown table.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

SPE_VALUES = [1, 8, 32, 128]
TUTORIAL = {
    "data": {"kind": "synthetic", "num_samples": 10000, "num_features": 10},
    "global_batch_size": 64,
    "epochs": 4,
    "shuffle_buffer": 10000,
    "checkpoint": {"every_epoch": False},
}


def tutorial_loop(config, tf, keras) -> float:
    """The seed's loop, one step per call, dataset bug fixed; returns examples/s of epochs 2..N."""
    from engine.core.plan import plan_devices
    from engine.train.datasets.arrays import synthetic
    from engine.train.devices import apply_plan
    from engine.train.models import build_model, build_optimizer
    from engine.train.strategies import make_strategy

    plan = plan_devices(config, [])
    apply_plan(plan)
    strategy = make_strategy(config, plan)
    x, y = synthetic(config.data, config.seed)
    dataset = (
        tf.data.Dataset.from_tensor_slices((x, y.astype("float32")[:, None]))
        .shuffle(10000)
        .batch(config.global_batch_size)
        .prefetch(tf.data.AUTOTUNE)
    )
    with strategy.scope():
        model = build_model(config, x.shape[1:], 2).model
        optimizer = build_optimizer(config)
        loss_object = keras.losses.BinaryCrossentropy(from_logits=True, reduction=keras.losses.Reduction.NONE)
    dist = strategy.experimental_distribute_dataset(dataset)

    def step_fn(x, y):
        with tf.GradientTape() as tape:
            loss = tf.nn.compute_average_loss(
                loss_object(y, model(x, training=True)), global_batch_size=config.global_batch_size
            )
        grads = tape.gradient(loss, model.trainable_variables)
        optimizer.apply_gradients(zip(grads, model.trainable_variables))  # noqa: B905 - AutoGraph rejects strict=
        return loss

    @tf.function
    def distributed_train_step(batch):
        return strategy.reduce("SUM", strategy.run(step_fn, args=batch), axis=None)

    rates = []
    for epoch in range(config.epochs):
        t0, n = time.perf_counter(), 0
        for batch in dist:
            distributed_train_step(batch).numpy()
            n += config.global_batch_size
        if epoch:
            rates.append(n / (time.perf_counter() - t0))
    return statistics.mean(rates)


def engine_loop(config) -> float:
    from engine.core import events as ev
    from engine.core.protocol.channel import StopSignal
    from engine.train.trainer import Trainer

    rates: list[float] = []
    with tempfile.TemporaryDirectory() as tmp:
        Trainer(
            config,
            Path(tmp),
            [lambda e: rates.append(e.examples_per_sec) if isinstance(e, ev.EpochEnd) else None],
            StopSignal(),
            print_tracebacks=True,
        ).run()
    return statistics.mean(rates[1:])


def child(replicas: int, rounds: int) -> None:
    from engine.core.config import RunConfig
    from engine.train.tf_runtime import keras, tf

    base = RunConfig.from_dict({**TUTORIAL, "strategy": "mirrored", "virtual_devices": replicas})
    variants = {"tutorial (1 step/call)": None}
    for loop in ("custom", "fit"):
        for spe in [*SPE_VALUES, "auto"]:
            variants[f"{loop} spe={spe}"] = base.replace(loop=loop, steps_per_execution=spe)
    results: dict[str, list[float]] = {name: [] for name in variants}
    for _ in range(rounds):
        for name, config in variants.items():
            results[name].append(tutorial_loop(base, tf, keras) if config is None else engine_loop(config))
    print(json.dumps({name: statistics.median(v) for name, v in results.items()}))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--replicas", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--child", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.child, args.rounds)
        return
    for replicas in args.replicas:
        out = subprocess.run(
            [sys.executable, __file__, "--child", str(replicas), "--rounds", str(args.rounds)],
            capture_output=True,
            text=True,
            check=True,
            cwd=REPO,
        )
        medians = json.loads(out.stdout.strip().splitlines()[-1])
        base = medians["tutorial (1 step/call)"]
        best_fit = max(v for k, v in medians.items() if k.startswith("fit"))
        print(
            f"\n### Mirrored, {replicas} replica(s) (virtual CPUs), MLP 10-16-8-1, global batch 64, "
            f"median of {args.rounds} interleaved rounds\n"
        )
        print("| loop | examples/s | × tutorial | ÷ best fit |")
        print("|---|---:|---:|---:|")
        for name, value in medians.items():
            print(f"| {name} | {value:,.0f} | {value / base:.2f} | {value / best_fit:.2f} |")


if __name__ == "__main__":
    main()
