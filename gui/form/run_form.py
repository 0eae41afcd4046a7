"""The run form: every choice of a run, producing an engine RunConfig.

The form never decides what is valid: it asks `engine.core.config.validate` and shows each Problem and each
note of the device plan under its field. Keys it does not show (seed, shuffle buffer, …) are kept from the
config it was given, so opening and saving a hand-written file loses nothing. The field bindings are made
from the rows, which name the config fields their widgets edit.
"""

from __future__ import annotations

import dataclasses

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDoubleSpinBox,
    QFormLayout,
    QGridLayout,
    QGroupBox,
    QLabel,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from engine.core.config import (
    ALL_REDUCE,
    LOOPS,
    MIXED_PRECISION,
    OPTIMIZERS,
    STRATEGIES,
    VARIABLE_PARTITIONERS,
    RunConfig,
    Strategy,
    per_replica_batch,
    validate,
)
from engine.core.messages import msg
from engine.core.plan import plan_notes, plan_problems, replica_count
from engine.core.problems import Problem
from engine.core.tfconfig import CLUSTER_STRATEGIES, evaluator_problem
from gui.form.bindings import Bound, FieldBindings
from gui.form.data_source import DataSourceForm
from gui.form.device_probe import ProbeResult
from gui.form.model_form import ModelForm
from gui.form.number_fields import KeptValues, ScientificSpinBox, limited_spin
from gui.form.rows import ProblemLabels, hint_label
from gui.form.run_form_tips import ALL_REDUCE_TIPS, PARTITIONER_TIPS, PRECISION_TIPS, STRATEGY_HINTS, VIRTUAL_TIP
from gui.keyboard import order_tabs_by_layout

MULTI_WORKER = Strategy.MULTI_WORKER_MIRRORED
PARAMETER_SERVER = Strategy.PARAMETER_SERVER
DEVICE_COLUMNS = 3


def _spin(low: int, high: int, name: str = "") -> QSpinBox:
    spin = QSpinBox()
    spin.setRange(low, high)
    spin.setGroupSeparatorShown(True)
    spin.setObjectName(name)
    return spin


