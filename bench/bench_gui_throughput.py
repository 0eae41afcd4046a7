"""Training throughput with the window attached against the same run headless.

    QT_QPA_PLATFORM=offscreen python bench/bench_gui_throughput.py [--rounds 3]

The same config (Mirrored, 2 virtual CPUs, custom loop, per-step events, 100,000 examples) runs
alternately as a bare worker process whose events are read and dropped, and
from the window (runner, plots, log). Throughput is the engine's own measure:
mean examples/s of the epochs after the first, from metrics.csv. While the
window run streams: the GUI process's CPU time (getrusage, every thread),
the time between the Live view's frames, and a 10 ms QTimer's lateness (the
event-loop stall). Targets: window / headless >= 0.97, GUI CPU <= 5% of a
core, a frame at least every 100 ms, stall < 50 ms.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
from bench_gui_helpers import REPO, LatenessProbe, table
from bench_gui_stream import make_window, spin_until

from engine.config import CheckpointConfig, DataConfig, RunConfig
from engine.protocol.commands import trainer_command as worker_command
from engine.rundir import read_metrics
from gui.app import create_application

CONFIG = RunConfig(
    strategy="mirrored",
    virtual_devices=2,
    loop="custom",
    epochs=4,
    global_batch_size=64,
    data=DataConfig(num_samples=100_000),
    checkpoint=CheckpointConfig(every_epoch=False),
)


STALL_PHASE_S = 10.0  # the first seconds of streaming measure the event-loop stall; the rest the CPU time


def steady_rate(run_dir: Path) -> float:
    rows = read_metrics(run_dir / "metrics.csv")
    return statistics.mean(float(r["examples_per_sec"]) for r in rows[1:])


def headless(root: Path) -> float:
    run_dir = root / f"headless-{time.monotonic_ns()}"
    config_path = root / "config.json"
    CONFIG.save(config_path)
    control_read, control_write = os.pipe()  # stdin stays open: EOF would mean "stop"
    try:
        subprocess.run(
            worker_command(config_path, run_dir),
            cwd=REPO,
            stdin=control_read,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            check=True,
        )
    finally:
        os.close(control_read)
        os.close(control_write)
    return steady_rate(run_dir)


def cpu_seconds() -> float:
    """CPU time of this (the GUI) process so far, every thread included."""
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def in_window() -> tuple[float, tuple[np.ndarray, np.ndarray], float, np.ndarray]:
    run_dirs: list[Path] = []

    def command_for(config_path: Path, run_dir: Path) -> list[str]:
        run_dirs.append(run_dir)
        return worker_command(config_path, run_dir)

    window = make_window(command_for)
    window.form.set_config(CONFIG)
    probe = LatenessProbe()
    window.start_run()
    spin_until(lambda: window.plots.plotted_points() > 0, 300)  # stalls while training, not during start-up
    probe.start()  # first the stall, then (without the probe's own ticks) the CPU time
    stall_until = time.perf_counter() + STALL_PHASE_S
    spin_until(lambda: window.runner is None or time.perf_counter() > stall_until, 900, poll_ms=100)
    probe.stop()
    cpu0, wall0 = cpu_seconds(), time.perf_counter()
    frames0 = len(window.plots.frame_times)
    spin_until(lambda: window.runner is None, 900, poll_ms=100)
    cpu_share = (cpu_seconds() - cpu0) / (time.perf_counter() - wall0)
    frames = np.array(list(window.plots.frame_times)[frames0:])
    window.close()
    return steady_rate(run_dirs[-1]), (probe.lateness(), probe.busy()), cpu_share, np.diff(frames) * 1000


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    create_application([])
    root = Path(tempfile.mkdtemp(prefix="tfdd-bench-throughput-"))
    bare, attached, lateness, cpu, gaps = [], [], [], [], []
    for _ in range(args.rounds):
        bare.append(headless(root))
        rate, late, share, gap = in_window()
        attached.append(rate)
        lateness.append(late)
        cpu.append(share)
        gaps.append(gap)
        print(f"round: headless {bare[-1]:,.0f}, window {rate:,.0f}, GUI CPU {100 * share:.1f}%", file=sys.stderr)
    late = np.concatenate([late for late, _ in lateness])
    busy = np.concatenate([busy for _, busy in lateness])
    gap = np.concatenate(gaps)
    ratio = statistics.median(a / b for a, b in zip(attached, bare, strict=True))
    print(
        table(
            ("measure", "value"),
            [
                ("headless examples/s, median of rounds", f"{statistics.median(bare):,.0f}"),
                ("window examples/s, median of rounds", f"{statistics.median(attached):,.0f}"),
                ("window / headless, median of per-round ratios (target >= 0.97)", f"{ratio:.2f}"),
                (
                    "GUI process CPU while the run streams, % of one core, median of rounds (target <= 5)",
                    f"{100 * statistics.median(cpu):.1f}",
                ),
                (
                    "time between frames of the Live view while it streams: median / p99 / max (ms)",
                    f"{np.median(gap):.0f} / {np.percentile(gap, 99):.0f} / {gap.max():.0f}",
                ),
                (
                    "10 ms QTimer lateness during real training: median / p99 / max (ms)",
                    f"{np.median(late):.1f} / {np.percentile(late, 99):.1f} / {late.max():.1f}",
                ),
                (
                    "GUI thread's own CPU between those ticks: p99 / max (ms)",
                    f"{np.percentile(busy, 99):.1f} / {busy.max():.1f}",
                ),
            ],
        )
    )


if __name__ == "__main__":
    sys.exit(main())
