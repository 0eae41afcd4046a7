"""What measuring the step anatomy costs training: with it and without, in one process.

    python bench/bench_anatomy_cost.py [--rounds 3] [--replicas 1 2] [--loops custom fit] [--examples 160000]

For each replica count a child process (virtual CPU devices are fixed at start-up) trains the tutorial's
MLP (Mirrored, global batch 64, spe "auto", no checkpoints). Throughput is examples over the epochs' wall
seconds (metrics' `seconds`: the probes run between the steps, so the engine's own examples/s, which
times the steps, would not see them). Two measures:
- whole runs with the anatomy on and off by turns, each round in the other order: every epoch (the first
  holds the tracing, and the probes' one-time tracing) and epochs 2..N; the median over rounds of on ÷ off;
- the meter's own time (its probes, their one-time tracing included, and its bookkeeping between the
  calls: StepMeter.own_s) over the run's epochs' wall seconds, in the runs with it on: an accounting that a
  loaded host's noise cannot hide;
- one run of ALTERNATE_EPOCHS short epochs with the anatomy measured in every other one (epoch 1, which
  traces, on; then off, on, off, ...): each measured epoch against the mean of the unmeasured ones on
  either side of it, so slow drift of a shared host cancels; the median of those ratios. This is what a
  long run pays, probes included when they fall in (they grow rarer as the run goes on).
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

EPOCHS = 4
ALTERNATE_EPOCHS = 15
TUTORIAL = {
    "strategy": "mirrored",
    "global_batch_size": 64,
    "epochs": EPOCHS,
    "shuffle_buffer": 10000,
    "checkpoint": {"every_epoch": False},
}


def run_rates(config: dict, anatomy: bool) -> tuple[float, float, tuple[float, float]]:
    """(examples/s of every epoch, of epochs 2..N), over the epochs' wall seconds, and the share of those
    seconds the meter itself took (its `own_s`: of every epoch, of epochs 2..N); one run in this process."""
    from engine.core import events as ev
    from engine.core.config import RunConfig
    from engine.core.protocol.channel import StopSignal
    from engine.train.trainer import Trainer

    epochs: list[ev.EpochEnd] = []
    own_after_first = [0.0]

    def sink(event: ev.Event) -> None:
        if isinstance(event, ev.EpochEnd):
            epochs.append(event)
            if event.epoch == 1 and trainer._controller.anatomy:
                own_after_first[0] = trainer._controller.anatomy.own_s

    with tempfile.TemporaryDirectory() as tmp:
        trainer = Trainer(RunConfig.from_dict(config), Path(tmp), [sink], StopSignal(), anatomy=anatomy)
        outcome = trainer.run()
    assert outcome.status == "completed", outcome.message
    meter = trainer._controller.anatomy
    own = (0.0, 0.0)
    if meter:
        later = (meter.own_s - own_after_first[0]) / sum(e.seconds for e in epochs[1:])
        own = (meter.own_s / sum(e.seconds for e in epochs), later)
    examples = config["data"]["num_samples"] // config["global_batch_size"] * config["global_batch_size"]
    every = examples * len(epochs) / sum(e.seconds for e in epochs)
    return every, examples * (len(epochs) - 1) / sum(e.seconds for e in epochs[1:]), own


def alternate_ratios(config: dict) -> list[float]:
    """One run, the anatomy measured in odd epochs only: each measured epoch's rate ÷ its neighbours'."""
    from engine.core import events as ev
    from engine.core.config import RunConfig
    from engine.core.protocol.channel import StopSignal
    from engine.train.trainer import Trainer

    seconds: list[float] = []
    meter: list = []

    def sink(event: ev.Event) -> None:
        if not isinstance(event, ev.EpochEnd):
            return
        seconds.append(event.seconds)
        controller = trainer._controller  # the bench switches the meter on and off between epochs
        if not meter:
            meter.append(controller.anatomy)
        controller.anatomy = meter[0] if event.epoch % 2 == 0 else None  # epoch k + 1 measured when k is even

    with tempfile.TemporaryDirectory() as tmp:
        trainer = Trainer(RunConfig.from_dict({**config, "epochs": ALTERNATE_EPOCHS}), Path(tmp), [sink], StopSignal())
        assert trainer.run().status == "completed"
    rate = [1 / s for s in seconds]  # epochs of equal size: rates in proportion
    return [rate[k] / ((rate[k - 1] + rate[k + 1]) / 2) for k in range(2, len(rate) - 1, 2)]


def child(replicas: int, loops: list[str], rounds: int, examples: int) -> None:
    ratios: dict[str, list[tuple[float, float]]] = {loop: [] for loop in loops}
    rates: dict[str, list[tuple[float, float]]] = {loop: [] for loop in loops}
    alternate: dict[str, list[float]] = {}
    own: dict[str, list[tuple[float, float]]] = {loop: [] for loop in loops}
    for loop in loops:
        data = {"kind": "synthetic", "num_samples": examples // 4, "num_features": 10}
        alternate[loop] = alternate_ratios({**TUTORIAL, "virtual_devices": replicas, "loop": loop, "data": data})
    for r in range(rounds):
        for loop in loops:
            config = {
                **TUTORIAL,
                "virtual_devices": replicas,
                "loop": loop,
                "data": {"kind": "synthetic", "num_samples": examples, "num_features": 10},
            }
            order = [True, False] if r % 2 == 0 else [False, True]
            got = {on: run_rates(config, on) for on in order}
            ratios[loop].append((got[True][0] / got[False][0], got[True][1] / got[False][1]))
            rates[loop].append(got[False][:2])
            own[loop].append(got[True][2])
    print(
        json.dumps(
            {
                loop: {
                    "all": [a for a, _ in ratios[loop]],
                    "steady": [s for _, s in ratios[loop]],
                    "off_rate": statistics.median(a for a, _ in rates[loop]),
                    "alternate": alternate[loop],
                    "own": own[loop],
                }
                for loop in loops
            }
        )
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--replicas", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--loops", nargs="+", default=["custom", "fit"])
    parser.add_argument("--examples", type=int, default=160_000)
    parser.add_argument("--child", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.child, args.loops, args.rounds, args.examples)
        return
    print(f"\n{EPOCHS} epochs of {args.examples:,} examples; on ÷ off per round, median of {args.rounds} rounds\n")
    print(
        "| replicas | loop | examples/s (off, all epochs) | on ÷ off, all epochs | on ÷ off, epochs 2.. | rounds "
        f"| on ÷ off, alternate epochs (of {args.examples // 4:,}) | epochs | the meter's own time: all epochs "
        "| epochs 2.. |"
    )
    print("|---:|---|---:|---:|---:|---|---:|---|---:|---:|")
    for replicas in args.replicas:
        out = subprocess.run(
            [sys.executable, __file__, "--child", str(replicas), "--rounds", str(args.rounds)]
            + ["--examples", str(args.examples), "--loops", *args.loops],
            capture_output=True,
            text=True,
            check=True,
            cwd=REPO,
        )
        result = json.loads(out.stdout.strip().splitlines()[-1])
        for loop, r in result.items():
            rounds = ", ".join(f"{a:.3f}/{s:.3f}" for a, s in zip(r["all"], r["steady"], strict=True))
            epochs = ", ".join(f"{a:.3f}" for a in r["alternate"])
            print(
                f"| {replicas} | {loop} | {r['off_rate']:,.0f} | {statistics.median(r['all']):.3f} "
                f"| {statistics.median(r['steady']):.3f} | {rounds} | {statistics.median(r['alternate']):.3f} "
                f"| {epochs} | {100 * statistics.median(a for a, _ in r['own']):.2f} % "
                f"| {100 * statistics.median(b for _, b in r['own']):.2f} % |"
            )


if __name__ == "__main__":
    main()
