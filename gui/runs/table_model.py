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
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from PySide6.QtCore import QT_TRANSLATE_NOOP, QAbstractItemModel, QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtGui import QColor

from engine.core import anatomy
from engine.core.protocol.codes import RunStatus
from engine.core.runs.history import RunSummary
from gui import theme
from gui.i18n import translate
from gui.live.anatomy_plot import part_name
from gui.live.controls import format_duration
from gui.runs.sweep_rows import SweepGroup, sweep_objective, sweep_of
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


class RunsTableModel(QAbstractItemModel):
    """One row per run, a sweep's trials under its sweep's row; SORT_ROLE gives raw values so columns sort as
    numbers and dates."""

    def __init__(self) -> None:
        super().__init__()
        self.runs: list[RunSummary] = []  # every run, a sweep's trials too
        self._top: list[Path] = []  # the top rows: a run's directory, or a sweep's folder
        self._top_row: dict[Path, int] = {}
        self._plain: dict[Path, RunSummary] = {}  # the runs of the top rows
        self._groups: dict[Path, SweepGroup] = {}
        self._idents: dict[int, SweepGroup] = {}
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
        """Show these runs: changed rows are updated, new ones appended (a sweep's trials under its row), and
        when `runs` is `complete` (not the rows a scan has found so far) the rows of runs gone are removed."""
        wanted = {r.path: r for r in runs}
        if complete:
            self._remove_gone(wanted)
        last = self.columnCount() - 1
        for row, key in enumerate(self._top):
            group = self._groups.get(key)
            for child, old in enumerate(group.trials if group else [self._plain[key]]):
                new = wanted.pop(old.path, old)
                if new == old:
                    continue
                if group is None:
                    self._plain[key] = new
                    self.dataChanged.emit(self.index(row, 0), self.index(row, last))
                else:
                    group.trials[child] = new
                    parent = self.index(row, 0)
                    self.dataChanged.emit(self.index(child, 0, parent), self.index(child, last, parent))
                    self.dataChanged.emit(parent, self.index(row, last))
        self._insert(wanted.values())
        self.runs = [r for key in self._top for r in self._runs_of(key)]

    def _runs_of(self, key: Path) -> list[RunSummary]:
        group = self._groups.get(key)
        return list(group.trials) if group else [self._plain[key]]

    def _remove_gone(self, wanted: dict[Path, RunSummary]) -> None:
        for row in reversed(range(len(self._top))):
            key = self._top[row]
            group = self._groups.get(key)
            if group is not None:
                for child in reversed(range(len(group.trials))):
                    if group.trials[child].path not in wanted:
                        self.beginRemoveRows(self.index(row, 0), child, child)
                        self._cells.pop(group.trials.pop(child).path, None)
                        self.endRemoveRows()
            if (group is None and key not in wanted) or (group is not None and not group.trials):
                self.beginRemoveRows(QModelIndex(), row, row)
                del self._top[row]
                self._cells.pop(key, None)
                self._plain.pop(key, None)
                if group is not None:
                    del self._groups[key], self._idents[group.ident]
                self.endRemoveRows()
        self._top_row = {key: row for row, key in enumerate(self._top)}

    def _insert(self, runs: Iterable[RunSummary]) -> None:
        """New runs after the rows there are, in the order given; new trials after their sweep's trials."""
        plain, trials = [], {}
        for run in runs:
            sweep = sweep_of(run)
            if sweep is None:
                plain.append(run)
            else:
                trials.setdefault(sweep, []).append(run)
        for sweep, found in trials.items():
            group = self._groups.get(sweep)
            if group is not None:
                parent = self.index(self._top_row[sweep], 0)
                self.beginInsertRows(parent, len(group.trials), len(group.trials) + len(found) - 1)
                group.trials.extend(found)
                self.endInsertRows()
        new_groups = [s for s in trials if s not in self._groups]
        if plain or new_groups:
            self.beginInsertRows(QModelIndex(), len(self._top), len(self._top) + len(plain) + len(new_groups) - 1)
            for run in plain:
                self._plain[run.path] = run
                self._top.append(run.path)
            for sweep in new_groups:
                ident = max(self._idents, default=0) + 1
                self._groups[sweep] = self._idents[ident] = SweepGroup(
                    sweep, ident, sweep_objective(sweep), trials[sweep]
                )
                self._top.append(sweep)
            self._top_row = {key: row for row, key in enumerate(self._top)}
            self.endInsertRows()

    def run_at(self, index: QModelIndex | QPersistentModelIndex) -> RunSummary | None:
        """The run of a row; None for a sweep's row."""
        item = self._item(index)
        return item if isinstance(item, RunSummary) else None

    def sweep_at(self, index: QModelIndex | QPersistentModelIndex) -> Path | None:
        """The sweep folder of a sweep's row; None for a run's."""
        item = self._item(index)
        return item.path if isinstance(item, SweepGroup) else None

    def index_of(self, path: Path, column: int = 0) -> QModelIndex:
        """The index of a run's row (a trial's under its sweep's row); invalid when it is not shown."""
        row = self._top_row.get(path)
        if row is not None:
            return self.index(row, column)
        for sweep_row, key in enumerate(self._top):
            group = self._groups.get(key)
            if group is not None and path.parent == key:
                for child, trial in enumerate(group.trials):
                    if trial.path == path:
                        return self.index(child, column, self.index(sweep_row, 0))
        return QModelIndex()

    def _item(self, index: QModelIndex | QPersistentModelIndex) -> RunSummary | SweepGroup | None:
        if not index.isValid():
            return None
        ident = index.internalId()
        if ident:
            group = self._idents.get(ident)
            return group.trials[index.row()] if group is not None and index.row() < len(group.trials) else None
        if index.row() >= len(self._top):
            return None
        key = self._top[index.row()]
        return self._groups.get(key) or self._plain.get(key)

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
        if self._top:
            self.dataChanged.emit(self.index(0, column), self.index(len(self._top) - 1, column))
        for key, group in self._groups.items():
            parent = self.index(self._top_row[key], 0)
            self.dataChanged.emit(self.index(0, column, parent), self.index(len(group.trials) - 1, column, parent))

    # ---- QAbstractItemModel ------------------------------------------------
    def index(self, row: int, column: int, parent: QModelIndex | QPersistentModelIndex = _ROOT) -> QModelIndex:
        if not parent.isValid():
            return self.createIndex(row, column, 0) if 0 <= row < len(self._top) else QModelIndex()
        group = self._groups.get(self._top[parent.row()]) if not parent.internalId() else None
        if group is None or not 0 <= row < len(group.trials):
            return QModelIndex()
        return self.createIndex(row, column, group.ident)

    def parent(self, index: QModelIndex | QPersistentModelIndex = _ROOT) -> QModelIndex:  # type: ignore[override]
        group = self._idents.get(index.internalId()) if index.isValid() else None
        return QModelIndex() if group is None else self.createIndex(self._top_row[group.path], 0, 0)

    def rowCount(self, parent: QModelIndex | QPersistentModelIndex = _ROOT) -> int:
        if not parent.isValid():
            return len(self._top)
        if parent.internalId() or parent.column() != 0:
            return 0
        group = self._groups.get(self._top[parent.row()])
        return len(group.trials) if group is not None else 0

    def columnCount(self, parent: QModelIndex | QPersistentModelIndex = _ROOT) -> int:
        return len(COLUMNS)

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            return self.tr(COLUMNS[section])
        return None

    def data(self, index: QModelIndex | QPersistentModelIndex, role: int = _DISPLAY) -> Any:
        # called for every visible cell, for seven roles, on every paint: ints compared, colours made once
        if role not in _SERVED or not index.isValid():
            return None
        run, column = self._item(index), COLUMNS[index.column()]
        if run is None:
            return None
        if isinstance(run, SweepGroup):
            return self._sweep_data(run, column, role)
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
            "Run": run.path.name if sweep_of(run) else display_name(run),  # a trial, under its sweep's row
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
            "Run": (run.path.name if sweep_of(run) else display_name(run)).lower(),
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
        if status == RunStatus.PRUNED and run.message:
            return self.tr("Pruned by its sweep: {why}").format(why=translate(run.message))
        notes = "".join(f"\n• {p}" for p in run.problems)
        if column in ("Step time", "Bound by") and run.anatomy is not None:
            return f"{translate(anatomy.verdict(run.anatomy))}\n{translate(anatomy.summary_line(run.anatomy))}"
        if column == "Status":
            where = self._running_where(run) if status == RunStatus.RUNNING else ""
            text = f"{run_status_name(status)}: {run_status_hint(status)}"
            return text + (f" ({where})" if where else "") + notes
        return str(run.path) + notes

    # ---- a sweep's row ------------------------------------------------------------
    def _sweep_data(self, group: SweepGroup, column: str, role: int) -> Any:
        """A sweep's row: its name and trial count, when its first trial started, its best objective."""
        best = group.best()
        objective = METRIC_COLUMNS.get(column) == group.objective
        if role == _DISPLAY:
            if column == "Run":
                return self.tr("{name}: %n trial(s)", "", len(group.trials)).format(name=_sweep_name(group))
            if column == "Status":
                return run_status_name(RunStatus.RUNNING) if group.running else ""
            if column == "Started":
                return time.strftime("%Y-%m-%d %H:%M", time.localtime(group.started)) if group.started else "—"
            return f"{best.final[group.objective]:.4f}" if objective and best is not None else ""
        if role == SORT_ROLE:
            return self._sweep_key(group, column, best)
        if role == _TOOLTIP:
            if best is None:
                return str(group.path)
            return (
                self.tr("best {objective}: {value:.4g}, {trial}").format(
                    objective=group.objective, value=best.final[group.objective], trial=best.path.name
                )
                + f"\n{group.path}"
            )
        if role == _FOREGROUND:
            return self._status_colours.get(RunStatus.RUNNING) if column == "Status" and group.running else None
        return None if column in ("Run", "Strategy", "Loop", "Status", "Bound by") or role != _ALIGN else _RIGHT

    @staticmethod
    def _sweep_key(group: SweepGroup, column: str, best: RunSummary | None) -> Any:
        """Keys of the same types as a run's, so a sweep sorts among the runs."""
        if column in METRIC_COLUMNS:
            value = best.final.get(METRIC_COLUMNS[column]) if best is not None else None
            return value if value is not None and METRIC_COLUMNS[column] == group.objective else float("-inf")
        keys: dict[str, Any] = {"Run": _sweep_name(group).lower(), "Started": group.started, "Status": ""}
        if column in keys:
            return keys[column]
        return math.inf if column in ("Step time", "Bound by") else "" if column in ("Strategy", "Loop") else 0


def _sweep_name(group: SweepGroup) -> str:
    return _STAMP_PREFIX.sub("", group.path.name) or group.path.name
