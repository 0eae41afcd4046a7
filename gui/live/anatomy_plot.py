"""The live step anatomy: where each step's time goes (waiting for input, computing, synchronising, the rest),
stacked in milliseconds per step on the plots' shared x-axis, and the verdict in one line under it.

The chart is a live plot like the others (gui/live/live_plot.py: same frames, same layer): each part is a series
whose value is its top in the stack, the area under it filled, the tallest drawn first and the others over
it. A StepAnatomy covers the steps since the previous one, so it is drawn as a flat stretch over them.
Anatomies come a few times a second at most, so the chart adds next to nothing to a frame.
"""

from __future__ import annotations

import dataclasses

import numpy as np
from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication
from PySide6.QtGui import QBrush
from PySide6.QtWidgets import QLabel, QSizePolicy, QVBoxLayout, QWidget

from engine.core import anatomy
from engine.core import events as ev
from gui import theme
from gui.i18n import translate
from gui.live.live_plot import LivePlot
from gui.live.remedies_panel import RemediesPanel
from gui.theme import WidgetRole, set_role

PART_NAMES = {  # engine.core.anatomy.PARTS in the window's words
    "input": QT_TRANSLATE_NOOP("AnatomyPlot", "waiting for input"),
    "compute": QT_TRANSLATE_NOOP("AnatomyPlot", "computing"),
    "sync": QT_TRANSLATE_NOOP("AnatomyPlot", "synchronising"),
    "rest": QT_TRANSLATE_NOOP("AnatomyPlot", "the rest"),
}


LEGEND_NAMES = {  # the same, short enough for a legend in a chart's title beside another chart
    "input": QT_TRANSLATE_NOOP("AnatomyPlot", "input"),
    "compute": QT_TRANSLATE_NOOP("AnatomyPlot", "compute"),
    "sync": QT_TRANSLATE_NOOP("AnatomyPlot", "sync"),
    "rest": QT_TRANSLATE_NOOP("AnatomyPlot", "rest"),
}


def part_name(part: str) -> str:
    return QCoreApplication.translate("AnatomyPlot", PART_NAMES[part])


def legend_name(part: str) -> str:
    return QCoreApplication.translate("AnatomyPlot", LEGEND_NAMES[part])


def part_role(part: anatomy.Part) -> tuple[str, int]:
    """The part's colour in the theme's plot palette."""
    return ("anatomy", anatomy.PARTS.index(part))


def stacked(event: ev.StepAnatomy) -> dict[anatomy.Part, float]:
    """Each part's top in the stack, in ms per step: input at the bottom, the rest on top (the step)."""
    tops, total = {}, 0.0
    for part in anatomy.PARTS:
        total += max(0.0, anatomy.part_ms(event, part))
        tops[part] = total
    return tops


class AnatomyPlot(LivePlot):
    """The four parts of a step stacked, in ms per step."""

    y_from_zero = True  # a stack stands on zero

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(self.tr("Step anatomy"), self.tr("ms per step"), parent)
        for part in reversed(anatomy.PARTS):  # the tallest first: each part is drawn over the ones above it
            self.add_series(part, legend_name(part), "■", finite=True, role=part_role(part), width=2)
        self.legend_entries.reverse()  # listed bottom of the stack first, as PARTS
        self._render_title()
        self._fill(theme.current())

    def restyle(self, scheme: theme.Theme) -> None:
        super().restyle(scheme)
        self._fill(scheme)

    def _fill(self, scheme: theme.Theme) -> None:
        """Each band in its part's colour faded towards the background: the line on top stays readable."""
        for part in anatomy.PARTS:
            fill = QBrush(theme.faded(scheme.plot.colour(part_role(part)), scheme.plot.background))
            self.layer.looks[part] = dataclasses.replace(self.layer.looks[part], fill=fill)
        self.layer.invalidate()

    def add_anatomy(self, event: ev.StepAnatomy, start_s: float, end_s: float) -> bool:
        """A flat stretch of each part's top over the steps `event` covers, from `start_s` to `end_s` seconds
        since Start on the time axis, never before the previous stretch's end: x never goes back. False, and
        nothing drawn, for an anatomy that ends where a drawn one does or before (another report of the same
        steps)."""
        drawn = self.traces["input"]
        if len(drawn) and event.global_step <= drawn.step.values[-1]:
            return False
        first = max(float(event.global_step - event.steps), drawn.step.values[-1] if len(drawn) else 0.0, 0.0)
        start_s = max(start_s, drawn.time.values[-1]) if len(drawn) else start_s
        step = np.array([first, float(event.global_step)])
        seconds = np.array([start_s, max(start_s, end_s)])
        for part, top in stacked(event).items():
            self.extend(part, step, seconds, np.array([top, top]))
        return True


class AnatomyPanel(QWidget):
    """The anatomy chart, the verdict of the latest anatomy under it, and the changes that address it."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.plot = AnatomyPlot()
        self.plot.setObjectName("anatomyPlot")
        self.verdict = QLabel(objectName="anatomyVerdict")
        self.verdict.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)  # never widens the grid
        set_role(self.verdict, WidgetRole.HINT)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(2)
        self.remedies = RemediesPanel()
        layout.addWidget(self.plot, 1)
        layout.addWidget(self.verdict)
        layout.addWidget(self.remedies)

    def add(self, event: ev.StepAnatomy, start_s: float, end_s: float) -> None:
        """The anatomy drawn and its verdict shown, unless its steps were drawn already."""
        if self.plot.add_anatomy(event, start_s, end_s):
            self.verdict.setText(translate(anatomy.verdict(event)))
            self.verdict.setToolTip(translate(anatomy.summary_line(event)))
            self.remedies.observe(event)

    def clear(self) -> None:
        self.verdict.clear()
        self.verdict.setToolTip("")
        self.remedies.clear()
