"""Live training plots: loss, accuracy, throughput and (with GPUs) utilisation and memory per GPU.

Watching must cost training next to nothing, so a frame is cheap however long the run: every point is kept
(gui/live/traces.py) but a plot draws at most a couple of thousand of a series, its axes move on a coarse
grid, and between those moves a frame adds only the new points to an image of the plot and repaints their
strip (gui/live/plot_layer.py). New data asks for a frame; frames come at most `frames_per_second` a second,
all plots with news painted in one pass, slower where painting would cost more than PAINT_BUDGET of a core.
No timer runs without new data and nothing is drawn while the tab is hidden. All plots share one x-axis,
the global step or the time since Start; GPU samples are placed on the step axis where training then was.
"""

from __future__ import annotations

import dataclasses
import html
import math
import statistics
import time
from collections import deque
from typing import TYPE_CHECKING

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication, Qt, QTimer
from PySide6.QtGui import QColor, QHideEvent, QPaintEvent, QPen, QShowEvent
from PySide6.QtWidgets import QComboBox, QGraphicsItem, QGridLayout, QHBoxLayout, QLabel, QWidget

from engine import events as ev
from engine.nvml import GpuSample
from gui import theme
from gui.live.plot_layer import Grid, Look, PlotLayer, Series, extent_item, grid_at_ticks
from gui.live.traces import X_AXES, Ema, Trace, decimate, sticky_range

if TYPE_CHECKING:
    from gui.live.anatomy_plot import AnatomyPanel

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


