"""Training throughput with the window attached against the same run headless.

    QT_QPA_PLATFORM=offscreen python bench/bench_gui_throughput.py [--rounds 3] [--hidden]

The same config (Mirrored, 2 virtual CPUs, custom loop, batch events grouped
to about 50 a second, 160,000 examples, 8 epochs) runs as a bare worker
process whose events are read and dropped, and from the window (runner,
plots, log): headless first in the first round, the window first in the
second, and so on, so a host that slows down or speeds up favours neither.
Throughput is the engine's own measure, from metrics.csv: mean examples/s of
the epochs after those the window's stall probe ran in (its 100 ticks a
second are the benchmark's cost, not the window's), the same epochs in both.
While the window run streams: a 10 ms QTimer's
lateness (the event-loop stall) over the first STALL_PHASE_S after the first
point; then, without the probe, the GUI process's CPU time (getrusage, every
thread), the time between the Live view's frames and how long new batch
events wait for the next frame (the raw gaps between frames also hold the
engine's own pauses, such as an epoch's end, when there is nothing new to
draw), until the last epoch's end has arrived (not the trainer's exit, which
streams nothing). Targets: window / headless >= 0.97, GUI CPU <= 5% of a
core, new data drawn within 100 ms, stall < 50 ms.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
from bench_gui_helpers import REPO, LatenessProbe, cpu_seconds, table, thread_cpu_seconds
from bench_gui_stream import make_window, spin_until

from engine.core.config import CheckpointConfig, DataConfig, RunConfig
from engine.core.events import BatchEnd
from engine.core.protocol.commands import trainer_command as worker_command
from engine.core.runs.rundir import read_metrics
from gui.app import create_application
from gui.main_window import MainWindow

CONFIG = RunConfig(
    strategy="mirrored",
    virtual_devices=2,
    loop="custom",
    epochs=8,  # about 30 s of streaming here: enough for both phases of in_window()
    global_batch_size=64,
    # 480,000 since epoch ends stopped waiting seconds for tf.data's autotuning thread (engine.train.retire)
    # and the host reached about 120,000 examples/s: with 160,000 the CPU phase fell under its 5 s minimum
    data=DataConfig(num_samples=480_000),
    checkpoint=CheckpointConfig(every_epoch=False),
)


STALL_PHASE_S = 8.0  # the first seconds of streaming measure the event-loop stall; the rest the CPU time
MIN_CPU_PHASE_S = 5.0


def steady_rate(run_dir: Path, skip: int = 1) -> float:
    """Mean examples/s of the epochs after the first `skip` (the first holds the tracing)."""
    rows = read_metrics(run_dir / "metrics.csv")
    return statistics.mean(float(r["examples_per_sec"]) for r in rows[skip:])


def headless(root: Path) -> Path:
    """A bare worker's run of CONFIG; its run directory."""
    run_dir = root / f"headless-{time.monotonic_ns()}"
    config_path = root / "config.json"
    CONFIG.save(config_path)
    run_output_dropped(config_path, run_dir)
    return run_dir


def run_output_dropped(config_path: Path, run_dir: Path) -> None:
    """A trainer run to its end with its output dropped: no reader can slow it."""
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


def waits(arrivals: np.ndarray, frames: np.ndarray) -> np.ndarray:
    """How long new data waited for the next frame (ms): from the first arrival after a frame to the
    frame after it. Gaps between frames while no data came (the engine's own pauses) do not count."""
    nxt = np.searchsorted(frames, arrivals, side="right")  # the frame after each arrival
    first = np.ones(len(arrivals), dtype=bool)
    first[1:] = nxt[1:] != nxt[:-1]  # only the first arrival before each frame: it waited longest
    keep = first & (nxt < len(frames))
    return 1000 * (frames[nxt[keep]] - arrivals[keep])


def config_window(config: RunConfig = CONFIG) -> tuple[MainWindow, list[Path]]:
    """A window whose form holds `config`, and the list its runs' directories are added to."""
    run_dirs: list[Path] = []

    def command_for(config_path: Path, run_dir: Path) -> list[str]:
        run_dirs.append(run_dir)
        return worker_command(config_path, run_dir)

    window = make_window(command_for)
    window.form.set_config(config)
    return window, run_dirs


