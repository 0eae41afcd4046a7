"""One plot of the Runs tab's comparison: every run's lines are pixels of one image, not pyqtgraph items.

A pyqtgraph curve costs milliseconds to build and add, and its grid is repainted with every paint. Here the
lines go into the live plots' image layer (gui/live/plot_layer.py), painted under the legend; a turn's runs
repaint only where they fell, with at most a min/max pair per pixel column. The owner holds the range once per
redraw (`hold`), so the axes are laid out once.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pyqtgraph as pg
from PySide6.QtWidgets import QGraphicsItem

from gui.exports import add_export_action
from gui.live.plot_layer import Look, PlotLayer, Series, extent_item, grid_at_ticks
from gui.live.traces import decimate, in_window

# the range's extent reaches as far past the points as a line this wide (pixels): past an epoch marker's reach
EXTENT_WIDTH = 8


@dataclass(frozen=True)
class Curve:
    """One line of a plot: how it is drawn, and its points (x ascending), in data coordinates."""

    look: Look
    x: np.ndarray
    y: np.ndarray
    run: str = ""  # the run it belongs to (its legend entry hides all of the run's lines)


class LegendEntry:
    """What pyqtgraph's legend asks of an item to draw its sample (`opts`) and to hide it when the sample is
    clicked (`isVisible`, `setVisible`): here, hiding one run's lines in the plot."""

    def __init__(self, plot: ComparePlot, run: str, look: Look) -> None:
        self._plot, self._run = plot, run
        self.opts = {"pen": look.pen, "symbol": look.marker or None, "size": look.marker_size, "brush": look.brush}

    def isVisible(self) -> bool:  # noqa: N802 - pyqtgraph's name
        return self._run not in self._plot.hidden

    def setVisible(self, visible: bool) -> None:  # noqa: N802
        (self._plot.hidden.discard if visible else self._plot.hidden.add)(self._run)
        self._plot.layer.invalidate()


class ComparePlot(pg.PlotWidget):
    """A titled plot whose lines are added a few runs at a time (`add`) and cleared at once (`clear_lines`)."""

    def __init__(self, title: str, y_label: str, name: str, legend: bool = False) -> None:
        super().__init__()
        self.setObjectName(name)
        self.setAccessibleName(title)
        self.setAccessibleDescription(y_label)
        item = self.getPlotItem()
        item.setTitle(title, size="10pt")
        item.setLabel("left", y_label)
        for axis in ("left", "bottom"):
            item.getAxis(axis).enableAutoSIPrefix(False)
            # an axis is painted once per range, then copied as pixels
            item.getAxis(axis).setCacheMode(QGraphicsItem.CacheMode.DeviceCoordinateCache)
        self.setMinimumHeight(150)
        add_export_action(self)
        self.curves: dict[str, Curve] = {}  # by the layer's key, in drawing order
        self.hidden: set[str] = set()  # runs hidden from their legend entry
        self._extent = extent_item(EXTENT_WIDTH)
        item.getViewBox().addItem(self._extent)  # the view's own: PlotItem.clear() leaves it
        self.layer = PlotLayer(item.getViewBox(), self._everything, lambda: grid_at_ticks(item, ("left", "bottom")))
        self.legend = item.addLegend(offset=(-10, 10), labelTextSize="8pt") if legend else None

    def clear_lines(self) -> None:
        """No lines, no legend entries (the range stays until held anew)."""
        self.curves.clear()
        self.layer.looks.clear()
        self.hidden.clear()
        if self.legend is not None:
            self.legend.clear()
        self.layer.invalidate()

    def hold(self, extent: tuple[list[float], list[float]] | None) -> None:
        """Fit the range to ([x min, x max], [y min, y max]) however the lines added later fall within it."""
        self._extent.setData(*(extent or ([], [])))

    def add(self, curves: list[Curve], legend: dict[str, Look] | None = None) -> None:
        """Draw these lines over those there are, and give each run of `legend` an entry drawn with its look."""
        keys = []
        for curve in curves:
            key = str(len(self.curves))
            self.curves[key] = curve
            self.layer.looks[key] = curve.look
            keys.append(key)
        if self.legend is not None:
            for run, look in (legend or {}).items():
                self.legend.addItem(LegendEntry(self, run, look), run)
        if self.layer.current():
            self.layer.add([(key, *self.shown(key)) for key in keys])
        else:
            self.layer.invalidate()

    def shown(self, key: str) -> tuple[np.ndarray, np.ndarray]:
        """A line's points as drawn: those in view (and one beyond each edge), a min/max pair per pixel column."""
        curve = self.curves[key]
        lo, hi = self.getPlotItem().getViewBox().viewRange()[0]
        columns = max(int(self.getPlotItem().getViewBox().width()), 64)
        return decimate(*in_window(curve.x, curve.y, lo, hi), buckets=columns)

    def _everything(self) -> list[Series]:
        return [(key, *self.shown(key)) for key, curve in self.curves.items() if curve.run not in self.hidden]
