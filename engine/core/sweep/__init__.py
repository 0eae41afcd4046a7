"""Hyper-parameter sweeps, the TensorFlow-free part: the search space, the device slots, the folder layout.

`engine.tools.sweep` runs a sweep (Optuna samples and prunes, each trial is an ordinary `tfdd train` run);
the window reads and checks sweeps with this package.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path

from engine.core import events as ev
from engine.core.protocol.paths import RunPaths


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
        """What a sweep continued in the background prints (engine.core.protocol.background)."""
        return self.root / "sweep.log"

    def trial_dir(self, number: int) -> Path:
        return self.root / f"trial-{number:03d}"

    def trial_config(self, number: int) -> Path:
        return self.root / f"trial-{number:03d}.json"


def note_trial_end(run_dir: Path, event: ev.SweepTrial) -> None:
    """How the sweep ended a trial (pruned, and why), appended to its run's events.jsonl after its trainer has gone:
    the run itself only knows it was asked to stop; the Runs tab reads the sweep's word there."""
    with open(RunPaths(run_dir).events, "a", encoding="utf-8") as f:
        f.write(ev.encode(event) + "\n")


def new_sweep_dir(root: Path, name: str = "") -> Path:
    """A new sweep's folder under the runs folder `root`: when it started, and the base config's name."""
    return root / f"{time.strftime('%Y%m%d-%H%M%S')}-sweep{'-' + name if name else ''}"
