"""The parameters a sweep varies, edited as rows: tick a field, pick how it varies, write its values.

The rows start with the fields people sweep first (learning rate, global batch, optimizer, the model's width)
and "Add a field" offers every other number of the run config. The editor only turns the rows into the space's
JSON; engine.core.sweep.space says what is wrong with them.
"""

from __future__ import annotations

import dataclasses
import json
from typing import Any

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QCheckBox, QComboBox, QGridLayout, QHBoxLayout, QLabel, QLineEdit, QPushButton, QWidget

from engine.core.config import RunConfig
from engine.core.sweep.space import DISTRIBUTIONS
from gui.sweep import names
from gui.theme import WidgetRole, set_role

# set by the sweep, or how a run is hosted rather than what it learns
NOT_VARIED = ("name", "devices", "strategy", "virtual_devices", "virtual_gpu_memory_mb", "collective_timeout_s", "seed")


def parse_values(text: str) -> list[Any]:
    """ "0.001, 0.1" -> [0.001, 0.1]; "[16, 8], [64, 32]" -> [[16, 8], [64, 32]]; "adam, sgd" -> ["adam", "sgd"]."""
    try:
        values = json.loads(f"[{text}]")
    except ValueError:
        values = [_scalar(part.strip()) for part in text.split(",") if part.strip()]
    return values if isinstance(values, list) else [values]


def _scalar(text: str) -> Any:
    try:
        return json.loads(text)
    except ValueError:
        return text


def values_text(values: list[Any]) -> str:
    return ", ".join(json.dumps(v) if isinstance(v, list | tuple) else str(v) for v in values)


def numeric_fields(base: RunConfig) -> list[str]:
    """Every number of the run config a sweep may vary ("epochs", "model.kernel_size", ...)."""
    found = []
    for section, owner in (("", base), ("data.", base.data), ("model.", base.model)):
        for f in dataclasses.fields(owner):
            annotation = str(f.type)
            if f.name not in NOT_VARIED and annotation.split(" ")[0] in ("int", "float"):
                found.append(section + f.name)
    return found


def field_value(base: RunConfig, name: str) -> Any:
    section, _, key = name.rpartition(".")
    return getattr(getattr(base, section) if section else base, key)


def starting_rows(base: RunConfig) -> list[tuple[str, str, list[Any]]]:
    """The rows the editor opens with: (field, distribution, values) around the base config's own values."""
    lr, batch = base.learning_rate, base.global_batch_size
    rows = [
        ("learning_rate", "log_uniform", [float(f"{lr / 10:.3g}"), float(f"{min(lr * 10, 1.0):.3g}")]),
        ("global_batch_size", "choice", sorted({max(1, batch // 2), batch, batch * 2})),
        ("optimizer", "choice", ["adam", "sgd"]),
    ]
    if base.model.kind == "cnn":
        filters = list(base.model.filters)
        rows.append(("model.filters", "choice", [[max(1, f // 2) for f in filters], filters]))
    elif base.model.kind == "mlp":
        units = list(base.model.hidden_units)
        rows.append(("model.hidden_units", "choice", [units, [u * 2 for u in units]]))
    return rows


def added_row(base: RunConfig, name: str) -> tuple[str, str, list[Any]]:
    """A row for a field picked under "Add a field": a range around its value."""
    value = field_value(base, name)
    if isinstance(value, int):
        return name, "int", [max(0, value // 2), max(1, value * 2)]
    value = float(value or 0.0)
    return name, "uniform", [value / 2, value * 2] if value > 0 else [0.0, 0.5]


class ParameterRow:
    """One field's widgets: vary it or not, how, and its values."""

    def __init__(self, name: str, distribution: str, values: list[Any], varied: bool) -> None:
        self.name = name
        self.vary = QCheckBox(name, objectName=f"vary:{name}")
        self.vary.setChecked(varied)
        self.distribution = QComboBox(objectName=f"distribution:{name}")
        for key in DISTRIBUTIONS:
            self.distribution.addItem(names.name(names.DISTRIBUTIONS, key), key)
        self.distribution.setCurrentIndex(DISTRIBUTIONS.index(distribution))
        self.values = QLineEdit(values_text(values), objectName=f"values:{name}")

    def spec(self) -> dict[str, Any]:
        return {self.distribution.currentData(): parse_values(self.values.text())}


class SpaceEditor(QWidget):
    """The parameter rows and "Add a field"."""

    changed = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.rows: dict[str, ParameterRow] = {}
        self.grid = QGridLayout()
        self.grid.setContentsMargins(0, 0, 0, 0)
        for column, title in enumerate((self.tr("Vary"), self.tr("How"), self.tr("Values (comma-separated)"))):
            self.grid.addWidget(QLabel(f"<b>{title}</b>"), 0, column)
        self.grid.setColumnStretch(2, 1)
        self.add_field = QComboBox(objectName="addFieldCombo")
        self.add_button = QPushButton(self.tr("Add a field"), objectName="addFieldButton")
        self.add_button.clicked.connect(lambda: self.add(self.add_field.currentText()))
        adder = QHBoxLayout()
        adder.addWidget(self.add_field, 1)
        adder.addWidget(self.add_button)
        hint = QLabel(
            self.tr(
                "A choice lists values, e.g. 32, 64 or adam, sgd or [16, 8], [64, 32]; a range is its low and "
                "high end, e.g. 0.0001, 0.1."
            ),
            wordWrap=True,
        )
        set_role(hint, WidgetRole.HINT)
        layout = QGridLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(self.grid, 0, 0)
        layout.addLayout(adder, 1, 0)
        layout.addWidget(hint, 2, 0)
        self.base: RunConfig | None = None

    def set_base(self, base: RunConfig) -> None:
        """Rows for the base config (the ones already edited stay as they are)."""
        self.base = base
        for name, distribution, values in starting_rows(base):
            if name not in self.rows:
                self._add_row(ParameterRow(name, distribution, values, varied=name == "learning_rate"))
        self._refresh_adder()

    def add(self, name: str) -> ParameterRow | None:
        """A row for `name`, ticked (the row that is there already, when there is one)."""
        if self.base is None or not name:
            return None
        if name not in self.rows:
            self._add_row(ParameterRow(*added_row(self.base, name), varied=True))
            self._refresh_adder()
        self.rows[name].vary.setChecked(True)
        return self.rows[name]

    def _add_row(self, row: ParameterRow) -> None:
        line = len(self.rows) + 1
        self.rows[row.name] = row
        self.grid.addWidget(row.vary, line, 0)
        self.grid.addWidget(row.distribution, line, 1)
        self.grid.addWidget(row.values, line, 2)
        row.vary.toggled.connect(self.changed)
        row.distribution.currentIndexChanged.connect(self.changed)
        row.values.textChanged.connect(self.changed)
        self.changed.emit()

    def _refresh_adder(self) -> None:
        self.add_field.clear()
        if self.base is not None:
            self.add_field.addItems([n for n in numeric_fields(self.base) if n not in self.rows])

    def parameters(self) -> dict[str, dict[str, Any]]:
        """The ticked rows as the space's "parameters"."""
        return {name: row.spec() for name, row in self.rows.items() if row.vary.isChecked()}
