"""Live GPU utilisation and memory, polled about once a second through engine.core.nvml.

NVML is a small C library, not TensorFlow, so the GUI process may ask it
directly; engine.core.nvml owns reading it (one initialisation per process) and
which NVML device each of TensorFlow's GPUs is (matched by PCI bus id in the
device probe). Where NVML is missing the monitor says why, so no panel ever
shows made-up zeros; a GPU that stops answering is reported as such while
the others go on being read.
"""

from __future__ import annotations

from PySide6.QtCore import QObject, QTimer, Signal

from engine.core import nvml
from engine.core.nvml import GpuMatch

POLL_INTERVAL_MS = 1000


class GpuMonitor(QObject):
    """Polls NVML in the GUI thread while there are GPUs to watch."""

    samples_ready = Signal(list)
    """A list of engine.core.nvml.GpuSample, one per watched GPU, about once a second."""
    unavailable = Signal(str)
    """NVML cannot be used; carries the reason a person can read."""

    def __init__(self, reader: nvml.Nvml | None = None, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._reader = reader or nvml.default()
        self._matches: list[GpuMatch] = []
        self._timer = QTimer(self)
        self._timer.setInterval(POLL_INTERVAL_MS)
        self._timer.timeout.connect(self.poll)

    def watch(self, matches: list[GpuMatch]) -> None:
        """Start polling these GPUs (an empty list stops polling)."""
        self._matches = [m for m in matches if m.matched]
        if not self._matches:
            self._timer.stop()
            return
        status = self._reader.status()
        if not status["available"]:
            self._timer.stop()
            self.unavailable.emit(status["reason"])
            return
        self.poll()
        self._timer.start()

    def stop(self) -> None:
        self._timer.stop()

    def poll(self) -> None:
        self.samples_ready.emit(self._reader.sample(self._matches))
