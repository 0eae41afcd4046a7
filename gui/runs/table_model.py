"""The Qt model of the runs table; the summaries come from engine.history.RunHistory."""
from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Any

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtGui import QColor

from engine.history import RunSummary
from engine.protocol.codes import RunStatus
from gui.live.controls import format_duration

COLUMNS = ("Run", "Status", "Started", "Strategy", "Replicas", "Loop", "Epochs", "Loss", "Accuracy", "Val loss",
           "Val accuracy", "Duration")
METRIC_COLUMNS = {"Loss": "loss", "Accuracy": "accuracy", "Val loss": "val_loss", "Val accuracy": "val_accuracy"}
SORT_ROLE = Qt.ItemDataRole.UserRole + 1
STATUS_COLOURS = {RunStatus.COMPLETED: "#1a7f37", RunStatus.STOPPED: "#9a6700", RunStatus.FAILED: "#b00020",
                  RunStatus.INTERRUPTED: "#5a6372", RunStatus.KILLED: "#5a6372", RunStatus.RUNNING: "#1f6feb",
                  RunStatus.UNREADABLE: "#b00020"}
STATUS_HINTS = {
    RunStatus.COMPLETED: "trained every planned epoch",
    RunStatus.STOPPED: "stopped on request; it left a checkpoint",
    RunStatus.FAILED: "the trainer reported a failure",
    RunStatus.INTERRUPTED: "ended without a word (killed or crashed); it resumes from its last checkpoint",
    RunStatus.KILLED: "did not stop in time and was killed; it resumes from its last checkpoint",
    RunStatus.RUNNING: "a process is training it now",
    RunStatus.UNREADABLE: "its files cannot be read",
}
_STAMP_PREFIX = re.compile(r"^\d{8}-\d{6}-")

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

    def set_runs(self, runs: list[RunSummary]) -> None:
        self.beginResetModel()
        self.runs = list(runs)
        self.endResetModel()

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
            return "in this window"
        return f"by {run.holder.describe()}" if run.holder is not None else ""

    def _changed_column(self, column: int) -> None:
        if self.runs:
            self.dataChanged.emit(self.index(0, column), self.index(len(self.runs) - 1, column))

    # ---- QAbstractTableModel ------------------------------------------------
    def rowCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self.runs)

    def columnCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:
        return 0 if parent.isValid() else len(COLUMNS)

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            return COLUMNS[section]
        return None

    def data(self, index: QModelIndex | QPersistentModelIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        run, column = self.runs[index.row()], COLUMNS[index.column()]
        if role == Qt.ItemDataRole.DisplayRole:
            return self._text(run, column)
        if role == SORT_ROLE:
            return self._sort_key(run, column)
        if role == Qt.ItemDataRole.ToolTipRole:
            return self._tooltip(run, column)
        if role == Qt.ItemDataRole.ForegroundRole and column == "Status":
            return QColor(STATUS_COLOURS.get(self.status(run), "#333333"))
        if role == Qt.ItemDataRole.DecorationRole and column == "Run":
            return self._colours.get(run.path)
        if role == Qt.ItemDataRole.TextAlignmentRole and column not in ("Run", "Strategy", "Loop", "Status"):
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        return None

    def _text(self, run: RunSummary, column: str) -> str:
        if column in METRIC_COLUMNS:
            value = run.final.get(METRIC_COLUMNS[column])
            return "" if value is None else f"{value:.4f}"
        if run.status == RunStatus.UNREADABLE and column not in ("Run", "Status"):
            return ""
        texts = {
            "Run": display_name(run),
            "Started": time.strftime("%Y-%m-%d %H:%M", time.localtime(run.started)) if run.started else "—",
            "Strategy": run.strategy, "Replicas": str(run.replicas) if run.replicas else "—", "Loop": run.loop,
            "Epochs": f"{run.epochs_completed}/{run.epochs_planned}", "Status": self.status(run),
            "Duration": format_duration(run.duration),
        }
        return texts[column]

    def _sort_key(self, run: RunSummary, column: str) -> Any:
        if column in METRIC_COLUMNS:
            return run.final.get(METRIC_COLUMNS[column], float("-inf"))
        keys = {"Run": display_name(run).lower(), "Started": run.started, "Strategy": run.strategy,
                "Replicas": run.replicas, "Loop": run.loop, "Epochs": run.epochs_completed,
                "Status": self.status(run), "Duration": run.duration}
        return keys[column]

    def _tooltip(self, run: RunSummary, column: str) -> str:
        status = self.status(run)
        if status == RunStatus.UNREADABLE:
            return f"Cannot read {run.path}: {run.message}"
        if status == RunStatus.FAILED and run.message:
            return f"Failed: {run.message}"
        notes = "".join(f"\n• {p}" for p in run.problems)
        if column == "Status":
            where = self._running_where(run) if status == RunStatus.RUNNING else ""
            return f"{status}: {STATUS_HINTS.get(status, '')}" + (f" ({where})" if where else "") + notes
        return str(run.path) + notes