class MetricPlot(LivePlot):
    """One metric: raw and smoothed per batch, train and validation per epoch."""

    STYLES = {
        "batch": dict(role="batch", label=QT_TRANSLATE_NOOP("LivePlot", "per batch")),
        "smoothed": dict(role="smoothed", label=QT_TRANSLATE_NOOP("LivePlot", "smoothed (EMA)")),
        "epoch": dict(
            role="epoch",
            width=2,
            marker="o",
            marker_size=6,
            label=QT_TRANSLATE_NOOP("LivePlot", "epoch"),
            glyph="●",
        ),
        "val": dict(
            role="validation",
            width=2,
            dashed=True,
            marker="s",
            marker_size=6,
            label=QT_TRANSLATE_NOOP("LivePlot", "validation"),
            glyph="■",
        ),
    }

    def __init__(
        self,
        title: str,
        y_label: str,
        series: tuple[str, ...],
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(title, y_label, parent)
        for name in series:  # batch values are finite (the trainer stops at NaN) and the EMA skips NaN
            style = dict(self.STYLES[name])
            label = QCoreApplication.translate("LivePlot", style.pop("label"))
            self.add_series(name, label, finite=name in ("batch", "smoothed"), **style)


class GpuPlot(LivePlot):
    """Utilisation and memory used, in percent, per GPU: sampled by the clock, drawn on the shared x-axis."""

    y_fixed = (0.0, 100.0)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(self.tr("GPUs"), self.tr("% busy (solid), % memory (dashed)"), parent)
        self.step_at = lambda seconds: seconds  # set by TrainingPlots: seconds since Start -> global step

    def add_samples(self, samples: list[GpuSample], seconds: float) -> None:
        for s in samples:
            if f"{s.tf_name} busy" not in self.traces:
                role = ("gpus", len(self.traces) // 2)
                busy = self.tr("{gpu} busy").format(gpu=s.tf_name)
                self.add_series(f"{s.tf_name} busy", busy, role=role, width=2)
                self.add_series(f"{s.tf_name} memory", self.tr("memory"), "┅", role=role, dashed=True)
            nan = float("nan")  # a gap where NVML had no figure (lost GPU, MIG utilisation)
            busy = nan if s.utilisation_percent is None else float(s.utilisation_percent)
            memory = s.memory_percent
            self.append(f"{s.tf_name} busy", nan, seconds, busy)
            self.append(f"{s.tf_name} memory", nan, seconds, nan if memory is None else memory)

    def x_of(self, trace: Trace) -> np.ndarray | None:
        return self.step_at(trace.time.values) if self.x_moves() else None

    def x_moves(self) -> bool:
        """On the step axis a sample sits where training was at its time, known better as batches arrive."""
        return self.x_axis == "step"


class TrainingPlots(QWidget):
    """The live plots of a run; `add_events` and `add_gpu_samples` are all a caller needs."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        all_series = ("batch", "smoothed", "epoch", "val")
        self.loss = MetricPlot(self.tr("Loss"), self.tr("loss"), all_series)
        self.loss.setObjectName("lossPlot")
        self.accuracy = MetricPlot(self.tr("Accuracy"), self.tr("accuracy"), all_series)
        self.accuracy.setObjectName("accuracyPlot")
        self.throughput = MetricPlot(self.tr("Throughput"), self.tr("examples / s"), ("batch", "smoothed", "epoch"))
        self.throughput.setObjectName("throughputPlot")
        self.gpus = GpuPlot()
        self.gpus.setObjectName("gpuPlot")
        self.gpus.step_at = self._step_at
        self.gpus.setVisible(False)  # until a GPU sample arrives
        from gui.live.anatomy_plot import AnatomyPanel  # its plot is a LivePlot of this module

        self.anatomy: AnatomyPanel = AnatomyPanel()
        self.anatomy.setVisible(False)  # until a step anatomy arrives
        self.x_axis = QComboBox(objectName="xAxisChoice")
        for axis in X_AXES:
            self.x_axis.addItem(x_label(axis), axis)
        self.x_axis.setToolTip(self.tr("The x-axis of every plot: training steps, or seconds since Start"))
        self.x_axis.currentIndexChanged.connect(lambda _: self.set_x_axis(self.x_axis.currentData()))
        bar = QHBoxLayout()
        bar.addStretch(1)
        x_caption = QLabel(self.tr("&x-axis:"))
        x_caption.setBuddy(self.x_axis)
        self.x_axis.setAccessibleName(self.tr("x-axis"))
        bar.addWidget(x_caption)
        bar.addWidget(self.x_axis)
        layout = QGridLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(bar, 0, 0, 1, 2)
        layout.addWidget(self.loss, 1, 0)
        layout.addWidget(self.accuracy, 1, 1)
        for chart in (self.throughput, self.anatomy, self.gpus):  # children of this widget; _place_lower places them
            layout.addWidget(chart, 2, 0)
        self._metric_plots = (self.loss, self.accuracy, self.throughput)
        self._plots: tuple[LivePlot, ...] = (*self._metric_plots, self.anatomy.plot, self.gpus)
        self._emas: dict[LivePlot, Ema] = {}
        self._last_step = 0.0
        self._origin = time.time()
        self._next_frame_at = 0.0  # perf_counter() before which no frame is drawn (the pace)
        self.frame_times: deque[float] = deque(maxlen=10_000)  # when frames were drawn (perf_counter), for benches
        self.frames_per_second = FRAME_RATES[0]
        self._place_lower()
        # armed by new data, for when the pace allows a frame; precise: a coarse timer may fire 5 % late, and new
        # data then waited 102-106 ms for a frame
        self._timer = QTimer(self, singleShot=True, timerType=Qt.TimerType.PreciseTimer)
        self._timer.timeout.connect(self._frame)
        self._pending: list[LivePlot] = []  # a frame's plots left for the next pass of Qt's repaint
        self._next_pass = QTimer(self, singleShot=True, interval=1)  # Qt paints (a posted event) before it fires
        self._next_pass.timeout.connect(self._redraw_pending)
        self.reset()

    # ---- data --------------------------------------------------------------------------------
    def reset(self, origin: float | None = None) -> None:
        """Empty every plot for a new run; `origin` (wall-clock seconds) is the time axis's zero."""
        for plot in self._plots:
            plot.clear_data()
        self.anatomy.clear()
        self._emas = {plot: Ema() for plot in self._metric_plots}
        self._last_step = 0.0
        self._origin = time.time() if origin is None else origin

    def add_events(self, events: list[ev.Event]) -> None:
        """Take a batch of events; the curves catch up at the next redraw.

        Runs of batch events are appended as arrays: at full speed a trainer
        sends thousands per second and per-point Python would starve the GUI.
        """
        run: list[ev.BatchEnd] = []
        for event in events:
            if type(event) is ev.BatchEnd:
                run.append(event)
            elif isinstance(event, ev.EpochEnd):
                self._add_batches(run)
                run = []
                self._add_epoch(event)
            elif isinstance(event, ev.Evaluation):
                self._add_evaluation(event)
            elif isinstance(event, ev.StepAnatomy):
                self._add_batches(run)  # its steps' times are known from their batches
                run = []
                self._add_anatomy(event)
        self._add_batches(run)
        if self.loss.plotted_points("batch") == 0 and self.loss.has_new_data() and self._showing():
            self._draw([self.loss])  # a run's first point at once, not at the next frame
        self._schedule_frame()

    def add_gpu_samples(self, samples: list[GpuSample]) -> None:
        if samples:
            self.gpus.add_samples(samples, samples[0].time - self._origin)
            if self.gpus.isHidden():
                self.gpus.setVisible(True)
                self._place_lower()
            self._schedule_frame()

    def _add_batches(self, batches: list[ev.BatchEnd]) -> None:
        if not batches:
            return
        n = len(batches)
        step = np.fromiter((b.global_step for b in batches), dtype=float, count=n)
        seconds = np.fromiter((b.time for b in batches), dtype=float, count=n) - self._origin
        steps = [b.steps for b in batches]
        for plot, values in (
            (self.loss, [b.loss for b in batches]),
            (self.accuracy, [b.accuracy for b in batches]),
            (self.throughput, [b.examples_per_sec for b in batches]),
        ):
            plot.extend("batch", step, seconds, np.asarray(values, dtype=float))
            plot.extend("smoothed", step, seconds, self._emas[plot].smooth(values, steps))
        self._last_step = float(step[-1])

    def _add_epoch(self, event: ev.EpochEnd) -> None:
        """Placed where the epoch ended, so epochs and batches share one x-axis."""
        at = (self._last_step, event.time - self._origin)
        self.loss.append("epoch", *at, event.loss)
        self.loss.append("val", *at, event.val_loss)
        self.accuracy.append("epoch", *at, event.accuracy)
        self.accuracy.append("val", *at, event.val_accuracy)
        self.throughput.append("epoch", *at, event.examples_per_sec)

    def _add_evaluation(self, event: ev.Evaluation) -> None:
        """An evaluator task's validation, at the step of its checkpoint: an epoch's end lands on that
        epoch's point, beside the training curves, however late the evaluator got to it."""
        at = (event.global_step, self._time_at(event.global_step))
        self.loss.append("val", *at, event.val_loss)
        self.accuracy.append("val", *at, event.val_accuracy)

    def _add_anatomy(self, event: ev.StepAnatomy) -> None:
        """Over the steps it covers: from where training was when they began to the event's time."""
        self.anatomy.add(event, self._time_at(max(event.global_step - event.steps, 0)), event.time - self._origin)
        if self.anatomy.isHidden():
            self.anatomy.setVisible(True)
            self._place_lower()

    def _time_at(self, step: float) -> float:
        """The seconds since Start at which training reached `step` (the inverse of _step_at)."""
        batches = self.loss.traces["batch"]
        if not len(batches):
            return 0.0
        return float(np.interp(step, batches.step.values, batches.time.values))

    def _step_at(self, seconds: np.ndarray) -> np.ndarray:
        """The global step training had reached at each time (0 before the first step)."""
        batches = self.loss.traces["batch"]
        if not len(batches):
            return np.zeros_like(seconds)
        return np.interp(seconds, batches.time.values, batches.step.values, left=0.0)

    # ---- drawing ---------------------------------------------------------------------------
    def set_x_axis(self, axis: str) -> None:
        """Every plot on the global step, or on the seconds since Start."""
        index = self.x_axis.findData(axis)
        if index != self.x_axis.currentIndex():
            self.x_axis.setCurrentIndex(index)  # comes back here through the signal
            return
        for plot in self._plots:
            plot.set_x_axis(axis)
        self.redraw_all()

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        self.redraw_all()  # whatever arrived while hidden

    def hideEvent(self, event: QHideEvent) -> None:
        super().hideEvent(event)
        self._timer.stop()  # a hidden tab or a minimised window draws nothing
        self._next_pass.stop()
        self._pending = []  # their data stays new: shown again, they are drawn

    def _showing(self) -> bool:
        return self.isVisible() and not self.window().isMinimized()

    def _schedule_frame(self) -> None:
        """New data: a frame now if the pace allows one within FRAME_SLACK_MS (at once after a pause), else
        one FRAME_SLACK_MS after the pace allows, unless one is due."""
        if not self._showing():
            return
        wait_ms = 1000 * (self._next_frame_at - time.perf_counter())
        if wait_ms <= FRAME_SLACK_MS:
            self._timer.start(0)
        elif not self._timer.isActive():
            self._timer.start(math.ceil(wait_ms + FRAME_SLACK_MS))

    def _frame(self) -> None:
        """Every plot with new data; the next frame no sooner than the pace allows, counted from this one's start
        (from its end, frames came 102 ms apart in the median, and new data waited up to 107 ms)."""
        if not self._showing():
            return
        shown = [p for p in self._plots if not p.isHidden()]
        x_hi = self._x_hi()
        self._pending = [p for p in shown if p.has_new_data() or p.lags(x_hi)]
        if self._pending:
            started = time.perf_counter()
            self._redraw_pending()
            self.frame_times.append(time.perf_counter())
            self._next_frame_at = started + self.frame_period_ms(shown) / 1000

    def _redraw_pending(self) -> None:
        """The frame's plots, painted together in the pass of Qt's repaint that follows (a pass per plot cost
        the window 8-14 % more CPU: each pass is a round of Qt's repaint machinery), except after a plot whose
        range moved: its axes are re-laid out as it is painted (5-13 ms a plot here, with the engine training
        beside it), so the rest wait for the next pass, and the event loop never stalls for the sum."""
        x_hi = self._x_hi()
        while self._pending:
            if self._pending.pop(0).redraw(x_hi) and self._pending:
                self._next_pass.start()
                return

    def set_frames_per_second(self, rate: int) -> None:
        """The most frames a second while a run streams, one of FRAME_RATES: fewer leave more CPU to training.
        Applies from the next frame."""
        if rate not in FRAME_RATES:
            raise ValueError(f"frames a second must be one of {FRAME_RATES}, not {rate!r}")
        self.frames_per_second = rate
        self._next_frame_at = min(self._next_frame_at, time.perf_counter() + 1 / rate)
        if self._timer.isActive():  # a frame due later than the new pace allows comes sooner
            self._timer.stop()
            self._schedule_frame()

    def frame_period_ms(self, shown: list[LivePlot]) -> float:
        """1000 / frames_per_second while a frame of every plot is cheap; longer when that would cost more than
        PAINT_BUDGET of a core."""
        cost = sum(p.frame_cost_s for p in shown)
        return max(1000 * cost / PAINT_BUDGET, 1000 / self.frames_per_second)

    def _draw(self, plots: list[LivePlot]) -> None:
        """These plots redrawn at once, as one frame, on one x range from all their data (not pyqtgraph's
        setXLink, with which every frame of one plot repainted all of them, twice)."""
        x_hi = self._x_hi()
        for plot in plots:
            plot.redraw(x_hi)
        self.frame_times.append(time.perf_counter())

    def _x_hi(self) -> float:
        return max(plot.x_hi() for plot in self._plots)

    def redraw_all(self) -> None:
        """Every plot with new data at once: a tab shown again, another x-axis chosen (a user's action, where
        one long frame is fine)."""
        self._pending = []
        if drawn := [plot for plot in self._plots if plot.has_new_data()]:
            self._draw(drawn)

    def _place_lower(self) -> None:
        """Throughput, the step anatomy (once one arrived) and the GPUs (once sampled) two to a row under loss
        and accuracy, the anatomy beside throughput; a chart alone in its row spans it."""
        layout = self.layout()
        assert isinstance(layout, QGridLayout)
        place_in_pairs(layout, [self.throughput, self.anatomy, self.gpus], first_row=2)

    def plotted_points(self) -> int:
        """Per-batch loss points the last frame showed (for tests and benchmarks)."""
        return self.loss.plotted_points("batch")
