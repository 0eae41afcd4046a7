"""Compare runs: their loss, accuracy and throughput curves overlaid, one colour per run.

The x-axis is the global step, the epoch (metrics.csv's rows, validation dashed) or wall time. Batch curves are
smoothed per step with the live plots' EMA, the raw curve faint behind. The first MAX_COMPARED selected runs
are drawn RUNS_PER_TURN at a time, one plot per turn of the event loop, so the window stays responsive.
"""

from __future__ import annotations

import threading
import weakref
from dataclasses import dataclass, replace

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QT_TRANSLATE_NOOP, Qt, QTimer, Signal
from PySide6.QtGui import QColor, QPen
from PySide6.QtWidgets import QComboBox, QGridLayout, QHBoxLayout, QLabel, QSlider, QVBoxLayout, QWidget

from engine.core.events import StepAnatomy
from engine.core.runs.history import Curves
from gui import theme
from gui.keyboard import plain_label
from gui.live.live_plot import place_in_pairs
from gui.live.plot_layer import Look
from gui.runs.anatomy_bars import AnatomyBars
from gui.runs.compare_plot import ComparePlot, Curve
from gui.runs.history_process import smooth_per_step
from gui.theme import WidgetRole, set_role

X_AXES = {
    "step": QT_TRANSLATE_NOOP("ComparePlots", "step"),
    "epoch": QT_TRANSLATE_NOOP("ComparePlots", "epoch"),
    "wall time": QT_TRANSLATE_NOOP("ComparePlots", "wall time since start (s)"),
}
X_AXIS_NAMES = {"wall time": QT_TRANSLATE_NOOP("ComparePlots", "wall time")}
METRICS = (
    ("loss", QT_TRANSLATE_NOOP("ComparePlots", "Loss"), QT_TRANSLATE_NOOP("ComparePlots", "loss")),
    ("accuracy", QT_TRANSLATE_NOOP("ComparePlots", "Accuracy"), QT_TRANSLATE_NOOP("ComparePlots", "accuracy")),
    (
        "examples_per_sec",
        QT_TRANSLATE_NOOP("ComparePlots", "Throughput"),
        QT_TRANSLATE_NOOP("ComparePlots", "examples / s"),
    ),
)
BATCH_METRICS = tuple(m for m, _, _ in METRICS)
DEFAULT_SMOOTHING = 90  # percent: the past weighs 0.9 per step, about a 10-step window
RAW_ALPHA = 60
RUNS_PER_TURN = 4  # runs added to a plot per turn of the event loop
# between one plot's new curves and the next's, so each plot's first paint (its axes laid out, its image drawn)
# comes in a turn of its own; drawn back to back, several plots were painted in one pass (BENCHMARKS.md, Runs tab)
PLOT_SPACING_MS = 40
MAX_COMPARED = 20  # runs drawn at once: more is unreadable, and each costs pyqtgraph items on the GUI thread


def colour(index: int) -> QColor:
    """The `index`-th compared run's colour in the theme in force (gui.theme.PlotPalette.runs)."""
    return QColor(theme.current().plot.colour(("runs", index)))


@dataclass(frozen=True)
class ComparedRun:
    label: str
    curves: Curves
    colour: QColor
    anatomy: StepAnatomy | None = None  # where its steps' time went (the run's summary)


def batch_series(curves: Curves, metric: str, x_axis: str, smoothing: float) -> tuple[np.ndarray, ...]:
    """(x, raw y, smoothed y) of a batch metric; smoothing is the EMA's weight of the past, per step."""
    return *raw_series(curves, metric, x_axis), smoothed(curves, metric, smoothing)


def raw_series(curves: Curves, metric: str, x_axis: str) -> tuple[np.ndarray, np.ndarray]:
    """(x, raw y) of a batch metric on the step or wall-time axis."""
    x = np.asarray(curves.global_step if x_axis == "step" else curves.time, dtype=float)
    return x, np.asarray(getattr(curves, metric), dtype=float)


_SMOOTHED: dict[int, tuple[weakref.ref, dict[tuple[str, float], np.ndarray]]] = {}
_SMOOTHED_LOCK = threading.RLock()  # re-entrant: a weakref callback (_forget) may run while it is held


def smoothed(curves: Curves, metric: str, smoothing: float) -> np.ndarray:
    """A batch metric smoothed per step, computed once per run's curves and weight.

    Smoothing 50,000 points takes tens of milliseconds, too long for the GUI
    thread: the history reader process smooths the selected runs' curves, the
    loader keeps the results here (keep_smoothed), and the plots find them.
    """
    with _SMOOTHED_LOCK:
        found = _smoothed_of(curves).get((metric, round(smoothing, 2)))
    if found is None:
        found = smooth_per_step(curves, metric, smoothing)
        keep_smoothed(curves, metric, smoothing, found)
    return found


