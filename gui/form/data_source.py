"""Where the examples come from: every data kind with the fields it needs, and a preview.

For a CSV file the label column is chosen from its header; for an NPZ file
the arrays from its keys; for TFRecord files the feature keys from the
first record. Reading a header, a key list or a record needs no TensorFlow.
After each change the preview (gui.form.data_preview) reads the source
with `engine.sources.inspect(quick=True)`, so a wrong folder is an inline
problem in a second, not a failed run after TensorFlow's start-up.
"""

from __future__ import annotations

import dataclasses
import zipfile

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

from engine.config import DataConfig, RunConfig
from engine.csv_rows import header_of
from engine.kinds import (
    COLOR_MODES,
    DATA_KINDS,
    SHARD_HINTS,
    SHARD_POLICIES,
    TFRECORD_FEATURE_TYPES,
    matching_files,
    validate_data,
)
from engine.messages import msg
from engine.problems import ConfigError, DataError, Problem
from engine.sources import SourceInfo, inspect, resolve_shard_policy, shard_problem
from engine.tfrecord_reader import RecordError, parse_example, records
from gui.form.data_preview import DataPreview
from gui.form.number_fields import KeptValues, limited_spin
from gui.form.rows import ProblemLabels, hint_label
from gui.i18n import translate

FILE_FILTERS = {
    "csv": QT_TRANSLATE_NOOP("DataSourceForm", "CSV files (*.csv);;All files (*)"),
    "npz": QT_TRANSLATE_NOOP("DataSourceForm", "NumPy archives (*.npz);;All files (*)"),
    "tfrecord": QT_TRANSLATE_NOOP("DataSourceForm", "TFRecord files (*.tfrecord *.tfrecords *.tfr);;All files (*)"),
    "python": QT_TRANSLATE_NOOP("DataSourceForm", "Python files (*.py)"),
}
KIND_HINTS = {
    "synthetic": QT_TRANSLATE_NOOP("DataSourceForm", "the tutorial's random data"),
    "csv": QT_TRANSLATE_NOOP(
        "DataSourceForm", "numeric columns and a label column; streamed, so it may be larger than memory"
    ),
    "npz": QT_TRANSLATE_NOOP("DataSourceForm", "NumPy arrays of features and labels, read into memory"),
    "image_folder": QT_TRANSLATE_NOOP("DataSourceForm", "one subfolder of images per class (PNG, JPEG, BMP, GIF)"),
    "tfrecord": QT_TRANSLATE_NOOP("DataSourceForm", "tf.train.Example records: features and an int64 label"),
    "python": QT_TRANSLATE_NOOP(
        "DataSourceForm", "make_dataset(input_context) in your file returns (features, label) examples"
    ),
}
PATH_KINDS = ("csv", "npz", "image_folder", "tfrecord", "python")
PREVIEW_DELAY_MS = 250


def csv_columns(path: str) -> list[str]:
    """The header row of a CSV file (the first of a glob)."""
    files = matching_files(path)
    return header_of(files[0] if files else path)


def npz_keys(path: str) -> list[str]:
    """Array names in an .npz file, read from the zip directory without loading arrays."""
    with zipfile.ZipFile(path) as z:
        return [n[:-4] if n.endswith(".npy") else n for n in z.namelist()]


