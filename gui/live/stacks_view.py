"""A task's Python stacks in a dialog: what a stalled task is blocked in (engine.core.logs.stacks, py-spy).

py-spy takes up to a few seconds to read every thread, so it runs on a
thread of its own and the dialog fills in when it is done.
"""

from __future__ import annotations

from PySide6.QtCore import QThread, Signal
from PySide6.QtGui import QFontDatabase
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QLabel, QPlainTextEdit, QVBoxLayout, QWidget

from engine.core.logs.stacks import python_stacks
from gui.i18n import translate

_reading: set[QThread] = set()  # readers still running: a QThread must outlive its run()


class _Reader(QThread):
    done = Signal(bool, str)

    def __init__(self, pid: int, host: str, there: list[str]) -> None:
        super().__init__()
        self.pid, self.host, self.there = pid, host, there

    def run(self) -> None:
        stacks = python_stacks(self.pid, self.host, self.there)
        self.done.emit(stacks.ok, stacks.text if stacks.ok else translate(stacks.text))


class StacksDialog(QDialog):
    """Every thread's Python stack of the task `worker` (process `pid`, on `host` when not this machine, read
    there by the command `there`), or why they cannot be read."""

    def __init__(
        self, worker: str, pid: int, parent: QWidget | None = None, host: str = "", there: list[str] | None = None
    ) -> None:
        super().__init__(parent, objectName="stacksDialog")
        self.setWindowTitle(self.tr("Python stacks of {worker} (pid {pid})").format(worker=worker, pid=pid))
        self.heading = QLabel(self.tr("Reading the Python stacks of {worker}…").format(worker=worker))
        self.heading.setWordWrap(True)
        self.view = QPlainTextEdit(objectName="stacksText", readOnly=True)
        self.view.setAccessibleName(self.tr("Python stacks"))
        self.view.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self.view.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.heading)
        layout.addWidget(self.view, 1)
        layout.addWidget(buttons)
        self.resize(760, 480)
        self._worker = worker
        self.ready = False
        reader = _Reader(pid, host, there or [])
        reader.done.connect(self._show)
        reader.finished.connect(lambda: _reading.discard(reader))
        _reading.add(reader)
        reader.start()

    def text(self) -> str:
        return self.view.toPlainText()

    def _show(self, ok: bool, text: str) -> None:
        self.heading.setText(
            self.tr("Every thread of {worker}, innermost call first:").format(worker=self._worker)
            if ok
            else self.tr("The stacks of {worker} could not be read:").format(worker=self._worker)
        )
        self.view.setPlainText(text)
        self.ready = True
