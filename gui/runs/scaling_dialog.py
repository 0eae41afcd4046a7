"""The scaling study dialog: did more replicas make training faster?

It runs the run form's config with 1, 2, 4 … replicas (engine.tools.scaling, in
the background), then charts examples/s, scaling efficiency and the step anatomy
(where a step's time goes) per replica count, with a table, a one-line verdict
and a sentence on what happened to a step. Every number is the engine's;
the dialog only checks the counts up front (engine.core.config.validate of each
variant) so a batch that cannot be split is fixed before minutes are spent.
"""

from __future__ import annotations

import os
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication, Qt
from PySide6.QtGui import QCloseEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QDialog,
    QDialogButtonBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QProgressBar,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from engine.core import anatomy
from engine.core import events as ev
from engine.core.config import RunConfig, Strategy, validate, with_replicas
from engine.core.protocol.commands import scaling_command
from gui import theme
from gui.exports import add_export_action
from gui.i18n import problem_text, translate
from gui.runner import TrainingRunner
from gui.runs.anatomy_bars import AnatomyBars
from gui.theme import WidgetRole, set_role

ScalingPoint = ev.ScalingPoint
StudyCommand = Callable[[Path, list[int], Path], list[str]]  # (config file, counts, study folder) -> command

DEFAULT_COUNTS = "1, 2, 4"
MAX_COUNT = 64
TABLE_COLUMNS = (
    QT_TRANSLATE_NOOP("ScalingDialog", "Replicas"),
    QT_TRANSLATE_NOOP("ScalingDialog", "Examples/s"),
    QT_TRANSLATE_NOOP("ScalingDialog", "Speed-up"),
    QT_TRANSLATE_NOOP("ScalingDialog", "Efficiency"),
    QT_TRANSLATE_NOOP("ScalingDialog", "Run folder, or why the count failed"),
)


def parse_counts(text: str) -> tuple[list[int], str]:
    """ "1, 2, 4" -> ([1, 2, 4], ""); a message instead when the text is not such a list."""
    parts = [p for p in text.replace(";", ",").replace(" ", ",").split(",") if p]
    if not parts or not all(p.isdigit() for p in parts):
        return [], QCoreApplication.translate("ScalingDialog", "Write replica counts as whole numbers, e.g. 1, 2, 4.")
    counts = sorted({int(p) for p in parts})
    if counts[0] < 1 or counts[-1] > MAX_COUNT:
        return [], QCoreApplication.translate("ScalingDialog", "Replica counts go from 1 to {max_count}.").format(
            max_count=MAX_COUNT
        )
    return counts, ""


def count_problems(config: RunConfig, counts: list[int]) -> list[str]:
    """What the engine would reject in each count's variant, each problem once."""
    if config.strategy == Strategy.PARAMETER_SERVER:  # a count is workers; the config itself is unchanged
        return [problem_text(p) for p in validate(config)]
    problems = [problem_text(p) for r in counts for p in validate(with_replicas(config, r), replicas=r)]
    return list(dict.fromkeys(problems))


def device_note(config: RunConfig, counts: list[int]) -> str:
    """Plain words on what a replica is here, so a missing speed-up is not misread."""
    cores = os.cpu_count() or 1
    if config.strategy == Strategy.PARAMETER_SERVER:
        return QCoreApplication.translate(
            "ScalingDialog",
            "parameter_server: each count is that many worker processes, with one parameter server and the "
            "coordinator, all on this machine's CPU cores ({cores}). More workers help only while there are cores "
            "to spare; the study shows where adding workers stops paying.",
        ).format(cores=cores)
    virtual = [r for r in counts if r > 1 and not with_replicas(config, r).devices]
    if not virtual:
        return QCoreApplication.translate(
            "ScalingDialog",
            "Each replica is one of the GPUs ticked in the run form. With the same global batch, more "
            "GPUs should mean more examples per second; efficiency shows how much of the ideal you get.",
        )
    listed = ", ".join(str(r) for r in virtual)
    return QCoreApplication.translate(
        "ScalingDialog",
        "Note: with {listed} replicas, the replicas are virtual CPU devices. They split this machine's "
        "CPU cores ({cores}) rather than adding any, so do not expect a speed-up: the study then shows what "
        "distribution itself costs (all-reduce, smaller per-replica batches). Tick GPUs in the run form to "
        "measure real devices.",
    ).format(listed=listed, cores=cores)


