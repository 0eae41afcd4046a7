"""One live plot: a pyqtgraph plot that draws a run's series as they grow, at a paced frame rate.

Watching must cost training next to nothing, so a frame is cheap however long the run: every point is kept
(gui/live/traces.py) but a plot draws at most a couple of thousand of a series, its axes move on a coarse
grid, and between those moves a frame adds only the new points to an image of the plot and repaints their
strip (gui/live/plot_layer.py). The plots of the Live tab (gui/live/plots.py) and its step anatomy
(gui/live/anatomy_plot.py) are live plots.
"""

from __future__ import annotations

import dataclasses
import html
import statistics
import time
from collections import deque

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication, Qt
from PySide6.QtGui import QColor, QPaintEvent, QPen
from PySide6.QtWidgets import QGraphicsItem, QGridLayout, QWidget

from gui import theme
from gui.live.plot_layer import Grid, Look, PlotLayer, Series, extent_item, grid_at_ticks
from gui.live.traces import Trace, decimate, sticky_range

# Frames a second a user may choose (View ▸ Live plots), the default first; what each costs training is in
# BENCHMARKS.md (bench_watch_cost.py).
FRAME_RATES = (10, 5, 1)
REDRAW_PERIOD_MS = 1000 / FRAME_RATES[0]  # the default pace: streaming data waits at most this long for a frame
PAINT_BUDGET = 0.04  # of one core: what drawing the plots may cost while a run streams (the whole window: 5 %)
# Data that arrives this close to the pace's next frame is drawn at once: the runner hands events over every
# 100 ms (gui.runner.EMIT_INTERVAL_S), so a frame of its own would wake the GUI thread twice a period. Data that
# arrives earlier (a GPU sample) waits for the pace and this, so the hand-over due then draws it.
FRAME_SLACK_MS = 10
FRAME_COSTS_KEPT = 15  # a plot's latest frames whose cost sets the pace: a second and a half of them
X_HEADROOM = 0.5  # when the run reaches the x-axis's end it grows by half: a few dozen times a run
Y_HEADROOM = 0.25  # a y range the data leaves moves a quarter of its span beyond it
JOIN = 1  # the point before a series' new ones, drawn again with them: the line joins on
TICK_LENGTH = 5  # pixels, outward (pyqtgraph's default, -5, reaches into the view)
X_LABELS = {
    "step": QT_TRANSLATE_NOOP("LivePlot", "step"),
    "time": QT_TRANSLATE_NOOP("LivePlot", "time since Start (s)"),
}
PaletteColour = str | tuple[str, int]  # a colour of the theme's plot palette (gui.theme.PlotPalette.colour)

pg.setConfigOptions(antialias=False)  # background and foreground: gui.theme, per colour scheme


def x_label(axis: str) -> str:
    return QCoreApplication.translate("LivePlot", X_LABELS[axis])


