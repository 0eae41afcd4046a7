"""The Sweep dialog: a hyper-parameter sweep built from the run form's config.

Pick the fields to vary and their values, the objective, the method, the budget, pruning and how trials share
this machine's devices; the dialog shows the slot plan (which trial slot trains on which devices, the
per-replica batch of each batch choice) and every problem engine.core.sweep finds, one a line, before Start. Start
runs `tfdd sweep --events` in a new folder under the runs folder and opens its view (gui.sweep.view).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from pathlib import Path

from PySide6.QtCore import Signal
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from engine.core.config import RunConfig
from engine.core.problems import ConfigError, Problem
from engine.core.protocol.commands import sweep_command
from engine.core.sweep import SweepPaths, new_sweep_dir
from engine.core.sweep.slots import Slot, per_replica_batches, plan_slots
from engine.core.sweep.space import METHODS, OBJECTIVES, PRUNERS, SweepSpace, load_sweep, parse_space
from gui.i18n import problem_text
from gui.sweep import names
from gui.sweep.space_editor import SpaceEditor
from gui.sweep.view import SweepView
from gui.theme import WidgetRole, set_role

SweepCommand = Callable[[Path, Path, Path], list[str]]  # (base config, space, sweep folder) -> command
MAX_TRIALS = 10_000


def _combo(choices: Sequence[str], table: dict[str, str], name: str) -> QComboBox:
    combo = QComboBox(objectName=name)
    for key in choices:
        combo.addItem(names.name(table, key), key)
    return combo


def _spin(low: int, high: int, value: int, name: str, special: str = "") -> QSpinBox:
    spin = QSpinBox(objectName=name, minimum=low, maximum=high, value=value)
    if special:
        spin.setSpecialValueText(special)  # shown for the minimum
    return spin


class SweepDialog(QDialog):
    """The space, the settings and the plan; Start opens the sweep's view."""

    config_chosen = Signal(object)
    """A view's "Use the best trial's config": the RunConfig for the run form."""

    def __init__(self, runs_root: Path, command_for: SweepCommand = sweep_command, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("sweepDialog")
        self.setWindowTitle(self.tr("Sweep"))
        self.resize(820, 760)
        self.runs_root = runs_root
        self.command_for = command_for
        self.base: RunConfig | None = None
        self.gpus: list[str] = []
        self.space: SweepSpace | None = None
        self.slots: list[Slot] = []
        self.views: list[SweepView] = []
        self._build()
        self.editor.changed.connect(self.check)
        for combo in (self.objective, self.method, self.pruner):
            combo.currentIndexChanged.connect(self.check)
        for spin in (self.trials, self.minutes, self.concurrency, self.gpus_per_trial):
            spin.valueChanged.connect(self.check)
        self.start_button.clicked.connect(self.start)
        self.open_button.clicked.connect(self._choose_sweep_folder)

    def _build(self) -> None:
        self.config_label = QLabel(objectName="sweepConfig", wordWrap=True)
        set_role(self.config_label, WidgetRole.HINT)
        self.editor = SpaceEditor()
        self.objective = _combo(OBJECTIVES, names.OBJECTIVES, "objectiveCombo")
        self.method = _combo(METHODS, names.METHODS, "methodCombo")
        self.method.setCurrentIndex(METHODS.index("tpe"))
        self.pruner = _combo(PRUNERS, names.PRUNERS, "prunerCombo")
        self.pruner.setCurrentIndex(PRUNERS.index("median"))
        self.trials = _spin(1, MAX_TRIALS, 16, "trialsSpin")
        self.minutes = _spin(0, 7 * 24 * 60, 0, "minutesSpin", self.tr("no limit"))
        self.minutes.setSuffix(self.tr(" min"))
        self.minutes.setToolTip(self.tr("No trial starts after this long; the ones training finish"))
        self.concurrency = _spin(0, 64, 0, "concurrencySpin", self.tr("as the devices allow"))
        self.concurrency.setToolTip(
            self.tr("Trials training at once; on the CPU the default is half the cores, so the machine stays usable")
        )
        self.gpus_per_trial = _spin(1, 1, 1, "gpusPerTrialSpin")
        self.gpus_per_trial.setToolTip(self.tr("Each trial trains on this many GPUs, as its own Mirrored replicas"))
        settings = QFormLayout()
        settings.addRow(self.tr("Objective:"), self.objective)
        settings.addRow(self.tr("Method:"), self.method)
        settings.addRow(self.tr("Trials:"), self.trials)
        settings.addRow(self.tr("Time budget:"), self.minutes)
        settings.addRow(self.tr("Stop trials early:"), self.pruner)
        settings.addRow(self.tr("Trials at once:"), self.concurrency)
        settings.addRow(self.tr("GPUs per trial:"), self.gpus_per_trial)
        space_box = QGroupBox(self.tr("What varies"))
        QVBoxLayout(space_box).addWidget(self.editor)
        settings_box = QGroupBox(self.tr("How"))
        settings_box.setLayout(settings)
        self.plan = QLabel(objectName="sweepPlan", wordWrap=True)
        self.plan_box = QGroupBox(self.tr("Plan"))
        QVBoxLayout(self.plan_box).addWidget(self.plan)
        self.problems = QLabel(objectName="sweepSetupProblems", wordWrap=True)
        set_role(self.problems, WidgetRole.PROBLEM)
        self.start_button = QPushButton(self.tr("Start sweep"), objectName="startSweepButton")
        set_role(self.start_button, WidgetRole.PRIMARY)
        self.open_button = QPushButton(self.tr("Open a sweep…"), objectName="openSweepButton")
        self.open_button.setToolTip(
            self.tr("Open a sweep's folder: its trials and where it stands; Continue resumes a stopped sweep")
        )
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        row = QHBoxLayout()
        row.addWidget(self.open_button)
        row.addStretch(1)
        row.addWidget(self.start_button)
        layout = QVBoxLayout(self)
        layout.addWidget(self.config_label)
        layout.addWidget(space_box)
        layout.addWidget(settings_box)
        layout.addWidget(self.plan_box)
        layout.addWidget(self.problems)
        layout.addStretch(1)
        layout.addLayout(row)
        layout.addWidget(buttons)

    # ---- the space ------------------------------------------------------------------
    def set_config(self, base: RunConfig, gpus: Sequence[str]) -> None:
        """The run form's config and the GPUs the window's device probe found ("GPU:0", ...)."""
        first = self.base is None
        self.base, self.gpus = base, list(gpus)
        self.editor.set_base(base)
        if first and base.validation_split <= 0:
            self.objective.setCurrentIndex(OBJECTIVES.index("loss"))
        self.gpus_per_trial.setMaximum(max(1, len(self.gpus)))
        self.gpus_per_trial.setEnabled(bool(self.gpus))
        self.config_label.setText(
            self.tr(
                "Varies the run form's config: {strategy}, {epochs} epochs, global batch {batch}, learning rate "
                "{lr:g}, model {model}. Each trial is an ordinary run folder."
            ).format(
                strategy=base.strategy,
                epochs=base.epochs,
                batch=base.global_batch_size,
                lr=base.learning_rate,
                model=base.model.kind,
            )
        )
        self.check()

    def raw_space(self) -> dict:
        """The space's JSON document as the dialog's fields give it."""
        raw: dict = {
            "parameters": self.editor.parameters(),
            "objective": self.objective.currentData(),
            "method": self.method.currentData(),
            "trials": self.trials.value(),
            "pruner": self.pruner.currentData(),
        }
        if self.minutes.value():
            raw["time_budget_s"] = self.minutes.value() * 60
        if self.concurrency.value():
            raw["concurrency"] = self.concurrency.value()
        if self.gpus:
            raw["gpus_per_trial"] = self.gpus_per_trial.value()
        return raw

    def check(self) -> list[Problem]:
        """Parse the space, plan the slots; show the plan or every problem. Start only without problems."""
        problems: list[Problem] = []
        self.space, self.slots = None, []
        if self.base is not None:
            try:
                self.space = parse_space(self.raw_space(), self.base)
                self.slots = plan_slots(self.space, self.base, self.gpus)
            except ConfigError as exc:
                problems = list(exc.problems)
        self.problems.setText("\n".join(problem_text(p) for p in problems))
        self.problems.setVisible(bool(problems))
        self.plan.setText(self.plan_text() if not problems else "")
        self.plan_box.setVisible(not problems)
        self.start_button.setEnabled(self.base is not None and not problems)
        return problems

    def plan_text(self) -> str:
        """Each slot's devices and replicas, and the per-replica batch of every global batch it may get."""
        if self.space is None or self.base is None:
            return ""
        batch = next((p for p in self.space.parameters if p.name == "global_batch_size"), None)
        sizes = batch.values if batch is not None else (self.base.global_batch_size,)
        lines = []
        for slot in self.slots:
            per = per_replica_batches(self.space, self.base, slot)
            batches = ", ".join(f"{g} → {b}" for g, b in zip(sizes, per, strict=True))
            lines.append(
                self.tr("Slot {n}: {devices}, {replicas} replica(s); per-replica batch {batches}").format(
                    n=slot.index + 1, devices=slot.label(), replicas=slot.replicas, batches=batches
                )
            )
        at_once = min(len(self.slots), self.space.trials)
        lines.append(
            self.tr("{at_once} trial(s) at once, {trials} in all; each trains {epochs} epoch(s).").format(
                at_once=at_once, trials=self.space.trials, epochs=self.base.epochs
            )
        )
        return "\n".join(lines)

    # ---- starting -------------------------------------------------------------------
    def start(self) -> SweepView | None:
        """A new sweep folder with the base config and the space, and its view running the sweep."""
        if not self.check() and self.base is not None and self.space is not None:
            try:
                sweep_dir = new_sweep_dir(self.runs_root, self.base.name)
                sweep_dir.mkdir(parents=True)
                base_path, space_path = sweep_dir / "base.json", sweep_dir / "space.json"
                self.base.save(base_path)
                space_path.write_text(json.dumps(self.raw_space(), indent=2) + "\n", encoding="utf-8")
            except OSError as exc:
                self.problems.setText(self.tr("Cannot create the sweep's folder: {exc}").format(exc=exc))
                self.problems.show()
                return None
            view = self._view(sweep_dir, self.base, self.space)
            view.start(self.command_for(base_path, space_path, sweep_dir))
            return view
        return None

    def open_sweep(self, sweep_dir: Path) -> SweepView | None:
        """The view of the sweep in `sweep_dir`: the one that runs it, or a new one showing where it stands (its
        Continue resumes a stopped sweep)."""
        view = next((v for v in self.views if v.sweep_dir == sweep_dir), None)
        if view is not None:
            self._show(view)
            if not view.running:  # it may have moved on since the view last read it
                view.attach()
            return view
        try:
            base, space = load_sweep(SweepPaths(sweep_dir))
        except ConfigError as exc:
            self.problems.setText("\n".join(problem_text(p) for p in exc.problems))
            self.problems.show()
            return None
        view = self._view(sweep_dir, base, space)
        view.attach()
        return view

    def _choose_sweep_folder(self) -> None:
        folder = QFileDialog.getExistingDirectory(self, self.tr("A sweep's folder"), str(self.runs_root))
        if folder:
            self.open_sweep(Path(folder))

    def _view(self, sweep_dir: Path, base: RunConfig, space: SweepSpace) -> SweepView:
        view = SweepView(sweep_dir, base, space, parent=self.parentWidget())
        view.config_chosen.connect(self.config_chosen)
        self.views.append(view)
        self._show(view)
        return view

    def _show(self, view: SweepView) -> None:
        view.show()
        view.activateWindow()
        self.hide()

    def training_views(self) -> list[SweepView]:
        """The views whose process trains their sweep now."""
        return [v for v in self.views if v.training]

    def shutdown(self, keep_running: bool = False) -> None:
        """Stop every sweep this dialog started (the window is closing); `keep_running`: continue each in a
        background sweep process."""
        for view in self.views:
            view.shutdown(keep_running)
