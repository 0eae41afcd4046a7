"""Hyper-parameter sweeps, the TensorFlow-free part: the search space, the device slots, the folder layout.

`engine.tools.sweep` runs a sweep (Optuna samples and prunes, each trial is an ordinary `tfdd train` run);
the window reads and checks sweeps with this package.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path


class TrialStatus(StrEnum):
    """A trial's state as the sweep reports it (events.SweepTrial.state)."""

    RUNNING = "running"
    COMPLETED = "completed"
    PRUNED = "pruned"
    FAILED = "failed"
    INTERRUPTED = "interrupted"  # the sweep stopped or died while it trained; `--resume` continues it


@dataclass(frozen=True)
class SweepPaths:
    """Where a sweep keeps its things: its spec, its study database and one run directory per trial."""

    root: Path

    @property
    def spec(self) -> Path:
        """The base config and the space, as the sweep started with them (what `--resume` reads)."""
        return self.root / "sweep.json"

    @property
    def study(self) -> Path:
        """Optuna's SQLite study: every trial, its parameters, reported values and state."""
        return self.root / "study.db"

    @property
    def log(self) -> Path:
        """What a sweep continued in the background prints (engine.core.sweep.background)."""
        return self.root / "sweep.log"

    def trial_dir(self, number: int) -> Path:
        return self.root / f"trial-{number:03d}"

    def trial_config(self, number: int) -> Path:
        return self.root / f"trial-{number:03d}.json"


def new_sweep_dir(root: Path, name: str = "") -> Path:
    """A new sweep's folder under the runs folder `root`: when it started, and the base config's name."""
    return root / f"{time.strftime('%Y%m%d-%H%M%S')}-sweep{'-' + name if name else ''}"
