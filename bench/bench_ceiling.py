"""The engine against the ceiling: the fastest loop a TensorFlow expert writes for one model alone.

    python bench/bench_ceiling.py [--rounds 3] [--replicas 1 2] [--cases mlp40k mlp400k cnn]

The ceiling (`expert`) is what an expert writes for the model and nothing else: the data as
tensors in memory, a shuffled index per epoch, STEPS_PER_CALL steps per `tf.function` call in a
`tf.range` loop where each replica `tf.gather`s its slice of the global batch (sliced with its static
length, as tf.data's batches with drop_remainder have it), the loss summed in the graph and fetched once
per call. Same model (engine.train.models.build_model: the engine's MLP and CNN),
same optimizer (build_optimizer) and loss, same data, global batch and Mirrored strategy over as many
logical CPUs; no accuracy, no events, no stop checks.

The engine is the Trainer in this process (as bench_engine does; `tfdd train` runs the same Trainer behind
its event channel), default settings (custom loop, steps_per_execution "auto"), checkpoints off, its run
directory, events.jsonl, TensorBoard sink and step anatomy included; what it does beyond the ceiling is
the accuracy, keeping each step's loss and right answers, and its events. Engine and ceiling alternate
epoch by epoch (`engine_and_ceiling`): on a shared machine whose speed changes over seconds, runs back to
back disagreed by up to half. For each replica count a child process (logical devices are fixed at
start-up) runs every case round by round, with the engine's fit loop (the same Trainer, loop "fit") before
or after; custom ÷ fit is the engine's default loop against its fit loop.

An epoch's time is wall time (epochs 2..N: epoch 1 holds the tracing); engine ÷ ceiling is the ceiling's
epoch time over the engine's (a throughput ratio: per round the medians' ratio, the median of the rounds
bold), by wall time and by the process's CPU time (every thread's). The MLP runs at two sizes, so each
loop's epoch time splits as a + b·steps: a is what an epoch costs beyond its steps (set-up, events), b a
step's time in the steady state.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

STEPS_PER_CALL = 200
BATCH = 128
CNN_MODEL = {"kind": "cnn", "filters": [16, 32], "hidden_units": [32]}
CNN_IMAGES = {"classes": 4, "per_class": 1024, "size": (32, 32)}
CASES = {  # name -> (config overrides, epochs)
    "mlp40k": ({"data": {"kind": "synthetic", "num_samples": 40_000}}, 16),
    "mlp400k": ({"data": {"kind": "synthetic", "num_samples": 400_000}}, 6),
    "cnn": ({"model": CNN_MODEL, "global_batch_size": 64}, 4),
}


def write_images(folder: Path) -> Path:
    """The CNN's images: an image folder (as bench_kinds), which the engine decodes into memory once."""
    from tests.data_factory import write_image_folder

    return write_image_folder(folder / "images", **CNN_IMAGES)


def case_config(name: str, replicas: int, images: Path) -> Any:
    from engine.core.config import RunConfig

    overrides, epochs = CASES[name]
    d = {
        "strategy": "mirrored",
        "virtual_devices": replicas,
        "global_batch_size": BATCH,
        "epochs": epochs,
        "checkpoint": {"every_epoch": False},
        **overrides,
    }
    if name == "cnn":
        d["data"] = {"kind": "image_folder", "path": str(images)}
    return RunConfig.from_dict(d)


def load_data(config: Any) -> tuple[np.ndarray, np.ndarray, int]:
    """The examples the engine trains on, as arrays (the images decoded as the engine decodes them)."""
    if config.data.kind == "synthetic":
        from engine.train.datasets.arrays import synthetic

        x, y = synthetic(config.data, config.seed)
        return x, y, 2
    from engine.core.sources import inspect
    from engine.train.datasets.images import ImageFolderSource

    source = ImageFolderSource(config, inspect(config), "auto", 1)
    assert source.cached is not None
    x, y = source.cached
    return x, y, source.num_classes


