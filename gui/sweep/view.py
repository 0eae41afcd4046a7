"""The sweep view: a sweep's trials live, sorted by the objective, the parameters against the objective, each
parameter's importance, and the best trial's config one click from the run form.

It runs the sweep process (`tfdd sweep --events`) and shows what its events say; Stop asks the sweep to stop
(each trial checkpoints), Continue resumes it in the same folder (`--resume`).
"""

from __future__ import annotations

import html
import os
from collections.abc import Callable
from pathlib import Path

import pyqtgraph as pg
from PySide6.QtCore import QT_TRANSLATE_NOOP, QItemSelectionModel, Qt, QTimer, Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QDialog,
    QDialogButtonBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QProgressBar,
    QPushButton,
    QSplitter,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from engine.core import events as ev
from engine.core.config import RunConfig
from engine.core.problems import ConfigError
from engine.core.protocol.codes import STOP_GRACE_S, RunStatus
from engine.core.protocol.commands import background_sweep_command, sweep_resume_command, sweep_status_command
from engine.core.protocol.paths import RunPaths
from engine.core.runs.follow import ask_to_stop, trains_here
from engine.core.runs.history import load_curves
from engine.core.runs.runlock import holder
from engine.core.sweep import SweepPaths, TrialStatus
from engine.core.sweep.space import SweepSpace, apply
from gui import theme
from gui.closing import continue_in_background
from gui.exports import add_export_action
from gui.i18n import event_message, translate
from gui.live.controls import format_duration
from gui.runner import TrainingRunner
from gui.statuses import run_status_name
from gui.sweep import names
from gui.sweep.importance import ImportanceBars
from gui.sweep.parallel import ParallelCoordinates, value_text
from gui.sweep.trials import TrialRow, Trials
from gui.theme import WidgetRole, set_role

FOLLOW_MS = 3000  # a sweep another process trains is read again this often
SWEEP_STOP_GRACE_S = 2 * STOP_GRACE_S + 5  # the sweep gives each trial STOP_GRACE_S to checkpoint, then ends
COUNTERPART = {"val_loss": "loss", "loss": "val_loss", "val_accuracy": "accuracy", "accuracy": "val_accuracy"}
FIXED_COLUMNS = (
    QT_TRANSLATE_NOOP("SweepView", "Trial"),
    QT_TRANSLATE_NOOP("SweepView", "State"),
    QT_TRANSLATE_NOOP("SweepView", "Objective"),
    QT_TRANSLATE_NOOP("SweepView", "Epochs"),
    QT_TRANSLATE_NOOP("SweepView", "Duration"),
    QT_TRANSLATE_NOOP("SweepView", "Devices"),
)


