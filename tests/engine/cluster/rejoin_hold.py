"""Holds a parameter-server chief until its lost worker has rejoined, for the tests that kill a worker.

A run whose worker is killed must still be training when the restarted
worker's server answers, or the launcher never sees it rejoin. Rather than
enough epochs to outlast the slowest restart, the chief is held (SIGSTOP) at
its first epoch end after the worker was lost, until the launcher marks the
worker rejoined (SIGCONT): the run trains on without the worker up to there,
then cannot end before the rejoin however loaded the machine. Posix only.
"""

from __future__ import annotations

import contextlib
import os
import signal
from pathlib import Path
from types import TracebackType

from engine.cluster.group import LOST, REJOINED, WorkerStatus
from engine.core import events as ev
from engine.core.protocol.commands import TRAINER_MODULE
from engine.core.tfconfig import Task


class HoldUntilRejoined:
    """Feed it every on_state and on_event of the run; use it as a context manager, so the chief is never left
    stopped. `held` says whether it had to hold the chief (a restart faster than an epoch needs no hold)."""

    def __init__(self, worker: str) -> None:
        self.worker = worker
        self.lost = self.rejoined = self.held = False
        self.chief_pid: int | None = None
        self._stopped: int | None = None

    def on_state(self, status: WorkerStatus) -> None:
        if status.task.job == "chief" and status.pid is not None:
            self.chief_pid = status.pid  # a remote chief's: its trainer's on its host, once that is known
        if status.task.id == self.worker and status.state == LOST:
            self.lost = True
        elif status.task.id == self.worker and status.state == REJOINED:
            self.rejoined = True
            self.release()

    def on_event(self, task: Task, event: ev.Event) -> None:
        if task.job != "chief" or not isinstance(event, ev.EpochEnd) or not self.lost or self.rejoined:
            return
        if self.held or self.chief_pid is None:
            return
        cmdline = Path(f"/proc/{self.chief_pid}/cmdline").read_bytes()
        assert TRAINER_MODULE.encode() in cmdline, cmdline  # the chief's trainer is held, not the ssh link to it
        os.kill(self.chief_pid, signal.SIGSTOP)
        self._stopped = self.chief_pid
        self.held = True

    def release(self) -> None:
        if self._stopped is not None:
            with contextlib.suppress(ProcessLookupError):  # the launcher may have ended it (a failed run)
                os.kill(self._stopped, signal.SIGCONT)
            self._stopped = None

    def __enter__(self) -> HoldUntilRejoined:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        self.release()
