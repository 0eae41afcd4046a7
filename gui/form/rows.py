"""Form rows that show a validation problem right under their field.

Every `engine.core.config.Problem` names a config field ("epochs", "data.path");
a row registers the fields it edits, so each problem lands next to the
widget a person must change. Problems of fields no row shows go to a
catch-all label.
"""

from __future__ import annotations

from PySide6.QtWidgets import QFormLayout, QLabel, QVBoxLayout, QWidget

from engine.core.problems import Problem
from gui.i18n import problem_text, translate
from gui.keyboard import plain_label
from gui.theme import WidgetRole, set_role


class ProblemLabels:
    """Maps config field names to the labels that display their problems."""

    def __init__(self, catch_all: QLabel) -> None:
        self._labels: dict[str, QLabel] = {}
        self._notes: dict[str, QLabel] = {}  # a note: a valid choice that cannot help (engine.core.plan.plan_notes)
        self._catch_all = catch_all
        _style_problem(catch_all)

    def add_row(self, form: QFormLayout, label: str, field_widget: QWidget, *fields: str, tooltip: str = "") -> QWidget:
        """Add `label: field_widget` with a problem label under it for `fields`.

        The label is the field's buddy, so its mnemonic ("&Epochs") moves the focus to the field, and
        the field's accessible name is the label's text: a screen reader says what the field is."""
        box = QWidget()
        column = QVBoxLayout(box)
        column.setContentsMargins(0, 0, 0, 0)
        column.setSpacing(2)
        column.addWidget(field_widget)
        problem = QLabel()
        _style_problem(problem)
        problem.setObjectName("problem_" + fields[0].replace(".", "_"))
        column.addWidget(problem)
        note = hint_label("note_" + fields[0].replace(".", "_"))
        note.setVisible(False)
        column.addWidget(note)
        for name in fields:
            self._labels[name] = problem
            self._notes[name] = note
        target = field_widget.focusProxy() or field_widget  # a row of several widgets focuses its first
        if tooltip:
            field_widget.setToolTip(tooltip)
            target.setAccessibleDescription(tooltip)
        caption = QLabel(label)
        caption.setBuddy(target)
        target.setAccessibleName(plain_label(label))
        form.addRow(caption, box)
        return box

    def show(self, problems: list[Problem]) -> None:
        texts: dict[QLabel, list[str]] = {label: [] for label in {*self._labels.values(), self._catch_all}}
        for p in problems:
            label = self._labels.get(p.field)
            if label is not None:
                texts[label].append(translate(p.message))
            else:  # a part of a field ("model.kwargs.width") under the field's row, named; anything else at the end
                label = self._labels.get(p.field.rpartition(".")[0], self._catch_all)
                texts[label].append(problem_text(p))
        for label, lines in texts.items():
            label.setText("\n".join(lines))
            label.setVisible(bool(lines))

    def show_notes(self, notes: list[Problem]) -> None:
        """Each note under its field's row, in the window's language (a field without a row has none)."""
        texts: dict[QLabel, list[str]] = {label: [] for label in self._notes.values()}
        for note in notes:
            if note.field in self._notes:
                texts[self._notes[note.field]].append(translate(note.message))
        for label, lines in texts.items():
            label.setText("\n".join(lines))
            label.setVisible(bool(lines))

    def label_for(self, field: str) -> QLabel:
        return self._labels.get(field, self._catch_all)

    def note_for(self, field: str) -> QLabel | None:
        return self._notes.get(field)


def hint_label(object_name: str = "") -> QLabel:
    """A wrapped label in the hint style (style.qss: QLabel[role="hint"]): explanations beside fields."""
    label = QLabel(objectName=object_name)
    set_role(label, WidgetRole.HINT)
    label.setWordWrap(True)
    return label


def _style_problem(label: QLabel) -> None:
    set_role(label, WidgetRole.PROBLEM)
    label.setWordWrap(True)
    label.setVisible(False)
