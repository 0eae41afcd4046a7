"""The trainer's log: TensorFlow's chatter folded into plain lines, expandable to the raw lines.

Lines are folded by engine.core.logs.tf_log (as `tfdd train` folds them); the raw stream is in the run
directory (RunPaths.stderr_log, the "Raw log" button). Every entry is kept (up to a cap) so a filter can
change without losing any; an entry shows when its line or one of its raw lines matches.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtCore import QAbstractItemModel, QModelIndex, QPersistentModelIndex, Qt, QUrl
from PySide6.QtGui import QColor, QDesktopServices, QFont, QFontDatabase, QGuiApplication
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QTreeView,
    QVBoxLayout,
    QWidget,
)

from engine.core.logs.tf_log import Entry, LogFolder
from gui import theme
from gui.i18n import translate

MAX_ENTRIES = 50_000
TRIM_CHUNK = 5_000  # entries dropped at once past the cap: one model reset per 5,000 lines, not one per line
TOP = 0  # internal id of a top-level row; a raw line's id is its entry's row + 1

Index = QModelIndex | QPersistentModelIndex
ROOT = QModelIndex()


class LogModel(QAbstractItemModel):
    """Entries that match the filter as rows; a folded entry's raw lines as its children."""

    def __init__(self) -> None:
        super().__init__()
        self.entries: list[Entry] = []
        self.visible: list[Entry] = []
        self._row: dict[int, int] = {}  # id(entry) -> row in `visible`
        self._children: list[int] = []  # raw lines each visible row has announced (the folder adds them first)
        self.needle = ""
        self.restyle(theme.current())
        theme.manager().changed.connect(self.restyle)

    def restyle(self, scheme: theme.Theme) -> None:
        """Warnings, errors, folded and raw lines in `scheme`'s log colours (made once: data() runs per cell)."""
        ui = scheme.ui
        self._level_colours = {"warning": QColor(ui.log_warning), "error": QColor(ui.log_error)}
        self._folded_colour, self._raw_colour = QColor(ui.log_folded), QColor(ui.log_raw)
        if self.visible:
            self.dataChanged.emit(self.index(0, 0), self.index(len(self.visible) - 1, 0))

    # ---- content ------------------------------------------------------------------
    def matches(self, entry: Entry) -> bool:
        n = self.needle
        return not n or n in entry.text.lower() or any(n in line.lower() for line in entry.raw)

    def add(self, new: list[Entry], grown: list[Entry]) -> None:
        """Append new entries, and show the lines that earlier entries gained."""
        self.entries.extend(new)
        appear = [e for e in new if self.matches(e)]
        for entry in grown:
            row = self._row.get(id(entry))
            if row is None:
                if self.matches(entry):  # one of its new raw lines matches the filter
                    appear.append(entry)
                continue
            index, shown = self.index(row, 0), self._children[row]
            if len(entry.raw) > shown:
                self.beginInsertRows(index, shown, len(entry.raw) - 1)
                self._children[row] = len(entry.raw)
                self.endInsertRows()
            self.dataChanged.emit(index, index)
        if appear:
            first = len(self.visible)
            self.beginInsertRows(QModelIndex(), first, first + len(appear) - 1)
            for i, entry in enumerate(appear):
                self._row[id(entry)] = first + i
            self.visible.extend(appear)
            self._children.extend(len(e.raw) for e in appear)
            self.endInsertRows()
        if len(self.entries) > MAX_ENTRIES + TRIM_CHUNK:
            self.entries = self.entries[-MAX_ENTRIES:]
            self.refilter()

    def set_filter(self, text: str) -> None:
        self.needle = text.strip().lower()
        self.refilter()

    def refilter(self) -> None:
        self.beginResetModel()
        self.visible = [e for e in self.entries if self.matches(e)]
        self._row = {id(e): i for i, e in enumerate(self.visible)}
        self._children = [len(e.raw) for e in self.visible]
        self.endResetModel()

    def clear(self) -> None:
        self.beginResetModel()
        self.entries, self.visible, self._row, self._children = [], [], {}, []
        self.endResetModel()

    # ---- QAbstractItemModel ----------------------------------------------------------
    def index(self, row: int, column: int, parent: Index = ROOT) -> QModelIndex:
        if column != 0 or row < 0:
            return QModelIndex()
        if not parent.isValid():
            return self.createIndex(row, 0, TOP) if row < len(self.visible) else QModelIndex()
        if parent.internalId() != TOP or row >= self._children[parent.row()]:
            return QModelIndex()
        return self.createIndex(row, 0, parent.row() + 1)

    def parent(self, index: Index = ROOT) -> QModelIndex:  # type: ignore[override]
        if not index.isValid() or index.internalId() == TOP:
            return QModelIndex()
        return self.createIndex(index.internalId() - 1, 0, TOP)

    def rowCount(self, parent: Index = ROOT) -> int:
        if not parent.isValid():
            return len(self.visible)
        if parent.internalId() != TOP:
            return 0
        return self._children[parent.row()]

    def columnCount(self, parent: Index = ROOT) -> int:
        return 1

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        if index.internalId() != TOP:
            if role == Qt.ItemDataRole.DisplayRole:
                return self.visible[index.internalId() - 1].raw[index.row()]
            if role == Qt.ItemDataRole.ForegroundRole:
                return self._raw_colour
            return None
        entry = self.visible[index.row()]
        if role == Qt.ItemDataRole.DisplayRole:
            if not entry.folded:
                return entry.text
            return entry.text + self.tr("   [%n raw line(s)]", "", len(entry.raw))
        if role == Qt.ItemDataRole.ForegroundRole:
            return self._level_colours.get(entry.level, self._folded_colour if entry.folded else None)
        if role == Qt.ItemDataRole.ToolTipRole and entry.folded:
            return self.tr("Expand to see the lines as TensorFlow printed them")
        return None

    def entry(self, index: QModelIndex) -> Entry | None:
        return self.visible[index.row()] if index.isValid() and index.internalId() == TOP else None