def expert(config: Any) -> Callable[[], tuple[float, float]]:
    """The ceiling, built and traced: each call trains one epoch and gives its (wall, CPU) seconds."""
    from engine.core.plan import plan_devices
    from engine.train.devices import apply_plan
    from engine.train.models import build_loss_and_metric, build_model, build_optimizer
    from engine.train.strategies import make_strategy
    from engine.train.tf_runtime import keras, tf

    plan = plan_devices(config, [])
    apply_plan(plan)
    strategy = make_strategy(config, plan)
    x, y, classes = load_data(config)
    binary = classes == 2
    labels = tf.constant(y.astype(np.float32)[:, None] if binary else y.astype(np.int32))
    features = tf.constant(x)
    n, batch = len(x), config.global_batch_size
    steps = len(x) // batch
    keras.utils.set_random_seed(config.seed)
    with strategy.scope():
        model = build_model(config, x.shape[1:], classes).model
        optimizer = build_optimizer(config)
        optimizer.build(model.trainable_variables)
        loss_object, _ = build_loss_and_metric(classes, keras.losses.Reduction.NONE)

    train_steps = ceiling_call(strategy, model, optimizer, loss_object, (features, labels), batch)

    def epoch() -> tuple[float, float]:
        started = now()
        order = tf.random.shuffle(tf.range(n))
        for first in range(0, steps, STEPS_PER_CALL):
            train_steps(order, tf.constant(first), tf.constant(min(STEPS_PER_CALL, steps - first))).numpy()
        return between([started, now()])[0]

    epoch()  # traced and warmed
    return epoch


def ceiling_call(
    strategy: Any, model: Any, optimizer: Any, loss_object: Any, columns: Any, batch: int, static: bool = True
) -> Any:
    """The ceiling's compiled call: (order, first step, count) -> the steps' summed loss. Each replica gathers its
    slice of the global batch; `static`: the slice has its static length (the shape arithmetic folds away), as
    an expert cuts it; False: cut by tensors, as the ceiling was first written (bench_step_graph)."""
    from engine.train.tf_runtime import tf

    features, labels = columns
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


def now() -> tuple[float, float]:
    """Wall and this process's CPU clock (every thread's: the input pipeline's too)."""
    return time.perf_counter(), time.process_time()


def between(clocks: list[tuple[float, float]]) -> list[tuple[float, float]]:
    return [(b[0] - a[0], b[1] - a[1]) for a, b in zip(clocks, clocks[1:], strict=False)]


def engine_and_ceiling(config: Any, ceiling: Callable[[], tuple[float, float]]) -> tuple[list[Any], list[Any]]:
    """The engine's epochs 2..N, each right after one of the ceiling's, run by the engine's event sink as the
    epoch before ends: ((wall, CPU) of each engine epoch, of each ceiling epoch). Pairs a few tens of
    milliseconds apart see the same machine. The sink runs last, after the run directory has written the
    epoch's events; what the engine's writer threads still do runs during the ceiling's epoch and slows it."""
    from engine.core import events as ev
    from engine.core.protocol.channel import StopSignal
    from engine.train.trainer import Trainer

    engine: list[tuple[float, float]] = []
    ceilings: list[tuple[float, float]] = []
    resumed: list[tuple[float, float]] = []  # when the engine's next epoch began

    def sink(event: Any) -> None:
        if isinstance(event, ev.EpochEnd):
            if resumed:
                engine.append(between([resumed[-1], now()])[0])
            if event.epoch < config.epochs:
                ceilings.append(ceiling())
            resumed.append(now())

    with tempfile.TemporaryDirectory() as tmp:
        outcome = Trainer(config, Path(tmp) / "run", [sink], StopSignal()).run()
    assert outcome.status == "completed", outcome.message
    return engine, ceilings


def fit_epochs(config: Any) -> list[tuple[float, float]]:
    """The engine with the fit loop (model.fit): (wall, CPU) seconds of epochs 2..N, between epoch ends."""
    from engine.core import events as ev
    from engine.core.protocol.channel import StopSignal
    from engine.train.trainer import Trainer

    clocks = [now()]

    def sink(event: Any) -> None:
        if isinstance(event, ev.EpochEnd):
            clocks.append(now())

    with tempfile.TemporaryDirectory() as tmp:
        outcome = Trainer(config.replace(loop="fit"), Path(tmp) / "run", [sink], StopSignal()).run()
    assert outcome.status == "completed", outcome.message
    return between(clocks)[1:]


LOOPS = ("ceiling", "engine", "fit")


