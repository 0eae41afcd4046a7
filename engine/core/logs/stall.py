"""Which task has stopped making step progress: a hung collective, a blocked input pipeline.

A cluster task that stops stepping says nothing: its process is alive, its
peers wait with it. The launcher feeds a ProgressWatchdog every task's step
events; `check()` names each task that has gone without one for longer
than its threshold, once per stall. The threshold is the caller's, or
derived from the task's own step times so that a slow model is not called
stuck. The clock is injectable (tests drive it by hand). No Qt, no TensorFlow.
"""

from __future__ import annotations

import statistics
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field

from engine.core import events as ev
from engine.core.messages import Message, msg

MIN_STALL_S = 30.0  # the derived threshold is never shorter: a checkpoint or a validation pass takes a while
STALL_STEP_FACTOR = 20  # ... and otherwise this many of the task's median step time
FIRST_STEP_STALL_S = 300.0  # before a task's first step (tracing, compiling, filling the input pipeline)
STEP_HISTORY = 50  # the step times the median is taken over
STALLED = "stalled"  # what a task or a run without step progress is shown as (not a state of its process)
TRAINER_TASK = "trainer"  # the name a run of one trainer process is watched and reported by


@dataclass(frozen=True)
class Stall:
    """A task without step progress for `idle_s`; `step_s` is its median step time (None before its first)."""

    task: str
    idle_s: float
    step_s: float | None
    threshold_s: float


def stall_line(task: str, idle_s: float, step_s: float | None) -> Message:
    """What the launcher and the window say, e.g. "worker-1: no step for 42 s (its steps took 0.3 s)"."""
    if step_s is None:
        return msg("{task}: no step for {idle} s (no step time measured yet)", task=task, idle=f"{idle_s:.0f}")
    took = f"{step_s:.2g}" if step_s < 10 else f"{step_s:.0f}"
    return msg("{task}: no step for {idle} s (its steps took {took} s)", task=task, idle=f"{idle_s:.0f}", took=took)


def resumed_line(task: str) -> Message:
    return msg("{task}: stepping again", task=task)


@dataclass
class _Progress:
    last: float  # when it last made progress
    last_step: float | None = None  # when its last step event came
    steps: deque[float] = field(default_factory=lambda: deque(maxlen=STEP_HISTORY))
    stalled: bool = False


class ProgressWatchdog:
    """Step progress of named tasks; `stall_s` fixes the threshold, None derives it from the step times."""

    def __init__(self, stall_s: float | None = None, clock: Callable[[], float] = time.monotonic) -> None:
        if stall_s is not None and stall_s <= 0:
            raise ValueError(f"stall threshold must be positive seconds, got {stall_s}")
        self.stall_s = stall_s
        self._clock = clock
        self._tasks: dict[str, _Progress] = {}

    def watch(self, task: str) -> None:
        """`task` has begun training: from now on it is expected to step."""
        self._tasks[task] = _Progress(last=self._clock())

    def forget(self, task: str) -> None:
        """`task` has ended (or is stopping): its silence means nothing any more."""
        self._tasks.pop(task, None)

    def step(self, task: str, steps: int = 1) -> bool:
        """`task` reported `steps` more steps; True when that ends a stall that check() reported."""
        progress = self._tasks.get(task)
        if progress is None:
            return False
        now = self._clock()
        if progress.last_step is not None and steps > 0:
            progress.steps.append((now - progress.last_step) / steps)
        progress.last_step = now
        return self._alive(progress, now)

    def alive(self, task: str) -> bool:
        """Progress other than a step (an epoch's end, a checkpoint); True when that ends a reported stall."""
        progress = self._tasks.get(task)
        return progress is not None and self._alive(progress, self._clock())

    @staticmethod
    def _alive(progress: _Progress, now: float) -> bool:
        progress.last = now
        was, progress.stalled = progress.stalled, False
        return was

    def idle_s(self, task: str) -> float | None:
        """How long `task` has gone without progress; None when it is not watched."""
        progress = self._tasks.get(task)
        return None if progress is None else self._clock() - progress.last

    def step_time(self, task: str) -> float | None:
        """The task's median step time, None before it has two step events."""
        progress = self._tasks.get(task)
        return statistics.median(progress.steps) if progress is not None and progress.steps else None

    def threshold(self, task: str) -> float:
        """How long `task` may go without progress before it is called stalled."""
        if self.stall_s is not None:
            return self.stall_s
        progress = self._tasks.get(task)
        if progress is None or progress.last_step is None:
            return FIRST_STEP_STALL_S
        step_s = self.step_time(task) or 0.0
        return max(MIN_STALL_S, STALL_STEP_FACTOR * step_s)

    def check(self) -> list[Stall]:
        """The tasks that have just gone longer than their threshold without progress (each once per stall)."""
        now = self._clock()
        stalls = []
        for task, progress in self._tasks.items():
            idle = now - progress.last
            limit = self.threshold(task)
            if not progress.stalled and idle > limit:
                progress.stalled = True
                stalls.append(Stall(task, idle, self.step_time(task), limit))
        return stalls


class StallWatch:
    """Trainer events in, TaskStalled events out: the launcher watches its tasks with one, the window a
    run of one trainer; `stall_s` None derives each task's threshold from its steps."""

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
