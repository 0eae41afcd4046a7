"""A run streaming into the window: Start → first plotted point, and event-loop stalls.

    QT_QPA_PLATFORM=offscreen python bench/bench_gui_stream.py [--real] [--events N]

Stall: a 10 ms QTimer runs in the GUI thread while the fake trainer prints
batch events as fast as it can; its lateness (interval − 10 ms) is what a
user feels as a frozen window. Target: max < 50 ms. With --real, also the
time from Start to the first plotted point of the real engine (TensorFlow
start-up dominates it: importing TensorFlow alone takes 2–2.6 s here).
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
from pathlib import Path

import numpy as np
from bench_configs import FIRST_POINT_RUN
from bench_gui_helpers import LatenessProbe, fake_command, summary, table
from PySide6.QtCore import QEventLoop, QTimer

from engine.core.protocol.commands import trainer_command as worker_command
from gui.app import create_application
from gui.form.device_probe import DeviceInfo, ProbeResult
from gui.main_window import MainWindow

CPU_ONLY = ProbeResult(tensorflow="", devices=(DeviceInfo("CPU:0", "CPU"),))


def make_window(command_for, **kwargs) -> MainWindow:
    window = MainWindow(
        start_probe=False,
        command_for=command_for,
        runs_dir=Path(tempfile.mkdtemp(prefix="tfdd-bench-runs-")),
        **kwargs,
    )
    window.apply_probe(CPU_ONLY)
    window.resize(1400, 900)
    window.show()
    return window


def spin_until(predicate, timeout_s: float, poll_ms: int = 5) -> None:
    """Run the event loop (blocking in it, as the app does) until `predicate()` holds; checked every
    `poll_ms` (use a long one where the GUI's own CPU time is measured: the check costs some)."""
    loop = QEventLoop()
    deadline = time.perf_counter() + timeout_s
    poll = QTimer(interval=poll_ms)
    poll.timeout.connect(lambda: (predicate() or time.perf_counter() > deadline) and loop.quit())
    poll.start()
    if not predicate():
        loop.exec()
    poll.stop()
    if not predicate():
        raise TimeoutError("benchmark condition not reached")


def start_to_first_point(window: MainWindow) -> float:
    t0 = time.perf_counter()
    window.start_run()
    spin_until(lambda: window.plots.plotted_points() > 0, 300)
    elapsed = 1000 * (time.perf_counter() - t0)
    window.stop_run()
    spin_until(lambda: window.runner is None, 60)
    return elapsed


def stall_during_flood(events: int, delay: float = 0.0) -> dict[str, float]:
    window = make_window(
        lambda c, d: fake_command(
            "normal", "--epochs", "1", "--steps", str(events), "--delay", str(delay), "--run-dir", str(d)
        )
    )
    settle_until = time.perf_counter() + 1.0  # the window's first paint is not a run's stall
    spin_until(lambda: time.perf_counter() > settle_until, 10)
    probe = LatenessProbe()
    t0 = time.perf_counter()
    window.start_run()
    probe.start()
    spin_until(lambda: window.runner is None, 600)
    probe.stop()
    seconds = time.perf_counter() - t0
    spin_until(lambda: window.plots.plotted_points() == events, 10)
    late = probe.lateness()
    if os.environ.get("TFDD_BENCH_TRACE"):
        ends = np.cumsum(probe.intervals[1:])
        print("worst stalls (ms, at ms):", [(round(late[i]), round(ends[i])) for i in np.argsort(late)[-8:]])
    window.close()
    return {
        "events": events,
        "seconds": seconds,
        "max": float(late.max()),
        "p99": float(np.percentile(late, 99)),
        "median": float(np.median(late)),
        "busy_p99": float(np.percentile(probe.busy(), 99)),
        "busy_max": float(probe.busy().max()),
    }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--events", type=int, default=200_000)
    parser.add_argument("--real", action="store_true", help="also time the real engine's first point")
    parser.add_argument("--delay", type=float, default=0.0, help="seconds between fake events (0: flood)")
    args = parser.parse_args()
    create_application([])
    fake = make_window(
        lambda c, d: fake_command(
            "normal", "--epochs", "1000", "--steps", "100", "--delay", "0.01", "--run-dir", str(d)
        )
    )
    rows = [
        (
            "Start → first plotted point, fake trainer (ms, 3 runs)",
            summary([start_to_first_point(fake) for _ in range(3)]),
        )
    ]
    fake.close()
    if args.real:
        real = make_window(worker_command)
        real.form.set_config(FIRST_POINT_RUN)
        rows.append(
            (
                "Start → first plotted point, real engine, Mirrored 2 virtual CPUs (ms, 1 run)",
                f"{start_to_first_point(real):.0f}",
            )
        )
        real.close()
    s = stall_during_flood(args.events, args.delay)
    pace = "as fast as it can" if not args.delay else f"one per {1000 * args.delay:g} ms"
    rows += [
        (f"fake trainer sends {s['events']:,} batch events {pace}: wall time (s)", f"{s['seconds']:.1f}"),
        ("  events per second through runner → plots", f"{s['events'] / s['seconds']:,.0f}"),
        ("  10 ms QTimer lateness: median / p99 / max (ms)", f"{s['median']:.1f} / {s['p99']:.1f} / {s['max']:.1f}"),
        ("  GUI thread's own CPU between ticks: p99 / max (ms)", f"{s['busy_p99']:.1f} / {s['busy_max']:.1f}"),
    ]
    print(table(("measure", "value"), rows))


if __name__ == "__main__":
    main()
