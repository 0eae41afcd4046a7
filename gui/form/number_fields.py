"""Number fields that never change a config behind the user's back.

A QSpinBox clamps what it is given to its range, so a config's value could come back from the form changed.
Here a field's range is the engine's (engine.core.config.LIMITS); `KeptValues` keeps a value a field cannot
show, with a problem naming it until the user edits it; `ScientificSpinBox` shows small numbers as 1e-07.
"""

from __future__ import annotations

import math
from typing import Any

from PySide6.QtGui import QValidator
from PySide6.QtWidgets import QAbstractSpinBox, QDoubleSpinBox, QSpinBox, QWidget

from engine.core.config import LIMITS
from engine.core.messages import msg
from engine.core.problems import Problem, short_value


def limited_spin(field: str, name: str = "") -> QSpinBox:
    """A whole-number field with the engine's range for `field`."""
    spin = QSpinBox(objectName=name)
    low, high = LIMITS[field]
    spin.setRange(low, min(high, 2**31 - 1))  # a QSpinBox holds a C int
    spin.setGroupSeparatorShown(True)
    return spin


class ScientificSpinBox(QDoubleSpinBox):
    """A positive number shown as %g (0.001, 1e-07), typed the same way; steps by a factor near 10%."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setDecimals(15)  # the value is kept to this many places; the text is %g
        self.setStepType(QAbstractSpinBox.StepType.AdaptiveDecimalStepType)

    def textFromValue(self, value: float) -> str:
        return f"{value:g}"

    def valueFromText(self, text: str) -> float:
        try:
            return float(text.strip().replace(",", "."))
        except ValueError:
            return self.value()

    def validate(self, text: str, pos: int) -> tuple[QValidator.State, str, int]:
        stripped = text.strip().replace(",", ".")
        try:
            value = float(stripped)
        except ValueError:
            partial = stripped == "" or stripped[-1] in "eE.-+" or stripped.lower().endswith(("e-", "e+"))
            return (QValidator.State.Intermediate if partial else QValidator.State.Invalid), text, pos
        if self.minimum() <= value <= self.maximum():
            return QValidator.State.Acceptable, text, pos
        return QValidator.State.Intermediate, text, pos


class KeptValues:
    """Config values the fields cannot show, kept as they are and named as problems until edited."""

    def __init__(self) -> None:
        self._kept: dict[str, tuple[QAbstractSpinBox, Any]] = {}

    def show(self, field: str, spin: QSpinBox | QDoubleSpinBox, value: Any) -> None:
        """Put `value` in the field if it can show it; otherwise keep it and show the field's nearest value."""
        fits = (
            isinstance(value, (int, float))
            and not isinstance(value, bool)
            and math.isfinite(value)
            and spin.minimum() <= value <= spin.maximum()
            and (isinstance(spin, QDoubleSpinBox) or float(value).is_integer())
        )
        spin.blockSignals(True)
        try:
            if fits:
                spin.setValue(value)
                self._kept.pop(field, None)
            else:
                nearest = value if isinstance(value, (int, float)) and math.isfinite(value) else spin.minimum()
                spin.setValue(min(max(nearest, spin.minimum()), spin.maximum()))
                self._kept[field] = (spin, value)
        finally:
            spin.blockSignals(False)

    def forget(self, field: str) -> None:
        """The user edited the field: from now on it holds what it shows."""
        self._kept.pop(field, None)

    def watch(self, field: str, spin: QAbstractSpinBox) -> None:
        """Forget the kept value when the user changes the field (show() changes it with signals blocked)."""
        spin.valueChanged.connect(lambda _value: self.forget(field))

    def fields(self) -> set[str]:
        return set(self._kept)

    def value(self, field: str, spin: QSpinBox | QDoubleSpinBox) -> Any:
        kept = self._kept.get(field)
        return kept[1] if kept is not None else spin.value()

    def problems(self) -> list[Problem]:
        """One problem per kept value, naming it: the field shows its nearest value, not the config's."""
        return [
            Problem(
                field,
                value,
                msg(
                    "the config holds {value}, which this field cannot show (it takes {low} to {high}); kept as "
                    "it is until you change the field",
                    value=short_value(value),
                    low=spin.textFromValue(spin.minimum()),
                    high=spin.textFromValue(spin.maximum()),
                ),
            )
            for field, (spin, value) in self._kept.items()
        ]
