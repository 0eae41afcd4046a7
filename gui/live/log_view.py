"""The trainer's log: stderr lines and `log` events, filterable and copyable.

All lines are kept (up to a cap) so a filter can be changed or cleared without
losing anything; the text view shows the lines that match the filter.
"""

from __future__ import annotations

from collections import deque

from PySide6.QtGui import QFont, QFontDatabase, QGuiApplication
from PySide6.QtWidgets import QHBoxLayout, QLabel, QLineEdit, QPlainTextEdit, QPushButton, QVBoxLayout, QWidget

MAX_LINES = 50_000


class LogView(QWidget):
    """Read-only log with a filter box (case-insensitive substring) and a copy button."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._lines: deque[str] = deque(maxlen=MAX_LINES)
        self.text = QPlainTextEdit()
        self.text.setObjectName("logView")
        self.text.setReadOnly(True)
        self.text.setMaximumBlockCount(MAX_LINES)
        self.text.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
        font = QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont)
        font.setStyleHint(QFont.StyleHint.Monospace)
        self.text.setFont(font)
        self.text.setPlaceholderText("The trainer's log appears here when a run starts.")
        self.filter = QLineEdit()
        self.filter.setObjectName("logFilter")
        self.filter.setPlaceholderText("Filter log lines (e.g. error, epoch, warning)")
        self.filter.setClearButtonEnabled(True)
        self.filter.textChanged.connect(self._refilter)
        self.count = QLabel()
        copy = QPushButton("Copy")
        copy.setToolTip("Copy the shown lines (or the selection) to the clipboard")
        copy.clicked.connect(self.copy_to_clipboard)
        clear = QPushButton("Clear")
        clear.clicked.connect(self.clear)
        bar = QHBoxLayout()
        bar.addWidget(QLabel("Log"))
        bar.addWidget(self.filter, 1)
        bar.addWidget(self.count)
        bar.addWidget(copy)
        bar.addWidget(clear)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(bar)
        layout.addWidget(self.text)
        self._update_count(0)

    def append_lines(self, lines: list[str]) -> None:
        """Add lines; one text append per batch keeps the view cheap under bursts."""
        self._lines.extend(lines)
        shown = [line for line in lines if self._matches(line)]
        if shown:
            self.text.appendPlainText("\n".join(shown))
        self._update_count(self._shown + len(shown))

    def tail(self, n: int = 30) -> str:
        """The last `n` lines, unfiltered: what a failure dialog shows."""
        return "\n".join(list(self._lines)[-n:])

    def shown_text(self) -> str:
        return self.text.toPlainText()

    def copy_to_clipboard(self) -> None:
        selected = self.text.textCursor().selectedText().replace("\u2029", "\n")
        QGuiApplication.clipboard().setText(selected or self.shown_text())

    def clear(self) -> None:
        self._lines.clear()
        self.text.clear()
        self._update_count(0)

    def _matches(self, line: str) -> bool:
        needle = self.filter.text().strip().lower()
        return not needle or needle in line.lower()

    def _refilter(self) -> None:
        shown = [line for line in self._lines if self._matches(line)]
        self.text.setPlainText("\n".join(shown))
        self.text.moveCursor(self.text.textCursor().MoveOperation.End)
        self._update_count(len(shown))

    def _update_count(self, shown: int) -> None:
        self._shown = min(shown, MAX_LINES)
        total = len(self._lines)
        self.count.setText(f"{shown} of {total} lines" if self.filter.text().strip() else f"{total} lines")
