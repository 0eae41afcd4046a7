"""Local clusters: time to the first step and throughput for 1, 2, 3 workers.

    python bench/bench_cluster.py [--workers 1 2 3] [--repeats 1] [--loop custom]
    python bench/bench_cluster.py --strategy parameter_server --ps 1 --workers 1 2

Every number comes from the events of a real launch (engine.cluster.launcher): the
startup is launch -> the chief's first batch_end (process start, TensorFlow
import, cluster join, tracing); the throughput is global examples per second
between the chief's first and last epoch_end (so epoch 1, which holds the
tracing, is left out). The global batch stays fixed, so N workers share it
(multi_worker_mirrored), or each step of any worker takes one
(parameter_server, which adds its coordinator, the chief, and --ps servers).
Prints a markdown table with ratios against the first worker count.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from engine.cluster.launcher import launch_local_cluster  # noqa: E402
from engine.core import events as ev  # noqa: E402
from engine.core.config import DataConfig, RunConfig  # noqa: E402


def measure(
    config_path: Path, n_workers: int, run_dir: Path, ps: int = 0, evaluator: bool = False
) -> tuple[float, float]:
    """(seconds from launch to the chief's first step, global examples/s after epoch 1)."""
    seen: dict[str, list[ev.Event]] = {"start": [], "batch": [], "epoch": []}

    def on_event(task, event):
        if task.id not in ("chief-0", "worker-0") or (ps and task.job != "chief"):  # the chief's events only
            return
        if isinstance(event, ev.RunStarted):
            seen["start"].append(event)
        elif isinstance(event, ev.BatchEnd):
            seen["batch"].append(event)
        elif isinstance(event, ev.EpochEnd):
            seen["epoch"].append(event)

    launched = time.time()  # events carry wall-clock times of the same machine
    result = launch_local_cluster(
        config_path, n_workers, run_dir, ps=ps, evaluator=evaluator, join_timeout_s=300, on_event=on_event
    )
    if not result.ok:
        raise SystemExit(f"{n_workers} worker(s): {result.failure}")
    started, epochs = seen["start"][0], seen["epoch"]
    examples = started.steps_per_epoch * started.global_batch_size * (len(epochs) - 1)
    return seen["batch"][0].time - launched, examples / (epochs[-1].time - epochs[0].time)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2, 3])
    parser.add_argument("--repeats", type=int, default=1, help="runs per worker count; the median is shown")
    parser.add_argument("--loop", choices=["custom", "fit"], default="custom")
    parser.add_argument("--samples", type=int, default=32768)
    parser.add_argument("--epochs", type=int, default=4)
    parser.add_argument("--batch", type=int, default=384, help="global batch size (divisible by every worker count)")
    parser.add_argument(
        "--strategy", choices=["multi_worker_mirrored", "parameter_server"], default="multi_worker_mirrored"
    )
    parser.add_argument("--ps", type=int, default=1, help="parameter servers (strategy parameter_server)")
    args = parser.parse_args()
    ps = args.ps if args.strategy == "parameter_server" else 0
    config = RunConfig(
        strategy=args.strategy,
        loop=args.loop,
        epochs=args.epochs,
        global_batch_size=args.batch,
        data=DataConfig(num_samples=args.samples),
    )
    rows = []
    with tempfile.TemporaryDirectory(prefix="bench-cluster-") as tmp:
        config_path = Path(tmp) / "run.json"
        config.save(config_path)
        for n in args.workers:
            runs = [measure(config_path, n, Path(tmp) / f"run-{n}-{r}", ps=ps) for r in range(args.repeats)]
            rows.append((n, statistics.median(s for s, _ in runs), statistics.median(t for _, t in runs)))
            print(f"{n} worker(s): startup {rows[-1][1]:.1f} s, {rows[-1][2]:,.0f} examples/s", file=sys.stderr)
    base_startup, base_rate = rows[0][1], rows[0][2]
    print(
        f"\n{args.strategy}{f' with {ps} ps' if ps else ''}, {args.loop} loop, {args.samples} samples, "
        f"global batch {args.batch}, {args.epochs} epochs, median of {args.repeats}\n"
    )
    print(f"| workers | startup to first step (s) | vs {rows[0][0]} | throughput (examples/s) | vs {rows[0][0]} |")
    print("| ---: | ---: | ---: | ---: | ---: |")
    for n, startup, rate in rows:
        print(f"| {n} | {startup:.1f} | {startup / base_startup:.2f}x | {rate:,.0f} | {rate / base_rate:.2f}x |")


if __name__ == "__main__":
    main()
