"""Live training plots: loss, accuracy and throughput, fed by engine events.

Events are appended to growable numpy buffers as they arrive (cheap); the
curves are redrawn by a timer at ~20 Hz, only when something changed. The
PlotItem does the downsampling and clipping (pyqtgraph's PlotItem.addItem overwrites
the downsampling a curve was given with its own, so it must be set on the PlotItem), which keeps a
frame around 10 ms even with a million points.
"""

from __future__ import annotations

import math

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QGridLayout, QWidget

from engine import events as ev

# One plot per tick, round robin: 20 frames/s in all, each plot about 7 times a second. Painting is what
# the window costs while a run streams (bench/bench_gui_throughput.py), and on a machine whose cores all
# train, every millisecond of it is taken from training.
REDRAW_INTERVAL_MS = 50
EMA_ALPHA_PER_STEP = 0.02  # about a 50-step window: smooth, yet follows a falling loss

pg.setConfigOptions(antialias=False, background="w", foreground="#333")


class GrowableSeries:
    """x/y in numpy arrays that double when full, so appends are amortised O(1)."""

    def __init__(self, capacity: int = 1024) -> None:
        self._x = np.empty(capacity)
        self._y = np.empty(capacity)
        self._n = 0

    def __len__(self) -> int:
        return self._n

    def append(self, x: float, y: float) -> None:
        self.extend(np.array([x], dtype=float), np.array([y], dtype=float))

    def extend(self, x: np.ndarray, y: np.ndarray) -> None:
        end = self._n + len(x)
        if end > len(self._x):
            capacity = max(end, 2 * len(self._x))
            self._x = np.resize(self._x, capacity)
            self._y = np.resize(self._y, capacity)
        self._x[self._n : end] = x
        self._y[self._n : end] = y
        self._n = end

    @property
    def x(self) -> np.ndarray:
        return self._x[: self._n]

    @property
    def y(self) -> np.ndarray:
        return self._y[: self._n]

    def clear(self) -> None:
        self._n = 0


class Ema:
    """Exponential moving average over steps, skipping non-finite values (a NaN must not poison it).

    An event may average several steps (the fit loop reports once per
    `steps_per_execution`), so it weighs as much as that many single steps:
    the smoothing window is the same in steps whichever loop ran.
    """

    def __init__(self, alpha_per_step: float = EMA_ALPHA_PER_STEP) -> None:
        self.alpha_per_step = alpha_per_step
        self.value = math.nan

    def update(self, value: float, steps: int = 1) -> float:
        if math.isfinite(value):
            alpha = 1.0 - (1.0 - self.alpha_per_step) ** max(steps, 1)
            self.value = value if math.isnan(self.value) else self.value + alpha * (value - self.value)
        return self.value

    def smooth(self, values: list[float], steps: list[int]) -> np.ndarray:
        """The smoothed value after each of `values` (one event each): update() over them, in one tight loop
        (a compared run may hold 50,000 points, and this runs on the GUI thread)."""
        keep = np.power(1.0 - self.alpha_per_step, np.maximum(np.asarray(steps, dtype=float), 1.0)).tolist()
        out = []
        value = self.value
        for v, k in zip(values, keep, strict=True):
            if v - v == 0.0:  # finite: NaN and inf fail this
                value = v if value != value else value + (1.0 - k) * (v - value)
            out.append(value)
        self.value = value
        return np.array(out, dtype=float)


