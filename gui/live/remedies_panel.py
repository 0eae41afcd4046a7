"""What to change, under the step anatomy's verdict: each change that addresses it, a Try button that measures it
and an Apply button that puts it into the run form.

The changes are the engine's (engine.core.remedies) for the run's config (its run folder's config.json), its
replica count and its devices. Try runs `tfdd try` in the background (a child process through the worker
protocol; the window imports no TensorFlow): the run's config and the changed one in turn, short real runs in
a scratch folder, never in the run list. Trials wait for the run to end: beside a training they would measure
both slower. One trial at a time; its button cancels it.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from PySide6.QtCore import QCoreApplication, QSize, Signal
from PySide6.QtGui import QResizeEvent
from PySide6.QtWidgets import QGridLayout, QLabel, QPushButton, QSizePolicy, QWidget

from engine.core import anatomy, remedies
from engine.core import events as ev
from engine.core.config import RunConfig
from engine.core.problems import ConfigError
from engine.core.protocol.commands import trial_command
from engine.core.protocol.paths import RunPaths
from engine.core.remedies import Machine, Remedy
from engine.core.runs.scratch import ScratchDir
from engine.core.sweep.space import apply
from gui.i18n import translate
from gui.runner import TrainingRunner
from gui.theme import WidgetRole, set_role

TrialCommand = Callable[[Path, list[str]], list[str]]  # (config file, changes as field=value) -> command
RUNS_PER_TRIAL = 2 * remedies.TRIAL_ROUNDS


class RemedyRow:
    """One change: what it is and why, Try, Apply, and what its trial measured."""

    def __init__(self, panel: RemediesPanel, remedy: Remedy, row: int) -> None:
        self.remedy = remedy
        tried = bool(remedy.changes)
        advice = translate(remedy.headline or remedy.why)
        self.label = QLabel(remedy.label if tried else advice, objectName="remedyChange")
        self.label.setToolTip(translate(remedy.why))
        self.label.setWordWrap(not tried)
        self.label.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.try_button = QPushButton(objectName="remedyTry")  # its text and tip follow the trial (panel._enable)
        self.apply_button = QPushButton(QCoreApplication.translate("RemediesPanel", "Apply"), objectName="remedyApply")
        self.apply_button.setToolTip(QCoreApplication.translate("RemediesPanel", "Put this change into the run form"))
        self.result = QLabel(objectName="remedyResult")
        set_role(self.result, WidgetRole.HINT)
        self.result.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.try_button.clicked.connect(lambda: panel.toggle_trial(self))
        self.apply_button.clicked.connect(lambda: panel.apply_requested.emit(dict(remedy.changes)))
        layout = panel.grid
        layout.addWidget(self.label, row, 0, 1, 1 if tried else 4)
        if tried:
            layout.addWidget(self.try_button, row, 1)
            layout.addWidget(self.apply_button, row, 2)
            layout.addWidget(self.result, row, 3)

    def widgets(self) -> tuple[QWidget, ...]:
        return (self.label, self.try_button, self.apply_button, self.result)


class RemediesPanel(QWidget):
    """The changes for the latest verdict, each with Try and Apply."""

    apply_requested = Signal(dict)
    """Put these changes (config field -> value) into the run form."""

    def __init__(self, command_for: TrialCommand = trial_command, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.command_for = command_for  # the protocol's trial command; tests may inject another
        self.grid = QGridLayout(self)
        self.grid.setContentsMargins(0, 0, 0, 0)
        self.grid.setHorizontalSpacing(6)
        self.grid.setVerticalSpacing(1)
        self.grid.setColumnStretch(0, 2)
        self.grid.setColumnStretch(3, 3)
        self.rows: list[RemedyRow] = []
        self.config: RunConfig | None = None
        self.replicas = 1
        self.machine = Machine()
        self.part: anatomy.Part | None = None
        self.live = False  # the run trains: trials wait for its end
        self.elsewhere: str | None = None  # why no trial can measure the run here (it trained on other machines)
        self.thread: TrainingRunner | None = None
        self.trying: RemedyRow | None = None
        self.arms: list[ev.TrialArm] = []
        self._scratch: ScratchDir | None = None
        self.setVisible(False)

    def hasHeightForWidth(self) -> bool:  # noqa: N802 (Qt's name)
        """No: a wrapped advice line would make the plots' grid size their rows by this panel's height at its
        own width, shrinking loss and accuracy; sizeHint gives the height at the panel's width instead."""
        return False

    def sizeHint(self) -> QSize:  # noqa: N802 (Qt's name)
        hint = super().sizeHint()
        if self.width() > 0 and self.grid.hasHeightForWidth():
            hint.setHeight(self.grid.heightForWidth(self.width()))
        return hint

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 (Qt's name)
        super().resizeEvent(event)
        if event.size().width() != event.oldSize().width():
            self.updateGeometry()  # a wrapped line may take more or fewer lines at the new width

    @staticmethod
    def applied(config: RunConfig, changes: dict[str, Any]) -> RunConfig:
        """`config` with `changes`, unchecked: the form shows any problem under its field."""
        return apply(config, changes, check=False)

    # ---- the run -------------------------------------------------------------------------------------
    def observe(self, event: ev.Event) -> None:
        """The run's start (its config, replicas and devices), its anatomy (the verdict) and its end."""
        if isinstance(event, ev.RunStarted):
            self.live = True
            self.replicas = max(event.num_replicas, 1)
            self.machine = remedies.machine_of(event)
            self.elsewhere = remedies.trial_refusal(Path(event.run_dir))
            try:
                self.config = RunConfig.load(RunPaths(Path(event.run_dir)).config, check=False)
            except ConfigError:
                self.config = None  # a run without its config (a folder being written): nothing to offer
        elif isinstance(event, ev.StepAnatomy):
            part = anatomy.bound_by(event)
            if part != self.part and self.thread is None:
                self.part = part
                self._show(remedies.remedies(self.config, event, self.replicas, self.machine) if self.config else [])
        elif isinstance(event, (ev.RunFinished, ev.RunFailed)):
            self.live = False
        self._enable()

    def clear(self) -> None:
        """A new run: its own verdict will come (a trial in flight goes on and shows its result)."""
        if self.thread is None:
            self._show([])
        self.part, self.config, self.live, self.elsewhere = None, None, False, None

    def _show(self, offered: list[Remedy]) -> None:
        for row in self.rows:
            for widget in row.widgets():
                self.grid.removeWidget(widget)
                widget.deleteLater()
        self.rows = [RemedyRow(self, remedy, i) for i, remedy in enumerate(offered)]
        self.setVisible(bool(self.rows))
        self._enable()

    def _enable(self) -> None:
        for row in self.rows:
            mine = row is self.trying
            row.try_button.setEnabled(mine or (self.thread is None and not self.live and not self.elsewhere))
            row.try_button.setText(self.tr("Cancel") if mine else self.tr("Try"))
            row.try_button.setToolTip(
                self.tr("Stop the trial")
                if mine
                else translate(self.elsewhere)
                if self.elsewhere
                else self.tr("Trials start when the run has ended: beside a training they would measure both slower")
                if self.live
                else self.tr(
                    "Run the run's config and the changed one in turn, {runs} short runs, and measure the speed-up"
                ).format(runs=RUNS_PER_TRIAL)
            )

    # ---- the trial -----------------------------------------------------------------------------------
    def toggle_trial(self, row: RemedyRow) -> None:
        if row is self.trying and self.thread is not None:
            self.thread.request_stop()
            row.result.setText(self.tr("cancelling…"))
        elif self.thread is None and self.config is not None and not self.live and not self.elsewhere:
            self._start(row)

    def _start(self, row: RemedyRow) -> None:
        assert self.config is not None
        self._scratch = ScratchDir("tfdd-window-trial-")
        config_path = self._scratch.path / "current.json"
        self.config.save(config_path)
        thread = TrainingRunner(self.command_for(config_path, row.remedy.arguments), parent=self)
        thread.events_ready.connect(self._on_events)
        thread.run_failed.connect(lambda message, _tail: row.result.setText(translate(message)))
        thread.finished.connect(self._on_done)
        self.thread, self.trying, self.arms = thread, row, []
        row.result.setText(self.tr("starting…"))
        self._enable()
        thread.start()

    def _on_events(self, events: list[ev.Event]) -> None:
        row = self.trying
        if row is None:
            return
        for event in events:
            if isinstance(event, ev.RunStarted):
                row.result.setText(self.tr("run {n} of {total}…").format(n=len(self.arms) + 1, total=RUNS_PER_TRIAL))
            elif isinstance(event, ev.TrialArm):
                self.arms.append(event)
                if event.error:
                    row.result.setToolTip(translate(event.error))

    def _on_done(self) -> None:
        row, thread = self.trying, self.thread
        self.thread, self.trying = None, None
        if thread is not None:
            thread.deleteLater()
        if self._scratch is not None:
            self._scratch.cleanup()
            self._scratch = None
        if row is not None and row in self.rows:
            result = remedies.speedup(self.arms)
            if result is not None:
                row.result.setText(
                    self.tr("{factor:.2f}× ({low:.2f}–{high:.2f})").format(
                        factor=result.factor, low=result.low, high=result.high
                    )
                )
            elif not row.result.text() or row.result.text() == self.tr("cancelling…"):
                row.result.setText(self.tr("no speed-up measured"))
            said = [translate(remedies.speedup_line(row.remedy.label, result))]
            row.result.setToolTip("\n".join(said + [translate(a.error) for a in self.arms if a.error]))
        self._enable()

    def shutdown(self) -> None:
        """Stop a trial in flight and wait for it (the window is closing)."""
        if self.thread is not None:
            self.thread.request_stop()
            self.thread.wait(15_000)