class SweepView(QDialog):
    """One sweep folder: its process, its trials, its charts."""

    config_chosen = Signal(object)
    """The best trial's config (a RunConfig), for the run form."""

    def __init__(
        self,
        sweep_dir: Path,
        base: RunConfig,
        space: SweepSpace,
        parent: QWidget | None = None,
        grace_seconds: float = SWEEP_STOP_GRACE_S,
        resume_command_for: Callable[[Path], list[str]] = sweep_resume_command,
        status_command_for: Callable[[Path], list[str]] = sweep_status_command,
        background_command_for: Callable[[Path], list[str]] = background_sweep_command,
    ) -> None:
        """`resume_command_for` continues the sweep (Continue), `status_command_for` reads where it stands (attach),
        `background_command_for` continues it without the window (shutdown): the protocol's commands; tests inject
        fakes. Closing the view leaves the sweep running."""
        super().__init__(parent)
        self.setObjectName("sweepView")
        self.setWindowTitle(self.tr("Sweep: {folder}").format(folder=sweep_dir.name))
        self.resize(1200, 860)
        self.sweep_dir, self.base, self.space = sweep_dir, base, space
        self.grace_seconds = grace_seconds
        self.resume_command_for = resume_command_for
        self.trials = Trials(space.maximise)
        self.summary: ev.SweepSummary | None = None
        self.selected: set[int] = set()
        self.legend: list[tuple[str, str]] = []  # (colour, trial) of the curves drawn bold: the title shows it
        self.runner: TrainingRunner | None = None
        self.ended = ""  # how the sweep process last ended: a RunStatus, or "failed"
        self.reading = False  # the process only reads where the sweep stands (attach)
        self.status_command_for = status_command_for
        self.background_command_for = background_command_for
        self.follow_timer = QTimer(self, singleShot=True, interval=FOLLOW_MS)
        self.follow_timer.timeout.connect(self.attach)
        self._build()
        self.table.itemSelectionChanged.connect(self._on_table_selection)
        self.parallel.trial_clicked.connect(self.select_trial)
        self.stop_button.clicked.connect(self.stop)
        self.continue_button.clicked.connect(self.resume)
        self.best_button.clicked.connect(self.use_best)
        theme.manager().changed.connect(self._restyle)  # a bound slot: disconnected when the view goes
        self._refresh()

    def _restyle(self, _theme: theme.Theme) -> None:
        self.importance.restyle()
        self._fill_table()
        self._draw()

    def _build(self) -> None:
        self.header = QLabel(objectName="sweepHeader", wordWrap=True)
        set_role(self.header, WidgetRole.TITLE)
        self.header.setText(self._header_text())
        self.folder = QLabel(
            self.tr(
                "Trials are run folders in {folder}. Closing this view leaves the sweep running: its row in the Runs "
                "tab or Run › Sweep opens it again."
            ).format(folder=self.sweep_dir)
        )
        self.folder.setObjectName("sweepFolder")
        self.folder.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        set_role(self.folder, WidgetRole.HINT)
        self.progress = QProgressBar(objectName="sweepProgress")
        self.stop_button = QPushButton(self.tr("Stop"), objectName="stopSweepButton")
        self.stop_button.setToolTip(self.tr("Stop the sweep: training trials checkpoint; Continue resumes it"))
        self.continue_button = QPushButton(self.tr("Continue"), objectName="continueSweepButton")
        self.continue_button.setToolTip(self.tr("Continue the stopped sweep where it was, in the same folder"))
        self.best_button = QPushButton(self.tr("Use the best trial's config"), objectName="useBestButton")
        set_role(self.best_button, WidgetRole.PRIMARY)
        self.problems = QLabel(objectName="sweepProblems", wordWrap=True)
        set_role(self.problems, WidgetRole.PROBLEM)
        self.problems.hide()
        columns = [self.tr(c) for c in FIXED_COLUMNS] + [p.name for p in self.space.parameters]
        self.table = QTableWidget(0, len(columns), objectName="sweepTrialsTable")
        self.table.setHorizontalHeaderLabels(columns)
        self.table.verticalHeader().hide()
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.table.horizontalHeader().setStretchLastSection(True)
        self.parallel = ParallelCoordinates()
        self.curves = pg.PlotWidget(objectName="sweepCurvesPlot")
        self.curves.getPlotItem().setLabel("bottom", self.tr("epoch"))
        self.curves.getPlotItem().setLabel("left", self.space.objective)
        self.curves.getPlotItem().showGrid(x=True, y=True, alpha=0.25)
        self.curves.getPlotItem().getAxis("left").enableAutoSIPrefix(False)  # "val_loss (x0.001)" misleads
        add_export_action(self.curves)
        self.importance = ImportanceBars(len(self.space.parameters))
        self.best = QLabel(objectName="sweepBest", wordWrap=True)
        self.best.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        row = QHBoxLayout()
        for widget in (self.stop_button, self.continue_button):
            row.addWidget(widget)
        row.addWidget(self.progress, 1)
        row.addWidget(self.best_button)
        charts = QSplitter(Qt.Orientation.Horizontal)
        charts.addWidget(self.parallel)
        charts.addWidget(self.curves)
        charts.setSizes([700, 500])
        facts = QHBoxLayout()
        facts.addWidget(self.importance, 1)
        facts.addWidget(self.best, 1)
        body = QSplitter(Qt.Orientation.Vertical)
        body.addWidget(self.table)
        body.addWidget(charts)
        body.setSizes([300, 420])
        layout = QVBoxLayout(self)
        for widget in (self.header, self.folder):
            layout.addWidget(widget)
        layout.addLayout(row)
        layout.addWidget(self.problems)
        layout.addWidget(body, 1)
        layout.addLayout(facts)
        layout.addWidget(buttons)

    def _header_text(self) -> str:
        space = self.space
        return self.tr("{objective} · {method} · {trials} trials · pruning: {pruner}").format(
            objective=names.name(names.OBJECTIVES, space.objective),
            method=names.name(names.METHODS, space.method),
            trials=space.trials,
            pruner=names.name(names.PRUNERS, space.pruner),
        )

    # ---- the sweep process ------------------------------------------------------------
    @property
    def running(self) -> bool:
        return self.runner is not None

    @property
    def elsewhere(self) -> bool:
        """Another sweep process trains this sweep (the view reads it again every few seconds)."""
        return self.ended == RunStatus.RUNNING

    def start(self, command: list[str], reading: bool = False) -> None:
        """Run the sweep process `command` (sweep_command or sweep_resume_command) and follow its events; `reading`:
        it only says what the sweep holds (sweep_status_command)."""
        if self.running:
            return
        self.follow_timer.stop()
        if not (reading and self.elsewhere):  # read again, a sweep trained elsewhere stays so until told otherwise
            self.ended = ""
        self.reading = reading
        self.problems.hide()
        runner = TrainingRunner(command, grace_seconds=self.grace_seconds, parent=self)
        runner.events_ready.connect(self._on_events)
        runner.run_finished.connect(self._on_finished)
        runner.run_failed.connect(self._on_failed)
        runner.finished.connect(self._on_thread_done)
        self.runner = runner
        self._refresh()
        runner.start()

    def attach(self) -> None:
        """Show where the sweep stands from its folder and study, without running it: finished, stopped (Continue
        resumes it), or trained by another process (read again every few seconds while the view is shown)."""
        self.start(self.status_command_for(self.sweep_dir), reading=True)

    def resume(self) -> None:
        """Continue the sweep in its folder (it says again the trials it holds; their rows are updated)."""
        if self.running:
            return
        self.start(self.resume_command_for(self.sweep_dir))

    def stop(self) -> None:
        """Stop the sweep: this view's process, or the process of this machine that trains it (SIGTERM, on which
        `tfdd sweep` stops as on Stop: its training trials checkpoint)."""
        if self.elsewhere:
            if ask_to_stop(self.sweep_dir) is not None:
                self.stop_button.setEnabled(False)
            return
        if self.runner is not None:
            self.runner.request_stop()
            self.stop_button.setEnabled(False)
            self.progress.setFormat(self.tr("stopping: the training trials save a checkpoint…"))

    @property
    def training(self) -> bool:
        """This view's process trains the sweep (it does not only read it)."""
        return self.running and not self.reading

    def shutdown(self, keep_running: bool = False) -> int | None:
        """Stop the sweep and wait for it (the window is closing). `keep_running`: a sweep this view trained is
        then continued in a background sweep process (its training trials from the checkpoint they just saved);
        that process's pid."""
        training = self.training
        self.follow_timer.stop()
        if self.runner is not None:
            self.runner.request_stop()
            self.runner.wait(int((self.grace_seconds + 5) * 1000))
        if keep_running and training:
            command, log = self.background_command_for(self.sweep_dir), SweepPaths(self.sweep_dir).log
            return continue_in_background(self, command, log)
        return None

    def _on_events(self, events: list[ev.Event]) -> None:
        for event in events:
            if isinstance(event, ev.SweepTrial):
                self.trials.update(event)
            elif isinstance(event, ev.SweepSummary):
                self.summary = event
            elif isinstance(event, ev.RunFailed):
                self._on_failed(event_message(event.message, event.message_template))
        self._refresh()

    def _on_finished(self, status: str, _run_dir: str) -> None:
        self.ended = status

    def _on_failed(self, message: str, _log_tail: str = "") -> None:
        self.ended = "failed"
        self.problems.setText(self.tr("The sweep stopped: {message}").format(message=message))
        self.problems.show()

    def _on_thread_done(self) -> None:
        if self.runner is not None:
            self.runner.deleteLater()
            self.runner = None
        if self.elsewhere and self.isVisible():
            self.follow_timer.start()
        self._refresh()

    # ---- choosing --------------------------------------------------------------------
    def select_trial(self, number: int) -> None:
        """Select a trial's row (a click on its line does this), which shows its curves."""
        for row in range(self.table.rowCount()):
            item = self.table.item(row, 0)
            if item is not None and item.data(Qt.ItemDataRole.UserRole) == number:
                self.table.selectRow(row)
                return

    def _on_table_selection(self) -> None:
        rows = {i.row() for i in self.table.selectedItems()}
        self.selected = {self.table.item(r, 0).data(Qt.ItemDataRole.UserRole) for r in rows}
        self._draw()

    def best_config(self) -> RunConfig | None:
        """The best trial's parameters on the base config, with the form's devices and name."""
        if self.summary is None or self.summary.best_number is None:
            return None
        try:
            return apply(self.base, self.summary.best_params)
        except ConfigError:
            return None

    def use_best(self) -> None:
        config = self.best_config()
        if config is not None:
            self.config_chosen.emit(config)

    # ---- showing ---------------------------------------------------------------------
    def _refresh(self) -> None:
        self._fill_table()
        self._show_progress()
        self._show_summary()
        self._draw()

    def _show_progress(self) -> None:
        running = sum(1 for r in self.trials.rows.values() if r.state == TrialStatus.RUNNING)
        finished = self.summary.finished if self.summary else 0
        budget = self.summary.budget if self.summary else self.space.trials
        self.progress.setRange(0, max(budget, 1))
        self.progress.setValue(min(finished, budget))
        if self.elsewhere:
            text = self.tr(
                "trained by another sweep process: {finished} of {budget} trials finished, {running} training"
            )
            text = text.format(finished=finished, budget=budget, running=running)
        elif self.running and self.reading:
            text = self.tr("reading the sweep…")
        elif self.running:
            text = self.tr("{finished} of {budget} trials finished, {running} training").format(
                finished=finished, budget=budget, running=running
            )
        elif self.ended:
            what = self.tr("failed") if self.ended == "failed" else run_status_name(self.ended)
            text = self.tr("sweep {status}: {finished} of {budget} trials finished").format(
                status=what, finished=finished, budget=budget
            )
        else:
            text = self.tr("not running")
        self.progress.setFormat(text.replace("%", "%%"))
        unfinished = self.summary is None or self.summary.finished < self.summary.budget
        self.stop_button.setEnabled(self.training or self._stoppable_elsewhere())
        ended = self.ended in (RunStatus.COMPLETED, RunStatus.RUNNING)
        self.continue_button.setEnabled(not self.running and not ended and unfinished)
        self.best_button.setEnabled(self.best_config() is not None)

    def _stoppable_elsewhere(self) -> bool:
        """Another process of this machine trains the sweep: Stop signals it."""
        if not self.elsewhere:
            return False
        held = holder(RunPaths(self.sweep_dir))
        return trains_here(held) and held is not None and held.pid != os.getpid()

    def _show_summary(self) -> None:
        summary = self.summary
        if summary is None:
            self.importance.show_importance({}, "")
        else:
            note = translate(summary.importance_note) if summary.importance_note else ""
            self.importance.show_importance(summary.importance, summary.importance_method, note)
        if summary is None or summary.best_number is None:
            self.best.setText(self.tr("Best trial: none completed yet"))
            return
        params = "<br>".join(f"{k} = {value_text(v)}" for k, v in summary.best_params.items())
        self.best.setText(
            self.tr("<b>Best trial: {number}</b>, {objective} {value:.4g}").format(
                number=summary.best_number, objective=self.space.objective, value=summary.best_value
            )
            + f"<br>{params}"
        )

    def _state_text(self, row: TrialRow) -> str:
        if row.state == TrialStatus.RUNNING:
            if row.epoch:
                return self.tr("training (epoch {epoch})").format(epoch=row.epoch)
            return self.tr("starting")
        if row.state == TrialStatus.PRUNED:
            if row.message:  # a sweep folder of an earlier version does not say why
                return self.tr("pruned at epoch {epoch}: {why}").format(epoch=row.epoch, why=translate(row.message))
            return self.tr("pruned at epoch {epoch}").format(epoch=row.epoch)
        if row.state == TrialStatus.INTERRUPTED:
            return self.tr("interrupted at epoch {epoch}").format(epoch=row.epoch)
        if row.state == TrialStatus.FAILED:
            return self.tr("failed: {why}").format(why=translate(row.message))
        return self.tr("completed")

    def _fill_table(self) -> None:
        rows = self.trials.sorted()
        keep = set(self.selected)
        self.table.blockSignals(True)
        self.table.setRowCount(len(rows))
        colours = theme.current().plot
        best = self.summary.best_number if self.summary else None
        for index, row in enumerate(rows):
            value = row.finite_value
            cells = [
                str(row.number),
                self._state_text(row),
                "" if value is None else f"{value:.4g}",
                str(row.epoch),
                format_duration(row.seconds) if row.seconds else "",
                row.devices,
            ] + [value_text(row.params.get(p.name, "")) for p in self.space.parameters]
            for column, text in enumerate(cells):
                item = QTableWidgetItem(text)
                item.setData(Qt.ItemDataRole.UserRole, row.number)
                item.setToolTip(translate(row.message) if row.message else row.run_dir)
                if row.state in (TrialStatus.FAILED, TrialStatus.PRUNED):
                    item.setForeground(pg.mkColor(colours.failed))
                if row.number == best:
                    font = item.font()
                    font.setBold(True)
                    item.setFont(font)
                self.table.setItem(index, column, item)
        selection = self.table.selectionModel()
        selection.clearSelection()
        for index, row in enumerate(rows):
            if row.number in keep:
                rows_flag = QItemSelectionModel.SelectionFlag.Select | QItemSelectionModel.SelectionFlag.Rows
                selection.select(self.table.model().index(index, 0), rows_flag)
        self.table.blockSignals(False)

    def _draw(self) -> None:
        rows = list(self.trials.rows.values())
        best = self.summary.best_number if self.summary else None
        space = self.space
        self.parallel.show_trials(space.parameters, space.objective, space.maximise, rows, self.selected, best)
        self._draw_curves(rows)

    def _draw_curves(self, rows: list[TrialRow]) -> None:
        """Every trial's objective per epoch, thin; the selected trials' curves from their run folders, bold, each
        trial in a colour of its own (the objective solid, its counterpart dashed). The legend is the title:
        inside the plot it covered the top of the curves."""
        colours = theme.current().plot
        theme.style_plot(self.curves, theme.current())
        item = self.curves.getPlotItem()
        item.clear()
        for row in rows:
            if row.state != TrialStatus.RUNNING:
                self.trials.fill_curve(row, self.space.objective)
            if row.curve and row.number not in self.selected:
                epochs = sorted(row.curve)
                item.plot(epochs, [row.curve[e] for e in epochs], pen=pg.mkPen(colours.batch, width=1))
        objective, other = self.space.objective, COUNTERPART[self.space.objective]
        chosen = [r for r in rows if r.number in self.selected and r.run_dir]
        self.legend = []
        for index, row in enumerate(sorted(chosen, key=lambda r: r.number)):
            colour = colours.colour(("runs", index))
            self.legend.append((colour, self.tr("trial {number}").format(number=row.number)))
            epochs = load_curves(Path(row.run_dir)).epochs
            for column in (objective, other):
                points = [(e["epoch"], e[column]) for e in epochs if "epoch" in e and column in e]
                if points:
                    xs, ys = zip(*points, strict=True)
                    dashed = Qt.PenStyle.SolidLine if column == objective else Qt.PenStyle.DashLine
                    pen = pg.mkPen(colour, width=3 if column == objective else 2, style=dashed)
                    symbol = "o" if column == objective else None
                    item.plot(xs, ys, pen=pen, symbol=symbol, symbolSize=6, symbolBrush=colour)
        item.setTitle(self._curves_title(objective, other, colours.foreground), size="9pt")

    def _curves_title(self, objective: str, other: str, foreground: str) -> str:
        """The selected trials in their colours, and which line is which metric; none chosen: how to choose."""
        if not self.legend:
            return html.escape(
                self.tr("all trials: {objective} per epoch; select trials to compare them").format(objective=objective)
            )
        trials = "&nbsp;&nbsp;".join(
            f"<span style='color:{c}'>━</span>&nbsp;{html.escape(label)}" for c, label in self.legend
        )
        lines = f"<span style='color:{foreground}'>━ {objective}&nbsp;&nbsp;┅ {other}</span>"
        return f"{trials}&nbsp;&nbsp;&nbsp;·&nbsp;&nbsp;{lines}"