class MetricPlot(pg.PlotWidget):
    """One metric: raw and smoothed per batch, train and validation per epoch."""

    STYLES = {
        "batch": dict(pen=pg.mkPen("#9ecae1", width=1), name="per batch"),
        "smoothed": dict(pen=pg.mkPen("#08519c", width=1), name="smoothed (EMA)"),
        "epoch": dict(
            pen=pg.mkPen("#d95f02", width=2),
            symbol="o",
            symbolSize=6,
            symbolBrush="#d95f02",
            symbolPen=None,
            name="epoch (train)",
        ),
        "val": dict(
            pen=pg.mkPen("#1b9e77", width=2, style=pg.QtCore.Qt.PenStyle.DashLine),
            symbol="s",
            symbolSize=6,
            symbolBrush="#1b9e77",
            symbolPen=None,
            name="epoch (validation)",
        ),
    }

    def __init__(
        self,
        title: str,
        y_label: str,
        series: tuple[str, ...],
        legend_at_bottom: bool = False,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        item = self.getPlotItem()
        item.setTitle(title, size="10pt")
        item.setLabel("bottom", "step")
        item.setLabel("left", y_label)
        item.showGrid(x=False, y=True, alpha=0.25)  # translucent grid lines are two thirds of a frame's cost:
        item.getAxis("left").setStyle(maxTickLevel=0)  # horizontal ones at major ticks only
        item.setDownsampling(auto=True, mode="peak")
        item.setClipToView(True)
        for axis in ("left", "bottom"):  # "loss (x0.001)" confuses; re-labelling each frame costs
            item.getAxis(axis).enableAutoSIPrefix(False)
        item.addLegend(
            offset=(-10, -10 if legend_at_bottom else 10),
            labelTextSize="8pt",
            brush=pg.mkBrush(255, 255, 255, 210),
            pen=pg.mkPen("#d5d9e0"),
        )
        self.series = {name: GrowableSeries() for name in series}
        self._curves = {name: item.plot(connect="finite", **self.STYLES[name]) for name in series}
        self._dirty: set[str] = set()
        self.setMinimumHeight(160)

    def append(self, name: str, x: float, y: float | None) -> None:
        if y is None:
            return
        self.series[name].append(x, y)
        self._dirty.add(name)

    def extend(self, name: str, x: np.ndarray, y: np.ndarray) -> None:
        self.series[name].extend(x, y)
        self._dirty.add(name)

    def has_new_data(self) -> bool:
        return bool(self._dirty)

    def redraw(self) -> None:
        for name in self._dirty:
            s = self.series[name]
            self._curves[name].setData(s.x, s.y)
        self._dirty.clear()

    def plotted_points(self, name: str) -> int:
        """Points handed to the curve (before the PlotItem downsamples them for display)."""
        x = self._curves[name].xData
        return 0 if x is None else len(x)

    def displayed_points(self, name: str) -> int:
        """Points the curve actually draws after downsampling and clipping."""
        x, _ = self._curves[name].getData()
        return 0 if x is None else len(x)

    def clear_data(self) -> None:
        for name, s in self.series.items():
            s.clear()
            self._curves[name].setData([], [])
        self._dirty.clear()


class TrainingPlots(QWidget):
    """The three live plots of a run; `add_events` is all a caller needs."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        all_series = ("batch", "smoothed", "epoch", "val")
        self.loss = MetricPlot("Loss", "loss", all_series)
        self.loss.setObjectName("lossPlot")
        self.accuracy = MetricPlot("Accuracy", "accuracy", all_series, legend_at_bottom=True)
        self.accuracy.setObjectName("accuracyPlot")
        self.throughput = MetricPlot(
            "Throughput", "examples / s", ("batch", "smoothed", "epoch"), legend_at_bottom=True
        )
        self.throughput.setObjectName("throughputPlot")
        layout = QGridLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.loss, 0, 0)
        layout.addWidget(self.accuracy, 0, 1)
        layout.addWidget(self.throughput, 1, 0, 1, 2)
        self._plots = (self.loss, self.accuracy, self.throughput)
        self._emas: dict[MetricPlot, Ema] = {}
        self._last_step = 0.0
        self._next = 0
        self.reset()
        self._timer = QTimer(self)
        self._timer.setInterval(REDRAW_INTERVAL_MS)
        self._timer.timeout.connect(self.redraw)
        self._timer.start()

    def reset(self) -> None:
        """Empty every plot for a new run."""
        for plot in self._plots:
            plot.clear_data()
        self._emas = {plot: Ema() for plot in self._plots}
        self._last_step = 0.0

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
        self._add_batches(run)

    def _add_batches(self, batches: list[ev.BatchEnd]) -> None:
        if not batches:
            return
        x = np.fromiter((b.global_step for b in batches), dtype=float, count=len(batches))
        steps = [b.steps for b in batches]
        for plot, values in (
            (self.loss, [b.loss for b in batches]),
            (self.accuracy, [b.accuracy for b in batches]),
            (self.throughput, [b.examples_per_sec for b in batches]),
        ):
            plot.extend("batch", x, np.asarray(values, dtype=float))
            plot.extend("smoothed", x, self._emas[plot].smooth(values, steps))
        self._last_step = float(x[-1])

    def _add_epoch(self, event: ev.EpochEnd) -> None:
        """Placed at the step where the epoch ended, so both scales share one x-axis."""
        self.loss.append("epoch", self._last_step, event.loss)
        self.loss.append("val", self._last_step, event.val_loss)
        self.accuracy.append("epoch", self._last_step, event.accuracy)
        self.accuracy.append("val", self._last_step, event.val_accuracy)
        self.throughput.append("epoch", self._last_step, event.examples_per_sec)

    def _add_evaluation(self, event: ev.Evaluation) -> None:
        """An evaluator task's validation, at the step of its checkpoint: an epoch's end lands on that
        epoch's point, beside the training curves, however late the evaluator got to it."""
        self.loss.append("val", event.global_step, event.val_loss)
        self.accuracy.append("val", event.global_step, event.val_accuracy)

    def redraw(self) -> None:
        """Redraw the next plot with new data (round robin): each frame stays short even
        with a million points per curve, and every plot still refreshes about 7 times a second."""
        for _ in self._plots:
            plot = self._plots[self._next]
            self._next = (self._next + 1) % len(self._plots)
            if plot.has_new_data():
                plot.redraw()
                return

    def redraw_all(self) -> None:
        for plot in self._plots:
            plot.redraw()

    def plotted_points(self) -> int:
        """Per-batch loss points handed to the curve so far (for tests and benchmarks)."""
        return self.loss.plotted_points("batch")