def keep_smoothed(curves: Curves, metric: str, smoothing: float, values: np.ndarray) -> None:
    """Remember a run's metric smoothed at `smoothing` (computed elsewhere) for `smoothed` to find."""
    with _SMOOTHED_LOCK:
        _smoothed_of(curves)[(metric, round(smoothing, 2))] = values


def _smoothed_of(curves: Curves) -> dict[tuple[str, float], np.ndarray]:
    """The smoothed series kept for this very object (an id can be reused once one is gone); lock held."""
    ref, done = _SMOOTHED.get(id(curves), (None, {}))
    if ref is None or ref() is not curves:
        done = {}
        key_id = id(curves)
        _SMOOTHED[key_id] = (weakref.ref(curves, lambda _r: _forget(key_id)), done)
    return done


def _forget(key: int) -> None:
    with _SMOOTHED_LOCK:
        _SMOOTHED.pop(key, None)


def epoch_series(curves: Curves, metric: str) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
    """(epoch, train value, validation value or None) from the run's metrics.csv rows."""
    rows = [r for r in curves.epochs if "epoch" in r and metric in r]
    x = np.array([r["epoch"] for r in rows], dtype=float)
    y = np.array([r[metric] for r in rows], dtype=float)
    val = [r.get(f"val_{metric}") for r in rows]
    has_val = bool(rows) and all(v is not None for v in val)
    return x, y, np.array(val, dtype=float) if has_val else None


def bounds(series: list[tuple[np.ndarray, ...]]) -> tuple[list[float], list[float]] | None:
    """([x min, x max], [y min, y max]) over every finite point of these (x, y, more y…) series; None if none."""
    xs, ys = [], []
    for x, *values in series:
        for y in values:
            finite = np.isfinite(x) & np.isfinite(y)
            xs.append(x[finite])
            ys.append(y[finite])
    x, y = np.concatenate([[], *xs]), np.concatenate([[], *ys])
    if not len(x):
        return None
    return [float(x.min()), float(x.max())], [float(y.min()), float(y.max())]


def gpu_series(curves: Curves, x_axis: str) -> list[tuple[str, np.ndarray, np.ndarray, np.ndarray]]:
    """(GPU, x, % busy, % memory) per GPU; on the step axis a sample sits where training was at its time."""
    out = []
    for name in dict.fromkeys(s.tf_name for s in curves.gpu):
        samples = [s for s in curves.gpu if s.tf_name == name]
        t = np.array([s.time for s in samples], dtype=float)
        x = np.interp(t, curves.time, curves.global_step, left=0.0) if x_axis == "step" and curves.time else t
        busy = np.array([np.nan if s.utilisation_percent is None else s.utilisation_percent for s in samples])
        memory = np.array([np.nan if s.memory_percent is None else s.memory_percent for s in samples])
        out.append((name, x, busy, memory))
    return out