def verdict(points: list[ScalingPoint]) -> str:
    """One sentence a person can act on, from the engine's speed-up and efficiency."""
    ok = [p for p in points if not p.error]
    if len(ok) < 2:
        return (
            QCoreApplication.translate(
                "ScalingDialog", "Fewer than two counts were measured, so there is nothing to compare yet."
            )
            if points
            else ""
        )
    base, best = ok[0], max(ok, key=lambda p: p.examples_per_sec)
    if best is base:
        slowest = min(ok[1:], key=lambda p: p.speedup)
        return QCoreApplication.translate(
            "ScalingDialog",
            "More replicas did not help: the fewest, {fastest}, were fastest; {slowest} ran at {speedup:.2f}× "
            "their speed.",
        ).format(fastest=base.replicas, slowest=slowest.replicas, speedup=slowest.speedup)
    # QCoreApplication.translate's %n is not a plural form for lupdate in Python; best > base >= 1 anyway
    return QCoreApplication.translate(
        "ScalingDialog",
        "{fastest} replicas were fastest: {speedup:.2f}× the throughput of {base} ({efficiency:.0%} scaling "
        "efficiency).",
    ).format(fastest=best.replicas, speedup=best.speedup, base=base.replicas, efficiency=best.efficiency)


def _bar_plot(title: str, y_label: str, name: str) -> pg.PlotWidget:
    plot = pg.PlotWidget()
    plot.setObjectName(name)
    item = plot.getPlotItem()
    item.setTitle(title, size="10pt")
    item.setLabel("bottom", QCoreApplication.translate("gui.runs.scaling_dialog", "replicas"))
    item.setLabel("left", y_label)
    item.showGrid(y=True, alpha=0.25)
    for axis in ("left", "bottom"):  # replica counts and percentages: never "(x0.001)"
        item.getAxis(axis).enableAutoSIPrefix(False)
    item.setMouseEnabled(x=False, y=False)
    item.hideButtons()
    plot.setMinimumHeight(200)
    add_export_action(plot)
    return plot