def tfrecord_keys(path: str) -> list[str]:
    """Feature names of the first record of the first file."""
    files = matching_files(path)
    first = next(records(files[0], 1), None) if files else None
    return sorted(parse_example(first)) if first else []


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
        self.samples = limited_spin("data.num_samples", "samplesSpin")
        self.features = limited_spin("data.num_features", "featuresSpin")
        self.classes = limited_spin("data.num_classes", "classesSpin")
        self.kept = KeptValues()  # values these fields cannot show: kept, named as problems
        self.path = QLineEdit(objectName="dataPathEdit")
        self.path.setPlaceholderText(self.tr("choose a file…"))
        browse = QPushButton(self.tr("Browse…"), objectName="dataBrowseButton")
        browse.clicked.connect(self._browse)
        path_row = QWidget()
        row = QHBoxLayout(path_row)
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(self.path, 1)
        row.addWidget(browse)
        path_row.setFocusProxy(self.path)  # the row's label (its buddy) and the tab order lead to the path
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
        self.shard_policy = QComboBox(objectName="shardPolicyCombo")
        self.shard_policy.addItems(SHARD_POLICIES)
        for i, policy in enumerate(SHARD_POLICIES):
            self.shard_policy.setItemData(i, translate(SHARD_HINTS[policy]), Qt.ItemDataRole.ToolTipRole)
        self.shard_hint = hint_label("shardHint")
        self.preview = DataPreview()

        form = QFormLayout()
        form.setContentsMargins(0, 0, 0, 0)
        add = problems.add_row
        add(form, self.tr("Source"), self.kind, "data.kind")
        form.addRow("", self.kind_hint)
        path_box = add(form, self.tr("Path"), path_row, "data.path")
        self._rows: dict[str, tuple[QWidget, tuple[str, ...]]] = {
            "samples": (add(form, self.tr("Samples"), self.samples, "data.num_samples"), ("synthetic", "python")),
            "features": (add(form, self.tr("Features"), self.features, "data.num_features"), ("synthetic",)),
            "classes": (
                add(form, self.tr("Classes"), self.classes, "data.num_classes"),
                ("synthetic", "tfrecord", "python"),
            ),
            "path": (path_box, PATH_KINDS),
            "label": (add(form, self.tr("Label column"), self.label, "data.label"), ("csv",)),
            "features_key": (
                add(form, self.tr("Features key"), self.features_key, "data.features_key"),
                ("npz", "tfrecord"),
            ),
            "labels_key": (add(form, self.tr("Labels key"), self.labels_key, "data.labels_key"), ("npz", "tfrecord")),
            "feature_type": (
                add(
                    form,
                    self.tr("Feature type"),
                    self.feature_type,
                    "data.feature_type",
                    tooltip=self.tr("float: a list of numbers; image: an encoded PNG/JPEG"),
                ),
                ("tfrecord",),
            ),
            "feature_shape": (
                add(form, self.tr("Feature shape"), self.feature_shape, "data.feature_shape"),
                ("tfrecord",),
            ),
            "image_size": (
                add(
                    form,
                    self.tr("Image size"),
                    self.image_size,
                    "data.image_size",
                    tooltip=self.tr("height, width to resize every image to; empty keeps the stored size"),
                ),
                ("image_folder",),
            ),
            "color_mode": (
                add(
                    form,
                    self.tr("Colour"),
                    self.color_mode,
                    "data.color_mode",
                    tooltip=self.tr("auto: the images' own channels; rgb or grayscale converts them all"),
                ),
                ("image_folder",),
            ),
            "function": (
                add(
                    form,
                    self.tr("Function"),
                    self.function,
                    "data.function",
                    tooltip=self.tr("make_dataset(input_context) -> tf.data.Dataset of (features, label) examples"),
                ),
                ("python",),
            ),
            "validation_function": (
                add(form, self.tr("Validation function"), self.validation_function, "data.validation_function"),
                ("python",),
            ),
        }
        add(
            form,
            self.tr("Shard policy"),
            self.shard_policy,
            "data.shard_policy",
            tooltip=self.tr("How multi-worker runs split data"),
        )
        form.addRow("", self.shard_hint)
        self._form = form
        column = QVBoxLayout(self)
        column.setContentsMargins(0, 0, 0, 0)
        column.addLayout(form)
        column.addWidget(self.preview)

        self._read_problem: Problem | None = None
        self._preview_problem: Problem | None = None
        self.info: SourceInfo | None = None
        self._preview_key: object = None
        self._base = RunConfig()
        self._workers = 1
        self._preview_timer = QTimer(self, singleShot=True, interval=PREVIEW_DELAY_MS)
        self._preview_timer.timeout.connect(self.refresh_preview)
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
        self.set_data(DataConfig())

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
        shape = parse_ints(self.feature_shape.text(), "data.feature_shape", "32, 32, 3")[0]
        size = parse_ints(self.image_size.text(), "data.image_size", "64, 64")[0]
        return dataclasses.replace(
            base,
            kind=kind,
            num_samples=self.kept.value("data.num_samples", self.samples),
            num_features=self.kept.value("data.num_features", self.features),
            num_classes=self.kept.value("data.num_classes", self.classes),
            path=self.path.text().strip() or None,
            label=(self.label.currentText() or None) if kind == "csv" else base.label,
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

    def _numbers(self) -> dict[str, QSpinBox]:
        return {"data.num_samples": self.samples, "data.num_features": self.features, "data.num_classes": self.classes}

    def problems(self) -> list[Problem]:
        """Problems only the form sees (an unreadable header, a number list, the preview's finding, a value a
        field cannot show); the rest come from validate()."""
        kind = self.kind.currentText()
        found = [self._read_problem, self._preview_problem]
        found.append(parse_ints(self.feature_shape.text(), "data.feature_shape", "32, 32, 3")[1])
        found.append(parse_ints(self.image_size.text(), "data.image_size", "64, 64")[1])
        found += [
            p
            for p in self.kept.problems()
            if kind == "synthetic" or (kind, p.field) == ("tfrecord", "data.num_classes")
        ]
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

    def _show_rows(self, kind: str) -> None:
        self.kind_hint.setText(self.tr(KIND_HINTS[kind]) if kind in KIND_HINTS else "")
        for box, kinds in self._rows.values():
            self._form.setRowVisible(box, kind in kinds)
        samples_label = self._form.labelForField(self._rows["samples"][0])
        if samples_label is not None:
            samples_label.setText(self.tr("Examples per epoch") if kind == "python" else self.tr("Samples"))
        self.path.setPlaceholderText(
            self.tr("choose a folder…") if kind == "image_folder" else self.tr("choose a file (or a glob)…")
        )

    def _on_kind(self, kind: str) -> None:
        self._show_rows(kind)
        self._read_file()

    def _browse(self) -> None:
        kind = self.kind.currentText()
        if kind == "image_folder":
            path = QFileDialog.getExistingDirectory(self, self.tr("Choose an image folder"), self.path.text())
        else:
            path, _ = QFileDialog.getOpenFileName(
                self,
                self.tr("Choose a {kind} file").format(kind=kind),
                self.path.text(),
                self.tr(FILE_FILTERS[kind]) if kind in FILE_FILTERS else "",
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
        kind, path = self.kind.currentText(), self.path.text().strip()
        self._read_problem = None
        names: list[str] = []
        if kind in ("csv", "npz", "tfrecord") and path and matching_files(path):
            try:
                names = {"csv": csv_columns, "npz": npz_keys, "tfrecord": tfrecord_keys}[kind](path)
            except DataError as exc:  # a CSV that is not UTF-8, or a line the CSV reader cannot split
                self._read_problem = Problem("data.path", path, exc.message)
            except (OSError, zipfile.BadZipFile, RecordError) as exc:
                self._read_problem = Problem("data.path", path, msg("cannot read the file: {error}", error=exc))
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