def child(replicas: int, rounds: int, cases: list[str]) -> None:
    """Every case round by round: the engine interleaved with the ceiling, and fit before them in odd rounds,
    after them in even ones, so a host that slows down or speeds up favours neither."""
    with tempfile.TemporaryDirectory() as tmp:
        images = write_images(Path(tmp))
        configs = {name: case_config(name, replicas, images) for name in cases}
        ceilings = {name: expert(config) for name, config in configs.items()}
        out: dict[str, dict[str, list[list[float]]]] = {name: {loop: [] for loop in LOOPS} for name in cases}
        for r in range(rounds):
            for name, config in configs.items():
                runs = [("fit",), ("engine", "ceiling")]
                for loops in runs if r % 2 else runs[::-1]:
                    epochs = [fit_epochs(config)] if loops == ("fit",) else engine_and_ceiling(config, ceilings[name])
                    for loop, each in zip(loops, epochs, strict=True):
                        out[name][loop].append([statistics.median(clock) for clock in zip(*each, strict=True)])
                        print(name, loop, out[name][loop][-1], os.getloadavg()[0], file=sys.stderr, flush=True)
    print(json.dumps(out))


def steps_of(name: str) -> int:
    overrides, _ = CASES[name]
    data = overrides.get("data", {})
    n = data.get("num_samples", CNN_IMAGES["classes"] * CNN_IMAGES["per_class"])
    return n // overrides.get("global_batch_size", BATCH)


def ratios(out: dict[str, list[list[float]]], a: str, b: str, clock: int) -> list[float]:
    """Each round's throughput of `b` over `a` (a's epoch seconds over b's) by one clock (0 wall, 1 CPU)."""
    return [x[clock] / y[clock] for x, y in zip(out[a], out[b], strict=True)]


def table(replicas: int, out: dict[str, dict[str, list[list[float]]]]) -> None:
    """Per case: median epoch seconds; engine ÷ ceiling and the custom loop ÷ fit by wall and by CPU time
    (median of the rounds' ratios, each round's in brackets); for the MLP, the a + b·steps split of each
    loop's wall seconds."""
    print(f"\n### Mirrored, {replicas} replica(s) (logical CPUs), load average {os.getloadavg()[0]:.1f}\n")
    print(
        "| case | steps/epoch | ceiling s/epoch | engine s/epoch | fit s/epoch | engine ÷ ceiling, wall (rounds) "
        "| ÷, CPU | custom ÷ fit, wall (rounds) | ÷, CPU |"
    )
    print("|---|---:|---:|---:|---:|---|---:|---|---:|")
    wall = {name: {loop: [r[0] for r in rounds] for loop, rounds in loops.items()} for name, loops in out.items()}
    for name, loops in out.items():
        cells = []
        for a, b in (("ceiling", "engine"), ("fit", "engine")):
            by_wall = ratios(loops, a, b, 0)
            each = ", ".join(f"{r:.2f}" for r in by_wall)
            cells += [
                f"**{statistics.median(by_wall):.2f}** ({each})",
                f"{statistics.median(ratios(loops, a, b, 1)):.2f}",
            ]
        seconds = [f"{statistics.median(wall[name][loop]):.3f}" for loop in ("ceiling", "engine", "fit")]
        print(f"| {name} | {steps_of(name)} | " + " | ".join(seconds + cells) + " |")
    if "mlp40k" in wall and "mlp400k" in wall:
        small, large = steps_of("mlp40k"), steps_of("mlp400k")
        fits = {}
        for loop in LOOPS:
            t_small, t_large = statistics.median(wall["mlp40k"][loop]), statistics.median(wall["mlp400k"][loop])
            b = (t_large - t_small) / (large - small)
            fits[loop] = (t_small - b * small, b)
        a_c, b_c = fits["ceiling"]
        split = "; ".join(f"{loop} a {a * 1e3:.1f} ms, b {b * 1e6:.0f} µs" for loop, (a, b) in fits.items())
        beyond = ", ".join(
            f"{loop} {(a - a_c) * 1e3:.1f} ms, steady state {b_c / b:.2f}"
            for loop, (a, b) in fits.items()
            if a is not a_c
        )
        print(f"\nMLP epoch = a + b·steps: {split}. Beyond the ceiling's (per epoch; ceiling b ÷ b): {beyond}.")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--replicas", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--cases", nargs="+", choices=list(CASES), default=list(CASES))
    parser.add_argument("--child", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.child, args.rounds, args.cases)
        return
    print(f"load average at the start {os.getloadavg()}")
    for replicas in args.replicas:
        command = [sys.executable, __file__, "--child", str(replicas), "--rounds", str(args.rounds), "--cases"]
        out = subprocess.run([*command, *args.cases], stdout=subprocess.PIPE, text=True, check=True, cwd=REPO)
        table(replicas, json.loads(out.stdout.strip().splitlines()[-1]))


if __name__ == "__main__":
    main()
