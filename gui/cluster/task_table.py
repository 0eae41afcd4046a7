"""The cluster's tasks as an editable table: job, host and port per row, and the machine each starts on.

Row order is TF_CONFIG order (a task's index is its position among its job's rows). Cells hold text, not
checked values, so a half-typed port stays and engine.core.tfconfig.validate names what is wrong. The Machine
column (an engine.core.hosts row) names where a task starts over SSH; empty, it starts here.
"""

from __future__ import annotations

import re

from PySide6.QtCore import QT_TRANSLATE_NOOP, QAbstractItemModel, QModelIndex, QPersistentModelIndex, Qt, Signal
from PySide6.QtGui import QBrush, QColor, QFont
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QHeaderView,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QTableWidget,
    QTableWidgetItem,
    QWidget,
)

from engine.core.hosts import parse_host
from engine.core.problems import ConfigError
from engine.core.tfconfig import JOBS, LOOPBACK_HOST, ClusterProblem, ClusterSpec
from gui import theme
from gui.i18n import translate
from gui.statuses import severity_name, severity_tone

JOB, HOST, PORT, TASK, MACHINE = range(5)
HEADERS = (
    QT_TRANSLATE_NOOP("ClusterTable", "Job"),
    QT_TRANSLATE_NOOP("ClusterTable", "Host"),
    QT_TRANSLATE_NOOP("ClusterTable", "Port"),
    QT_TRANSLATE_NOOP("ClusterTable", "Task"),
    QT_TRANSLATE_NOOP("ClusterTable", "Machine (SSH)"),
)
MACHINE_TIP = QT_TRANSLATE_NOOP(
    "ClusterTable",
    "Where this task starts over SSH: [user@]host[:port] or an ssh alias, then python=PATH or venv=DIR and "
    "folder=DIR if needed; empty: this machine",
)
FIRST_PORT = 20001
_LOCATION = re.compile(r"^cluster\.([^\[\]]+)(?:\[(\d+)\])?$")


def split_address(address: str) -> tuple[str, str]:
    """ "host:port" -> ("host", "port"); IPv6 keeps its brackets, and no port gives ""."""
    host, sep, port = address.rpartition(":")
    if not sep or "]" in port:
        return address, ""
    return host, port


def join_address(host: str, port: str) -> str:
    return f"{host}:{port}" if port else host


class _JobDelegate(QStyledItemDelegate):
    """Edits the job column with a list of TensorFlow's job names."""

    def createEditor(
        self, parent: QWidget, option: QStyleOptionViewItem, index: QModelIndex | QPersistentModelIndex
    ) -> QWidget:
        combo = QComboBox(parent)
        combo.addItems(JOBS)
        combo.activated.connect(lambda: self.commitData.emit(combo))
        return combo

    def setEditorData(self, editor: QWidget, index: QModelIndex | QPersistentModelIndex) -> None:
        assert isinstance(editor, QComboBox)
        editor.setCurrentText(str(index.data()))

    def setModelData(
        self, editor: QWidget, model: QAbstractItemModel, index: QModelIndex | QPersistentModelIndex
    ) -> None:
        assert isinstance(editor, QComboBox)
        model.setData(index, editor.currentText())


