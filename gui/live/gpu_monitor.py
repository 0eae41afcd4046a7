"""Live GPU utilisation and memory from NVIDIA's NVML, polled about once a second.

NVML is a small C library, not TensorFlow, so the GUI process may ask it
directly; one poll of a few GPUs takes well under a millisecond. Where NVML
is missing the monitor says why, so no panel ever shows made-up zeros.
"""

from __future__ import annotations

from dataclasses import dataclass
from types import ModuleType
from typing import Any

from PySide6.QtCore import QObject, QTimer, Signal

POLL_INTERVAL_MS = 1000


@dataclass(frozen=True)
class GpuSample:
    """One reading of one GPU, by NVML index."""

    index: int
    utilisation_percent: int
    memory_used_mb: int
    memory_total_mb: int


def load_nvml() -> tuple[ModuleType | None, str]:
    """Initialise NVML once: (module, "") or (None, reason it is unavailable)."""
    try:
        import pynvml
    except ImportError:
        return None, "the nvidia-ml-py package is not installed"
    try:
        pynvml.nvmlInit()
    except Exception as exc:  # pynvml.NVMLError subclasses, OSError: no driver or library
        return None, f"NVIDIA driver library not available ({exc})"
    return pynvml, ""


def read_samples(nvml: Any, indices: list[int]) -> list[GpuSample]:
    """Read utilisation and memory of the given GPUs; `nvml` is pynvml or a test double."""
    samples = []
    for i in indices:
        handle = nvml.nvmlDeviceGetHandleByIndex(i)
        util = nvml.nvmlDeviceGetUtilizationRates(handle)
        mem = nvml.nvmlDeviceGetMemoryInfo(handle)
        samples.append(GpuSample(i, int(util.gpu), int(mem.used) >> 20, int(mem.total) >> 20))
    return samples


class GpuMonitor(QObject):
    """Polls NVML in the GUI thread while there are GPUs to watch."""

    samples_ready = Signal(list)
    """A list of GpuSample, one per watched GPU, about once a second."""
    unavailable = Signal(str)
    """NVML cannot be used; carries the reason a person can read."""

    def __init__(self, nvml_loader=load_nvml, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._loader = nvml_loader
        self._nvml: Any = None
        self._indices: list[int] = []
        self._timer = QTimer(self)
        self._timer.setInterval(POLL_INTERVAL_MS)
        self._timer.timeout.connect(self.poll)

    def watch(self, indices: list[int]) -> None:
        """Start polling these NVML indices (an empty list stops polling)."""
        self._indices = list(indices)
        if not self._indices:
            self._timer.stop()
            return
        if self._nvml is None:
            self._nvml, reason = self._loader()
            if self._nvml is None:
                self.unavailable.emit(reason)
                return
        self.poll()
        self._timer.start()

    def stop(self) -> None:
        self._timer.stop()

    def poll(self) -> None:
        try:
            self.samples_ready.emit(read_samples(self._nvml, self._indices))
        except Exception as exc:  # a GPU can fall off the bus; say so, stop polling
            self._timer.stop()
            self.unavailable.emit(f"NVML stopped answering ({exc})")
