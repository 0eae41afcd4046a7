"""The Live tab's plots: loss, accuracy, throughput, the step anatomy and (with GPUs) utilisation and memory.

New data asks for a frame; frames come at most `frames_per_second` a second, all plots with news painted in
one pass, slower where painting would cost more than PAINT_BUDGET of a core. No timer runs without new data
and nothing is drawn while the tab is hidden. All plots share one x-axis, the global step or the time since
Start; GPU samples are placed on the step axis where training then was. Each plot is a LivePlot
(gui/live/live_plot.py).
"""

from __future__ import annotations

import math
import time
from collections import deque

import numpy as np
from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication, Qt, QTimer
from PySide6.QtGui import QHideEvent, QShowEvent
from PySide6.QtWidgets import QComboBox, QGridLayout, QHBoxLayout, QLabel, QWidget

from engine.core import events as ev
from engine.core.nvml import GpuSample
from gui.live.anatomy_plot import AnatomyPanel
from gui.live.live_plot import (
    FRAME_RATES,
    FRAME_SLACK_MS,
    PAINT_BUDGET,
    LivePlot,
    place_in_pairs,
    x_label,
)
from gui.live.traces import X_AXES, Ema, Trace


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
            elif isinstance(event, (ev.RunStarted, ev.RunFinished, ev.RunFailed)):
                self.anatomy.remedies.observe(event)  # the run's config, and whether a trial may start
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
