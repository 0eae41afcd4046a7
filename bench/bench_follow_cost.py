"""What the window costs following a run from its folder, against the same run started by the window.

    QT_QPA_PLATFORM=offscreen python bench/bench_follow_cost.py [--rounds 4] [--seconds 12] [--delays 0.02 0.002]

One window, the Live tab shown. Each round runs the fake trainer twice, in turns (the order alternates):
"started", by the window's Start (its events come through the pipe to gui.runner.TrainingRunner), and
"followed", started beside the window with its stdout going to its run folder's events.jsonl and watched
from there (gui.live.follower.RunFollower, as Watch live does). Each phase measures, after SETTLE_S, this
process's CPU time (getrusage: every thread of the window, not the trainer's), the frames drawn and the
batch events that reached the plots. The figure is the median of the rounds' followed ÷ started CPU
ratios, and the same per batch point plotted (the fake trainer does not step at quite the same pace into a
file as into a pipe). A delay of 0.02 s between steps is about the real engine's 50 batch events a second
(engine.train.controller.REPORT_EVERY_S); 0.002 s is a fast-growing run, ten times that.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from pathlib import Path

from bench_gui_helpers import FAKE_TRAINER, cpu_seconds, fake_command, table
from bench_gui_stream import make_window, spin_until

from engine.core.protocol.paths import RunPaths
from gui.app import create_application
from gui.main_window import MainWindow

SETTLE_S = 2.0  # the run's start, the first frames, a follower's first read of the backlog


def stream(delay: float) -> tuple[str, ...]:
    return ("normal", "--epochs", "1000", "--steps", "200", "--delay", str(delay))


def measure(window: MainWindow, seconds: float) -> dict[str, float]:
    """CPU % of a core, frames a second and batch points a second over `seconds`, after SETTLE_S."""
    spin_until(lambda: window.plots.plotted_points() > 0, 60)
    settle = time.perf_counter() + SETTLE_S
    spin_until(lambda: time.perf_counter() > settle, SETTLE_S + 5, poll_ms=200)
    frames, points, cpu, t0 = (
        len(window.plots.frame_times),
        window.plots.plotted_points(),
        cpu_seconds(),
        time.perf_counter(),
    )
    end = t0 + seconds
    spin_until(lambda: time.perf_counter() > end, seconds + 5, poll_ms=200)
    elapsed = time.perf_counter() - t0
    return {
        "cpu": 100 * (cpu_seconds() - cpu) / elapsed,
        "fps": (len(window.plots.frame_times) - frames) / elapsed,
        "points": (window.plots.plotted_points() - points) / elapsed,
    }


def started(window: MainWindow, seconds: float) -> dict[str, float]:
    window.start_run()
    result = measure(window, seconds)
    window.stop_run()
    spin_until(lambda: window.runner is None, 60)
    return result


def followed(window: MainWindow, run_dir: Path, delay: float, seconds: float) -> dict[str, float]:
    run_dir.mkdir(parents=True)
    with open(RunPaths(run_dir).events, "wb") as out:
        trainer = subprocess.Popen(
            [sys.executable, str(FAKE_TRAINER), *stream(delay), "--run-dir", str(run_dir)],
            stdin=subprocess.PIPE,
            stdout=out,
            stderr=subprocess.DEVNULL,
        )
    try:
        window.watch_run(run_dir)
        return measure(window, seconds)
    finally:
        window.watching.stop()
        trainer.kill()
        trainer.wait(30)
        if trainer.stdin is not None:
            trainer.stdin.close()


def one_round(
    window: MainWindow, run_dir: Path, delay: float, seconds: float, followed_first: bool
) -> tuple[dict[str, float], dict[str, float]]:
    """(started, followed), measured in the order given."""
    if followed_first:
        f = followed(window, run_dir, delay, seconds)
        return started(window, seconds), f
    s = started(window, seconds)
    return s, followed(window, run_dir, delay, seconds)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=4)
    parser.add_argument("--seconds", type=float, default=12.0)
    parser.add_argument("--delays", type=float, nargs="+", default=[0.02, 0.002])
    args = parser.parse_args()
    create_application([])
    rows = []
    for delay in args.delays:
        window = make_window(lambda c, d, delay=delay: fake_command(*stream(delay), "--run-dir", str(d)))
        pairs = []
        for i in range(args.rounds):
            run_dir = window.session.runs_root / f"followed-{delay}-{i}"
            pairs.append(one_round(window, run_dir, delay, args.seconds, followed_first=i % 2 == 1))
            print(f"delay {delay}: round {i + 1}: started, followed {pairs[-1]}", file=sys.stderr)
        window.close()

        def med(key: str, which: int, pairs=pairs) -> float:
            return statistics.median(p[which][key] for p in pairs)

        ratios = [f["cpu"] / s["cpu"] for s, f in pairs]
        per_point = [(f["cpu"] / f["points"]) / (s["cpu"] / s["points"]) for s, f in pairs]
        rows.append(
            (
                f"{1 / delay:,.0f} steps/s (delay {delay:g} s)",
                f"{statistics.median(ratios):.2f} ({min(ratios):.2f}–{max(ratios):.2f})",
                f"{statistics.median(per_point):.2f} ({min(per_point):.2f}–{max(per_point):.2f})",
                f"{med('cpu', 0):.1f} / {med('cpu', 1):.1f}",
                f"{med('fps', 0):.1f} / {med('fps', 1):.1f}",
                f"{med('points', 0):,.0f} / {med('points', 1):,.0f}",
            )
        )
    print(
        table(
            (
                "run",
                "GUI CPU followed ÷ started, median (min–max)",
                "the same per batch point",
                "GUI CPU % of a core, started / followed",
                "frames/s",
                "batch points/s",
            ),
            rows,
        )
    )


if __name__ == "__main__":
    main()
