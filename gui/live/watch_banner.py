"""The Live tab's note while it watches a run the window did not start: whose run, where it trains, where its
folder is, how it stands; and the way back to the window's own runs ("Stop watching")."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QPushButton, QWidget

from engine.core.runs.follow import trains_here
from engine.core.runs.runlock import Holder
from gui.theme import WidgetRole, set_role


class WatchBanner(QFrame):
    """Hidden until a run is watched."""

    stop_watching = Signal()
    """The user is done watching (the run goes on), or closes the note of a run that is over."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent, objectName="watchBanner")
        set_role(self, WidgetRole.NOTE)
        self.label = QLabel(objectName="watchLabel")
        self.label.setWordWrap(True)
        self.label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.button = QPushButton(self.tr("Stop watching"), objectName="stopWatchingButton")
        self.button.setToolTip(self.tr("Leave the run to train on; the Live tab is free for this window's runs"))
        self.button.clicked.connect(self.stop_watching)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(8, 4, 8, 4)
        layout.addWidget(self.label, 1)
        layout.addWidget(self.button)
        self._run_dir: Path | None = None
        self._where = ""
        self._state = ""
        self.over = False  # the run is over and the note says how
        self.hide()

    def watch(self, run_dir: Path) -> None:
        self._run_dir, self._where = run_dir, self.tr("reading its folder")
        self._state, self.over = self.tr("waiting for its first events"), False
        self.button.setText(self.tr("Stop watching"))
        self._show()
        self.show()

    def set_holder(self, held: Holder | None, seen_before: bool) -> None:
        """Where the run trains, as its lock says."""
        if held is not None:
            where = self.tr("on this machine") if trains_here(held) else self.tr("on {host}").format(host=held.host)
            self._where = self.tr("pid {pid} {where}, {command}").format(
                pid=held.pid or "?", where=where, command=held.command or "?"
            )
        elif not seen_before:
            self._where = self.tr("no lock this machine can see: it may train on another machine")
        self._show()

    def set_state(self, text: str) -> None:
        self._state = text
        self._show()

    def ended(self, text: str) -> None:
        """The run is over; the plots stay until the next run or watch."""
        self._state, self.over = text, True
        self.button.setText(self.tr("Close"))
        self._show()

    def _show(self) -> None:
        if self._run_dir is None:
            return
        self.label.setText(
            self.tr("Watching {name} ({where}) · {state}\n{folder}").format(
                name=self._run_dir.name, where=self._where, state=self._state, folder=self._run_dir
            )
        )
