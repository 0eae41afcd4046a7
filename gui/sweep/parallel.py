"""A parallel-coordinates chart of a sweep: one vertical axis per parameter and one for the objective, one line
per trial; clicking a line selects that trial.

Each axis spans the parameter's range in the space (a log-uniform one on a log scale, a choice's values evenly
spaced); the objective's axis spans the values seen, the better end at the top, so good trials are the lines
that end high.
"""

from __future__ import annotations

import json
import math
from typing import Any

import pyqtgraph as pg
from PySide6.QtCore import QCoreApplication, Qt, Signal
from PySide6.QtWidgets import QWidget

from engine.core.sweep import TrialStatus
from engine.core.sweep.space import Parameter
from gui import theme
from gui.exports import add_export_action
from gui.sweep.trials import TrialRow

CLICK_WIDTH = 8  # pixels either side of a line that still select it


def choice_key(value: Any) -> str:
    """A choice's identity whether it came from the space (tuples) or from an event (lists)."""
    return json.dumps(list(value) if isinstance(value, tuple | list) else value)


def value_text(value: Any) -> str:
    if isinstance(value, tuple | list):
        return "[" + ", ".join(value_text(v) for v in value) + "]"
    return f"{value:.4g}" if isinstance(value, float) else str(value)


def normalise(parameter: Parameter, value: Any) -> float | None:
    """Where `value` sits on the parameter's axis, 0 (bottom) to 1 (top); None when it is not in the space."""
    if parameter.distribution == "choice":
        keys = [choice_key(v) for v in parameter.values]
        key = choice_key(value)
        if key not in keys:
            return None
        return keys.index(key) / (len(keys) - 1) if len(keys) > 1 else 0.5
    if not isinstance(value, int | float):
        return None
    low, high = (float(v) for v in parameter.values)
    if parameter.distribution == "log_uniform":
        if value <= 0:
            return None
        return min(1.0, max(0.0, math.log(value / low) / math.log(high / low)))
    return min(1.0, max(0.0, (value - low) / (high - low)))


def axis_ticks(parameter: Parameter) -> list[tuple[float, str]]:
    """The labels along a parameter's axis: every choice, or a range's ends."""
    if parameter.distribution == "choice":
        return [(normalise(parameter, v) or 0.0, value_text(v)) for v in parameter.values]
    low, high = parameter.values
    return [(0.0, value_text(low)), (1.0, value_text(high))]


class ParallelCoordinates(pg.PlotWidget):
    """Parameters against the objective, one line per trial with an objective value."""

    trial_clicked = Signal(int)
    """A line was clicked: the trial's number."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("sweepParallelPlot")
        item = self.getPlotItem()
        item.setMouseEnabled(x=False, y=False)
        item.hideButtons()
        item.hideAxis("left")
        item.hideAxis("bottom")
        self.setMinimumHeight(240)
        self.lines: dict[int, pg.PlotCurveItem] = {}  # trial number -> its line (tests click them)
        add_export_action(self)

    def show_trials(
        self,
        parameters: tuple[Parameter, ...],
        objective: str,
        maximise: bool,
        rows: list[TrialRow],
        selected: set[int],
        best: int | None,
    ) -> None:
        colours = theme.current().plot
        theme.style_plot(self, theme.current())
        item = self.getPlotItem()
        item.clear()
        self.lines = {}
        values = [r.finite_value for r in rows if r.finite_value is not None]
        low, high = (min(values), max(values)) if values else (0.0, 1.0)
        for x, parameter in enumerate(parameters):
            self._axis(x, parameter.name, axis_ticks(parameter))
        better = QCoreApplication.translate("ParallelCoordinates", "{objective} (better at the top)")
        top, bottom = (high, low) if maximise else (low, high)
        self._axis(len(parameters), better.format(objective=objective), [(0.0, f"{bottom:.4g}"), (1.0, f"{top:.4g}")])
        span = (high - low) or 1.0
        for row in sorted(rows, key=lambda r: (r.number in selected, r.number == best)):  # the chosen on top
            if row.finite_value is None:
                continue
            ys = [normalise(p, row.params.get(p.name)) for p in parameters]
            if any(y is None for y in ys):
                continue
            share = (row.finite_value - low) / span
            ys.append(0.5 if high == low else share if maximise else 1.0 - share)
            line = pg.PlotCurveItem(list(range(len(ys))), ys, pen=self._pen(row, selected, best, colours))
            line.setClickable(True, width=CLICK_WIDTH)
            line.sigClicked.connect(lambda _line, _event, number=row.number: self.trial_clicked.emit(number))
            line.setToolTip(
                QCoreApplication.translate("ParallelCoordinates", "trial {number}: {objective} {value:.4g}").format(
                    number=row.number, objective=objective, value=row.finite_value
                )
            )
            item.addItem(line)
            self.lines[row.number] = line
        item.setXRange(-0.4, len(parameters) + 0.7, padding=0)  # room for the objective's name
        item.setYRange(-0.08, 1.2, padding=0)

    def _axis(self, x: float, name: str, ticks: list[tuple[float, str]]) -> None:
        colours = theme.current().plot
        item = self.getPlotItem()
        item.addItem(pg.PlotDataItem([x, x], [0.0, 1.0], pen=pg.mkPen(colours.foreground, width=1)))
        title = pg.TextItem(name, anchor=(0.5, 0.0), color=colours.foreground)
        title.setPos(x, 1.2)
        item.addItem(title)
        for y, text in ticks:
            label = pg.TextItem(text, anchor=(0.0, 0.5), color=colours.foreground)
            label.setPos(x + 0.03, y)
            item.addItem(label)

    @staticmethod
    def _pen(row: TrialRow, selected: set[int], best: int | None, colours: theme.PlotPalette) -> Any:
        if row.number in selected:
            return pg.mkPen(colours.epoch, width=4)
        if row.number == best:
            return pg.mkPen(colours.validation, width=2.5)
        if row.state == TrialStatus.PRUNED:
            return pg.mkPen(colours.failed, width=1, style=Qt.PenStyle.DashLine)
        if row.state == TrialStatus.RUNNING:
            return pg.mkPen(colours.batch, width=1, style=Qt.PenStyle.DotLine)
        return pg.mkPen(colours.smoothed, width=1.5)