class ClusterTable(QTableWidget):
    """Tasks of a ClusterSpec, one per row; the Task column (e.g. "worker 1") follows the order."""

    cluster_edited = Signal()
    """The user changed a cell, or added or removed a task."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(0, len(HEADERS), parent)
        self.setObjectName("clusterTable")
        self.setHorizontalHeaderLabels([self.tr(h) for h in HEADERS])
        self._problems: list[ClusterProblem] = []
        theme.manager().changed.connect(self._restyle)  # a method: disconnected when the table goes
        self.verticalHeader().setVisible(False)
        self.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.setItemDelegateForColumn(JOB, _JobDelegate(self))
        header = self.horizontalHeader()
        header.setSectionResizeMode(HOST, QHeaderView.ResizeMode.Stretch)
        header.setSectionResizeMode(MACHINE, QHeaderView.ResizeMode.Stretch)
        self.horizontalHeaderItem(MACHINE).setToolTip(self.tr(MACHINE_TIP))
        for column in (JOB, PORT, TASK):
            header.setSectionResizeMode(column, QHeaderView.ResizeMode.ResizeToContents)
        self._current: tuple[str | None, int | None] = (None, None)
        self._loading = False
        self.itemChanged.connect(self._on_item_changed)

    # ---- cluster <-> rows ------------------------------------------------------------
    def set_cluster(self, cluster: ClusterSpec) -> None:
        """Show `cluster`; emits nothing (the caller knows it changed). A task keeps its machine."""
        machines = self._machines_by_task()
        self._loading = True
        self.setRowCount(0)
        for job, addresses in cluster.jobs:
            for index, address in enumerate(addresses):
                self._append(job, *split_address(address), machines.get((job, index), ""))
        self._loading = False
        self._refresh_tasks()

    def cluster(self) -> ClusterSpec:
        """The rows as a ClusterSpec: jobs in order of first appearance, tasks in row order."""
        jobs: dict[str, list[str]] = {}
        for row in range(self.rowCount()):
            jobs.setdefault(self._text(row, JOB), []).append(join_address(self._text(row, HOST), self._text(row, PORT)))
        return ClusterSpec.from_dict(jobs)

    def machines(self) -> list[str]:
        """Each task's Machine cell in the cluster's task order (ClusterSpec.tasks(): JOBS order), "" for none."""
        machines, cluster = self._machines_by_task(), self.cluster()
        return [machines.get((job, i), "") for job in JOBS for i in range(len(cluster.addresses(job)))]

    def set_machines(self, machines: list[str]) -> None:
        """Fill the Machine column in row order (a test, or rows pasted at once)."""
        for row, machine in enumerate(machines[: self.rowCount()]):
            self.item(row, MACHINE).setText(machine)

    def _machines_by_task(self) -> dict[tuple[str, int], str]:
        seen: dict[str, int] = {}
        machines = {}
        for row in range(self.rowCount()):
            job = self._text(row, JOB)
            seen[job] = seen.get(job, -1) + 1
            machines[(job, seen[job])] = self._text(row, MACHINE)
        return machines

    def add_task(self) -> None:
        """A worker after the last row, on the last row's host and the next port."""
        host = self._text(self.rowCount() - 1, HOST) if self.rowCount() else LOOPBACK_HOST
        ports = [int(p) for row in range(self.rowCount()) if (p := self._text(row, PORT)).isdigit()]
        self._loading = True
        machine = self._text(self.rowCount() - 1, MACHINE) if self.rowCount() else ""
        self._append("worker", host, str(max(ports) + 1 if ports else FIRST_PORT), machine)
        self._loading = False
        self._refresh_tasks()
        self.setCurrentCell(self.rowCount() - 1, HOST)
        self.cluster_edited.emit()

    def remove_selected(self) -> None:
        rows = sorted({index.row() for index in self.selectedIndexes()}, reverse=True)
        for row in rows:
            self.removeRow(row)
        if rows:
            self._refresh_tasks()
            self.cluster_edited.emit()

    def set_current_task(self, job: str | None, index: int | None) -> None:
        """Bold the row of the task this TF_CONFIG is for."""
        self._current = (job, index)
        self._refresh_tasks()

    # ---- problems --------------------------------------------------------------------
    def mark_problems(self, problems: list[ClusterProblem]) -> None:
        """Tint the rows a problem names (a whole job for job-level ones); the worst severity wins."""
        self._problems = problems
        colours = theme.current()
        marks: dict[int, list[ClusterProblem]] = {}
        for problem in problems:
            for row in self._rows_at(problem.location):
                marks.setdefault(row, []).append(problem)
        self._loading = True
        for row in range(self.rowCount()):
            found = marks.get(row, [])
            worst = "error" if any(p.severity == "error" for p in found) else "warning" if found else ""
            tone = severity_tone(worst, colours) if worst else None
            background = QBrush(QColor(tone.background)) if tone else QBrush()
            foreground = QBrush(QColor(tone.foreground)) if tone else QBrush()
            tip = "\n".join(f"{severity_name(p.severity)}: {translate(p.message)}" for p in found)
            for column in range(self.columnCount()):
                item = self.item(row, column)
                item.setBackground(background)
                item.setForeground(foreground)
                item.setToolTip(tip)
        self._loading = False

    def _restyle(self, _theme: theme.Theme) -> None:
        self.mark_problems(self._problems)

    def _rows_at(self, location: str) -> list[int]:
        match = _LOCATION.match(location)
        if not match:
            return []
        job, index = match.group(1), match.group(2)
        rows = [row for row in range(self.rowCount()) if self._text(row, JOB) == job]
        return rows if index is None else rows[int(index) : int(index) + 1]

    # ---- rows ------------------------------------------------------------------------
    def _append(self, job: str, host: str, port: str, machine: str = "") -> None:
        row = self.rowCount()
        self.insertRow(row)
        for column, text in ((JOB, job), (HOST, host), (PORT, port), (TASK, ""), (MACHINE, machine)):
            item = QTableWidgetItem(text)
            if column == TASK:
                item.setFlags(item.flags() & ~Qt.ItemFlag.ItemIsEditable)
            self.setItem(row, column, item)

    def _text(self, row: int, column: int) -> str:
        item = self.item(row, column)
        return item.text().strip() if item is not None else ""

    def _refresh_tasks(self) -> None:
        """Renumber the Task column after any change of jobs or order."""
        self._loading = True
        seen: dict[str, int] = {}
        for row in range(self.rowCount()):
            job = self._text(row, JOB)
            index = seen[job] = seen.get(job, -1) + 1
            current = (job, index) == self._current
            self.item(row, TASK).setText(f"{job} {index}" + (self.tr("  ← this process") if current else ""))
            for column in range(self.columnCount()):
                font = QFont(self.item(row, column).font())
                font.setBold(current)
                self.item(row, column).setFont(font)
        self._loading = False

    def _on_item_changed(self, item: QTableWidgetItem) -> None:
        if self._loading:
            return
        if item.column() == JOB:
            self._refresh_tasks()
        elif item.column() == MACHINE:
            self._host_from_machine(item.row())
        self.cluster_edited.emit()

    def _host_from_machine(self, row: int) -> None:
        """The task's host becomes its machine's (a row that does not parse yet changes nothing)."""
        try:
            host = parse_host(self._text(row, MACHINE)).address_host
        except ConfigError:
            return
        self._loading = True
        self.item(row, HOST).setText(host)
        self._loading = False