def place_in_pairs(layout: QGridLayout, charts: list[QWidget], first_row: int) -> None:
    """The charts (in `layout` already) not hidden two to a row of a two-column grid from `first_row` on, in
    order; one alone in its row spans it. The two columns share the width evenly, whatever the charts' titles
    (by their size hints, a long legend took a column's room and the grid overflowed the window)."""
    layout.setColumnStretch(0, 1)
    layout.setColumnStretch(1, 1)
    shown = [chart for chart in charts if not chart.isHidden()]
    for chart in charts:
        layout.removeWidget(chart)
    for i, chart in enumerate(shown):
        alone = i % 2 == 0 and i == len(shown) - 1
        layout.addWidget(chart, first_row + i // 2, i % 2, 1, 2 if alone else 1)


def _pen(colour: str, width: int, dashed: bool) -> QPen:
    return pg.mkPen(colour, width=width, style=Qt.PenStyle.DashLine if dashed else Qt.PenStyle.SolidLine)


class LivePlot(pg.PlotWidget):
    """Named traces drawn as curves, at most a bounded number of points each."""

    y_fixed: tuple[float, float] | None = None  # a y range that never changes (percentages)
    y_from_zero = False  # the y range always holds 0 (a stacked chart stands on it)

    def __init__(self, title: str, y_label: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        item = self.getPlotItem()
        self.plain_title = title  # the title without its legend (export file names)
        self.legend_entries: list[
            tuple[PaletteColour, str, str]
        ] = []  # (colour role, glyph, label), shown in the title
        self._roles: dict[str, PaletteColour] = {}  # key -> its colour in the theme's plot palette
        self.setAccessibleName(title)
        self.setAccessibleDescription(self.tr("Plot of {what} over training steps or time").format(what=y_label))
        item.setTitle(title, size="10pt")
        item.setLabel("bottom", x_label("step"))
        item.setLabel("left", y_label)
        item.getAxis("left").setStyle(maxTickLevel=0)  # major ticks only, and the layer's grid lines at them
        for axis in ("left", "bottom"):  # "loss (x0.001)" confuses; re-labelling each frame costs
            item.getAxis(axis).enableAutoSIPrefix(False)
            # ticks outward: an axis inside the view would be repainted with every frame's strip
            item.getAxis(axis).setStyle(tickLength=TICK_LENGTH)
            # the axes change only with the range: a frame that repaints near one blits it
            item.getAxis(axis).setCacheMode(QGraphicsItem.CacheMode.DeviceCoordinateCache)
        self._extent = extent_item()  # holds the sticky range
        item.addItem(self._extent)
        self.traces: dict[str, Trace] = {}
        # every series and the grid
        self.layer = PlotLayer(item.getViewBox(), self._everything, self._grid, on_paint=self._note_paint)
        self._dirty: set[str] = set()
        # points of each trace the frames have drawn: the layer's image holds at least these (a paint that draws
        # it whole draws every point there is then), so a frame adds what comes after them
        self._drawn: dict[str, int] = {}
        self._x_range: tuple[float, float] | None = None
        self._y_range: tuple[float, float] | None = None
        self.x_axis = "step"
        self.frames = 0
        # the GUI thread's CPU time of this plot's latest frames: a redraw and the paints until the next one
        self.frame_costs: deque[float] = deque(maxlen=FRAME_COSTS_KEPT)
        self._frame_cost_s: float | None = None  # the frame being painted; None before the first redraw
        self.setMinimumHeight(150)
        theme.style_plot(self, theme.current())
        theme.manager().changed.connect(self.restyle)  # a method: disconnected when the plot goes

    def add_series(
        self,
        key: str,
        label: str,
        glyph: str = "━",
        finite: bool = False,
        role: PaletteColour = "smoothed",
        width: int = 1,
        dashed: bool = False,
        marker: str = "",
        marker_size: int = 0,
    ) -> None:
        """A trace under `key`, shown in the title's legend as `glyph label` in its colour: the theme's
        `role` (gui.theme.PlotPalette), `width` pixels, solid or `dashed`; `marker` ("o" or "s") adds a
        marker `marker_size` pixels wide at every point. In `finite` data a NaN is left out and the line
        goes on; otherwise it leaves a gap (a GPU NVML lost for a while). Later series are drawn on top.

        The legend is in the title, outside the data area: inside, it would be repainted with every frame."""
        self.traces[key] = Trace()
        self._roles[key] = role
        self.legend_entries.append((role, glyph, label))
        self._render_title()
        colour = theme.current().plot.colour(role)
        gaps = not finite and not marker
        self.layer.looks[key] = Look(_pen(colour, width, dashed), marker, marker_size, pg.mkBrush(colour), gaps)
        self.layer.invalidate()

    def _render_title(self) -> None:
        palette = theme.current().plot
        entries = "&nbsp;&nbsp;".join(
            f"<span style='color:{palette.colour(r)}'>{g}</span>&nbsp;{html.escape(t)}"
            for r, g, t in self.legend_entries
        )
        self.getPlotItem().setTitle(
            f"<b>{html.escape(self.plain_title)}</b>&nbsp;&nbsp;&nbsp;<span style='font-size:8pt'>{entries}</span>",
            size="10pt",
        )

    def restyle(self, scheme: theme.Theme) -> None:
        """Background, axes, legend and every curve in `scheme`'s colours."""
        theme.style_plot(self, scheme)
        for key, role in self._roles.items():
            look, colour = self.layer.looks[key], scheme.plot.colour(role)
            pen = QPen(look.pen)
            pen.setColor(QColor(colour))
            self.layer.looks[key] = dataclasses.replace(look, pen=pen, brush=pg.mkBrush(colour))
        self.layer.invalidate()
        self._render_title()
        self.getPlotItem().getAxis("left").update()
        self.getPlotItem().getAxis("bottom").update()

    def extend(self, name: str, step: np.ndarray, seconds: np.ndarray, y: np.ndarray) -> None:
        self.traces[name].extend(step, seconds, y)
        self._dirty.add(name)

    def append(self, name: str, step: float, seconds: float, y: float | None) -> None:
        if y is not None:
            self.extend(name, np.array([step]), np.array([seconds]), np.array([y], dtype=float))

    def has_new_data(self) -> bool:
        return bool(self._dirty)

    def lags(self, x_hi: float) -> bool:
        """True if the shared x-axis has outgrown this plot's range while it had no news (a chart fed a few
        times an epoch, the step anatomy): a redraw moves it with the others."""
        return self._x_range is not None and sticky_range(0.0, x_hi, self._x_range, X_HEADROOM) != self._x_range

    def set_x_axis(self, axis: str) -> None:
        self.x_axis = axis
        self.getPlotItem().setLabel("bottom", x_label(axis))
        self._x_range = None
        self._dirty.update(n for n, t in self.traces.items() if len(t))
        self.layer.invalidate()
        self.getPlotItem().enableAutoRange()

    def following(self) -> bool:
        """True while the x range follows the data; False once zoomed or panned by hand."""
        return bool(self.getPlotItem().getViewBox().autoRangeEnabled()[0])

    def redraw(self, x_hi: float) -> bool:
        """Draw what is new; `x_hi` is where the x-axis must reach (the far end of the data of every plot shown
        together). True if the range moved: the next paint re-lays out the axes and draws the layer whole,
        several times a usual frame's cost.

        A usual frame adds the new points to the layer's image, and only their strip is repainted. The image
        is drawn whole instead (at the next paint, with the range as it is then) when the range moved, when
        zoomed or panned by hand (the window's raw points are drawn), or when drawn points move along x."""
        started = time.thread_time()
        if self._frame_cost_s is not None:
            self.frame_costs.append(self._frame_cost_s)
        moved = self.hold_range(x_hi)
        if moved or not self.following() or self.x_moves() or not self.layer.current():
            self.layer.invalidate()
        else:
            self._add_to_layer()
        for name in self._dirty:
            self._drawn[name] = len(self.traces[name])
        self._dirty.clear()
        self.frames += 1
        self._frame_cost_s = time.thread_time() - started
        return moved

    def _add_to_layer(self) -> None:
        """Each series' points since the last frame, from the one before them (JOIN) so the line joins on, in
        drawing order: where series meet, later ones stay on top. (Points a whole draw took in since are drawn
        again, to the same pixels.) A marked series without news has its last marker drawn again where new
        lines went over it (the next epoch's line starts at the last epoch's marker)."""
        pieces: list[Series] = []
        tops: list[Series] = []
        columns = self._columns()
        for name, look in self.layer.looks.items():  # in drawing order
            trace = self.traces[name]
            if name in self._dirty:
                start = max(self._drawn.get(name, 0) - JOIN, 0)
                x, y = self.points_x(trace)[start:], trace.y.values[start:]
                pieces.append((name, *decimate(x, y, buckets=columns)))
            elif look.marker and len(trace):
                tops.append((name, self.points_x(trace)[-1:], trace.y.values[-1:]))
        self.layer.add(pieces, tops)

    def _everything(self) -> list[Series]:
        """Every series as the layer draws it whole (see `shown`)."""
        return [(name, *self.shown(name)) for name in self.layer.looks if len(self.traces[name])]

    def _grid(self) -> Grid:
        """Horizontal lines at the left axis's ticks (a vertical line would be repainted with every frame's
        strip)."""
        return grid_at_ticks(self.getPlotItem(), ("left",))

    def _columns(self) -> int:
        """One min/max pair per pixel column is all a frame can show."""
        return max(int(self.getPlotItem().getViewBox().width()), 64)

    def paintEvent(self, event: QPaintEvent) -> None:
        started = time.thread_time()
        super().paintEvent(event)
        self._note_paint(time.thread_time() - started)

    def _note_paint(self, seconds: float) -> None:
        """A paint of the plot (its scene: axes, title) or of the layer's screen copy (the curves) adds to the
        cost of the frame it shows, in the GUI thread's CPU time."""
        if self._frame_cost_s is not None:
            self._frame_cost_s += seconds

    @property
    def frame_cost_s(self) -> float:
        """What a frame of this plot costs, the median of the latest: a run's first frames (cold caches, a
        trainer tracing beside them) and an axis re-laid out now and then cost several times a usual one,
        and slowing every frame after them for a second kept new data waiting past REDRAW_PERIOD_MS."""
        return statistics.median(self.frame_costs) if self.frame_costs else 0.0

    def shown(self, name: str) -> tuple[np.ndarray, np.ndarray]:
        """The points of `name` the plot shows when drawn whole: the run's envelope, or the raw points of the
        window zoomed to, at most a min/max pair per pixel column."""
        window = None if self.following() else self.getPlotItem().getViewBox().viewRange()[0]
        return decimate(*self.points(name, window), buckets=self._columns())

    def points(self, name: str, window: list[float] | None = None) -> tuple[np.ndarray, np.ndarray]:
        """The whole run (bounded), or the zoomed window's raw points."""
        trace = self.traces[name]
        x_of = self.x_of(trace)
        if window is None:
            x, y = trace.whole(self.x_axis) if x_of is None else (x_of, trace.y.values.copy())
            return x, y
        if x_of is None:
            return trace.window(self.x_axis, window[0], window[1])
        keep = (x_of >= window[0]) & (x_of <= window[1])
        return x_of[keep], trace.y.values[keep]

    def x_of(self, trace: Trace) -> np.ndarray | None:
        """Where a trace's points go on the x-axis when not its own columns (see GpuPlot)."""
        return None

    def x_moves(self) -> bool:
        """True if points already drawn may move along the x-axis as data arrives (see GpuPlot)."""
        return False

    def x_hi(self) -> float:
        """The far end of this plot's data on the x-axis (0 without data)."""
        ends = [float(self.points_x(t)[-1]) for t in self.traces.values() if len(t)]  # x only grows
        return max([0.0, *(e for e in ends if np.isfinite(e))])

    def hold_range(self, x_hi: float) -> bool:
        """Grow the invisible extent item only when the data leaves it: the axes then stay put. True if it grew."""
        filled = [t for t in self.traces.values() if len(t)]
        if not filled and not x_hi:
            return False
        y_lo = min((t.y_min for t in filled), default=0.0)
        if self.y_from_zero:
            y_lo = min(y_lo, 0.0)
        y_hi = max((t.y_max for t in filled), default=1.0)
        x_range = sticky_range(0.0, x_hi, self._x_range, X_HEADROOM)
        y_range = self.y_fixed or sticky_range(y_lo, y_hi, self._y_range, Y_HEADROOM)
        if (x_range, y_range) != (self._x_range, self._y_range):
            self._x_range, self._y_range = x_range, y_range
            self._extent.setData(list(x_range), list(y_range))
            return True
        return False

    def points_x(self, trace: Trace) -> np.ndarray:
        x = self.x_of(trace)
        return trace.x(self.x_axis) if x is None else x

    def plotted_points(self, name: str) -> int:
        """Points of `name` the last frame showed (all of the run up to then, however few were drawn)."""
        return self._drawn.get(name, 0)

    def displayed_points(self, name: str) -> int:
        """Points of `name` the plot draws when drawn whole (a NaN is not drawn)."""
        x, y = self.shown(name)
        return int(np.count_nonzero(np.isfinite(x) & np.isfinite(y)))

    def clear_data(self) -> None:
        for trace in self.traces.values():
            trace.clear()
        self.layer.invalidate()
        self._dirty.clear()
        self._drawn.clear()
        self._x_range = self._y_range = None
        self._extent.setData([], [])
        self.getPlotItem().enableAutoRange()
