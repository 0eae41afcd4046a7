"""Shared bits of the GUI benchmarks and screenshot scripts: repo path, fake trainer, markdown tables,
the stall probe, a screenshot taken mid-run."""

from __future__ import annotations

import os
import resource
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
from PySide6.QtCore import QElapsedTimer, Qt, QTimer

REPO = Path(__file__).resolve().parents[1]
FAKE_TRAINER = REPO / "tests" / "gui" / "fake_trainer.py"
sys.path.insert(0, str(REPO))


def fake_command(*args: str) -> list[str]:
    return [sys.executable, str(FAKE_TRAINER), *args]


def summary(values: list[float]) -> str:
    """median (min–max) of a few repeats."""
    return f"{statistics.median(values):.0f} ({min(values):.0f}–{max(values):.0f})"


def table(header: tuple[str, ...], rows: list[tuple[str, ...]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join(lines)


class LatenessProbe:
    """A 10 ms timer in the GUI thread; how late it fires is the stall a user feels.

    On a shared 2-core machine much of a late tick can be other processes holding the cores;
    `busy()` is the GUI thread's own CPU time between ticks: the part of a stall the window's
    code makes."""

    INTERVAL_MS = 10

    def __init__(self) -> None:
        self.intervals: list[float] = []
        self.cpu: list[float] = []
        self._cpu_at = 0.0
        self._clock = QElapsedTimer()
        self._timer = QTimer(timerType=Qt.TimerType.PreciseTimer, interval=self.INTERVAL_MS)
        self._timer.timeout.connect(self._tick)

    def _tick(self) -> None:
        self.intervals.append(self._clock.nsecsElapsed() / 1e6)
        self._clock.restart()
        now = time.thread_time()
        self.cpu.append(1000 * (now - self._cpu_at))
        self._cpu_at = now

    def start(self) -> None:
        self._clock.start()
        self._cpu_at = time.thread_time()
        self._timer.start()

    def stop(self) -> None:
        self._timer.stop()

    def lateness(self) -> np.ndarray:
        """Milliseconds late of each tick after the first."""
        return np.maximum(np.array(self.intervals[1:]) - self.INTERVAL_MS, 0.0)

    def busy(self) -> np.ndarray:
        """Milliseconds of the GUI thread's own CPU time between ticks, after the first."""
        return np.array(self.cpu[1:])


def shoot_mid_run(app: Any, window: Any, out: str, after_epochs: int, arrange: Callable[[], None]) -> None:
    """Once the window's run is past `after_epochs` epochs: `arrange` the window, save it to `out`, stop the
    run and quit the app (exit code 1, with the log's tail, if the run ends first). Call after start_run()."""

    def shoot() -> None:
        if window.runner is None:
            print("the run ended before the screenshot:\n" + window.log.tail(), file=sys.stderr)
            app.exit(1)
            return
        if window.controls.progress.epoch <= after_epochs:
            QTimer.singleShot(250, shoot)
            return
        arrange()
        app.processEvents()
        window.grab().save(out)
        print(f"saved {out} at {window.controls.progress.text()}")
        window.stop_run()
        window.runner.finished.connect(app.quit)

    QTimer.singleShot(500, shoot)


def cpu_seconds() -> float:
    """CPU time of this (the GUI) process so far, every thread included."""
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def thread_cpu_seconds() -> dict[str, float]:
    """CPU seconds of each of this process's threads so far, summed by thread name (Linux /proc; empty
    elsewhere): where a process's getrusage total goes."""
    task = Path("/proc/self/task")
    if not task.is_dir():
        return {}
    ticks = os.sysconf("SC_CLK_TCK")
    out: dict[str, float] = {}
    for tid in task.iterdir():
        try:
            stat = (tid / "stat").read_text()
            name = (tid / "comm").read_text().strip()
        except OSError:
            continue  # ended meanwhile
        fields = stat[stat.rindex(")") + 2 :].split()
        out[name] = out.get(name, 0.0) + (int(fields[11]) + int(fields[12])) / ticks
    return out
