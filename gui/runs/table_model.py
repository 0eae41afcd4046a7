"""The Qt model of the runs table; the summaries come from engine.core.runs.history.RunHistory (via the loader).

A refresh changes a few rows, not the table: `set_runs` inserts, updates and
removes rows by run directory, so the view keeps its selection and scroll
position and the sorting proxy re-sorts only what moved. Each row's texts
and sort keys are worked out once per summary: data() is called for every
visible cell on every paint and for every comparison of a sort.
"""

from __future__ import annotations

import math
import re
import time
from pathlib import Path
from typing import Any

from PySide6.QtCore import QT_TRANSLATE_NOOP, QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtGui import QColor

from engine.core import anatomy
from engine.core.protocol.codes import RunStatus
from engine.core.runs.history import RunSummary
from gui import theme
from gui.i18n import translate
from gui.live.anatomy_plot import part_name
from gui.live.controls import format_duration
from gui.statuses import run_status_hint, run_status_name, run_status_tone

# English names are the columns' keys; headerData shows them translated
COLUMNS = (
    QT_TRANSLATE_NOOP("RunsTableModel", "Run"),
    QT_TRANSLATE_NOOP("RunsTableModel", "Status"),
    QT_TRANSLATE_NOOP("RunsTableModel", "Started"),
    QT_TRANSLATE_NOOP("RunsTableModel", "Strategy"),
    QT_TRANSLATE_NOOP("RunsTableModel", "Replicas"),
    QT_TRANSLATE_NOOP("RunsTableModel", "Loop"),
    QT_TRANSLATE_NOOP("RunsTableModel", "Epochs"),
    QT_TRANSLATE_NOOP("RunsTableModel", "Loss"),
    QT_TRANSLATE_NOOP("RunsTableModel", "Accuracy"),
    QT_TRANSLATE_NOOP("RunsTableModel", "Val loss"),
    QT_TRANSLATE_NOOP("RunsTableModel", "Val accuracy"),
    QT_TRANSLATE_NOOP("RunsTableModel", "Duration"),
    QT_TRANSLATE_NOOP("RunsTableModel", "Step time"),
    QT_TRANSLATE_NOOP("RunsTableModel", "Bound by"),
)
METRIC_COLUMNS = {"Loss": "loss", "Accuracy": "accuracy", "Val loss": "val_loss", "Val accuracy": "val_accuracy"}
SORT_ROLE = Qt.ItemDataRole.UserRole + 1
_ROOT = QModelIndex()  # the invisible root every row hangs from
_STAMP_PREFIX = re.compile(r"^\d{8}-\d{6}-")
_DISPLAY, _DECORATION, _TOOLTIP = (
    r.value for r in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.DecorationRole, Qt.ItemDataRole.ToolTipRole)
)
_ALIGN, _FOREGROUND = Qt.ItemDataRole.TextAlignmentRole.value, Qt.ItemDataRole.ForegroundRole.value
_SERVED = frozenset({_DISPLAY, _DECORATION, _TOOLTIP, _ALIGN, _FOREGROUND, SORT_ROLE})
_RIGHT = int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)


def display_name(run: RunSummary) -> str:
    """The directory name without its time stamp (the Started column shows it)."""
    return _STAMP_PREFIX.sub("", run.name) or run.name


