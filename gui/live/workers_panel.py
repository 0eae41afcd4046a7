"""The tasks of a local cluster run: one row each, fed by WorkerState, TaskSteps and TaskStalled events.

Where a person sees that a worker still waits for its peers, that a parameter-server worker was lost and
rejoined, or that a task failed and why. A double-click filters the log to that task's lines; a stalled task
(engine.core.logs.stall) shows its Python stacks from its context menu.
"""

from __future__ import annotations

from PySide6.QtCore import QT_TRANSLATE_NOOP, Qt, Signal
from PySide6.QtGui import QBrush, QColor
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QMenu,
    QSplitter,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from engine.core import events as ev
from engine.core.logs.stall import STALLED, resumed_line, stall_line
from engine.core.protocol.codes import WorkerState
from gui import theme
from gui.i18n import translate
from gui.live.stacks_view import StacksDialog
from gui.statuses import worker_state_name, worker_state_tone
from gui.theme import WidgetRole, set_role

COLUMNS = (
    QT_TRANSLATE_NOOP("WorkersPanel", "Task"),
    QT_TRANSLATE_NOOP("WorkersPanel", "Role"),
    QT_TRANSLATE_NOOP("WorkersPanel", "PID"),
    QT_TRANSLATE_NOOP("WorkersPanel", "State"),
    QT_TRANSLATE_NOOP("WorkersPanel", "Steps"),
    QT_TRANSLATE_NOOP("WorkersPanel", "Message"),
)
TASK, ROLE, PID, STATE, STEPS, MESSAGE = range(len(COLUMNS))
SUMMARY_ORDER = (
    WorkerState.FAILED,
    WorkerState.LOST,
    WorkerState.STARTING,
    WorkerState.WAITING,
    WorkerState.TRAINING,
    WorkerState.REJOINED,
    WorkerState.EVALUATING,
    WorkerState.FINISHED,
    WorkerState.STOPPED,
)


