"""ScalingStudy: engine.scaling.run_study on a QThread, cancellable.

run_study trains each replica count in a fresh worker process and blocks
until the count ends. Cancel hands it a `should_stop` that turns true: the
engine asks the count in flight to stop (and kills it after a grace period)
and starts no further count, so no process outlives the study.
"""
from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QObject, QThread, Signal

from engine.config import RunConfig
from engine.scaling import ScalingPoint, run_study

StudyFunction = Callable[..., list[ScalingPoint]]  # run_study(config, counts, root, on_point=, should_stop=)


class ScalingStudy(QThread):
    """Measures the replica counts in turn; `request_cancel` ends it early."""

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

    @property
    def cancelled(self) -> bool:
        return self._cancel.is_set()

    def request_cancel(self) -> None:
        """Stop the count in flight and start no other; safe from any thread."""
        self._cancel.set()

    def run(self) -> None:
        if not self.counts or self.cancelled:
            return
        self.count_started.emit(self.counts[0])
        try:
            self._study(self.config, self.counts, self.root, on_point=self._on_point, should_stop=self._cancel.is_set)
        except Exception as exc:  # noqa: BLE001 - a broken study must say why, not end the thread silently
            self.study_failed.emit(f"The scaling study stopped: {type(exc).__name__}: {exc}")

    def _on_point(self, point: ScalingPoint) -> None:
        self.point_ready.emit(point)
        following = [c for c in self.counts if c > point.replicas]
        if following and not self.cancelled:
            self.count_started.emit(following[0])