class ComparePlots(QWidget):
    """Three plots over several runs, with the x-axis combo and the smoothing slider."""

    drawn = Signal()
    """Every plot shows the current runs (plots are drawn one per turn of the event loop)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.runs: list[ComparedRun] = []
        self._to_draw: list[str] = []  # the plots (METRICS' keys, "gpu") not yet drawn for the current runs
        self._next = QTimer(self, singleShot=True, interval=PLOT_SPACING_MS)
        self._next.timeout.connect(self._draw_next)
        self.x_axis = QComboBox(objectName="compareXAxisCombo")
        for axis in X_AXES:  # the data is the key, the text the axis's name in the window's language
            self.x_axis.addItem(self.tr(X_AXIS_NAMES.get(axis, X_AXES[axis])), axis)
        self.x_axis.setToolTip(
            self.tr("step and wall time show every batch; epoch shows per-epoch means with validation (dashed)")
        )
        self.smoothing = QSlider(Qt.Orientation.Horizontal, objectName="smoothingSlider")
        self.smoothing.setRange(0, 99)
        self.smoothing.setValue(DEFAULT_SMOOTHING)
        self.smoothing.setMaximumWidth(220)
        self.smoothing.setToolTip(
            self.tr("Exponential moving average per step: 0 shows the raw curve, higher values smooth more")
        )
        self.smoothing_value = QLabel()
        self.smoothing_value.setMinimumWidth(32)
        self.hint = QLabel(objectName="compareHint")
        set_role(self.hint, WidgetRole.HINT)
        self.limit_note = QLabel(objectName="compareLimitNote")
        self.limit_note.setToolTip(
            self.tr("Only the first selected runs, in the table's order, are drawn; select fewer to see others")
        )
        self.limit_note.hide()
        controls = QHBoxLayout()
        for caption, field in ((self.tr("&x-axis:"), self.x_axis), (self.tr("s&moothing:"), self.smoothing)):
            label = QLabel(caption)
            label.setBuddy(field)
            field.setAccessibleName(plain_label(caption))
            controls.addWidget(label)
            controls.addWidget(field)
            controls.addSpacing(16)
        controls.insertWidget(controls.indexOf(self.smoothing) + 1, self.smoothing_value)
        controls.addWidget(self.hint, 1)
        controls.addWidget(self.limit_note)
        self.plots = {
            metric: ComparePlot(self.tr(title), self.tr(y_label), f"compare{title}Plot", legend=metric == "loss")
            for metric, title, y_label in METRICS  # compareLossPlot, …
        }
        self.legend = self.plots["loss"].legend
        self.grid = QGridLayout()
        self.grid.addWidget(self.plots["loss"], 0, 0)
        self.grid.addWidget(self.plots["accuracy"], 0, 1)
        self.gpu_plot = ComparePlot(
            self.tr("GPU utilisation"), self.tr("% busy (solid), % memory (dashed)"), "compareGpuPlot"
        )
        self.anatomy_plot = AnatomyBars(self.tr("Step anatomy"), "compareAnatomyPlot")
        self.anatomy_plot.setVisible(False)  # until a compared run has an anatomy
        for chart in (self.plots["examples_per_sec"], self.anatomy_plot, self.gpu_plot):  # placed when children
            self.grid.addWidget(chart, 1, 0)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(controls)
        layout.addLayout(self.grid, 1)
        self._place_lower()
        self.x_axis.currentIndexChanged.connect(self.redraw)
        self.smoothing.valueChanged.connect(self.redraw)
        self.restyle(theme.current())
        theme.manager().changed.connect(self.restyle)

    def restyle(self, scheme: theme.Theme) -> None:
        """Plots in `scheme`'s colours, and each run in its colour there."""
        for plot in (*self.plots.values(), self.gpu_plot):
            theme.style_plot(plot, scheme)
        self.runs = [replace(run, colour=colour(i)) for i, run in enumerate(self.runs)]
        self.redraw()

    def set_runs(self, runs: list[ComparedRun]) -> None:
        """Draw these runs (at most MAX_COMPARED: the caller picks which)."""
        self.runs = list(runs[:MAX_COMPARED])
        self.redraw()

    def show_selected(self, selected: int) -> None:
        """Say how many of the `selected` runs are drawn, when that is not all of them."""
        limited = selected > len(self.runs)
        if limited:
            self.limit_note.setText(
                self.tr("showing {shown} of %n selected run(s)", "", selected).format(shown=len(self.runs))
            )
        self.limit_note.setVisible(limited)

    def smoothing_weight(self) -> float:
        return self.smoothing.value() / 100.0

    @property
    def drawing(self) -> bool:
        """Some plots do not show the current runs yet."""
        return bool(self._to_draw)

    def redraw(self) -> None:
        """Rebuild every curve, one plot per turn of the event loop, PLOT_SPACING_MS apart: a plot's new items
        and its paint cost the GUI thread tens of milliseconds, and all plots at once stalled the window for
        their sum."""
        by_epoch = self.x_axis.currentData() == "epoch"
        self.smoothing.setEnabled(not by_epoch)
        self.smoothing_value.setText(f"{self.smoothing_weight():.2f}")
        if not self.runs:
            self.hint.setText(self.tr("Select runs in the table to compare them (Ctrl- or Shift-click for several)."))
        else:
            self.hint.setText(
                self.tr("solid: training, dashed: validation") if by_epoch else self.tr("faint: raw, solid: smoothed")
            )
        starts = range(0, max(len(self.runs), 1), RUNS_PER_TURN)
        self._to_draw = [(plot, start) for plot in (*self.plots, "gpu") for start in starts] + [("anatomy", 0)]
        self._next.start()

    def _draw_next(self) -> None:
        """Draw the next few runs into one plot; the rest follow after the event loop has painted them."""
        if not self._to_draw:
            return
        x_axis = self.x_axis.currentData()
        metric, start = self._to_draw.pop(0)
        runs = self.runs[start : start + RUNS_PER_TURN]
        if metric == "gpu":
            self._plot_gpus(runs, x_axis, first=start == 0)
        elif metric == "anatomy":
            self._plot_anatomies()
        else:
            plot = self.plots[metric]
            if start == 0:
                self._start(plot, x_axis, self._metric_bounds(metric, x_axis))
            lines = [(run, self._lines(run, metric, x_axis)) for run in runs]
            legend = {run.label: self._solid(run, x_axis == "epoch") for run, drawn in lines if drawn}
            plot.add([line for _run, drawn in lines for line in drawn], legend)
        if self._to_draw:
            self._next.start()
        else:
            self.drawn.emit()

    def _start(self, plot: ComparePlot, x_axis: str, extent: tuple[list[float], list[float]] | None) -> None:
        """A plot's first turn: no lines, its x-axis named, its range fit to every run's points at once (the
        runs come a few per turn: its axes are laid out once per redraw), following them as it did."""
        plot.clear_lines()
        plot.getPlotItem().setLabel("bottom", self.tr(X_AXES[x_axis]))
        plot.hold(extent)
        plot.getPlotItem().enableAutoRange()

    def _plot_gpus(self, runs: list[ComparedRun], x_axis: str, first: bool) -> None:
        """Runs' GPUs (from their gpus.csv), on the step or wall-time axis; shown only when a run has them."""
        gpu_axis = "step" if x_axis == "step" else "wall time"
        if first:
            self._show(self.gpu_plot, any(run.curves.gpu for run in self.runs))
            extent = bounds([s[1:] for run in self.runs for s in gpu_series(run.curves, gpu_axis)])
            self._start(self.gpu_plot, gpu_axis, extent)
        curves = []
        for run in runs:
            dashed = Look(pg.mkPen(run.colour, width=1, style=Qt.PenStyle.DashLine), gaps=True)
            for _gpu, x, busy, memory in gpu_series(run.curves, gpu_axis):
                curves += [Curve(self._solid(run), x, busy, run.label), Curve(dashed, x, memory, run.label)]
        self.gpu_plot.add(curves)

    def _plot_anatomies(self) -> None:
        """Each run's step anatomy as a stacked bar; shown only when a run has one."""
        self._show(self.anatomy_plot, any(run.anatomy for run in self.runs))
        self.anatomy_plot.show_bars([run.label for run in self.runs], [run.anatomy for run in self.runs])

    def _show(self, plot: QWidget, shown: bool) -> None:
        if plot.isHidden() == shown:
            plot.setVisible(shown)
            self._place_lower()

    def _place_lower(self) -> None:
        """Throughput, the step anatomies and the GPUs, those shown, two to a row under loss and accuracy."""
        place_in_pairs(self.grid, [self.plots["examples_per_sec"], self.anatomy_plot, self.gpu_plot], first_row=1)

    def _metric_bounds(self, metric: str, x_axis: str) -> tuple[list[float], list[float]] | None:
        """Where every run's points of `metric` lie (a smoothed curve stays within its raw points)."""
        if x_axis == "epoch":
            return bounds([tuple(v for v in epoch_series(run.curves, metric) if v is not None) for run in self.runs])
        return bounds([raw_series(run.curves, metric, x_axis) for run in self.runs])

    @staticmethod
    def _solid(run: ComparedRun, marked: bool = False, marker: str = "o") -> Look:
        """A run's main line, 2 pixels wide in its colour; `marked`, with a `marker` at every point (epochs)."""
        pen = pg.mkPen(run.colour, width=2)
        if not marked:
            return Look(pen, gaps=True)  # a NaN leaves a gap
        return Look(pen, marker, 6 if marker == "o" else 5, pg.mkBrush(run.colour))

    def _lines(self, run: ComparedRun, metric: str, x_axis: str) -> list[Curve]:
        """A run's lines of `metric`: faint raw and smoothed batches, or epochs and dashed validation."""
        if x_axis == "epoch":
            x, y, val = epoch_series(run.curves, metric)
            if not len(x):
                return []
            lines = [Curve(self._solid(run, True), x, y, run.label)]
            if val is not None:
                look = self._solid(run, True, "s")
                pen = QPen(look.pen)
                pen.setStyle(Qt.PenStyle.DashLine)
                lines.append(Curve(replace(look, pen=pen), x, val, run.label))
            return lines
        if not run.curves.global_step:
            return []
        smoothing = self.smoothing_weight()
        x, raw, smooth = batch_series(run.curves, metric, x_axis, smoothing)
        lines = [Curve(self._solid(run), x, smooth, run.label)]
        if smoothing > 0:
            faint = QColor(run.colour)
            faint.setAlpha(RAW_ALPHA)
            lines.insert(0, Curve(Look(pg.mkPen(faint, width=1), gaps=True), x, raw, run.label))
        return lines
