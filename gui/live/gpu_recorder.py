"""The GPU figures of the running run: the GPUs its device plan uses, kept in its run directory.

The window's GpuMonitor samples every GPU NVML can read (the device panel
shows them all); a run's chart and its RUN_DIR/gpus.csv hold only the GPUs
that run trains on, as engine.core.plan decides them from its config.
"""

from __future__ import annotations

from pathlib import Path

from engine.core.config import RunConfig
from engine.core.nvml import GpuSample
from engine.core.plan import plan_devices
from engine.core.problems import ConfigError
from engine.core.protocol.paths import RunPaths
from engine.core.runs.gpu_log import GpuLog


def run_gpus(config: RunConfig, machine_gpus: list[str], workers: int = 1) -> set[str]:
    """TensorFlow's names of the GPUs a run uses ("GPU:0", ...); none for a CPU run or a plan that fails."""
    try:
        plan = plan_devices(config, machine_gpus, workers=workers)
    except ConfigError:
        return set()
    return {f"GPU:{i}" for i in plan.gpu_indices}


class GpuRecorder:
    """While a run trains: which samples belong to it, written to its gpus.csv."""

    def __init__(self) -> None:
        self._gpus: set[str] = set()
        self._log: GpuLog | None = None

    def start(self, run_dir: Path, gpus: set[str]) -> None:
        self.stop()
        self._gpus = set(gpus)
        if self._gpus:
            try:
                self._log = GpuLog(RunPaths(run_dir).gpu_samples)
            except OSError:
                self._log = None  # the chart still works; the run matters more than this file

    def take(self, samples: list[GpuSample]) -> list[GpuSample]:
        """The samples of the run's GPUs (written down); [] when no run is being recorded."""
        mine = [s for s in samples if s.tf_name in self._gpus]
        if mine and self._log is not None:
            try:
                self._log.append(mine)
            except OSError:
                self._log = None
        return mine

    def stop(self) -> None:
        if self._log is not None:
            self._log.close()
        self._log, self._gpus = None, set()
