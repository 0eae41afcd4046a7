"""Live training plots: loss, accuracy and throughput, fed by engine events.

Events are appended to growable numpy buffers as they arrive (cheap); the
curves are redrawn by a timer at ~20 Hz, only when something changed. The
PlotItem does the downsampling and clipping (FACTS.md 12), which keeps a
frame around 10 ms even with a million points.
"""
from __future__ import annotations

import math

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QGridLayout, QWidget

from engine import events as ev

REDRAW_INTERVAL_MS = 50
EMA_ALPHA = 0.05  # about a 40-event window: smooth, yet follows a falling loss

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
        if self._n == len(self._x):
            self._x = np.resize(self._x, 2 * self._n)
            self._y = np.resize(self._y, 2 * self._n)
        self._x[self._n] = x
        self._y[self._n] = y
        self._n += 1

    @property
    def x(self) -> np.ndarray:
        return self._x[: self._n]

    @property
    def y(self) -> np.ndarray:
        return self._y[: self._n]

    def clear(self) -> None:
        self._n = 0


class Ema:
    """Exponential moving average that skips non-finite values (a NaN loss must not poison it)."""

    def __init__(self, alpha: float = EMA_ALPHA) -> None:
        self.alpha = alpha
        self.value = math.nan

    def update(self, value: float) -> float:
        if math.isfinite(value):
            self.value = value if math.isnan(self.value) else self.value + self.alpha * (value - self.value)
        return self.value


class MetricPlot(pg.PlotWidget):
    """One metric: raw and smoothed per batch, train and validation per epoch."""

    STYLES = {
        "batch": dict(pen=pg.mkPen("#9ecae1", width=1), name="per batch"),
        "smoothed": dict(pen=pg.mkPen("#08519c", width=2), name="smoothed (EMA)"),
        "epoch": dict(pen=pg.mkPen("#d95f02", width=2), symbol="o", symbolSize=6,
                      symbolBrush="#d95f02", symbolPen=None, name="epoch (train)"),
        "val": dict(pen=pg.mkPen("#1b9e77", width=2, style=pg.QtCore.Qt.PenStyle.DashLine), symbol="s",
                    symbolSize=6, symbolBrush="#1b9e77", symbolPen=None, name="epoch (validation)"),
    }

    def __init__(self, title: str, y_label: str, series: tuple[str, ...], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        item = self.getPlotItem()
        item.setTitle(title, size="10pt")
        item.setLabel("bottom", "step")
        item.setLabel("left", y_label)
        item.showGrid(x=True, y=True, alpha=0.25)
        item.setDownsampling(auto=True, mode="peak")
        item.setClipToView(True)
        item.addLegend(offset=(-10, 10), labelTextSize="8pt")
        self.series = {name: GrowableSeries() for name in series}
        self._curves = {name: item.plot(connect="finite", **self.STYLES[name]) for name in series}
        self._dirty: set[str] = set()
        self.setMinimumHeight(160)

    def append(self, name: str, x: float, y: float | None) -> None:
        if y is None:
            return
        self.series[name].append(x, y)
        self._dirty.add(name)

    def redraw(self) -> None:
        for name in self._dirty:
            s = self.series[name]
            self._curves[name].setData(s.x, s.y)
        self._dirty.clear()

    def plotted_points(self, name: str) -> int:
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
        self.accuracy = MetricPlot("Accuracy", "accuracy", all_series)
        self.accuracy.setObjectName("accuracyPlot")
        self.throughput = MetricPlot("Throughput", "examples / s", ("batch", "smoothed", "epoch"))
        self.throughput.setObjectName("throughputPlot")
        layout = QGridLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.loss, 0, 0)
        layout.addWidget(self.accuracy, 0, 1)
        layout.addWidget(self.throughput, 1, 0, 1, 2)
        self._plots = (self.loss, self.accuracy, self.throughput)
        self._emas: dict[MetricPlot, Ema] = {}
        self._last_step = 0.0
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
        """Take a batch of events; the curves catch up at the next redraw."""
        for event in events:
            if isinstance(event, ev.BatchEnd):
                self._last_step = float(event.global_step)
                for plot, value in ((self.loss, event.loss), (self.accuracy, event.accuracy),
                                    (self.throughput, event.examples_per_sec)):
                    plot.append("batch", self._last_step, value)
                    plot.append("smoothed", self._last_step, self._emas[plot].update(value))
            elif isinstance(event, ev.EpochEnd):
                # placed at the step where the epoch ended, so both scales share one x-axis
                self.loss.append("epoch", self._last_step, event.loss)
                self.loss.append("val", self._last_step, event.val_loss)
                self.accuracy.append("epoch", self._last_step, event.accuracy)
                self.accuracy.append("val", self._last_step, event.val_accuracy)
                self.throughput.append("epoch", self._last_step, event.examples_per_sec)

    def redraw(self) -> None:
        for plot in self._plots:
            plot.redraw()

    def plotted_points(self) -> int:
        """Per-batch loss points handed to the curve so far (for tests and benchmarks)."""
        return self.loss.plotted_points("batch")