class WorkersPanel(QWidget):
    """A table of the cluster's tasks: name, role, pid, state (coloured), steps run and the launcher's message."""

    worker_chosen = Signal(str)
    """A task row was double-clicked; carries its id, e.g. "worker-1"."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.table = QTableWidget(0, len(COLUMNS), objectName="workersTable")
        self.table.setHorizontalHeaderLabels([self.tr(c) for c in COLUMNS])
        self.table.setAccessibleName(self.tr("Cluster tasks"))
        self.table.verticalHeader().setVisible(False)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setWordWrap(False)
        header = self.table.horizontalHeader()
        for column in range(len(COLUMNS) - 1):
            header.setSectionResizeMode(column, QHeaderView.ResizeMode.ResizeToContents)
        header.setStretchLastSection(True)
        self.table.horizontalHeaderItem(STEPS).setToolTip(
            self.tr("parameter_server: steps each worker has run, as the coordinator saw them come back")
        )
        self.table.setToolTip(self.tr("Double-click a task to show only its lines in the log"))
        self.table.cellDoubleClicked.connect(lambda row, _: self.worker_chosen.emit(self.table.item(row, TASK).text()))
        self.table.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.table.customContextMenuRequested.connect(self._context_menu)
        self.summary = QLabel(objectName="workersSummary")
        set_role(self.summary, WidgetRole.HINT)
        title = QLabel(self.tr("Cluster tasks"))
        set_role(title, WidgetRole.TITLE)
        bar = QHBoxLayout()
        bar.addWidget(title)
        bar.addWidget(self.summary, 1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 4, 0, 0)
        layout.addLayout(bar)
        layout.addWidget(self.table)
        self._rows: dict[str, int] = {}
        self._stalled: set[str] = set()
        self._where: dict[str, tuple[str, list[str]]] = {}  # a task on another machine: its host, its stacks there
        self.stacks_dialog: StacksDialog | None = None
        self.reset()
        theme.manager().changed.connect(self._restyle)

    def _restyle(self, scheme: theme.Theme) -> None:
        for row in range(self.table.rowCount()):
            item = self.table.item(row, STATE)
            if item is not None:
                stalled = self.table.item(row, TASK).text() in self._stalled
                self._paint_state(item, STALLED if stalled else item.data(Qt.ItemDataRole.UserRole), scheme)

    @staticmethod
    def _paint_state(item: QTableWidgetItem, state: str, scheme: theme.Theme) -> None:
        tone = worker_state_tone(state, scheme)
        item.setBackground(QBrush(QColor(tone.background)))
        item.setForeground(QBrush(QColor(tone.foreground)))

    def reset(self, expected: int = 0) -> None:
        """Empty the table for a new run of `expected` tasks (0: no cluster run yet)."""
        self.table.setRowCount(0)
        self._rows.clear()
        self._stalled.clear()
        self._where.clear()
        self._expected = expected
        self._update_summary()

    def make_room(self, tasks: int) -> None:
        """Room for a row per task (within a third of the splitter holding the panel), taken from the view above."""
        splitter = self.parentWidget()
        if not isinstance(splitter, QSplitter) or splitter.indexOf(self) < 1:
            return
        index, sizes = splitter.indexOf(self), splitter.sizes()
        wanted = min(60 + self.table.verticalHeader().defaultSectionSize() * (tasks + 1), sum(sizes) // 3)
        if sizes[index] < wanted:
            sizes[index - 1] -= wanted - sizes[index]
            sizes[index] = wanted
            splitter.setSizes(sizes)

    def add_events(self, events: list[ev.Event]) -> None:
        """Take a batch of events; WorkerState changes a row, TaskSteps the Steps column."""
        changed = False
        for event in events:
            if isinstance(event, ev.WorkerState):
                self._show(event)
                changed = True
            elif isinstance(event, ev.TaskSteps):
                self._show_steps(event.steps)
            elif isinstance(event, ev.TaskStalled):
                self._show_stall(event)
                changed = True
        if changed:
            self._update_summary()

    def workers(self) -> list[str]:
        return list(self._rows)

    def state(self, worker: str) -> str:
        """The task's last state, "" when it has not been seen."""
        row = self._rows.get(worker)
        item = None if row is None else self.table.item(row, STATE)
        return "" if item is None else item.data(Qt.ItemDataRole.UserRole)

    def cell(self, worker: str, column: int) -> str:
        """What a column shows for a task ("" when it has not been seen)."""
        row = self._rows.get(worker)
        item = None if row is None else self.table.item(row, column)
        return "" if item is None else item.text()

    def pid(self, worker: str) -> int:
        return int(self.cell(worker, PID))

    def stalled(self) -> list[str]:
        """The tasks shown as stalled now."""
        return [w for w in self._rows if w in self._stalled]

    def show_stacks(self, worker: str) -> StacksDialog:
        """Open a dialog with the task's Python stacks (read in the background)."""
        host, there = self._where.get(worker, ("", []))
        self.stacks_dialog = StacksDialog(worker, self.pid(worker), self, host, there)
        self.stacks_dialog.show()
        return self.stacks_dialog

    def _context_menu(self, position) -> None:
        item = self.table.itemAt(position)
        if item is None:
            return
        self.menu_for(self.table.item(item.row(), TASK).text()).popup(self.table.viewport().mapToGlobal(position))

    def menu_for(self, worker: str) -> QMenu:
        """A task's context menu: its Python stacks, when it has a process."""
        menu = QMenu(self)
        action = menu.addAction(self.tr("Show Python stacks"), lambda: self.show_stacks(worker))
        action.setEnabled(self.cell(worker, PID).isdigit())
        menu.aboutToHide.connect(menu.deleteLater)
        return menu

    def _row(self, worker: str) -> int:
        row = self._rows.get(worker)
        if row is None:
            row = self._rows[worker] = self.table.rowCount()
            self.table.insertRow(row)
        return row

    def _show(self, event: ev.WorkerState) -> None:
        row = self._row(event.worker)
        self._stalled.discard(event.worker)
        self._where[event.worker] = (event.host, event.stacks)
        texts = {
            TASK: event.worker,
            ROLE: translate(event.role),
            PID: str(event.pid or ""),
            STATE: worker_state_name(event.state),
            MESSAGE: translate(event.message),
        }
        log = self.tr("log: {path}").format(path=event.log_path) if event.log_path else ""
        for column, text in texts.items():
            item = QTableWidgetItem(text)
            item.setToolTip(text if column in (ROLE, MESSAGE) else log)
            if column == STATE:
                item.setData(Qt.ItemDataRole.UserRole, event.state)
                self._paint_state(item, event.state, theme.current())
                item.setTextAlignment(Qt.AlignmentFlag.AlignCenter)
            self.table.setItem(row, column, item)

    def _show_stall(self, event: ev.TaskStalled) -> None:
        """Mark the task stalled (the state cell keeps its state for when it steps again), or unmark it."""
        row = self._row(event.worker)
        state = self.table.item(row, STATE)
        if state is None:
            state = QTableWidgetItem()
            state.setData(Qt.ItemDataRole.UserRole, WorkerState.TRAINING)
            state.setTextAlignment(Qt.AlignmentFlag.AlignCenter)
            self.table.setItem(row, STATE, state)
        if event.resumed:
            self._stalled.discard(event.worker)
            shown, line = state.data(Qt.ItemDataRole.UserRole), resumed_line(event.worker)
        else:
            self._stalled.add(event.worker)
            shown, line = STALLED, stall_line(event.worker, event.idle_s, event.step_s)
            state.setToolTip(self.tr("Right-click the task to see its Python stacks"))
        state.setText(worker_state_name(shown))
        self._paint_state(state, shown, theme.current())
        self.table.setItem(row, MESSAGE, QTableWidgetItem(translate(line)))
        if event.pid:
            self.table.setItem(row, PID, QTableWidgetItem(str(event.pid)))

    def _show_steps(self, steps: dict[str, int]) -> None:
        for worker, count in steps.items():
            item = QTableWidgetItem(f"{count:,}")
            item.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
            self.table.setItem(self._row(worker), STEPS, item)

    def _update_summary(self) -> None:
        states = [STALLED if worker in self._stalled else self.state(worker) for worker in self._rows]
        counts = [f"{states.count(s)} {worker_state_name(s)}" for s in (STALLED, *SUMMARY_ORDER) if s in states]
        if counts:
            self.summary.setText(" · ".join(counts))
        elif self._expected:
            self.summary.setText(self.tr("launching {expected} tasks on 127.0.0.1…").format(expected=self._expected))
        else:
            self.summary.setText(self.tr("Start launches the cluster's tasks on 127.0.0.1; their states appear here."))
