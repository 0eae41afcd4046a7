"""ScalingStudy: engine.scaling.run_study on a QThread, with a Cancel that leaves no process.

run_study trains each replica count in a fresh worker process
(subprocess.run) and blocks until the count ends; it has no cancel of its
own. So Cancel does two things: the study's progress callback raises after
the count in flight, so no further count starts, and the worker of the count
in flight is killed. That worker is found as a child of this process whose
command line names the study's folder (from /proc; where there is no /proc,
Cancel waits for the count in flight). Killing repeats until the thread
ends, which also catches a worker started just as Cancel was pressed.
"""
from __future__ import annotations

import os
import signal
import threading
from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QObject, QThread, QTimer, Signal

from engine.config import RunConfig
from engine.scaling import ScalingPoint, run_study

StudyFunction = Callable[..., list[ScalingPoint]]  # run_study(config, counts, root, on_point=...)
KILL_INTERVAL_MS = 200


class StudyCancelled(Exception):
    """Raised from the progress callback to leave run_study between counts."""


def study_workers(root: Path) -> list[int]:
    """Live children of this process that train a count of the study in `root`."""
    me, marker, found = os.getpid(), str(root), []
    proc = Path("/proc")
    if not proc.is_dir():
        return found
    for entry in proc.iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            args = (entry / "cmdline").read_bytes().decode("utf-8", "replace").split("\0")
        except OSError:
            continue
        state, parent = stat[stat.rindex(")") + 2:].split()[:2]
        if int(parent) == me and state != "Z" and "engine.worker" in args and any(marker in a for a in args):
            found.append(int(entry.name))
    return found


class ScalingStudy(QThread):
    """Measures the replica counts in turn; `request_cancel` ends it without waiting for a count."""

    count_started = Signal(int)
    """Training with this many replicas has begun."""
    point_ready = Signal(object)
    """One count measured: an engine.scaling.ScalingPoint (its `error` set when the count failed)."""
    study_failed = Signal(str)
    """The study as a whole could not go on: a message a person can act on."""

    def __init__(self, config: RunConfig, counts: list[int], root: Path, study: StudyFunction = run_study,
                 parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.config, self.counts, self.root = config, sorted(set(counts)), root
        self._study = study
        self._cancel = threading.Event()
        self._killer = QTimer(self)  # lives in the GUI thread, like this QThread object
        self._killer.setInterval(KILL_INTERVAL_MS)
        self._killer.timeout.connect(self._kill_workers)
        self.finished.connect(self._killer.stop)

    @property
    def cancelled(self) -> bool:
        return self._cancel.is_set()

    def request_cancel(self) -> None:
        """Start no further count and kill the one in flight; call from the GUI thread."""
        self._cancel.set()
        if self.isRunning():
            self._kill_workers()
            self._killer.start()

    def run(self) -> None:
        if not self.counts or self.cancelled:
            return
        self.count_started.emit(self.counts[0])
        try:
            self._study(self.config, self.counts, self.root, on_point=self._on_point)
        except StudyCancelled:
            pass
        except Exception as exc:  # noqa: BLE001 - a broken study must say why, not end the thread silently
            self.study_failed.emit(f"The scaling study stopped: {type(exc).__name__}: {exc}")

    def _on_point(self, point: ScalingPoint) -> None:
        self.point_ready.emit(point)
        if self.cancelled:
            raise StudyCancelled
        following = [c for c in self.counts if c > point.replicas]
        if following:
            self.count_started.emit(following[0])

    def _kill_workers(self) -> None:
        for pid in study_workers(self.root):
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
