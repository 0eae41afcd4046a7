"""Where the examples come from: synthetic data, a CSV file or an NPZ file.

For a CSV file the label column is chosen from its header; for an NPZ file
the feature and label arrays from its keys. Reading a header or the key
list is cheap and needs no TensorFlow.
"""

from __future__ import annotations

import csv
import dataclasses
import zipfile
from pathlib import Path

from PySide6.QtCore import Signal
from PySide6.QtWidgets import (
    QComboBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QLineEdit,
    QPushButton,
    QSpinBox,
    QWidget,
)

from engine.config import DATA_KINDS, DataConfig
from engine.problems import Problem
from gui.form.number_fields import KeptValues, limited_spin
from gui.form.rows import ProblemLabels

FILE_FILTERS = {"csv": "CSV files (*.csv);;All files (*)", "npz": "NumPy archives (*.npz);;All files (*)"}


def csv_columns(path: str) -> list[str]:
    """The header row of a CSV file."""
    with open(path, newline="", encoding="utf-8") as f:
        return [c.strip() for c in next(csv.reader(f), [])]


def npz_keys(path: str) -> list[str]:
    """Array names in an .npz file, read from the zip directory without loading arrays."""
    with zipfile.ZipFile(path) as z:
        return [n[:-4] if n.endswith(".npy") else n for n in z.namelist()]


class DataSourceForm(QWidget):
    """Edits the `data` section of a RunConfig."""

    changed = Signal()
    """Any field of the data source changed."""

    def __init__(self, problems: ProblemLabels, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.kind = QComboBox()
        self.kind.setObjectName("dataKindCombo")
        self.kind.addItems(DATA_KINDS)
        self.samples = limited_spin("data.num_samples")
        self.features = limited_spin("data.num_features")
        self.classes = limited_spin("data.num_classes")
        self.kept = KeptValues()  # values these fields cannot show: kept, named as problems
        self.path = QLineEdit()
        self.path.setObjectName("dataPathEdit")
        self.path.setPlaceholderText("choose a file…")
        browse = QPushButton("Browse…")
        browse.clicked.connect(self._browse)
        path_row = QWidget()
        row = QHBoxLayout(path_row)
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(self.path, 1)
        row.addWidget(browse)
        self.label = QComboBox()
        self.label.setObjectName("labelColumnCombo")
        self.features_key = QComboBox()
        self.labels_key = QComboBox()
        form = QFormLayout(self)
        form.setContentsMargins(0, 0, 0, 0)
        problems.add_row(
            form,
            "Source",
            self.kind,
            "data.kind",
            tooltip="synthetic: the tutorial's random data; csv/npz: your own file",
        )
        self._rows = {
            "synthetic": [
                problems.add_row(form, "Samples", self.samples, "data.num_samples"),
                problems.add_row(form, "Features", self.features, "data.num_features"),
                problems.add_row(form, "Classes", self.classes, "data.num_classes"),
            ],
            "file": [problems.add_row(form, "File", path_row, "data.path")],
            "csv": [problems.add_row(form, "Label column", self.label, "data.label")],
            "npz": [
                problems.add_row(form, "Features array", self.features_key, "data.features_key"),
                problems.add_row(form, "Labels array", self.labels_key, "data.labels_key"),
            ],
        }
        self._form = form
        self._read_problem: Problem | None = None
        self.kind.currentTextChanged.connect(self._on_kind)
        self.path.editingFinished.connect(self._read_file)
        for field, spin in self._numbers().items():
            self.kept.watch(field, spin)  # first: a changed field forgets its kept value
            spin.valueChanged.connect(self.changed)
        for combo in (self.label, self.features_key, self.labels_key):
            combo.currentTextChanged.connect(self.changed)
        self.set_data(DataConfig())

    # ---- config <-> widgets ------------------------------------------------
    def set_data(self, data: DataConfig) -> None:
        self._wanted = data
        self.kind.setCurrentText(data.kind)
        values = {
            "data.num_samples": data.num_samples,
            "data.num_features": data.num_features,
            "data.num_classes": data.num_classes,
        }
        for field, spin in self._numbers().items():
            self.kept.show(field, spin, values[field])
        self.path.setText(data.path or "")
        for combo in (self.label, self.features_key, self.labels_key):
            combo.blockSignals(True)
            combo.clear()
            combo.blockSignals(False)
        self._on_kind(data.kind)

    def data(self, base: DataConfig) -> DataConfig:
        kind = self.kind.currentText()
        return dataclasses.replace(
            base,
            kind=kind,
            num_samples=self.kept.value("data.num_samples", self.samples),
            num_features=self.kept.value("data.num_features", self.features),
            num_classes=self.kept.value("data.num_classes", self.classes),
            path=self.path.text().strip() or None,
            label=(self.label.currentText() or None) if kind == "csv" else base.label,
            features_key=self.features_key.currentText() or base.features_key,
            labels_key=self.labels_key.currentText() or base.labels_key,
        )

    def _numbers(self) -> dict[str, QSpinBox]:
        return {"data.num_samples": self.samples, "data.num_features": self.features, "data.num_classes": self.classes}

    def problems(self) -> list[Problem]:
        """Problems only the form sees (an unreadable header, a value a field cannot show); the rest come
        from validate()."""
        shown = self.kept.problems() if self.kind.currentText() == "synthetic" else []
        return ([self._read_problem] if self._read_problem else []) + shown

    # ---- reactions ---------------------------------------------------------
    def _on_kind(self, kind: str) -> None:
        for name, rows in self._rows.items():
            shown = name == kind or (name == "file" and kind in ("csv", "npz"))
            for box in rows:
                self._form.setRowVisible(box, shown)
        self._read_file()

    def _browse(self) -> None:
        kind = self.kind.currentText()
        path, _ = QFileDialog.getOpenFileName(
            self, f"Choose a {kind} file", self.path.text(), FILE_FILTERS.get(kind, "")
        )
        if path:
            self.path.setText(path)
            self._read_file()

    def _read_file(self) -> None:
        """Fill the column/key choices from the file, keeping the wanted choice if it is there."""
        kind, path = self.kind.currentText(), self.path.text().strip()
        self._read_problem = None
        names: list[str] = []
        if kind in ("csv", "npz") and path and Path(path).is_file():
            try:
                names = csv_columns(path) if kind == "csv" else npz_keys(path)
            except (OSError, UnicodeDecodeError, csv.Error, zipfile.BadZipFile) as exc:
                self._read_problem = Problem("data.path", path, f"cannot read the file: {exc}")
        wanted = self._wanted
        self._fill(self.label, names, wanted.label, default=names[-1] if names else "")
        self._fill(self.features_key, names, wanted.features_key, default=names[0] if names else "")
        self._fill(self.labels_key, names, wanted.labels_key, default=names[-1] if names else "")
        self.changed.emit()

    @staticmethod
    def _fill(combo: QComboBox, names: list[str], wanted: str | None, default: str) -> None:
        combo.blockSignals(True)
        current = combo.currentText() or wanted
        combo.clear()
        combo.addItems(names)
        combo.setCurrentText(current if current in names else default)
        combo.blockSignals(False)