class RunsTableModel(QAbstractTableModel):
    """One row per run; SORT_ROLE gives raw values so columns sort as numbers and dates."""

    def __init__(self) -> None:
        super().__init__()
        self.runs: list[RunSummary] = []
        self._active: Path | None = None
        self._colours: dict[Path, QColor] = {}
        self._cells: dict[Path, tuple[RunSummary, dict[str, str], dict[str, Any]]] = {}
        self._status_colours: dict[str, QColor] = {}
        self.restyle(theme.current())
        theme.manager().changed.connect(self.restyle)

    def restyle(self, scheme: theme.Theme) -> None:
        """Status texts in the colours of `scheme` (computed once: data() runs for every cell on every paint)."""
        self._status_colours = {s: QColor(run_status_tone(s, scheme).foreground) for s in RunStatus}
        self._changed_column(COLUMNS.index("Status"))

    def set_runs(self, runs: list[RunSummary], complete: bool = True) -> None:
        """Show these runs: changed rows are updated, new ones appended, and when `runs` is `complete` (not the
        rows a scan has found so far) the rows of runs gone are removed."""
        wanted = {r.path: r for r in runs}
        for row in reversed(range(len(self.runs))):
            if complete and self.runs[row].path not in wanted:
                self.beginRemoveRows(QModelIndex(), row, row)
                self._cells.pop(self.runs[row].path, None)
                del self.runs[row]
                self.endRemoveRows()
        last = self.columnCount() - 1
        for row, old in enumerate(self.runs):
            new = wanted.pop(old.path, old)
            if new != old:
                self.runs[row] = new
                self.dataChanged.emit(self.index(row, 0), self.index(row, last))
        if wanted:  # in the order given, after the rows there are
            self.beginInsertRows(QModelIndex(), len(self.runs), len(self.runs) + len(wanted) - 1)
            self.runs.extend(wanted.values())
            self.endInsertRows()

    def set_active(self, run_dir: Path | None) -> None:
        """Mark the run this window is training: its files say "interrupted" until it ends."""
        self._active = run_dir
        self._changed_column(COLUMNS.index("Status"))

    def set_colours(self, colours: dict[Path, QColor]) -> None:
        """Swatches next to the runs shown in the compare plots, in their curves' colours."""
        self._colours = colours
        self._changed_column(0)

    def status(self, run: RunSummary) -> str:
        return RunStatus.RUNNING if self._active is not None and run.path == self._active else run.status

    def _running_where(self, run: RunSummary) -> str:
        if self._active is not None and run.path == self._active:
            return self.tr("in this window")
        return self.tr("by {holder}").format(holder=run.holder.describe()) if run.holder is not None else ""

    def _changed_column(self, column: int) -> None:
        if self.runs:
            self.dataChanged.emit(self.index(0, column), self.index(len(self.runs) - 1, column))

    # ---- QAbstractTableModel ------------------------------------------------
    def rowCount(self, parent: QModelIndex | QPersistentModelIndex = _ROOT) -> int:
        return 0 if parent.isValid() else len(self.runs)

    def columnCount(self, parent: QModelIndex | QPersistentModelIndex = _ROOT) -> int:
        return 0 if parent.isValid() else len(COLUMNS)

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            return self.tr(COLUMNS[section])
        return None

    def data(self, index: QModelIndex | QPersistentModelIndex, role: int = _DISPLAY) -> Any:
        # called for every visible cell, for seven roles, on every paint: ints compared, colours made once
        if role not in _SERVED or not index.isValid():
            return None
        run, column = self.runs[index.row()], COLUMNS[index.column()]
        if role == _DISPLAY:
            return self._text(run, column)
        if role == SORT_ROLE:
            return self._sort_key(run, column)
        if role == _TOOLTIP:
            return self._tooltip(run, column)
        if role == _FOREGROUND:
            return self._status_colours.get(self.status(run)) if column == "Status" else None
        if role == _DECORATION:
            return self._colours.get(run.path) if column == "Run" else None
        return None if column in ("Run", "Strategy", "Loop", "Status", "Bound by") else _RIGHT  # _ALIGN

    def _cached(self, run: RunSummary) -> tuple[dict[str, str], dict[str, Any]]:
        """(texts, sort keys) of a row, worked out once per summary (Status is not cached: it can change)."""
        cached = self._cells.get(run.path)
        if cached is None or cached[0] is not run:
            texts = {c: self._compute_text(run, c) for c in COLUMNS if c != "Status"}
            keys = {c: self._compute_key(run, c) for c in COLUMNS if c != "Status"}
            cached = (run, texts, keys)
            self._cells[run.path] = cached
        return cached[1], cached[2]

    def _text(self, run: RunSummary, column: str) -> str:
        return run_status_name(self.status(run)) if column == "Status" else self._cached(run)[0][column]

    def _sort_key(self, run: RunSummary, column: str) -> Any:
        return self.status(run) if column == "Status" else self._cached(run)[1][column]

    def _compute_text(self, run: RunSummary, column: str) -> str:
        if column in METRIC_COLUMNS:
            value = run.final.get(METRIC_COLUMNS[column])
            return "" if value is None else f"{value:.4f}"
        if run.status == RunStatus.UNREADABLE and column not in ("Run", "Status"):
            return ""
        texts = {
            "Run": display_name(run),
            "Started": time.strftime("%Y-%m-%d %H:%M", time.localtime(run.started)) if run.started else "—",
            "Strategy": run.strategy,
            "Replicas": str(run.replicas) if run.replicas else "—",
            "Loop": run.loop,
            "Epochs": f"{run.epochs_completed}/{run.epochs_planned}",
            "Duration": format_duration(run.duration),
        }
        if column in ("Step time", "Bound by"):
            return self._anatomy_text(run, column)
        return texts[column]

    def _anatomy_text(self, run: RunSummary, column: str) -> str:
        """The run's mean step time, or what bound its steps and that part's share ("" before any anatomy)."""
        if run.anatomy is None:
            return ""
        if column == "Step time":
            return self.tr("{ms:.1f} ms").format(ms=run.anatomy.step_ms)
        part = anatomy.bound_by(run.anatomy)
        return self.tr("{part} ({percent} %)").format(
            part=part_name(part), percent=round(100 * anatomy.shares(run.anatomy)[part])
        )

    def _compute_key(self, run: RunSummary, column: str) -> Any:
        if column in METRIC_COLUMNS:
            return run.final.get(METRIC_COLUMNS[column], float("-inf"))
        keys = {
            "Run": display_name(run).lower(),
            "Started": run.started,
            "Strategy": run.strategy,
            "Replicas": run.replicas,
            "Loop": run.loop,
            "Epochs": run.epochs_completed,
            "Duration": run.duration,
        }
        if column in ("Step time", "Bound by"):
            return self._anatomy_key(run, column)
        return keys[column]

    @staticmethod
    def _anatomy_key(run: RunSummary, column: str) -> float:
        """Step time in ms; bound by: the part (in engine.core.anatomy.PARTS' order), its largest share first. Runs
        without an anatomy sort last."""
        if run.anatomy is None:
            return math.inf
        if column == "Step time":
            return run.anatomy.step_ms
        part = anatomy.bound_by(run.anatomy)
        return anatomy.PARTS.index(part) + 1 - anatomy.shares(run.anatomy)[part]

    def _tooltip(self, run: RunSummary, column: str) -> str:
        status = self.status(run)
        if status == RunStatus.UNREADABLE:
            return self.tr("Cannot read {path}: {message}").format(path=run.path, message=run.message)
        if status == RunStatus.FAILED and run.message:
            return self.tr("Failed: {message}").format(message=run.message)
        notes = "".join(f"\n• {p}" for p in run.problems)
        if column in ("Step time", "Bound by") and run.anatomy is not None:
            return f"{translate(anatomy.verdict(run.anatomy))}\n{translate(anatomy.summary_line(run.anatomy))}"
        if column == "Status":
            where = self._running_where(run) if status == RunStatus.RUNNING else ""
            text = f"{run_status_name(status)}: {run_status_hint(status)}"
            return text + (f" ({where})" if where else "") + notes
        return str(run.path) + notes
