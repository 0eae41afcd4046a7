"""The launcher's stall watch: its trainers' step events in, TaskStalled events out (engine.stall)."""

from __future__ import annotations

import time
from collections.abc import Callable

from engine import events as ev
from engine.stall import ProgressWatchdog


class StallWatch:
    """Which trainer task has stopped stepping; `stall_s` None derives each task's threshold from its steps."""

    def __init__(self, stall_s: float | None = None, clock: Callable[[], float] = time.monotonic) -> None:
        self._watchdog = ProgressWatchdog(stall_s, clock)

    def seen(self, task: str, pid: int | None, event: ev.Event) -> ev.TaskStalled | None:
        """Take one of the task's events; a TaskStalled(resumed=True) when it ends a reported stall."""
        if isinstance(event, ev.RunStarted):
            self._watchdog.watch(task)
            return None
        if isinstance(event, ev.BatchEnd):
            resumed = self._watchdog.step(task, event.steps)
        elif isinstance(event, (ev.EpochEnd, ev.CheckpointSaved)):
            resumed = self._watchdog.alive(task)
        else:
            return None
        if not resumed:
            return None
        return ev.TaskStalled(worker=task, pid=pid, step_s=self._watchdog.step_time(task), resumed=True)

    def still_running(self, peers: list[tuple[str, str, int | None]]) -> str:
        """What a failure by a collective's timeout adds: the peers (name, task id, pid) still running, one of
        which it waited for, with how long each has gone without a step."""
        if not peers:
            return ""

        def one(name: str, task: str, pid: int | None) -> str:
            idle = self._watchdog.idle_s(task)
            return f"{name} (pid {pid}" + (f", no step for {idle:.0f} s)" if idle is not None else ")")

        said = ", ".join(one(*peer) for peer in peers)
        return f"; it waited for a peer, and still running were: {said}"

    def ended(self, task: str) -> None:
        self._watchdog.forget(task)

    def check(self, pid_of: Callable[[str], int | None]) -> list[ev.TaskStalled]:
        """A TaskStalled for each task that has just gone too long without a step."""
        return [
            ev.TaskStalled(
                worker=s.task, pid=pid_of(s.task), idle_s=s.idle_s, step_s=s.step_s, threshold_s=s.threshold_s
            )
            for s in self._watchdog.check()
        ]