class ScalingDialog(QDialog):
    """Replica counts in, a study in the background, charts and a table out."""

    def __init__(
        self, runs_root: Path, command_for: StudyCommand = scaling_command, parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle(self.tr("Scaling study"))
        self.setObjectName("scalingDialog")
        self.resize(1180, 720)  # three charts side by side
        self._runs_root = runs_root
        self.command_for = command_for  # the protocol's scaling command; tests inject a fake
        self.config: RunConfig | None = None
        self.thread: TrainingRunner | None = None
        self.root: Path | None = None
        self._cancelled = False
        self.points: list[ScalingPoint] = []
        self._build()
        self.counts.textChanged.connect(self._check)
        self.start_button.clicked.connect(self.start)
        self.cancel_button.clicked.connect(self.cancel)
        self._draw()
        self._check()
        theme.manager().changed.connect(self._restyle)

    def _restyle(self, _theme: theme.Theme) -> None:
        self._draw()

    def _build(self) -> None:
        self.note = QLabel(objectName="scalingNote", wordWrap=True)
        set_role(self.note, WidgetRole.NOTE)
        self.counts = QLineEdit(DEFAULT_COUNTS, objectName="replicaCountsEdit")
        self.counts.setToolTip(self.tr("Replica counts to measure, e.g. 1, 2, 4; each is a fresh trainer process"))
        self.config_label = QLabel(objectName="scalingConfig", wordWrap=True)
        set_role(self.config_label, WidgetRole.HINT)
        self.problems = QLabel(objectName="scalingProblems", wordWrap=True)
        set_role(self.problems, WidgetRole.PROBLEM)
        self.start_button = QPushButton(self.tr("Start study"), objectName="startStudyButton")
        set_role(self.start_button, WidgetRole.PRIMARY)
        self.cancel_button = QPushButton(self.tr("Cancel"), objectName="cancelStudyButton")
        self.cancel_button.setToolTip(
            self.tr("Stop the study now: the count in training is stopped and no other starts")
        )
        self.progress = QProgressBar(objectName="scalingProgress")
        self.progress.setTextVisible(True)
        self.progress.setValue(0)
        self.progress.setFormat(self.tr("no study yet"))
        self.verdict = QLabel(objectName="scalingVerdict", wordWrap=True)
        set_role(self.verdict, WidgetRole.TITLE)
        self.anatomy_sentence = QLabel(objectName="scalingAnatomySentence", wordWrap=True)
        self.anatomy_plot = AnatomyBars(self.tr("Step anatomy"), "scalingAnatomyPlot")
        self.anatomy_plot.getPlotItem().setLabel("bottom", self.tr("replicas"))
        self.throughput_plot = _bar_plot(self.tr("Throughput"), self.tr("examples / s"), "scalingThroughputPlot")
        self.efficiency_plot = _bar_plot(
            self.tr("Scaling efficiency"), self.tr("% of linear scaling"), "scalingEfficiencyPlot"
        )
        self.table = QTableWidget(0, len(TABLE_COLUMNS), objectName="scalingTable")
        self.table.setHorizontalHeaderLabels([self.tr(c) for c in TABLE_COLUMNS])
        self.table.verticalHeader().hide()
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.table.horizontalHeader().setStretchLastSection(True)
        self.table.setMaximumHeight(150)
        self.folder = QLabel(objectName="scalingFolder", wordWrap=True)
        set_role(self.folder, WidgetRole.HINT)
        self.folder.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        row = QHBoxLayout()
        row.addWidget(QLabel(self.tr("Replica counts:")))
        row.addWidget(self.counts)
        row.addWidget(self.start_button)
        row.addWidget(self.cancel_button)
        row.addWidget(self.progress, 1)
        plots = QHBoxLayout()
        plots.addWidget(self.throughput_plot)
        plots.addWidget(self.efficiency_plot)
        plots.addWidget(self.anatomy_plot)
        layout = QVBoxLayout(self)
        for widget in (self.note, self.config_label):
            layout.addWidget(widget)
        layout.addLayout(row)
        layout.addWidget(self.problems)
        layout.addWidget(self.verdict)
        layout.addWidget(self.anatomy_sentence)
        layout.addLayout(plots, 1)
        layout.addWidget(self.table)
        layout.addWidget(self.folder)
        layout.addWidget(buttons)

    # ---- state ------------------------------------------------------------------
    @property
    def running(self) -> bool:
        return self.thread is not None

    def set_config(self, config: RunConfig) -> None:
        """The config to study (the run form's); ignored while a study runs."""
        if self.running:
            return
        self.config = config
        data = (
            self.tr("{samples:,} synthetic examples").format(samples=config.data.num_samples)
            if config.data.kind == "synthetic"
            else self.tr("{kind} data from {path}").format(kind=config.data.kind, path=config.data.path)
        )
        self.config_label.setText(
            self.tr(
                "Studies the run form's config: {loop} loop, global batch {global_batch_size}, "
                "{epochs} epochs, {data}. Each count is a fresh trainer; throughput is the mean "
                "of the epochs after the first."
            ).format(
                loop=config.loop, global_batch_size=config.global_batch_size, epochs=max(config.epochs, 2), data=data
            )
        )
        self._check()

    def _check(self) -> None:
        """Enable Start only for counts the engine will accept, saying why not."""
        counts, message = parse_counts(self.counts.text())
        problems = [message] if message else count_problems(self.config, counts) if self.config else []
        self.note.setText(device_note(self.config, counts) if self.config and counts else "")
        self.problems.setText("\n".join(problems))
        self.problems.setVisible(bool(problems))
        self.start_button.setEnabled(self.config is not None and not problems and not self.running)
        self.cancel_button.setEnabled(self.running)
        self.counts.setEnabled(not self.running)

    # ---- the study ------------------------------------------------------------------
    def start(self) -> None:
        counts, _ = parse_counts(self.counts.text())
        if self.running or self.config is None or not self.start_button.isEnabled():
            return
        try:
            studies = self._runs_root / "scaling-studies"
            studies.mkdir(parents=True, exist_ok=True)
            root = Path(tempfile.mkdtemp(prefix=time.strftime("%Y%m%d-%H%M%S-"), dir=studies))
            config_path = root / "study.json"
            self.config.save(config_path)
        except OSError as exc:
            self.problems.setText(self.tr("Cannot create a folder for the study: {exc}").format(exc=exc))
            self.problems.setVisible(True)
            return
        self.points = []
        self.root = root
        self._cancelled = False
        self.folder.setText(self.tr("The study's runs are kept in {root}").format(root=root))
        self.progress.setRange(0, len(counts))
        self.progress.setValue(0)
        self.progress.setFormat(self.tr("starting the study…"))
        thread = TrainingRunner(self.command_for(config_path, counts, root), parent=self)
        thread.events_ready.connect(self._on_events)
        thread.run_failed.connect(self._on_failed)
        thread.finished.connect(self._on_thread_done)
        self.thread = thread
        self._draw()
        self._check()
        thread.start()

    def cancel(self) -> None:
        if self.thread is not None:
            self._cancelled = True
            self.thread.request_stop()
            self.progress.setFormat("cancelling…")
            self.cancel_button.setEnabled(False)

    def shutdown(self) -> None:
        """Cancel and wait for the study's thread (the window is closing)."""
        if self.thread is not None:
            self._cancelled = True
            self.thread.request_stop()
            self.thread.wait(15_000)

    def _on_events(self, events: list[ev.Event]) -> None:
        """A count's trainer started (its run_started), or a count was measured (scaling_point)."""
        for event in events:
            if isinstance(event, ev.RunStarted):  # parameter_server counts workers, the others replicas
                ps = event.strategy == Strategy.PARAMETER_SERVER
                self._on_count_started(event.num_workers if ps else event.num_replicas, workers=ps)
            elif isinstance(event, ev.ScalingPoint):
                self._on_point(event)

    def _on_count_started(self, replicas: int, workers: bool = False) -> None:
        done = len(self.points)
        self.progress.setValue(done)
        what = (
            self.tr("training with %n worker(s)", "", replicas)
            if workers
            else self.tr("training with %n replica(s)", "", replicas)
        )
        count = self.tr(" (count {done} of {total})…").format(done=done + 1, total=self.progress.maximum())
        self.progress.setFormat((what + count).replace("%", "%%"))  # QProgressBar's own %p, %v, %m

    def _on_point(self, point: ScalingPoint) -> None:
        self.points.append(point)
        self.progress.setValue(len(self.points))
        self._draw()

    def _on_failed(self, message: str, _log_tail: str = "") -> None:
        self.problems.setText(self.tr("The scaling study stopped: {message}").format(message=message))
        self.problems.setVisible(True)

    def _on_thread_done(self) -> None:
        assert self.thread is not None
        cancelled = self._cancelled
        self.thread.deleteLater()
        self.thread = None
        measured = len(self.points)
        text = (
            self.tr("cancelled after {measured} of {total} counts measured")
            if cancelled
            else self.tr("done: {measured} of {total} counts measured")
        )
        self.progress.setFormat(text.format(measured=measured, total=self.progress.maximum()))
        self._check()

    def closeEvent(self, event: QCloseEvent) -> None:
        self.cancel()
        super().closeEvent(event)

    def reject(self) -> None:
        self.cancel()
        super().reject()

    # ---- charts -------------------------------------------------------------------------
    def _draw(self) -> None:
        points = self.points
        colours = theme.current().plot
        for plot in (self.throughput_plot, self.efficiency_plot):
            theme.style_plot(plot, theme.current())
        self.verdict.setText(verdict(points))
        ticks = [[(i, str(p.replicas)) for i, p in enumerate(points)]]
        for plot, values, label in (
            (self.throughput_plot, [p.examples_per_sec for p in points], "{:,.0f}"),
            (self.efficiency_plot, [100 * p.efficiency for p in points], "{:.0f}%"),
        ):
            item = plot.getPlotItem()
            item.clear()
            item.getAxis("bottom").setTicks(ticks)
            heights = [0.0 if p.error else v for p, v in zip(points, values, strict=True)]
            if points:
                item.addItem(
                    pg.BarGraphItem(x=np.arange(len(points)), height=heights, width=0.6, brush=colours.bar, pen=None)
                )
            for i, (point, height) in enumerate(zip(points, heights, strict=True)):
                text = pg.TextItem(
                    self.tr("failed") if point.error else label.format(height),
                    anchor=(0.5, 1.0),
                    color=colours.failed if point.error else colours.foreground,
                )
                text.setPos(i, height)
                item.addItem(text)
            item.setXRange(-0.6, max(len(points), 1) - 0.4, padding=0)
        ideal = pg.InfiniteLine(
            pos=100,
            angle=0,
            pen=pg.mkPen(colours.ideal, width=1, style=Qt.PenStyle.DashLine),
            label=self.tr("ideal (linear)"),
            labelOpts={"position": 0.9, "color": colours.ideal},
        )
        self.efficiency_plot.getPlotItem().addItem(ideal)
        self.efficiency_plot.getPlotItem().setYRange(0, max([110] + [100 * p.efficiency + 10 for p in points]))
        self._draw_anatomy()
        self._fill_table()

    def _draw_anatomy(self) -> None:
        """Each count's step anatomy side by side, and what happened to a step from the fewest to the most."""
        points = self.points
        self.anatomy_plot.show_bars(
            [str(p.replicas) for p in points], [None if p.error else anatomy.from_plain(p.anatomy) for p in points]
        )
        workers = self.config is not None and self.config.strategy == Strategy.PARAMETER_SERVER
        sentence = anatomy.study_sentence(points, workers)
        self.anatomy_sentence.setText(translate(sentence) if sentence else "")
        self.anatomy_sentence.setVisible(sentence is not None)

    def _fill_table(self) -> None:
        self.table.setRowCount(len(self.points))
        for row, p in enumerate(self.points):
            cells = (
                str(p.replicas),
                "" if p.error else f"{p.examples_per_sec:,.0f}",
                "" if p.error else f"{p.speedup:.2f}×",
                "" if p.error else f"{p.efficiency:.0%}",
                self.tr("failed: {error}").format(error=translate(p.error)) if p.error else p.run_dir,
            )
            for column, text in enumerate(cells):
                item = QTableWidgetItem(text)
                item.setToolTip(text)
                if p.error:
                    item.setForeground(pg.mkColor(theme.current().plot.failed))
                self.table.setItem(row, column, item)
