"""The workers of a local cluster run: one row each, fed by WorkerState events.

The chief's events drive the plots; this panel is where a person sees that
worker 1 is still waiting for its peers, or that it failed and why. A
double-click on a row filters the log to that worker's lines.
"""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QBrush, QColor
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from engine import events as ev
from engine.protocol.codes import WorkerState

COLUMNS = ("Worker", "PID", "State", "Message")
# state -> (background, text): calm while it works, green when done well, red when it failed
STATE_COLOURS = {
    WorkerState.STARTING: ("#e8edf3", "#33414f"),
    WorkerState.WAITING: ("#fff1cc", "#6b4e00"),
    WorkerState.TRAINING: ("#dbe9fb", "#0b4ea2"),
    WorkerState.FINISHED: ("#dcf2e3", "#146c2e"),
    WorkerState.STOPPED: ("#eceef1", "#4a5260"),
    WorkerState.FAILED: ("#fbdde0", "#9c0015"),
}
SUMMARY_ORDER = (
    WorkerState.FAILED,
    WorkerState.STARTING,
    WorkerState.WAITING,
    WorkerState.TRAINING,
    WorkerState.FINISHED,
    WorkerState.STOPPED,
)


def state_text(state: str) -> str:
    return state.replace("_", " ")


class WorkersPanel(QWidget):
    """A table of the cluster's workers: name, pid, state (coloured) and the launcher's message."""

    worker_chosen = Signal(str)
    """A worker row was double-clicked; carries its name, e.g. "worker-1"."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.table = QTableWidget(0, len(COLUMNS), objectName="workersTable")
        self.table.setHorizontalHeaderLabels(COLUMNS)
        self.table.verticalHeader().setVisible(False)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setWordWrap(False)
        header = self.table.horizontalHeader()
        for column in range(len(COLUMNS) - 1):
            header.setSectionResizeMode(column, QHeaderView.ResizeMode.ResizeToContents)
        header.setStretchLastSection(True)
        self.table.setToolTip("Double-click a worker to show only its lines in the log")
        self.table.cellDoubleClicked.connect(lambda row, _: self.worker_chosen.emit(self.table.item(row, 0).text()))
        self.summary = QLabel(objectName="workersSummary")
        self.summary.setProperty("role", "hint")
        title = QLabel("Workers")
        title.setStyleSheet("font-weight: bold")
        bar = QHBoxLayout()
        bar.addWidget(title)
        bar.addWidget(self.summary, 1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 4, 0, 0)
        layout.addLayout(bar)
        layout.addWidget(self.table)
        self._rows: dict[str, int] = {}
        self.reset()

    def reset(self, expected: int = 0) -> None:
        """Empty the table for a new run of `expected` workers (0: no cluster run yet)."""
        self.table.setRowCount(0)
        self._rows.clear()
        self._expected = expected
        self._update_summary()

    def add_events(self, events: list[ev.Event]) -> None:
        """Take a batch of events; only WorkerState changes the table."""
        changed = False
        for event in events:
            if isinstance(event, ev.WorkerState):
                self._show(event)
                changed = True
        if changed:
            self._update_summary()

    def workers(self) -> list[str]:
        return list(self._rows)

    def state(self, worker: str) -> str:
        """The worker's last state, "" when it has not been seen."""
        row = self._rows.get(worker)
        return "" if row is None else self.table.item(row, 2).data(Qt.ItemDataRole.UserRole)

    def _show(self, event: ev.WorkerState) -> None:
        row = self._rows.get(event.worker)
        if row is None:
            row = self._rows[event.worker] = self.table.rowCount()
            self.table.insertRow(row)
        background, foreground = STATE_COLOURS.get(event.state, ("#ffffff", "#333333"))
        texts = (event.worker, str(event.pid or ""), state_text(event.state), event.message)
        for column, text in enumerate(texts):
            item = QTableWidgetItem(text)
            item.setToolTip(text if column == 3 else f"log: {event.log_path}" if event.log_path else "")
            if column == 2:
                item.setData(Qt.ItemDataRole.UserRole, event.state)
                item.setBackground(QBrush(QColor(background)))
                item.setForeground(QBrush(QColor(foreground)))
                item.setTextAlignment(Qt.AlignmentFlag.AlignCenter)
            self.table.setItem(row, column, item)

    def _update_summary(self) -> None:
        states = [self.state(worker) for worker in self._rows]
        counts = [f"{states.count(s)} {state_text(s)}" for s in SUMMARY_ORDER if s in states]
        if counts:
            self.summary.setText(" · ".join(counts))
        elif self._expected:
            self.summary.setText(f"launching {self._expected} workers on 127.0.0.1…")
        else:
            self.summary.setText("Start launches the local workers on 127.0.0.1; their states appear here.")
