"""Config fields bound to a form's widgets from one table: each field is shown, read and watched one way.

A table maps a dotted config field (`"checkpoint.every_steps"`) to the widget that edits it. Number fields
go through `KeptValues`, so a value the widget cannot show stays as the config holds it; a combo box holds
the field's text and a check box its bool. Adding a field to a form is one row of its table.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

from PySide6.QtWidgets import QAbstractSpinBox, QCheckBox, QComboBox, QDoubleSpinBox, QSpinBox, QWidget

from gui.form.number_fields import KeptValues

Bound = QSpinBox | QDoubleSpinBox | QComboBox | QCheckBox


def field_value(config: Any, field: str) -> Any:
    """The value of a dotted field of a (nested) dataclass."""
    for part in field.split("."):
        config = getattr(config, part)
    return config


def with_fields(config: Any, values: dict[str, Any]) -> Any:
    """`config` with dotted fields replaced; a nested dataclass is replaced by a copy with its own fields set."""
    top: dict[str, Any] = {}
    nested: dict[str, dict[str, Any]] = {}
    for field, value in values.items():
        head, _, rest = field.partition(".")
        if rest:
            nested.setdefault(head, {})[rest] = value
        else:
            top[head] = value
    for head, inner in nested.items():
        top[head] = with_fields(getattr(config, head), inner)
    return dataclasses.replace(config, **top)


class FieldBindings:
    """One form's table of config fields and their widgets."""

    def __init__(self, table: dict[str, Bound], kept: KeptValues) -> None:
        self.table = table
        self.kept = kept
        for field, widget in table.items():
            if isinstance(widget, QAbstractSpinBox):  # first: a changed field forgets its kept value
                kept.watch(field, widget)

    def connect(self, slot: Callable[[], None]) -> None:
        """Call `slot` whenever the user changes any bound field."""
        for widget in self.table.values():
            _changed(widget).connect(slot)

    def show(self, config: Any) -> None:
        for field, widget in self.table.items():
            value = field_value(config, field)
            if isinstance(widget, QSpinBox | QDoubleSpinBox):
                self.kept.show(field, widget, value)
            elif isinstance(widget, QComboBox):
                widget.setCurrentText(value)
            else:
                widget.setChecked(value)

    def read(self, config: Any) -> Any:
        """`config` with every bound field as the form holds it (a kept value as the config held it)."""
        return with_fields(config, {field: self._value(field, widget) for field, widget in self.table.items()})

    def _value(self, field: str, widget: Bound) -> Any:
        if isinstance(widget, QComboBox):
            return widget.currentText()
        if isinstance(widget, QCheckBox):
            return widget.isChecked()
        if field in self.kept.fields():
            return self.kept.value(field, widget)
        if isinstance(widget, QDoubleSpinBox):  # steps of 0.05 add float noise the field does not show
            return round(widget.value(), widget.decimals())
        return widget.value()


def _changed(widget: QWidget) -> Any:
    if isinstance(widget, QComboBox):
        return widget.currentTextChanged
    if isinstance(widget, QCheckBox):
        return widget.toggled
    return widget.valueChanged
