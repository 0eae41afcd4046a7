"""Where the examples come from: every data kind with the fields it needs, and a preview.

For a CSV file the label column is chosen from its header; for an NPZ file
the arrays from its keys; for TFRecord files the feature keys from the
first record. Reading a header, a key list or a record needs no TensorFlow.
After each change the preview (gui.form.data_preview) reads the source
with `engine.core.sources.inspect(quick=True)`, so a wrong folder is an inline
problem in a second, not a failed run after TensorFlow's start-up.
"""

from __future__ import annotations

import dataclasses

from PySide6.QtCore import QT_TRANSLATE_NOOP, Qt, QTimer, Signal
from PySide6.QtWidgets import (
    QComboBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QLineEdit,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from engine.core.config import RunConfig
from engine.core.data_kinds import DATA_KINDS, data_kind, validate_data
from engine.core.data_kinds.base import SHARD_HINTS, SHARD_POLICIES, DataConfig, names_in
from engine.core.data_kinds.image_folder import COLOR_MODES
from engine.core.data_kinds.tfrecord import TFRECORD_FEATURE_TYPES
from engine.core.messages import msg
from engine.core.problems import ConfigError, DataError, Problem
from engine.core.sources import SourceInfo, inspect, resolve_shard_policy, shard_problem
from gui.form.data_preview import DataPreview
from gui.form.number_fields import KeptValues, limited_spin
from gui.form.rows import ProblemLabels, hint_label
from gui.i18n import translate

# Every field a data kind may read, in the form's order: (label, tooltip). A kind shows the rows of its fields
# (engine.core.data_kinds.<kind>.KIND.fields).
ROWS: dict[str, tuple[str, str]] = {
    "path": (QT_TRANSLATE_NOOP("DataSourceForm", "Path"), ""),
    "num_samples": (QT_TRANSLATE_NOOP("DataSourceForm", "Samples"), ""),
    "num_features": (QT_TRANSLATE_NOOP("DataSourceForm", "Features"), ""),
    "num_classes": (QT_TRANSLATE_NOOP("DataSourceForm", "Classes"), ""),
    "label": (QT_TRANSLATE_NOOP("DataSourceForm", "Label column"), ""),
    "features_key": (QT_TRANSLATE_NOOP("DataSourceForm", "Features key"), ""),
    "labels_key": (QT_TRANSLATE_NOOP("DataSourceForm", "Labels key"), ""),
    "feature_type": (
        QT_TRANSLATE_NOOP("DataSourceForm", "Feature type"),
        QT_TRANSLATE_NOOP("DataSourceForm", "float: a list of numbers; image: an encoded PNG/JPEG"),
    ),
    "feature_shape": (QT_TRANSLATE_NOOP("DataSourceForm", "Feature shape"), ""),
    "image_size": (
        QT_TRANSLATE_NOOP("DataSourceForm", "Image size"),
        QT_TRANSLATE_NOOP("DataSourceForm", "height, width to resize every image to; empty keeps the stored size"),
    ),
    "color_mode": (
        QT_TRANSLATE_NOOP("DataSourceForm", "Colour"),
        QT_TRANSLATE_NOOP("DataSourceForm", "auto: the images' own channels; rgb or grayscale converts them all"),
    ),
    "function": (
        QT_TRANSLATE_NOOP("DataSourceForm", "Function"),
        QT_TRANSLATE_NOOP(
            "DataSourceForm", "make_dataset(input_context) -> tf.data.Dataset of (features, label) examples"
        ),
    ),
    "validation_function": (QT_TRANSLATE_NOOP("DataSourceForm", "Validation function"), ""),
}
PREVIEW_DELAY_MS = 250


def parse_ints(text: str, field: str, example: str) -> tuple[tuple[int, ...] | None, Problem | None]:
    """ "32, 32, 3" -> (32, 32, 3); "" -> None; a Problem for anything else."""
    parts = [p for p in text.replace(";", ",").replace("x", ",").replace(" ", ",").split(",") if p]
    if not parts:
        return None, None
    try:
        return tuple(int(p) for p in parts), None
    except ValueError:
        return None, Problem(field, text, msg("write whole numbers, e.g. {example}", example=example))


class DataSourceForm(QWidget):
    """Edits the `data` section of a RunConfig and previews what it holds."""

    changed = Signal()
    """Any field of the data source changed, or the preview found something new."""

    def __init__(self, problems: ProblemLabels, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.kind = QComboBox(objectName="dataKindCombo")
        self.kind.addItems(DATA_KINDS)
        self.kind_hint = hint_label("dataKindHint")
        self.kept = KeptValues()  # values these fields cannot show: kept, named as problems
        self._make_fields()
        self.shard_policy = QComboBox(objectName="shardPolicyCombo")
        self.shard_policy.addItems(SHARD_POLICIES)
        for i, policy in enumerate(SHARD_POLICIES):
            self.shard_policy.setItemData(i, translate(SHARD_HINTS[policy]), Qt.ItemDataRole.ToolTipRole)
        self.shard_hint = hint_label("shardHint")
        self.preview = DataPreview()
        self._form = self._lay_out(problems)

        self._read_problem: Problem | None = None
        self._preview_problem: Problem | None = None
        self.info: SourceInfo | None = None
        self._preview_key: object = None
        self._base = RunConfig()
        self._workers = 1
        self._preview_timer = QTimer(self, singleShot=True, interval=PREVIEW_DELAY_MS)
        self._preview_timer.timeout.connect(self.refresh_preview)
        self._connect()
        self.set_data(DataConfig())

    def _make_fields(self) -> None:
        self.samples = limited_spin("data.num_samples", "samplesSpin")
        self.features = limited_spin("data.num_features", "featuresSpin")
        self.classes = limited_spin("data.num_classes", "classesSpin")
        self.path = QLineEdit(objectName="dataPathEdit")
        self.path.setPlaceholderText(self.tr("choose a file…"))
        browse = QPushButton(self.tr("Browse…"), objectName="dataBrowseButton")
        browse.clicked.connect(self._browse)
        self._path_row = QWidget()
        row = QHBoxLayout(self._path_row)
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(self.path, 1)
        row.addWidget(browse)
        self._path_row.setFocusProxy(self.path)  # the row's label (its buddy) and the tab order lead to the path
        self.label = QComboBox(objectName="labelColumnCombo")
        self.features_key = QComboBox(objectName="featuresKeyCombo", editable=True)
        self.labels_key = QComboBox(objectName="labelsKeyCombo", editable=True)
        self.feature_type = QComboBox(objectName="featureTypeCombo")
        self.feature_type.addItems(TFRECORD_FEATURE_TYPES)
        self.feature_shape = QLineEdit(objectName="featureShapeEdit", placeholderText=self.tr("e.g. 10 or 32, 32, 3"))
        self.image_size = QLineEdit(objectName="imageSizeEdit", placeholderText=self.tr("as stored (all alike)"))
        self.color_mode = QComboBox(objectName="colorModeCombo")
        self.color_mode.addItems(COLOR_MODES)
        self.function = QLineEdit(objectName="dataFunctionEdit")
        self.validation_function = QLineEdit(objectName="validationFunctionEdit", placeholderText=self.tr("none"))

    def _field_widgets(self) -> dict[str, QWidget]:
        """The widget of each field of ROWS."""
        return {
            "path": self._path_row,
            "num_samples": self.samples,
            "num_features": self.features,
            "num_classes": self.classes,
            "label": self.label,
            "features_key": self.features_key,
            "labels_key": self.labels_key,
            "feature_type": self.feature_type,
            "feature_shape": self.feature_shape,
            "image_size": self.image_size,
            "color_mode": self.color_mode,
            "function": self.function,
            "validation_function": self.validation_function,
        }

    def _lay_out(self, problems: ProblemLabels) -> QFormLayout:
        """The kind, a row per field of ROWS (shown for the kinds that read it), the shard policy, the preview."""
        form = QFormLayout()
        form.setContentsMargins(0, 0, 0, 0)
        add = problems.add_row
        add(form, self.tr("Source"), self.kind, "data.kind")
        form.addRow("", self.kind_hint)
        widgets = self._field_widgets()
        self._rows: dict[str, QWidget] = {}
        for field, (label, tooltip) in ROWS.items():
            self._rows[field] = add(
                form, self.tr(label), widgets[field], f"data.{field}", tooltip=self.tr(tooltip) if tooltip else ""
            )
        add(
            form,
            self.tr("Shard policy"),
            self.shard_policy,
            "data.shard_policy",
            tooltip=self.tr("How multi-worker runs split data"),
        )
        form.addRow("", self.shard_hint)
        column = QVBoxLayout(self)
        column.setContentsMargins(0, 0, 0, 0)
        column.addLayout(form)
        column.addWidget(self.preview)
        return form

    def _connect(self) -> None:
        self.kind.currentTextChanged.connect(self._on_kind)
        self.path.editingFinished.connect(self._read_file)
        for field, spin in self._numbers().items():
            self.kept.watch(field, spin)  # first: a changed field forgets its kept value
            spin.valueChanged.connect(self._edited)
        for combo in (
            self.label,
            self.features_key,
            self.labels_key,
            self.feature_type,
            self.color_mode,
            self.shard_policy,
        ):
            combo.currentTextChanged.connect(self._edited)
        for edit in (self.feature_shape, self.image_size, self.function, self.validation_function):
            edit.textChanged.connect(self._edited)

    # ---- config <-> widgets ------------------------------------------------
    def set_data(self, data: DataConfig, base: RunConfig | None = None) -> None:
        self._wanted = data
        self._base = base or self._base
        widgets = (self.kind, self.samples, self.features, self.classes, self.feature_type, self.color_mode)
        for w in (*widgets, self.shard_policy, self.feature_shape, self.image_size, self.function):
            w.blockSignals(True)
        self.kind.setCurrentText(data.kind)
        values = {
            "data.num_samples": data.num_samples,
            "data.num_features": data.num_features,
            "data.num_classes": data.num_classes,
        }
        for field, spin in self._numbers().items():
            self.kept.show(field, spin, values[field])
        self.path.setText(data.path or "")
        self.feature_type.setCurrentText(data.feature_type)
        self.feature_shape.setText(", ".join(map(str, data.feature_shape or ())))
        self.image_size.setText(", ".join(map(str, data.image_size or ())))
        self.color_mode.setCurrentText(data.color_mode)
        self.function.setText(data.function)
        self.validation_function.setText(data.validation_function or "")
        self.shard_policy.setCurrentText(data.shard_policy)
        for w in (*widgets, self.shard_policy, self.feature_shape, self.image_size, self.function):
            w.blockSignals(False)
        for combo in (self.label, self.features_key, self.labels_key):
            combo.blockSignals(True)
            combo.clear()
            if combo.isEditable():
                combo.setEditText("")
            combo.blockSignals(False)
        self._show_rows(data.kind)
        self._fill_names()
        self.refresh_preview()

    def data(self, base: DataConfig) -> DataConfig:
        kind = self.kind.currentText()
        fields = self._kind_fields()
        shape = parse_ints(self.feature_shape.text(), "data.feature_shape", "32, 32, 3")[0]
        size = parse_ints(self.image_size.text(), "data.image_size", "64, 64")[0]
        return dataclasses.replace(
            base,
            kind=kind,
            num_samples=self.kept.value("data.num_samples", self.samples),
            num_features=self.kept.value("data.num_features", self.features),
            num_classes=self.kept.value("data.num_classes", self.classes),
            path=self.path.text().strip() or None,
            label=(self.label.currentText() or None) if "label" in fields else base.label,
            features_key=self.features_key.currentText().strip() or base.features_key,
            labels_key=self.labels_key.currentText().strip() or base.labels_key,
            feature_type=self.feature_type.currentText(),
            feature_shape=shape if self.feature_shape.text().strip() else None,
            image_size=size,
            color_mode=self.color_mode.currentText(),
            function=self.function.text().strip() or base.function,
            validation_function=self.validation_function.text().strip() or None,
            shard_policy=self.shard_policy.currentText(),
        )

    def _kind_fields(self) -> tuple[str, ...]:
        kind = data_kind(self.kind.currentText())
        return kind.fields if kind else ()

    def _numbers(self) -> dict[str, QSpinBox]:
        return {"data.num_samples": self.samples, "data.num_features": self.features, "data.num_classes": self.classes}

    def problems(self) -> list[Problem]:
        """Problems only the form sees (an unreadable header, a number list, the preview's finding, a value a
        field cannot show); the rest come from validate()."""
        fields = self._kind_fields()
        found = [self._read_problem, self._preview_problem]
        found.append(parse_ints(self.feature_shape.text(), "data.feature_shape", "32, 32, 3")[1])
        found.append(parse_ints(self.image_size.text(), "data.image_size", "64, 64")[1])
        found += [p for p in self.kept.problems() if p.field.removeprefix("data.") in fields]  # the shown ones
        return [p for p in found if p]

    def shard_problems(self, workers: int, validation_split: float) -> list[Problem]:
        """With `workers` workers: the policy "auto" resolves to, shown in the hint, and its problem."""
        self._workers = workers
        policy = self.shard_policy.currentText()
        if self.info is None or policy not in SHARD_POLICIES:
            self.shard_hint.setText(translate(SHARD_HINTS.get(policy, "")))
            return []
        resolved = resolve_shard_policy(policy, self.info, workers, validation_split)
        chosen = (
            self.tr(" → {resolved} with %n workers", "", workers).format(resolved=resolved)
            if policy == "auto" and workers > 1
            else ""
        )
        self.shard_hint.setText(f"{translate(SHARD_HINTS[policy])}{chosen}")
        problem = shard_problem(resolved, self.info, workers)
        return [problem] if problem else []

    # ---- reactions ---------------------------------------------------------
    def _edited(self) -> None:
        self._preview_timer.start()
        self.changed.emit()

    def _show_rows(self, name: str) -> None:
        kind = data_kind(name)
        self.kind_hint.setText(translate(kind.hint) if kind else "")
        for field, box in self._rows.items():
            self._form.setRowVisible(box, kind is not None and field in kind.fields)
            label = self._form.labelForField(box)
            if label is not None:
                own = kind.labels.get(field) if kind else None
                label.setText(translate(own) if own else self.tr(ROWS[field][0]))
        folder = kind is not None and kind.folder
        self.path.setPlaceholderText(self.tr("choose a folder…") if folder else self.tr("choose a file (or a glob)…"))

    def _on_kind(self, kind: str) -> None:
        self._show_rows(kind)
        self._read_file()

    def _browse(self) -> None:
        kind = data_kind(self.kind.currentText())
        if kind is None:
            return
        if kind.folder:
            path = QFileDialog.getExistingDirectory(self, self.tr("Choose an image folder"), self.path.text())
        else:
            path, _ = QFileDialog.getOpenFileName(
                self,
                self.tr("Choose a {kind} file").format(kind=kind.name),
                self.path.text(),
                translate(kind.file_filter) if kind.file_filter else "",
            )
        if path:
            self.path.setText(path)
            self._read_file()

    def _read_file(self) -> None:
        self._fill_names()
        self.refresh_preview()
        self.changed.emit()

    def _fill_names(self) -> None:
        """Fill the column/key choices from the file, keeping the wanted choice if it is there."""
        kind, path = data_kind(self.kind.currentText()), self.path.text().strip()
        self._read_problem = None
        names: list[str] = []
        try:
            names = names_in(kind, path) if kind else []
        except DataError as exc:  # unreadable, a CSV that is not UTF-8, a line the CSV reader cannot split
            self._read_problem = Problem("data.path", path, exc.message)
        wanted = self._wanted
        self._fill(self.label, names, wanted.label, default=names[-1] if names else "")
        self._fill(self.features_key, names, wanted.features_key, default=names[0] if names else "")
        self._fill(self.labels_key, names, wanted.labels_key, default=names[-1] if names else "")

    @staticmethod
    def _fill(combo: QComboBox, names: list[str], wanted: str | None, default: str) -> None:
        combo.blockSignals(True)
        current = combo.currentText() or wanted
        combo.clear()
        combo.addItems(names)
        if combo.isEditable():
            combo.setCurrentText(current or default)
        else:
            combo.setCurrentText(current if current in names else default)
        combo.blockSignals(False)

    def refresh_preview(self) -> None:
        """Read the source again (a bounded sample) unless nothing it depends on changed."""
        self._preview_timer.stop()
        data = self.data(self._wanted)
        key = (data, self._base.seed)
        if key == self._preview_key:
            return
        self._preview_key = key
        self.info, self._preview_problem = None, None
        if self._read_problem is None and not validate_data(data, self._base.validation_split):
            try:
                self.info = inspect(dataclasses.replace(self._base, data=data), quick=True)
            except ConfigError as exc:
                self._preview_problem = exc.problems[0] if exc.problems else None
            except (ValueError, TypeError, AttributeError, OSError):
                pass  # values of the wrong kind: validate() names them
        self.preview.show_info(self.info)
        self.changed.emit()
