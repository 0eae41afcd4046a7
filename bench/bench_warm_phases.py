"""Where a warm trainer's Start → first step goes, phase by phase.

    python bench/bench_warm_phases.py [--rounds 5] [--private-api]

Each round is a fresh process that does what a warm trainer does while it
waits (engine.train.warm_start's preload), idles a second, then trains the
run of bench_warm_start.py (Mirrored on 2 virtual CPUs, custom loop) until
its first batch_end, with the trainer's steps wrapped in timers: the model,
Adam's slots, the output check, the replica-batch measure, run_started, the
epoch's distributed iterator, tracing the first train_steps call and running
it. Times are seconds from the assignment (the run's arguments arriving);
the rest of "@run_started" is TensorFlow's context and the strategy.

--private-api prices engine.train.tf_runtime.PRIVATE_API: rounds alternate between the engine as it is and
the engine without its private speed-ups (no conversion ahead, Keras's own Adam step), and the table gains
a column for each and their ratio.
"""

from __future__ import annotations

import argparse
import functools
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from typing import Any

from bench_configs import FIRST_POINT_RUN as CONFIG
from bench_gui_helpers import REPO, table

PHASES = ["build_model", "optimizer.build", "check_output", "replica batches", "@run_started"]
PHASES += ["iterator", "trace", "first call", "@first step"]


def timed(owner: Any, name: str, label: str, times: dict[str, float]) -> None:
    original = getattr(owner, name)

    @functools.wraps(original)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        t0 = time.perf_counter()
        try:
            return original(*args, **kwargs)
        finally:
            times[label] = times.get(label, 0.0) + time.perf_counter() - t0

    setattr(owner, name, wrapper)


def without_private_api() -> None:
    """The engine as it would run without its private TensorFlow and Keras names (their fallbacks)."""
    import engine.train.loops as loops
    import engine.train.models as models

    loops.convert_ahead = lambda functions: None
    models.fuse_updates = lambda optimizer: optimizer


def one_round(bare: bool) -> None:
    """In a fresh process: preload as a warm trainer, then time the run's phases; one JSON line out."""
    from engine.train.warm_start import _preload

    if bare:
        without_private_api()
    _preload()
    time.sleep(1.0)
    from tensorflow.python.distribute import input_lib

    import engine.train.loops as loops
    import engine.train.models as models
    import engine.train.trainer as trainer
    from engine.core.protocol.channel import StopSignal
    from engine.train.task import run_task
    from engine.train.tf_runtime import keras

    times: dict[str, float] = {}
    timed(models, "build_model", "build_model", times)  # the trainer imports these when it runs
    timed(models, "check_output", "check_output", times)
    timed(trainer, "_measure_replica_batches", "replica batches", times)
    timed(keras.optimizers.Adam, "build", "optimizer.build", times)
    timed(input_lib.DistributedDataset, "__iter__", "iterator", times)
    make_loop = loops.CustomLoop.__init__

    def loop_init(self: Any, session: Any) -> None:
        make_loop(self, session)
        steps = self._train_steps

        def first_call(iterator: Any, n: Any) -> Any:
            t0 = time.perf_counter()
            steps.get_concrete_function(iterator, n)
            times["trace"] = time.perf_counter() - t0
            t0 = time.perf_counter()
            out = steps(iterator, n)
            out[0].numpy()
            times["first call"] = time.perf_counter() - t0
            return out

        self._train_steps = first_call

    loops.CustomLoop.__init__ = loop_init
    start = time.perf_counter()

    def sink(event: Any) -> None:
        name = type(event).__name__
        if name == "RunStarted":
            times["@run_started"] = time.perf_counter() - start
        if name == "BatchEnd":
            times["@first step"] = time.perf_counter() - start
            print(json.dumps(times), flush=True)
            os._exit(0)  # the first step is all this measures

    run_task(CONFIG, tempfile.mkdtemp(prefix="tfdd-bench-phases-") + "/run", [sink], StopSignal())


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--private-api", action="store_true", help="also time the engine without its private names")
    parser.add_argument("--one", choices=["engine", "bare"], help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one:
        one_round(args.one == "bare")
        return
    variants = ["engine", "bare"] if args.private_api else ["engine"]
    rounds: dict[str, list[dict[str, float]]] = {v: [] for v in variants}
    for i in range(args.rounds):
        for variant in variants[i % 2 :] + variants[: i % 2]:  # interleaved, each round in another order
            out = subprocess.run(
                [sys.executable, __file__, "--one", variant], cwd=REPO, capture_output=True, text=True, check=True
            ).stdout
            rounds[variant].append(json.loads(out.strip().splitlines()[-1]))
            print(variant, " ".join(f"{k}={v:.3f}" for k, v in rounds[variant][-1].items()), file=sys.stderr)
    rows = []
    for phase in PHASES:
        values = {v: [r[phase] for r in rounds[v] if phase in r] for v in variants}
        cells = [f"{statistics.median(x):.2f} ({min(x):.2f}–{max(x):.2f})" if x else "not run" for x in values.values()]
        if args.private_api:
            ok = all(values.values())
            cells.append(f"{statistics.median(values['engine']) / statistics.median(values['bare']):.2f}" if ok else "")
        rows.append((phase, *cells))
    head = [f"{v}: s, median (min–max) of {args.rounds}" for v in variants]
    print(table(("phase", *head, *(["engine ÷ bare"] if args.private_api else [])), rows))


if __name__ == "__main__":
    main()