class LogView(QWidget):
    """Folded, filterable, copyable log of the current and earlier runs of this session."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.folder = LogFolder()
        self.model = LogModel()
        self.tree = QTreeView(objectName="logView")
        self.tree.setAccessibleName(self.tr("Trainer log"))
        self.tree.setModel(self.model)
        self.tree.setHeaderHidden(True)
        self.tree.setUniformRowHeights(True)  # row heights are not measured one by one: 50,000 rows stay cheap
        self.tree.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.tree.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAsNeeded)
        self.tree.setTextElideMode(Qt.TextElideMode.ElideNone)
        self.tree.header().setStretchLastSection(False)
        self.tree.header().setSectionResizeMode(0, self.tree.header().ResizeMode.ResizeToContents)
        font = QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont)
        font.setStyleHint(QFont.StyleHint.Monospace)
        self.tree.setFont(font)
        self.filter = QLineEdit(objectName="logFilter")
        self.filter.setPlaceholderText(self.tr("Filter log lines (e.g. error, epoch, warning)"))
        self.filter.setClearButtonEnabled(True)
        self.filter.textChanged.connect(self._refilter)
        self.count = QLabel()
        self.raw_button = QPushButton(self.tr("Raw log"), objectName="rawLogButton")
        self.raw_button.setToolTip(self.tr("Open the run's stderr exactly as the trainer wrote it"))
        self.raw_button.setEnabled(False)
        self.raw_button.clicked.connect(self.open_raw_log)
        copy = QPushButton(self.tr("Copy"))
        copy.setToolTip(self.tr("Copy the shown lines (or the selection) to the clipboard"))
        copy.clicked.connect(self.copy_to_clipboard)
        clear = QPushButton(self.tr("Clear"))
        clear.clicked.connect(self.clear)
        bar = QHBoxLayout()
        bar.addWidget(QLabel(self.tr("Log")))
        bar.addWidget(self.filter, 1)
        bar.addWidget(self.count)
        bar.addWidget(self.raw_button)
        bar.addWidget(copy)
        bar.addWidget(clear)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(bar)
        layout.addWidget(self.tree)
        self.raw_log: Path | None = None
        self._update_count()

    def begin_run(self, raw_log: Path | None) -> None:
        """A new run's lines fold on their own; `raw_log` is where its raw stream is kept."""
        self.folder = LogFolder()
        self.raw_log = raw_log
        self.raw_button.setEnabled(raw_log is not None)

    def append_lines(self, lines: list[str]) -> None:
        """Add lines (folded); one model insert per batch keeps the view cheap under bursts."""
        bar = self.tree.verticalScrollBar()
        at_end = bar.value() >= bar.maximum() - 2
        folded = self.folder.feed(lines)
        for entry in (*folded.new, *folded.grown):
            if entry.topic:  # a folded topic's line (a message template), in the window's language; other
                entry.text = translate(entry.text)  # lines are the process's own words, or translated already
        self.model.add(folded.new, folded.grown)
        if at_end:
            self.tree.scrollToBottom()
        self._update_count()

    def entries(self) -> list[Entry]:
        """Every entry kept, shown or not."""
        return list(self.model.entries)

    def tail(self, n: int = 30) -> str:
        """The last `n` raw lines, unfiltered: what a failure dialog shows."""
        lines: list[str] = []
        for entry in reversed(self.model.entries):
            lines[:0] = entry.raw_lines()
            if len(lines) >= n:
                break
        return "\n".join(lines[-n:])

    def shown_text(self) -> str:
        """The shown lines (folded ones as their plain line), as the view lists them."""
        return "\n".join(e.text for e in self.model.visible)

    def copy_to_clipboard(self) -> None:
        rows = sorted(self.tree.selectionModel().selectedIndexes(), key=self._order)
        text = "\n".join(self.model.data(i) for i in rows) if rows else self._shown_with_expanded()
        QGuiApplication.clipboard().setText(text)

    def open_raw_log(self) -> None:
        if self.raw_log is not None:
            QDesktopServices.openUrl(QUrl.fromLocalFile(str(self.raw_log)))

    def clear(self) -> None:
        self.model.clear()
        self._update_count()

    def _order(self, index: QModelIndex) -> tuple[int, int]:
        return (index.row(), -1) if index.internalId() == TOP else (index.internalId() - 1, index.row())

    def _shown_with_expanded(self) -> str:
        """Shown lines; an expanded entry is followed by its raw lines."""
        out = []
        for row, entry in enumerate(self.model.visible):
            out.append(entry.text)
            if entry.folded and self.tree.isExpanded(self.model.index(row, 0)):
                out += [f"    {line}" for line in entry.raw]
        return "\n".join(out)

    def _refilter(self) -> None:
        self.model.set_filter(self.filter.text())
        self.tree.scrollToBottom()
        self._update_count()

    def _update_count(self) -> None:
        total, shown = len(self.model.entries), len(self.model.visible)
        self.count.setText(
            self.tr("{shown} of %n line(s)", "", total).format(shown=shown)
            if self.model.needle
            else self.tr("%n line(s)", "", total)
        )
