"""What a sweep's concurrency buys and what the sweep itself costs per trial.

    python bench/bench_sweep.py [--trials 4] [--rounds 2] [--samples 4096] [--epochs 3]

Three variants of the same work, interleaved round by round, each round in another order (the machine is
shared and noisy, so only ratios within a round mean much):

- plain: `tfdd train` run `--trials` times one after another (the baseline: a person pressing Start again; each
  the whole command, its TensorFlow import included, as each trial of a sweep is);
- sweep-1: `tfdd sweep` of `--trials` trials one at a time (a grid over the seed, so every trial costs
  the same as a plain run);
- sweep-2: the same sweep with 2 trials at once.

Reported: trials per hour of each, sweep-2 ÷ sweep-1 (what concurrency buys on this machine) and
sweep-1 ÷ plain per trial (the sweep's own overhead: the device probe, Optuna's study, scheduling).
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from engine.core.config import DataConfig, RunConfig  # noqa: E402
from engine.core.protocol import commands  # noqa: E402


def timed(command: list[str]) -> float:
    start = time.perf_counter()
    subprocess.run(command, check=True, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    return time.perf_counter() - start


def plain(config_path: Path, out: Path, trials: int) -> float:
    runs = (
        commands.cli_command("train", "--config", str(config_path), "--run-dir", str(out / f"run-{i}"))
        for i in range(trials)
    )
    return sum(timed(run) for run in runs)


def sweep(config_path: Path, out: Path, trials: int, concurrency: int) -> float:
    space = out.parent / f"{out.name}.json"
    grid = {"seed": {"choice": list(range(trials))}}
    space.write_text(
        json.dumps(
            {
                "parameters": grid,
                "method": "grid",
                "trials": trials,
                "concurrency": concurrency,
                "pruner": "none",
                "objective": "loss",
            }
        )
    )
    return timed(commands.cli_command("sweep", "--config", str(config_path), "--space", str(space), "--out", str(out)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trials", type=int, default=4)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--samples", type=int, default=4096)
    parser.add_argument("--epochs", type=int, default=3)
    args = parser.parse_args()
    config = RunConfig(
        strategy="default", epochs=args.epochs, global_batch_size=64, data=DataConfig(num_samples=args.samples)
    )
    work = Path(tempfile.mkdtemp(prefix="tfdd-bench-sweep-"))
    config_path = work / "config.json"
    config.save(config_path)
    variants = {
        "plain": lambda out: plain(config_path, out, args.trials),
        "sweep-1": lambda out: sweep(config_path, out, args.trials, 1),
        "sweep-2": lambda out: sweep(config_path, out, args.trials, 2),
    }
    seconds: dict[str, list[float]] = {name: [] for name in variants}
    for round_ in range(args.rounds):
        order = list(variants)
        random.Random(round_).shuffle(order)
        for name in order:
            seconds[name].append(variants[name](work / f"{name}-{round_}"))
            print(f"round {round_ + 1} {name}: {seconds[name][-1]:.1f} s", file=sys.stderr)
    per_hour = {name: 3600 * args.trials / statistics.median(s) for name, s in seconds.items()}
    for name, rate in per_hour.items():
        print(f"{name:8} {rate:8.0f} trials/hour  (median of {args.rounds}: {statistics.median(seconds[name]):.1f} s)")
    print(f"sweep-2 / sweep-1 trials per hour: {per_hour['sweep-2'] / per_hour['sweep-1']:.2f}")
    print(f"sweep-1 / plain seconds per trial: {per_hour['plain'] / per_hour['sweep-1']:.2f}")


if __name__ == "__main__":
    main()
