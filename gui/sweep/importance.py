"""Each parameter's importance in a sweep as horizontal bars, the estimator named in the title.

The shares come from the sweep's summary (Optuna's estimator, engine.tools.sweep.importances); the most
important parameter is the top bar, its share written at the bar's end.
"""

from __future__ import annotations

import html

import pyqtgraph as pg
from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QWidget

from gui import theme
from gui.exports import add_export_action

BAR_HEIGHT = 0.6  # of the distance between two bars
ROW_PIXELS = 28  # the chart's height grows with the number of parameters
FRAME_PIXELS = 90  # its title and its axis of shares


class ImportanceBars(pg.PlotWidget):
    """Horizontal bars, one per parameter, longest = most important."""

    def __init__(self, parameters: int, parent: QWidget | None = None) -> None:
        """`parameters`: how many the sweep varies (one bar each), which sets the chart's height."""
        super().__init__(parent)
        self.setObjectName("sweepImportancePlot")
        item = self.getPlotItem()
        item.setMouseEnabled(x=False, y=False)
        item.hideButtons()
        item.setMenuEnabled(False)
        item.getAxis("bottom").setTicks([[(x / 4, f"{x * 25} %") for x in range(5)]])
        self.bars: pg.BarGraphItem | None = None
        self.title = ""  # the title's text without markup (tests, exports)
        self.shares: dict[str, float] = {}
        self.note = ""
        self.setFixedHeight(FRAME_PIXELS + ROW_PIXELS * max(2, parameters))  # the trials and curves take the rest
        add_export_action(self)

    def show_importance(self, shares: dict[str, float], method: str, note: str = "") -> None:
        """Draw `shares` (parameter -> share of 1, most important first) by `method`; none yet: say `note`."""
        self.shares, self.note = dict(shares), note
        if shares:
            title = QCoreApplication.translate("ImportanceBars", "Parameter importance ({method}, Optuna)")
            self.title = title.format(method=method)
        else:
            title = QCoreApplication.translate("ImportanceBars", "Parameter importance: not yet")
            self.title = title + (f" ({note})" if note else "")
        self._draw()

    def restyle(self) -> None:
        self._draw()

    def _draw(self) -> None:
        scheme = theme.current()
        theme.style_plot(self, scheme)
        item = self.getPlotItem()
        item.clear()
        item.setTitle(f"<b>{html.escape(self.title)}</b>", size="10pt", color=scheme.plot.foreground)
        names = list(self.shares)
        ys = list(range(len(names)))[::-1]  # the most important at the top
        left = item.getAxis("left")
        left.setTicks([list(zip(ys, names, strict=True))])
        self.bars = None
        if names:
            colour = scheme.plot.bar
            self.bars = pg.BarGraphItem(
                x0=0, y=ys, height=BAR_HEIGHT, width=list(self.shares.values()), brush=colour, pen=colour
            )
            item.addItem(self.bars)
            for y, share in zip(ys, self.shares.values(), strict=True):
                label = pg.TextItem(f"{share:.0%}", anchor=(0.0, 0.5), color=scheme.plot.foreground)
                label.setPos(share + 0.01, y)
                item.addItem(label)
        item.setXRange(0, 1.12, padding=0)
        item.setYRange(-0.6, max(0.6, len(names) - 0.4), padding=0)