class RunForm(QWidget):
    """Edits a RunConfig; `evaluate()` gives the config, its replicas and its problems."""

    changed = Signal()
    """Some field changed; the config, replicas and problems may be different now."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._base = RunConfig()
        self._probe: ProbeResult | None = None
        self._device_boxes: dict[str, QCheckBox] = {}
        self._loading = False
        self._bound: dict[str, Bound] = {}  # config field -> its widget, filled by the rows (_field_row)
        self.kept = KeptValues()  # config values a field cannot show: never silently changed
        self.general_problems = QLabel()
        self.general_problems.setObjectName("generalProblems")
        self.labels = ProblemLabels(self.general_problems)
        layout = QVBoxLayout(self)
        layout.addWidget(self._training_group())
        layout.addWidget(self._distribution_group())
        layout.addWidget(self._speed_group())
        data_group = QGroupBox(self.tr("Data"))
        data_layout = QVBoxLayout(data_group)
        self.data_source = DataSourceForm(self.labels)
        self.data_source.changed.connect(self._emit_changed)
        data_layout.addWidget(self.data_source)
        layout.addWidget(data_group)
        layout.addWidget(self._model_group())
        layout.addWidget(self.general_problems)
        layout.addStretch(1)
        self.fields = self._bind_fields()
        self.set_config(RunConfig())

    # ---- building ------------------------------------------------------------
    def _field_row(
        self, form: QFormLayout, label: str, fields: dict[str, Bound], shown: QWidget | None = None, tooltip: str = ""
    ) -> QWidget:
        """A row editing the config `fields` through their widgets (`shown`: the row's own widget when it
        holds several): its problems and notes under it, and the fields bound to the widgets (self.fields)."""
        self._bound.update(fields)
        widget = shown or next(iter(fields.values()))
        return self.labels.add_row(form, label, widget, *fields, tooltip=tooltip)

    def _choices(self, name: str, items: tuple[str, ...], tips: dict[str, str] | None = None) -> QComboBox:
        """A combo box of a config field's choices, each with its tooltip."""
        combo = QComboBox(objectName=name)
        for item in items:
            combo.addItem(item)
            if tips and item in tips:
                combo.setItemData(combo.count() - 1, self.tr(tips[item]), Qt.ItemDataRole.ToolTipRole)
        return combo

    def _training_group(self) -> QGroupBox:
        box = QGroupBox(self.tr("Training"))
        form = QFormLayout(box)
        self.epochs = limited_spin("epochs", "epochsSpin")
        self.batch_size = limited_spin("global_batch_size", "batchSizeSpin")
        self.per_replica = hint_label("perReplicaLabel")
        batch_row = QWidget()
        column = QVBoxLayout(batch_row)
        column.setContentsMargins(0, 0, 0, 0)
        column.setSpacing(2)
        column.addWidget(self.batch_size)
        column.addWidget(self.per_replica)
        batch_row.setFocusProxy(self.batch_size)  # the label's mnemonic and Tab reach the number
        self.loop = self._choices("loopCombo", LOOPS)
        self.learning_rate = ScientificSpinBox()
        self.learning_rate.setObjectName("learningRateSpin")
        self.learning_rate.setRange(1e-12, 10.0)  # the engine takes (0, 10]
        self.optimizer = self._choices("optimizerCombo", OPTIMIZERS)
        self.validation = QDoubleSpinBox(objectName="validationSpin")
        self.validation.setRange(0.0, 0.99)  # the engine takes [0, 1)
        self.validation.setSingleStep(0.05)
        self._field_row(form, self.tr("&Epochs"), {"epochs": self.epochs})
        self._field_row(
            form,
            self.tr("Global &batch"),
            {"global_batch_size": self.batch_size},
            batch_row,
            tooltip=self.tr("Examples per step over all replicas; each replica gets global ÷ replicas"),
        )
        self._field_row(
            form,
            self.tr("&Loop"),
            {"loop": self.loop},
            tooltip=self.tr("fit: Keras model.fit; custom: strategy.run + strategy.reduce"),
        )
        self._field_row(form, self.tr("&Optimizer"), {"optimizer": self.optimizer})
        self._field_row(form, self.tr("Learning &rate"), {"learning_rate": self.learning_rate})
        self._field_row(
            form,
            self.tr("&Validation split"),
            {"validation_split": self.validation},
            tooltip=self.tr("Share of the data kept for validation; 0 plots no validation curve"),
        )
        return box

    def _distribution_group(self) -> QGroupBox:
        box = QGroupBox(self.tr("Distribution"))
        form = self._distribution_form = QFormLayout(box)
        self.strategy = self._choices("strategyCombo", STRATEGIES)
        self.strategy_hint = hint_label()
        self.devices = QWidget(objectName="deviceChecks")
        self.devices_layout = QGridLayout(self.devices)
        self.devices_layout.setContentsMargins(0, 0, 0, 0)
        self.devices_waiting = QLabel(self.tr("waiting for the device list…"))
        self.devices_waiting.setWordWrap(True)
        self.devices_layout.addWidget(self.devices_waiting, 0, 0, 1, DEVICE_COLUMNS)
        self.virtual = limited_spin("virtual_devices", "virtualDevicesSpin")
        self._field_row(form, self.tr("&Strategy"), {"strategy": self.strategy})
        form.addRow("", self.strategy_hint)
        self.labels.add_row(form, self.tr("&Devices"), self.devices, "devices")
        self._field_row(
            form, self.tr("V&irtual devices"), {"virtual_devices": self.virtual}, tooltip=self.tr(VIRTUAL_TIP)
        )
        self._cluster_rows(form)
        self.strategy.currentTextChanged.connect(self._on_strategy)
        self._on_strategy(self.strategy.currentText())
        self._checkpoint_row(form)
        return box

    def _cluster_rows(self, form: QFormLayout) -> None:
        """The local cluster Start launches for a cluster strategy (not config fields) and its sharding."""
        self.workers = _spin(1, 32, "workersSpin")
        self.workers.setValue(2)
        self.ps = _spin(1, 16, "psSpin")
        self.evaluator = QCheckBox(
            self.tr("validate each checkpoint in an evaluator task"), objectName="evaluatorCheck"
        )
        self.evaluator.setToolTip(
            self.tr(
                "An extra task validates every checkpoint the chief writes on the validation "
                "split, so training never waits for validation; its results are plotted as the "
                "validation curve"
            )
        )
        self.partitioner = self._choices("partitionerCombo", VARIABLE_PARTITIONERS, PARTITIONER_TIPS)
        self._workers_row = self.labels.add_row(
            form,
            self.tr("Local &workers"),
            self.workers,
            "workers",
            tooltip=self.tr(
                "Worker processes Start launches on this machine (127.0.0.1); "
                "multi_worker_mirrored: worker 0 is the chief; parameter_server: a coordinator "
                "(the chief) is added"
            ),
        )
        self._ps_row = self.labels.add_row(
            form,
            self.tr("&Parameter servers"),
            self.ps,
            "ps",
            tooltip=self.tr("ps tasks Start launches: they hold the variables"),
        )
        self._partitioner_row = self._field_row(
            form,
            self.tr("Variable s&harding"),
            {"variable_partitioner": self.partitioner},
            tooltip=self.tr("How variables are split across the parameter servers"),
        )
        self._evaluator_row = self.labels.add_row(form, self.tr("Evaluator"), self.evaluator, "evaluator")

    def _checkpoint_row(self, form: QFormLayout) -> None:
        self.every_epoch = QCheckBox(self.tr("every epoch"), objectName="checkpointEpochCheck")
        self.every_steps = limited_spin("checkpoint.every_steps", "checkpointStepsSpin")
        self.every_steps.setSpecialValueText(self.tr("never by steps"))
        self.every_steps.setAccessibleName(self.tr("Checkpoint every N steps"))
        self.every_steps.setPrefix(self.tr("every "))
        self.every_steps.setSuffix(self.tr(" steps"))
        checkpoints = QWidget()
        column = QVBoxLayout(checkpoints)
        column.setContentsMargins(0, 0, 0, 0)
        column.addWidget(self.every_epoch)
        column.addWidget(self.every_steps)
        checkpoints.setFocusProxy(self.every_epoch)
        self._field_row(
            form,
            self.tr("&Checkpoints"),
            {"checkpoint.every_steps": self.every_steps, "checkpoint.every_epoch": self.every_epoch},
            checkpoints,
            tooltip=self.tr("A stop always leaves a checkpoint"),
        )

    def _speed_group(self) -> QGroupBox:
        """What makes a step faster: mixed precision, XLA, and how the replicas all-reduce their gradients.
        A choice that cannot help on this machine gets the device plan's note under it (show_notes)."""
        box = QGroupBox(self.tr("Speed"))
        form = QFormLayout(box)
        self.precision = self._choices("precisionCombo", MIXED_PRECISION, PRECISION_TIPS)
        self.jit = QCheckBox(self.tr("compile each step with XLA"), objectName="jitCheck")
        self.all_reduce = self._choices("allReduceCombo", ALL_REDUCE, ALL_REDUCE_TIPS)
        self.pack = limited_spin("bytes_per_pack", "bytesPerPackSpin")
        self.pack.setSpecialValueText(self.tr("TensorFlow's default"))
        self.pack.setSuffix(self.tr(" bytes"))
        self.pack.setSingleStep(1 << 20)
        self._field_row(
            form,
            self.tr("&Mixed precision"),
            {"mixed_precision": self.precision},
            tooltip=self.tr("16-bit maths with float32 variables: faster where the hardware computes it"),
        )
        self._field_row(
            form,
            self.tr("&XLA"),
            {"jit_compile": self.jit},
            tooltip=self.tr(
                "jit_compile: XLA fuses each replica's step into fewer kernels, often faster on GPUs; the first "
                "steps wait for the compiler"
            ),
        )
        self._field_row(
            form,
            self.tr("All-red&uce"),
            {"all_reduce": self.all_reduce},
            tooltip=self.tr("How the replicas sum their gradients"),
        )
        self._field_row(
            form,
            self.tr("Pac&k size"),
            {"bytes_per_pack": self.pack},
            tooltip=self.tr(
                "multi_worker_mirrored: gradients are all-reduced in packs of this many bytes (fewer, larger "
                "messages); 0 leaves it to TensorFlow"
            ),
        )
        return box

    def _model_group(self) -> QGroupBox:
        box = QGroupBox(self.tr("Model"))
        column = QVBoxLayout(box)
        self.model_form = ModelForm(self.labels)
        self.hidden, self.activation = self.model_form.hidden, self.model_form.activation
        self.model_form.changed.connect(self._emit_changed)
        self.model_form.summary.button.clicked.connect(self.request_summary)
        column.addWidget(self.model_form)
        return box

    def request_summary(self) -> None:
        """Build the form's model in a child process and show its layers (gui.form.model_summary)."""
        config, replicas, _ = self.evaluate()
        self.model_form.summary.request(config, replicas)

    # ---- config <-> widgets --------------------------------------------------
    def _bind_fields(self) -> FieldBindings:
        """The config fields this form's rows edit (data, model and devices have theirs)."""
        bindings = FieldBindings(self._bound, self.kept)
        bindings.connect(self._emit_changed)
        for local_cluster in (self.workers, self.ps):  # the shape of a local cluster, not config fields
            local_cluster.valueChanged.connect(self._emit_changed)
        self.evaluator.toggled.connect(self._emit_changed)
        return bindings

    def set_config(self, config: RunConfig) -> None:
        """Show `config`; keys without a widget are kept for `evaluate()`, and so are values a field
        cannot show (named as problems under their fields)."""
        self._loading = True
        try:
            self._base = config
            self.fields.show(config)
            self.model_form.set_model(config.model)
            self.data_source.set_data(config.data, config)
            self._tick_devices(config.devices)
        finally:
            self._loading = False
        self._emit_changed()

    def set_probe(self, probe: ProbeResult) -> None:
        """Offer the probed devices as check boxes; keep the config's choice where it exists."""
        self._probe = probe
        wanted = self.evaluate()[0].devices
        for box in self._device_boxes.values():
            box.deleteLater()
        self._device_boxes.clear()
        self.devices_waiting.setVisible(not probe.devices)
        self.devices_waiting.setText(self.tr("the probe found no devices"))
        for i, device in enumerate(probe.gpus + probe.cpus):
            box = QCheckBox(device.name, objectName=f"device_{device.name.replace(':', '_')}")
            box.setToolTip(f"{device.name} {device.model}".strip())
            box.toggled.connect(self._emit_changed)
            self.devices_layout.addWidget(box, 1 + i // DEVICE_COLUMNS, i % DEVICE_COLUMNS)
            self._device_boxes[device.name] = box
        if self._device_boxes:  # the Devices label's mnemonic and Tab lead to the first device
            self.devices.setFocusProxy(next(iter(self._device_boxes.values())))
            order_tabs_by_layout(self)
        self._tick_devices(wanted)
        self._emit_changed()

    def _tick_devices(self, wanted: tuple[str, ...] | None) -> None:
        if not self._device_boxes or self._probe is None:
            return
        names = [n for n in (wanted or ()) if n in self._device_boxes]
        if not names:  # the engine's own default: all GPUs, else the CPU
            names = [d.name for d in self._probe.gpus] or [d.name for d in self._probe.cpus][:1]
        for name, box in self._device_boxes.items():
            box.blockSignals(True)
            box.setChecked(name in names)
            box.blockSignals(False)

    def evaluate(self, workers: int | None = None) -> tuple[RunConfig, int | None, list[Problem]]:
        """The form's RunConfig, its replica count (None: not known yet) and all its problems.

        `workers` counts a multi-worker run's replicas for that many workers
        (an exported cluster's) instead of the local workers box.
        """
        model, model_problems = self.model_form.model(self._base.model)
        devices = (
            tuple(n for n, b in self._device_boxes.items() if b.isChecked())
            if self._device_boxes
            else self._base.devices
        )
        config = dataclasses.replace(
            self.fields.read(self._base),
            devices=devices or None,
            data=self.data_source.data(self._base.data),
            model=model,
        )
        gpus = [d.name for d in self._probe.gpus] if self._probe else None
        replicas = replica_count(config, gpus, workers or self.workers.value())
        problems = model_problems + self.data_source.problems()
        local_workers = workers or self.workers.value()
        problems += self.data_source.shard_problems(
            local_workers if config.strategy == MULTI_WORKER else 1, config.validation_split
        )
        if self._device_boxes and not devices:
            problems.append(Problem("devices", [], msg("tick at least one device")))
        problems += validate(config, replicas=replicas)
        problems += plan_problems(config, gpus)
        problems += self.kept.problems()
        evaluator = self.local_cluster_shape()[2]
        if evaluator and (why := evaluator_problem(config)):
            problems.append(Problem("validation_split", config.validation_split, why))
        self.model_form.summary.mark_stale(config)
        return config, replicas, problems

    def local_cluster_shape(self) -> tuple[int, int, bool]:
        """(workers, parameter servers, evaluator?) of the local cluster Start launches for the strategy."""
        strategy = self.strategy.currentText()
        if strategy not in CLUSTER_STRATEGIES:
            return 1, 0, False
        ps = self.ps.value() if strategy == PARAMETER_SERVER else 0
        return self.workers.value(), ps, self.evaluator.isChecked()

    def show_problems(self, problems: list[Problem]) -> None:
        self.labels.show(problems)

    def notes(self, config: RunConfig) -> list[Problem]:
        """The device plan's notes on `config` for the probed machine: valid choices that cannot help here."""
        probe = self._probe
        cpus = probe.cpus if probe else ()
        return plan_notes(
            config,
            [d.name for d in probe.gpus] if probe else None,
            cpu_features=cpus[0].features if cpus else None,
            compute_capabilities={d.name: d.compute_capability for d in probe.gpus} if probe else None,
        )

    def show_per_replica(self, config: RunConfig, replicas: int | None) -> None:
        """The hints that follow the config: the strategy's, the per-replica batch and the plan's notes."""
        self.labels.show_notes(self.notes(config))
        hint = STRATEGY_HINTS.get(config.strategy)
        self.strategy_hint.setText(self.tr(hint) if hint else "")
        per_replica = per_replica_batch(config.global_batch_size, replicas)
        if replicas is None:
            self.per_replica.setText(self.tr("per replica: known once devices are listed"))
        elif per_replica is None:
            self.per_replica.setText(self.tr("not divisible by %n replica(s)", "", replicas))
        elif config.strategy == PARAMETER_SERVER:
            self.per_replica.setText(
                self.tr("= {per_replica} per replica × %n replica(s) per step; ", "", replicas).format(
                    per_replica=per_replica
                )
                + self.tr("%n worker(s) take steps in turn", "", self.workers.value())
            )
        else:
            workers = self.workers.value()
            # non-breaking spaces: a wrapped line never splits the parenthesis
            split = (
                self.tr(" ({count}\u00a0per\u00a0worker)").format(count=replicas // workers)
                if config.strategy == MULTI_WORKER
                else ""
            )
            self.per_replica.setText(
                self.tr("= {per_replica} per replica × %n replica(s)", "", replicas).format(per_replica=per_replica)
                + split
            )

    def _on_strategy(self, strategy: str) -> None:
        """A cluster strategy: boxes for its local tasks instead of the virtual split, which the engine
        ignores there."""
        cluster = strategy in CLUSTER_STRATEGIES
        parameter_server = strategy == PARAMETER_SERVER
        form = self._distribution_form
        form.setRowVisible(self._workers_row, cluster)
        form.setRowVisible(self._evaluator_row, cluster)
        form.setRowVisible(self._ps_row, parameter_server)
        form.setRowVisible(self._partitioner_row, parameter_server)
        self.virtual.setEnabled(not cluster)
        self.virtual.setToolTip(
            self.tr("{strategy} runs one replica per device in each worker; add local workers instead").format(
                strategy=strategy
            )
            if cluster
            else self.tr(VIRTUAL_TIP)
        )

    def _emit_changed(self) -> None:
        if not self._loading:
            self.changed.emit()
