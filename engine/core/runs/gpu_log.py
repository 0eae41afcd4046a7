"""A run's GPU figures over time: RUN_DIR/gpus.csv (RunPaths.gpu_samples), one row per GPU per sample.

Written by whoever watches the run with NVML (the window, about once a second
while a run trains) and read by the Runs tab, so a past run's utilisation and
memory can be compared with its loss. Empty cells are figures NVML did not
have (a MIG instance's utilisation, a GPU that stopped answering).
"""

from __future__ import annotations

import csv
from pathlib import Path
from typing import IO

from engine.core.nvml import GpuSample

COLUMNS = ["time", "gpu", "utilisation_percent", "memory_used_mb", "memory_total_mb", "error"]


class GpuLog:
    """Appends samples to a run's gpus.csv (a resumed run appends to the same file)."""

    def __init__(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        new = not path.exists() or path.stat().st_size == 0
        self._file: IO[str] = open(path, "a", newline="", encoding="utf-8")  # noqa: SIM115 - open for the run
        self._writer = csv.writer(self._file)
        if new:
            self._writer.writerow(COLUMNS)

    def append(self, samples: list[GpuSample]) -> None:
        for s in samples:
            self._writer.writerow([f"{s.time:.3f}", s.tf_name, *("" if v is None else v for v in _figures(s)), s.error])
        self._file.flush()

    def close(self) -> None:
        self._file.close()


def _figures(s: GpuSample) -> tuple[int | None, int | None, int | None]:
    return s.utilisation_percent, s.memory_used_mb, s.memory_total_mb


def read_gpu_log(path: Path) -> list[GpuSample]:
    """The samples of a gpus.csv, oldest first; [] when there is none. A torn last row is skipped."""
    if not path.is_file():
        return []
    with open(path, newline="", encoding="utf-8") as f:
        return [s for row in csv.DictReader(f) if (s := sample_of(row)) is not None]


def sample_of(row: dict[str, str | None]) -> GpuSample | None:
    """One row of a gpus.csv (by COLUMNS) as a sample; None for a row torn by a kill mid-write."""
    if any(row.get(c) is None for c in COLUMNS[:-1]):
        return None
    try:
        return GpuSample(
            str(row["gpu"]),
            float(row["time"] or ""),
            _int(row["utilisation_percent"]),
            _int(row["memory_used_mb"]),
            _int(row["memory_total_mb"]),
            row.get("error") or "",
        )
    except (KeyError, TypeError, ValueError):
        return None


def _int(text: str | None) -> int | None:
    return int(text) if text not in ("", None) else None
