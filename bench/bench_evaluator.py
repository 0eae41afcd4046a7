"""What an evaluator task costs a cluster's training throughput (goal: at most 5 %).

    python bench/bench_evaluator.py [--strategy multi_worker_mirrored] [--workers 2] [--rounds 3]

Three variants of one run, interleaved round by round, each round in another
order (the machine is shared and noisy, so only ratios within a round mean
much):

- none: no validation at all (validation_split 0 on the same number of
  training examples): the baseline;
- evaluator: validation_split 0.2 and an evaluator task validating every
  checkpoint beside the cluster; the trainer itself does not validate;
- inline: validation_split 0.2 without an evaluator: the chief validates
  after every epoch while the workers wait (what the evaluator saves).

Throughput is the chief's examples/s of wall time between its first and last
epoch_end (bench_cluster.measure), so any pause in training counts. As noise
between identical runs here exceeds the 5 % goal, the evaluator's share of
the machine is also measured directly: the CPU time its process used while
training ran (evaluation.csv's cpu_seconds) over the training window and the
cores, an upper bound of what it can take from training.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "bench"))

from bench_cluster import measure  # noqa: E402

from engine.core.config import DataConfig, RunConfig  # noqa: E402
from engine.core.protocol.paths import RunPaths  # noqa: E402
from engine.core.runs.rundir import read_metrics  # noqa: E402

VALIDATION = 0.2


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--strategy", choices=["multi_worker_mirrored", "parameter_server"], default="multi_worker_mirrored"
    )
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--loop", choices=["custom", "fit"], default="custom")
    parser.add_argument("--samples", type=int, default=40960, help="examples with the validation share included")
    parser.add_argument("--epochs", type=int, default=6)
    parser.add_argument("--batch", type=int, default=256)
    args = parser.parse_args()
    ps = 1 if args.strategy == "parameter_server" else 0
    base = RunConfig(strategy=args.strategy, loop=args.loop, epochs=args.epochs, global_batch_size=args.batch)
    variants = {
        "none": (base.replace(data=DataConfig(num_samples=int(args.samples * (1 - VALIDATION)))), False),
        "evaluator": (base.replace(validation_split=VALIDATION, data=DataConfig(num_samples=args.samples)), True),
        "inline": (base.replace(validation_split=VALIDATION, data=DataConfig(num_samples=args.samples)), False),
    }
    rates: dict[str, list[float]] = {name: [] for name in variants}
    busy: list[float] = []  # the evaluator's share of the machine while training ran
    trained = int(args.samples * (1 - VALIDATION)) // args.batch * args.batch * (args.epochs - 1)
    tmp = tempfile.mkdtemp(prefix="bench-evaluator-")  # kept when a run fails: its task logs say why
    for r in range(args.rounds):
        names = list(variants)
        for name in names[r % 3 :] + names[: r % 3]:  # each round in another order: the load drifts
            config, evaluator = variants[name]
            path = Path(tmp) / f"{name}.json"
            config.save(path)
            run_dir = Path(tmp) / f"{name}-{r}"
            _, rate = measure(path, args.workers, run_dir, ps=ps, evaluator=evaluator)
            rates[name].append(rate)
            if evaluator:
                rows = read_metrics(RunPaths(run_dir).evaluation)
                seconds = sum(float(row["cpu_seconds"]) for row in rows if int(row["epoch"]) >= 2)
                busy.append(seconds / (trained / rate) / (os.cpu_count() or 1))
            print(f"round {r + 1}, {name}: {rate:,.0f} examples/s", file=sys.stderr)
    shutil.rmtree(tmp, ignore_errors=True)
    ratios = {name: [v / n for v, n in zip(values, rates["none"], strict=True)] for name, values in rates.items()}
    print(
        f"\n{args.strategy}, {args.workers} workers{' + 1 ps' if ps else ''}, {args.loop} loop, "
        f"{args.samples} examples ({VALIDATION:.0%} validation), global batch {args.batch}, {args.epochs} epochs, "
        f"{args.rounds} interleaved rounds\n"
    )
    print("| variant | examples/s (median) | vs none, per round | median |")
    print("| --- | ---: | --- | ---: |")
    for name, values in rates.items():
        per_round = ", ".join(f"{x:.2f}" for x in ratios[name])
        print(f"| {name} | {statistics.median(values):,.0f} | {per_round} | {statistics.median(ratios[name]):.2f}x |")
    print(
        f"\nThe evaluator used {statistics.median(busy):.1%} of the machine's CPU ({os.cpu_count()} cores) while "
        f"training ran (per round: {', '.join(f'{b:.1%}' for b in busy)})"
    )


if __name__ == "__main__":
    main()
