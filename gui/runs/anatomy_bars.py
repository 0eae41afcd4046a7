"""Step anatomies side by side: one stacked bar per run (the Runs tab's compare view) or per replica count
(the scaling study), the parts in the live chart's colours, the step time over each bar."""

from __future__ import annotations

import html

import numpy as np
import pyqtgraph as pg
from PySide6.QtWidgets import QWidget

from engine.core import anatomy
from engine.core.events import StepAnatomy
from gui import theme
from gui.exports import add_export_action
from gui.live.anatomy_plot import legend_name, part_role, stacked

BAR_WIDTH = 0.6


class AnatomyBars(pg.PlotWidget):
    """A stacked bar of ms per step for each labelled anatomy; a label without one gets no bar."""

    def __init__(self, title: str, name: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName(name)
        self.plain_title = title  # the title without its legend (export file names)
        self.setAccessibleName(title)
        item = self.getPlotItem()
        item.setLabel("left", self.tr("ms per step"))
        item.showGrid(y=True, alpha=0.25)
        for axis in ("left", "bottom"):
            item.getAxis(axis).enableAutoSIPrefix(False)
        item.setMouseEnabled(x=False, y=False)
        item.hideButtons()
        self.setMinimumHeight(150)
        add_export_action(self)
        self.labels: list[str] = []
        self.anatomies: list[StepAnatomy | None] = []
        self.restyle(theme.current())
        theme.manager().changed.connect(self.restyle)  # a method: disconnected when the plot goes

    def restyle(self, scheme: theme.Theme) -> None:
        theme.style_plot(self, scheme)
        self.show_bars(self.labels, self.anatomies)

    def show_bars(self, labels: list[str], anatomies: list[StepAnatomy | None]) -> None:
        """One bar per label, the parts of its anatomy stacked from the bottom in engine.core.anatomy.PARTS' order."""
        self.labels, self.anatomies = list(labels), list(anatomies)
        scheme = theme.current().plot
        self._title(scheme)
        item = self.getPlotItem()
        item.clear()
        item.getAxis("bottom").setTicks([list(enumerate(self.labels))])
        measured = [(i, a) for i, a in enumerate(self.anatomies) if a is not None]
        below = np.zeros(len(measured))
        for part in anatomy.PARTS:
            tops = np.array([stacked(a)[part] for _, a in measured])
            colour = scheme.colour(part_role(part))
            bar = pg.BarGraphItem(
                x=np.array([i for i, _ in measured], dtype=float),
                y0=below,
                height=tops - below,
                width=BAR_WIDTH,
                brush=theme.faded(colour, scheme.background),
                pen=pg.mkPen(colour),
            )
            bar.setObjectName(part)
            item.addItem(bar)
            below = tops
        for (i, a), top in zip(measured, below, strict=True):
            text = pg.TextItem(self.tr("{ms:.1f} ms").format(ms=a.step_ms), anchor=(0.5, 1.0), color=scheme.foreground)
            text.setPos(i, top)
            item.addItem(text)
        item.setXRange(-0.6, max(len(self.labels), 1) - 0.4, padding=0)
        item.setYRange(0, max([1.0, *below]) * 1.15, padding=0)

    def _title(self, scheme: theme.PlotPalette) -> None:
        entries = "&nbsp;&nbsp;".join(
            f"<span style='color:{scheme.colour(part_role(p))}'>■</span>&nbsp;{html.escape(legend_name(p))}"
            for p in anatomy.PARTS
        )
        self.getPlotItem().setTitle(
            f"<b>{html.escape(self.plain_title)}</b>&nbsp;&nbsp;&nbsp;<span style='font-size:8pt'>{entries}</span>",
            size="10pt",
        )

    def bar_tops(self) -> dict[str, list[float]]:
        """Each part's tops in the stack, bar by bar (for tests)."""
        bars = [i for i in self.getPlotItem().items if isinstance(i, pg.BarGraphItem)]
        return {b.objectName(): list(np.asarray(b.opts["y0"]) + np.asarray(b.opts["height"])) for b in bars}
