"""One warm trainer kept ready, so Start skips the trainer's TensorFlow import.

`WarmTrainer` starts a trainer in its waiting mode (engine.core.protocol.commands.warm_trainer_command): it
imports TensorFlow at low priority, touches no device and says `trainer_ready`. At Start the window takes it
(`take`); the next one starts (`start_next`) after that run's first step, so two imports never compete with a
run's start. It serves only runs whose environment is the one it started with (warm_trainer_serves). It costs
memory, no CPU (BENCHMARKS.md, Start-up and the warm start); the Run menu turns it off.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass, field
from enum import StrEnum

from PySide6.QtCore import QObject, QTimer, Signal
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QLabel, QWidget

from engine.core import events as ev
from engine.core.protocol.client import WorkerProcess
from engine.core.protocol.commands import warm_trainer_serves

POLL_WARMING_MS = 200  # while it imports: catch `trainer_ready` promptly
POLL_READY_MS = 2000  # once ready it is silent; this only notices that it died
MAX_FAILURES = 2  # warm trainers that die before they are ready: after this many, stop trying (cold starts still work)
EARLY_OUTPUT_LINES = 200


class WarmState(StrEnum):
    OFF = "off"
    WARMING = "warming"
    READY = "ready"
    NONE = "none"  # between a run taking it and the next one being started
    BROKEN = "broken"  # it keeps dying before it is ready; runs start cold


@dataclass
class TakenTrainer:
    """A ready warm trainer given to a run: its process, and what it printed while it waited."""

    process: WorkerProcess
    ready: ev.TrainerReady
    early_output: list[str] = field(default_factory=list)


class WarmTrainer(QObject):
    """Owns at most one warm trainer process; `take` gives it away, `start_next` starts the next."""

    state_changed = Signal(str)
    """A line for the status bar: what the warm trainer is doing, e.g. "warm trainer ready (604 MB)"."""

    def __init__(self, command: list[str], enabled: bool = True, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._command = list(command)
        self._enabled = enabled
        self._process: WorkerProcess | None = None
        self._env: dict[str, str] = {}
        self._ready: ev.TrainerReady | None = None
        self._early_output: list[str] = []
        self._failures = 0
        self.last_error = ""
        self.declined = ""  # why the last `take` gave no warm trainer, for the log
        self.state = WarmState.NONE if enabled else WarmState.OFF
        self._timer = QTimer(self)
        self._timer.timeout.connect(self._poll)

    # ---- for the window -------------------------------------------------------------
    @property
    def enabled(self) -> bool:
        return self._enabled

    @property
    def rss_mb(self) -> float | None:
        """The resident size the ready warm trainer reported."""
        return self._ready.rss_mb if self._ready else None

    def set_enabled(self, enabled: bool) -> None:
        """Off: the warm trainer is ended now and runs start cold; on: one is started."""
        self._enabled = enabled
        self._failures = 0
        if enabled:
            self._set_state(WarmState.NONE)
            self.start_next()
        else:
            self._discard()
            self._set_state(WarmState.OFF)

    def start_next(self) -> None:
        """Start a warm trainer unless there is one, it is off, or it keeps failing."""
        if not self._enabled or self._process is not None or self._failures >= MAX_FAILURES:
            return
        self._env = dict(os.environ)
        process = WorkerProcess(self._command, env=self._env)
        try:
            process.start()
        except OSError as exc:
            self._broken(f"could not start: {exc}")
            return
        self._process, self._ready, self._early_output = process, None, []
        self._set_state(WarmState.WARMING)
        self._timer.start(POLL_WARMING_MS)

    def take(self, run_env: dict[str, str]) -> TakenTrainer | None:
        """The ready warm trainer for a run with `run_env`, or None (a cold start). A warm trainer whose
        environment differs is discarded, and the next one starts with the new environment."""
        self._poll()
        self.declined = {
            WarmState.OFF: self.tr("the warm trainer is off"),
            WarmState.WARMING: self.tr("the warm trainer is still importing TensorFlow"),
            WarmState.BROKEN: self.tr("no warm trainer: {error}").format(error=self.last_error),
        }.get(self.state, self.tr("no warm trainer yet"))
        if self._process is None or self._ready is None:
            return None  # none, or still importing: it carries on for the next run
        if not warm_trainer_serves(self._env, run_env):
            changed = sorted(k for k in {*self._env, *run_env} if self._env.get(k) != run_env.get(k))
            self.declined = self.tr("the environment changed since the warm trainer started ({names})").format(
                names=", ".join(changed[:4])
            )
            self._discard()
            self._set_state(WarmState.NONE)
            return None
        self.declined = ""
        taken = TakenTrainer(self._process, self._ready, self._early_output)
        self._process, self._ready, self._early_output = None, None, []
        self._timer.stop()
        self._set_state(WarmState.NONE)
        return taken

    def shutdown(self) -> None:
        """End the warm trainer now (the window is closing)."""
        self._timer.stop()
        self._discard()

    def toggle_action(self, parent: QObject) -> QAction:
        """Run › Keep a trainer warm: a checkable menu action bound to this owner."""
        action = QAction(self.tr("Keep a &trainer warm"), parent, checkable=True, checked=self._enabled)
        action.setStatusTip(
            self.tr(
                "Start runs in one to two seconds: one trainer process keeps TensorFlow imported "
                "(about 0.6 GB of memory, no CPU while it waits)"
            )
        )
        action.toggled.connect(self.set_enabled)
        return action

    def describe(self) -> str:
        if self.state == WarmState.READY:
            return (
                self.tr("warm trainer ready ({memory:.0f} MB)").format(memory=self.rss_mb)
                if self.rss_mb
                else self.tr("warm trainer ready")
            )
        if self.state == WarmState.BROKEN:
            return self.tr("no warm trainer ({error})").format(error=self.last_error)
        return {
            WarmState.OFF: self.tr("warm trainer off"),
            WarmState.WARMING: self.tr("warm trainer: importing TensorFlow…"),
        }.get(self.state, "")

    # ---- inside -------------------------------------------------------------------------
    def _poll(self) -> None:
        process = self._process
        if process is None:
            return
        for out in process.poll():
            if isinstance(out.event, ev.TrainerReady):
                self._ready = out.event
                self._failures = 0
                self._set_state(WarmState.READY)
                self._timer.start(POLL_READY_MS)
            elif isinstance(out.event, ev.RunFailed):
                self.last_error = out.event.message
            elif out.stderr is not None and len(self._early_output) < EARLY_OUTPUT_LINES:
                self._early_output.append(out.stderr)
        if not process.alive():
            tail = "; ".join(line for line in self._early_output[-3:] if line.strip())
            self._process = None
            process.close()
            self._failures += 1
            self._broken(self.last_error or f"it exited ({process.returncode}){': ' + tail if tail else ''}")

    def _broken(self, reason: str) -> None:
        self._timer.stop()
        self.last_error = reason
        if self._failures >= MAX_FAILURES:
            self._set_state(WarmState.BROKEN)
        else:
            self._set_state(WarmState.NONE)
            QTimer.singleShot(0, self.start_next)

    def _discard(self) -> None:
        process, self._process, self._ready = self._process, None, None
        if process is not None:
            process.close()  # a waiting warm trainer has nothing to save: killed and reaped at once

    def _set_state(self, state: WarmState) -> None:
        self.state = state
        self.state_changed.emit(self.describe())


class FirstStepLabel(QLabel):
    """The status bar's "first step after 1.4 s (warm trainer)": Start to the engine's first step,
    from the engine's own timestamp, for every run."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent, objectName="status_first_step")
        self._started_at: float | None = None
        self._warm = False
        self.seconds: float | None = None
        self.setToolTip(self.tr("Time from Start to the run's first training step"))

    def run_started(self, warm: bool) -> None:
        self._started_at, self._warm, self.seconds = time.time(), warm, None
        self.setText(self.tr("first step: waiting…"))

    def add_events(self, events: list[ev.Event]) -> bool:
        """True when these events hold the run's first step."""
        if self._started_at is None or self.seconds is not None:
            return False
        first = next((e for e in events if type(e) is ev.BatchEnd), None)
        if first is None:
            return False
        self.seconds = max(first.time - self._started_at, 0.0)
        self.setText(
            (
                self.tr("first step after {seconds:.1f} s (warm trainer)")
                if self._warm
                else self.tr("first step after {seconds:.1f} s (cold trainer)")
            ).format(seconds=self.seconds)
        )
        return True

    def run_ended(self) -> None:
        if self.seconds is None:
            self.setText("")
        self._started_at = None
