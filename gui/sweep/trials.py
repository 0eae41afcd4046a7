"""The trials of a sweep as its events tell them: one row per trial, its objective per epoch, the order shown."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path

from engine.core import events as ev
from engine.core.runs.history import load_curves
from engine.core.sweep import TrialStatus
from gui.i18n import event_text

# completed first (the comparable ones), then those cut short, then those still training
STATE_ORDER = {
    TrialStatus.COMPLETED: 0,
    TrialStatus.PRUNED: 1,
    TrialStatus.RUNNING: 2,
    TrialStatus.INTERRUPTED: 3,
    TrialStatus.FAILED: 4,
}


@dataclass
class TrialRow:
    """One trial: its latest state, parameters and objective, and the objective at each epoch reported."""

    number: int
    state: str
    params: dict
    value: float | None = None
    epoch: int = 0
    devices: str = ""
    run_dir: str = ""
    message: str = ""  # why it failed or was pruned (a Message when the sweep said one)
    seconds: float = 0.0
    curve: dict[int, float] = field(default_factory=dict)  # epoch -> objective
    curve_read: bool = False  # its curve was read from its run directory (fill_curve)

    @property
    def finite_value(self) -> float | None:
        return self.value if self.value is not None and math.isfinite(self.value) else None


class Trials:
    """Every trial of one sweep, updated from its sweep_trial events."""

    def __init__(self, maximise: bool) -> None:
        self.maximise = maximise
        self.rows: dict[int, TrialRow] = {}

    def update(self, event: ev.SweepTrial) -> TrialRow:
        row = self.rows.get(event.number)
        if row is None:
            row = self.rows[event.number] = TrialRow(event.number, event.state, dict(event.params))
            if event.run_dir:  # an interrupted trial continued by this one: one row for the parameter set
                for other in [r for r in self.rows.values() if r.state == TrialStatus.INTERRUPTED]:
                    if other.run_dir == event.run_dir:
                        row.curve = dict(other.curve)
                        del self.rows[other.number]
        row.state, row.params = event.state, dict(event.params)
        row.devices = event.devices or row.devices
        row.run_dir = event.run_dir or row.run_dir
        row.message, row.seconds = event_text(event.message, event.message_template), event.seconds or row.seconds
        if event.value is not None:
            row.value = event.value
        if event.epoch:
            row.epoch = event.epoch
            if event.value is not None:
                row.curve[event.epoch] = event.value
        return row

    def sorted(self) -> list[TrialRow]:
        """Completed trials best first, then pruned, running, interrupted and failed ones."""

        def key(row: TrialRow) -> tuple[int, float, int]:
            value = row.finite_value
            rank = math.inf if value is None else (-value if self.maximise else value)
            return STATE_ORDER.get(TrialStatus(row.state), 5), rank, row.number

        return sorted(self.rows.values(), key=key)

    def fill_curve(self, row: TrialRow, objective: str) -> None:
        """A trial the sweep reported only at its end (a resumed sweep's earlier trials): its objective per
        epoch from the metrics in its run directory."""
        if row.curve_read or not row.run_dir or len(row.curve) >= row.epoch:
            return
        row.curve_read = True
        for values in load_curves(Path(row.run_dir)).epochs:
            if objective in values and "epoch" in values:
                row.curve[int(values["epoch"])] = values[objective]
