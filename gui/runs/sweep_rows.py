"""A sweep in the Runs tab: one row for the sweep, its trials (ordinary runs) under it.

The history lists a sweep's trials among the runs, named "SWEEP/trial-003" (engine.core.runs.history); the
table groups them under their sweep's folder, whose row gives the trial count and the best objective.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

from engine.core.protocol.codes import RunStatus
from engine.core.runs.history import RunSummary
from engine.core.sweep import SweepPaths

DEFAULT_OBJECTIVE = "val_loss"  # engine.core.sweep.space.SweepSpace's default


def sweep_of(run: RunSummary) -> Path | None:
    """The sweep folder a run is a trial of (the history names trials after their sweep), or None."""
    return run.path.parent if run.name == f"{run.path.parent.name}/{run.path.name}" else None


def sweep_objective(folder: Path) -> str:
    """The objective the sweep optimises, from its spec (the default when it cannot be read)."""
    try:
        space = json.loads(SweepPaths(folder).spec.read_text(encoding="utf-8")).get("space") or {}
    except (OSError, ValueError, AttributeError):
        return DEFAULT_OBJECTIVE
    objective = space.get("objective", DEFAULT_OBJECTIVE) if isinstance(space, dict) else DEFAULT_OBJECTIVE
    return objective if isinstance(objective, str) else DEFAULT_OBJECTIVE


@dataclass
class SweepGroup:
    """A sweep's row: its folder and its trials as the table shows them."""

    path: Path
    ident: int  # the Qt model's internal id of its trials' indexes
    objective: str
    trials: list[RunSummary] = field(default_factory=list)

    @property
    def started(self) -> float:
        return min((t.started for t in self.trials if t.started), default=0.0)

    @property
    def running(self) -> bool:
        return any(t.status == RunStatus.RUNNING for t in self.trials)

    def best(self) -> RunSummary | None:
        """The completed trial with the best objective (any trial with a value, when none has completed)."""
        scored = [t for t in self.trials if self.objective in t.final]
        completed = [t for t in scored if t.status == RunStatus.COMPLETED] or scored
        if not completed:
            return None
        pick = max if self.objective.endswith("accuracy") else min
        return pick(completed, key=lambda t: t.final[self.objective])
