"""The model section of the form: every model kind with the fields it needs, and its summary.

mlp and cnn are built by the engine from a few sizes; keras_application
names an architecture of tf_keras.applications (weights: none, or a local
file); python points at the user's file and function; saved at a .keras
file. The form checks what it can without running anything (each kind's
module in engine.core.model_kinds: the file exists, the function is defined); the
summary builds the model in a child process (gui.form.model_summary).
"""

from __future__ import annotations

import dataclasses
import json

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication, Signal
from PySide6.QtWidgets import (
    QCheckBox,
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

from engine.core.config import ACTIVATIONS, ModelConfig
from engine.core.messages import msg
from engine.core.model_kinds import MODEL_KINDS, model_kind
from engine.core.model_kinds.keras_application import KERAS_APPLICATIONS
from engine.core.problems import Problem
from gui.form.model_summary import ModelSummary
from gui.form.rows import ProblemLabels, hint_label
from gui.i18n import translate

# Every field a model kind may read, in the form's order: (label, tooltip). A kind shows the rows of its fields
# (engine.core.model_kinds.<kind>.KIND.fields).
ROWS: dict[str, tuple[str, str]] = {
    "filters": (
        QT_TRANSLATE_NOOP("ModelForm", "Conv filters"),
        QT_TRANSLATE_NOOP("ModelForm", "Filters of each conv block"),
    ),
    "kernel_size": (QT_TRANSLATE_NOOP("ModelForm", "Kernel size"), ""),
    "batch_norm": (QT_TRANSLATE_NOOP("ModelForm", "Normalisation"), ""),
    "hidden_units": (
        QT_TRANSLATE_NOOP("ModelForm", "Hidden layers"),
        QT_TRANSLATE_NOOP("ModelForm", "Units of each Dense layer, comma-separated"),
    ),
    "activation": (QT_TRANSLATE_NOOP("ModelForm", "Activation"), ""),
    "name": (QT_TRANSLATE_NOOP("ModelForm", "Architecture"), ""),
    "weights": (QT_TRANSLATE_NOOP("ModelForm", "Weights file"), ""),
    "path": (QT_TRANSLATE_NOOP("ModelForm", "Model file"), ""),
    "function": (QT_TRANSLATE_NOOP("ModelForm", "Function"), ""),
    "kwargs": (
        QT_TRANSLATE_NOOP("ModelForm", "Keyword arguments"),
        QT_TRANSLATE_NOOP(
            "ModelForm", "Passed to the function as keyword arguments, a JSON object; a sweep can vary each of them"
        ),
    ),
}


def parse_units(text: str, field: str, example: str) -> tuple[tuple[int, ...], Problem | None]:
    """ "16, 8" -> (16, 8); a Problem for anything that is not positive integers."""
    parts = [p for p in text.replace(";", ",").replace(" ", ",").split(",") if p]
    try:
        units = tuple(int(p) for p in parts)
    except ValueError:
        return (), Problem(field, text, msg("write sizes as whole numbers, e.g. {example}", example=example))
    if not units:
        return (), Problem(field, text, msg("give at least one size, e.g. {example}", example=example))
    return units, None


def parse_kwargs(text: str) -> tuple[dict | None, Problem | None]:
    """'{"width": 64}' -> {"width": 64}; "" -> {}; (None, a Problem) for text that is not a JSON object."""
    if not text.strip():
        return {}, None
    try:
        value = json.loads(text)
    except ValueError:
        value = None
    if not isinstance(value, dict):
        return None, Problem("model.kwargs", text, msg('write a JSON object, e.g. {{"width": 64}}'))
    return value, None


def _path_row(edit: QLineEdit, on_browse: object) -> QWidget:
    row = QWidget()
    layout = QHBoxLayout(row)
    layout.setContentsMargins(0, 0, 0, 0)
    layout.addWidget(edit, 1)
    button = QPushButton(QCoreApplication.translate("gui.form.model_form", "Browse…"))
    button.clicked.connect(on_browse)
    layout.addWidget(button)
    row.setFocusProxy(edit)  # the row's label (its buddy) and the tab order lead to the path itself
    return row


class ModelForm(QWidget):
    """Edits the `model` section of a RunConfig."""

    changed = Signal()
    """Any field of the model changed."""

    def __init__(self, problems: ProblemLabels, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.kind = QComboBox(objectName="modelKindCombo")
        self.kind.addItems(MODEL_KINDS)
        self.kind_hint = hint_label("modelKindHint")
        self.hidden = QLineEdit(objectName="hiddenLayersEdit", placeholderText="e.g. 16, 8")
        self.activation = QComboBox(objectName="activationCombo")
        self.activation.addItems(ACTIVATIONS)
        self.filters = QLineEdit(objectName="filtersEdit", placeholderText="e.g. 32, 64")
        self.kernel = QSpinBox(objectName="kernelSpin")
        self.kernel.setRange(1, 15)
        self.batch_norm = QCheckBox(self.tr("synchronized batch norm"), objectName="batchNormCheck")
        self.app_name = QComboBox(objectName="applicationCombo", editable=True)
        self.app_name.addItems(KERAS_APPLICATIONS)
        self.weights = QLineEdit(objectName="weightsEdit", placeholderText=self.tr("none: random initial weights"))
        self.path = QLineEdit(objectName="modelPathEdit", placeholderText=self.tr("choose a file…"))
        self.function = QLineEdit(objectName="modelFunctionEdit")
        self.kwargs = QLineEdit(objectName="modelKwargsEdit", placeholderText='e.g. {"width": 64, "dropout": 0.1}')
        self.summary = ModelSummary()

        form = QFormLayout()
        form.setContentsMargins(0, 0, 0, 0)
        add = problems.add_row
        add(form, self.tr("Kind"), self.kind, "model.kind")
        form.addRow("", self.kind_hint)
        widgets: dict[str, QWidget] = {
            "filters": self.filters,
            "kernel_size": self.kernel,
            "batch_norm": self.batch_norm,
            "hidden_units": self.hidden,
            "activation": self.activation,
            "name": self.app_name,
            "weights": _path_row(self.weights, self._browse_weights),
            "path": _path_row(self.path, self._browse_path),
            "function": self.function,
            "kwargs": self.kwargs,
        }
        user_function = model_kind("python")
        self._rows: dict[str, QWidget] = {}
        for field, (label, tooltip) in ROWS.items():
            tip = self.tr(tooltip) if tooltip else ""
            if field == "function" and user_function is not None:  # what the function must do
                tip = translate(user_function.hint)
            self._rows[field] = add(form, self.tr(label), widgets[field], f"model.{field}", tooltip=tip)
        self._form = form
        column = QVBoxLayout(self)
        column.setContentsMargins(0, 0, 0, 0)
        column.addLayout(form)
        column.addWidget(self.summary)
        self.kind.currentTextChanged.connect(self._show_rows)
        for combo in (self.kind, self.activation, self.app_name):
            combo.currentTextChanged.connect(self.changed)
        for edit in (self.hidden, self.filters, self.weights, self.path, self.function, self.kwargs):
            edit.textChanged.connect(self.changed)
        self.kernel.valueChanged.connect(self.changed)
        self.batch_norm.toggled.connect(self.changed)

    def set_model(self, model: ModelConfig) -> None:
        widgets = (self.kind, self.activation, self.app_name, self.hidden, self.filters, self.weights, self.path)
        for w in (*widgets, self.function, self.kwargs, self.kernel, self.batch_norm):
            w.blockSignals(True)
        self.kind.setCurrentText(model.kind)
        self.hidden.setText(", ".join(str(u) for u in model.hidden_units))
        self.activation.setCurrentText(model.activation)
        self.filters.setText(", ".join(str(f) for f in model.filters))
        self.kernel.setValue(model.kernel_size if isinstance(model.kernel_size, int) else 3)
        self.batch_norm.setChecked(bool(model.batch_norm))
        self.app_name.setCurrentText(model.name)
        self.weights.setText(model.weights or "")
        self.path.setText(model.path or "")
        self.function.setText(model.function)
        self.kwargs.setText(json.dumps(model.kwargs) if model.kwargs else "")
        for w in (*widgets, self.function, self.kwargs, self.kernel, self.batch_norm):
            w.blockSignals(False)
        self._show_rows(model.kind)

    def model(self, base: ModelConfig) -> tuple[ModelConfig, list[Problem]]:
        """The model section and the problems only the form sees (sizes that are not numbers)."""
        kind = self.kind.currentText()
        fields = found.fields if (found := model_kind(kind)) else ()
        hidden, hidden_problem = parse_units(self.hidden.text(), "model.hidden_units", "16, 8")
        filters, filters_problem = parse_units(self.filters.text(), "model.filters", "32, 64")
        problems = [hidden_problem] if "hidden_units" in fields and hidden_problem else []
        problems += [filters_problem] if "filters" in fields and filters_problem else []
        kwargs, kwargs_problem = parse_kwargs(self.kwargs.text())
        problems += [kwargs_problem] if "kwargs" in fields and kwargs_problem else []
        model = dataclasses.replace(
            base,
            kind=kind,
            hidden_units=hidden or base.hidden_units,
            activation=self.activation.currentText(),
            filters=filters or base.filters,
            kernel_size=self.kernel.value(),
            batch_norm=self.batch_norm.isChecked(),
            name=self.app_name.currentText().strip(),
            weights=self.weights.text().strip() or None,
            path=self.path.text().strip() or None,
            function=self.function.text().strip() or base.function,
            kwargs=base.kwargs if kwargs is None else kwargs,
        )
        return model, problems

    def _show_rows(self, name: str) -> None:
        kind = model_kind(name)
        self.kind_hint.setText(translate(kind.hint) if kind else "")
        for field, box in self._rows.items():
            self._form.setRowVisible(box, kind is not None and field in kind.fields)

    def _browse_path(self) -> None:
        kind = model_kind(self.kind.currentText())
        filters = translate(kind.file_filter) if kind and kind.file_filter else ""
        path, _ = QFileDialog.getOpenFileName(self, self.tr("Choose the model file"), self.path.text(), filters)
        if path:
            self.path.setText(path)

    def _browse_weights(self) -> None:
        path, _ = QFileDialog.getOpenFileName(
            self,
            self.tr("Choose a weights file"),
            self.weights.text(),
            self.tr("Weights (*.h5 *.weights.h5);;All files (*)"),
        )
        if path:
            self.weights.setText(path)