def in_window() -> tuple[Path, int, tuple[np.ndarray, np.ndarray], float, np.ndarray, np.ndarray, dict[str, float]]:
    """The window's run of CONFIG: its run directory, how many epochs the stall probe ran in, the probe's
    lateness and busy times, CPU share, frame gaps, waits for a frame, CPU share per thread name."""
    window, run_dirs = config_window()
    probe = LatenessProbe()
    arrivals: list[float] = []  # when batch events reached the plots
    add_events = window.plots.add_events

    def noting_arrivals(events: list) -> None:
        if any(type(e) is BatchEnd for e in events):
            arrivals.append(time.perf_counter())
        add_events(events)

    window.plots.add_events = noting_arrivals
    window.start_run()
    spin_until(lambda: window.plots.plotted_points() > 0, 300)  # stalls while training, not during start-up
    probe.start()  # first the stall, then (without the probe's own ticks) the CPU time
    stall_until = time.perf_counter() + STALL_PHASE_S
    spin_until(lambda: window.runner is None or time.perf_counter() > stall_until, 900, poll_ms=100)
    probe.stop()
    epochs = window.plots.throughput.traces["epoch"]
    probed = len(epochs) + 1  # epochs the 10 ms probe ran in, wholly or partly: it costs the window, not users
    cpu0, threads0, wall0 = cpu_seconds(), thread_cpu_seconds(), time.perf_counter()
    frames0 = len(window.plots.frame_times)
    spin_until(lambda: len(epochs) == CONFIG.epochs or window.runner is None, 900, poll_ms=100)
    seconds = time.perf_counter() - wall0
    if len(epochs) != CONFIG.epochs or seconds < MIN_CPU_PHASE_S:
        raise RuntimeError(f"the window run streamed {seconds:.1f} s after the stall phase: too briefly to measure")
    cpu_share = (cpu_seconds() - cpu0) / seconds
    threads = {name: (t - threads0.get(name, 0.0)) / seconds for name, t in thread_cpu_seconds().items()}
    frames = np.array(list(window.plots.frame_times)[frames0:])
    new_data = np.array([t for t in arrivals if t >= wall0])
    spin_until(lambda: window.runner is None, 120, poll_ms=100)
    window.close()
    gaps = np.diff(frames) * 1000
    if CONFIG.epochs - probed < 2:
        raise RuntimeError(f"only {CONFIG.epochs - probed} epoch(s) ran without the stall probe: too few to measure")
    return run_dirs[-1], probed, (probe.lateness(), probe.busy()), cpu_share, gaps, waits(new_data, frames), threads


def hidden_window() -> Path:
    """The window's run of CONFIG with the Live tab hidden throughout (the Cluster tab shown): the same
    process, pipes and runner as in_window(), nothing drawn. Its run directory."""
    window, run_dirs = config_window()
    window.tabs.setCurrentIndex(2)
    window.start_run()
    spin_until(lambda: window.runner is None, 900, poll_ms=100)
    window.close()
    return run_dirs[-1]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument(
        "--hidden", action="store_true", help="a third run a round: the window with its Live tab hidden"
    )
    args = parser.parse_args()
    create_application([])
    root = Path(tempfile.mkdtemp(prefix="tfdd-bench-throughput-"))
    bare, attached, lateness, cpu, gaps, waited, unseen = [], [], [], [], [], [], []
    for i in range(args.rounds):
        if i % 2:  # alternate which goes first: a host slowing down or speeding up favours neither
            window_dir, probed, late, share, gap, wait, threads = in_window()
            bare_dir = headless(root)
        else:
            bare_dir = headless(root)
            window_dir, probed, late, share, gap, wait, threads = in_window()
        bare.append(steady_rate(bare_dir, skip=probed))  # the same epochs in both
        rate = steady_rate(window_dir, skip=probed)
        attached.append(rate)
        if args.hidden:
            unseen.append(steady_rate(hidden_window(), skip=probed))
            print(f"round: window with the Live tab hidden {unseen[-1]:,.0f}", file=sys.stderr)
        lateness.append(late)
        cpu.append(share)
        gaps.append(gap)
        waited.append(wait)
        busiest = ", ".join(f"{name} {100 * t:.1f}" for name, t in sorted(threads.items(), key=lambda i: -i[1])[:4])
        print(
            f"round: headless {bare[-1]:,.0f}, window {rate:,.0f}, GUI CPU {100 * share:.1f}% ({busiest})",
            file=sys.stderr,
        )
    late = np.concatenate([late for late, _ in lateness])
    busy = np.concatenate([busy for _, busy in lateness])
    gap = np.concatenate(gaps)
    wait = np.concatenate(waited)
    ratio = statistics.median(a / b for a, b in zip(attached, bare, strict=True))
    hidden_rows = (
        [
            (
                "window, Live tab hidden / headless, median of per-round ratios",
                f"{statistics.median(h / b for h, b in zip(unseen, bare, strict=True)):.2f}",
            ),
            (
                "window, Live tab shown / hidden, median of per-round ratios",
                f"{statistics.median(a / h for a, h in zip(attached, unseen, strict=True)):.2f}",
            ),
        ]
        if unseen
        else []
    )
    print(
        table(
            ("measure", "value"),
            [
                ("headless examples/s, median of rounds", f"{statistics.median(bare):,.0f}"),
                ("window examples/s, median of rounds", f"{statistics.median(attached):,.0f}"),
                ("window / headless, median of per-round ratios (target >= 0.97)", f"{ratio:.2f}"),
                *hidden_rows,
                (
                    "GUI process CPU while the run streams, % of one core, median of rounds (target <= 5)",
                    f"{100 * statistics.median(cpu):.1f}",
                ),
                (
                    "time between frames of the Live view while it streams: median / p99 / max (ms)",
                    f"{np.median(gap):.0f} / {np.percentile(gap, 99):.0f} / {gap.max():.0f}",
                ),
                (
                    "new batch events wait for the next frame: median / p99 / max (ms) (target <= 100)",
                    f"{np.median(wait):.0f} / {np.percentile(wait, 99):.0f} / {wait.max():.0f}",
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
