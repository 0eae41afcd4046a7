"""TensorFlow profiles of chosen training steps, with a step marker per compiled call.

The profiler starts and stops only between the loop's compiled calls (the controller calls
`between_calls`, and `traced` wraps the call it times), so a profile holds whole calls: steps A-B become
the calls that run them.
Step markers: TensorBoard's profiler groups a trace into steps by `Trace("train", step_num=..., _r=1)`
events around each step. The custom loop gets one around each call, step_num the global number (from 1)
of the call's first step; fit gets tf-keras's own marker around each call (step_num the call's first
step counted from 0 within its epoch), so no second marker is nested inside it. With several steps per
call, a marked "step" in TensorBoard is one call of that many steps.
Where: <run>/tensorboard/plugins/profile/<session>/<host>.xplane.pb, the layout TensorBoard's profile
plugin reads; a cluster's task adds its id to the session's name, so the tasks' profiles, written into
the same run folder, never replace one another. TensorFlow writes into a staging folder that is renamed
into place once whole, so TensorBoard never lists a half-written session.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

from engine.core import events as ev
from engine.core.config import Loop, RunConfig, Strategy
from engine.core.messages import msg
from engine.core.protocol.codes import RunStatus
from engine.core.protocol.paths import RunPaths
from engine.core.protocol.profile import ProfileRequests, StepRange
from engine.train.tf_runtime import tf

Position = Callable[[], tuple[int, int]]
"""(the global number of the next call's first step, the steps it runs)."""


class StepProfiler:
    """Profiles the windows of steps `requests` asks for; a context manager whose end writes a profile still
    being captured (the run ended first). `own_marker`: put a step marker around each call (the custom
    loop; fit has tf-keras's). `task`: a cluster task's id, or empty. A cluster's task never profiles its
    first call (the one that traces the step function): TensorFlow's profiler crashed a multi-worker task
    there (SIGSEGV or a double free in 3 of 5 runs of steps 2-3; none in 4 runs of steps 5-6)."""

    def __init__(
        self,
        requests: ProfileRequests,
        logdir: Path,
        emit: ev.Sink,
        position: Position,
        own_marker: bool,
        task: str = "",
    ):
        self._requests = requests
        self._logdir = Path(logdir)
        self._emit = emit
        self._position = position
        self._own_marker = own_marker
        self._task = task
        self._window: StepRange | None = requests.steps
        self._active = False
        self._first = self._last = 0  # the steps captured so far
        self._called = False  # a call has run: the step function is traced
        self._deferred = False  # the window's start waits for a cluster task's first call to pass

    def __enter__(self) -> StepProfiler:
        return self

    def __exit__(self, *exc: object) -> None:
        self.finish()

    def traced(self, call: Callable[..., Any]) -> Callable[..., Any]:
        """`call` (a compiled call of steps), marked as a step while a profile is captured."""

        def traced_call(*args: Any) -> Any:
            first, size = self._position()
            if self._active and self._window is not None and first > self._window.last:
                self._save()  # fit: the last call's marker (tf-keras's) has closed by now
            if not self._active:
                self._called = True
                return call(*args)
            self._first = self._first or first
            self._last = first + size - 1
            if not self._own_marker:
                return call(*args)
            with tf.profiler.experimental.Trace("train", step_num=first, _r=1):
                outputs = call(*args)
            if self._window is not None and self._last >= self._window.last:
                self._save()
            return outputs

        return traced_call

    def between_calls(self) -> None:
        """Between two calls (after one, or before an epoch's first): take new asks, and start a window that
        the next call enters. Started here, outside the call, fit's next step marker is captured whole."""
        first, size = self._position()
        for steps in self._requests.take():
            if self._window is not None:
                self._warn(
                    msg(
                        "A profile of steps {steps} is already being captured; the request for {asked} more "
                        "steps was ignored. Ask again once its profile_saved line is in the log.",
                        steps=str(self._window),
                        asked=steps,
                    )
                )
            else:
                self._window = StepRange(first, first + steps - 1)
        window = self._window
        if window is None or self._active:
            return
        if first > window.last:
            self._window = None
            self._warn(
                msg(
                    "No profile of steps {steps}: a cluster's task does not profile its first call, which traces "
                    "the step function (TensorFlow's profiler crashed there); ask for steps from {at} on.",
                    steps=str(window),
                    at=first,
                )
                if self._deferred
                else msg(
                    "No profile of steps {steps}: this run continued at step {at}, after them.",
                    steps=str(window),
                    at=first,
                )
            )
        elif first + size - 1 >= window.first:
            self._deferred = bool(self._task) and not self._called
            if not self._deferred:
                self._start()

    def _start(self) -> None:
        try:
            tf.profiler.experimental.start(str(self._staging()))
        except tf.errors.OpError as exc:  # e.g. the user's code runs a profiler of its own
            window, self._window = self._window, None
            self._warn(
                msg(
                    "No profile of steps {steps}: TensorFlow's profiler did not start ({why}).",
                    steps=str(window),
                    why=exc.message,
                )
            )
            return
        self._active = True
        self._first = self._last = 0

    def finish(self) -> None:
        """The run's steps are over: write a profile still being captured, or say why none was."""
        window = self._window
        if window is None:
            return
        if not self._active:
            self._window = None
            self._warn(
                msg(
                    "No profile of steps {steps}: the run ended before step {first}.",
                    steps=str(window),
                    first=window.first,
                )
            )
            return
        last = self._last
        self._save()
        if last < window.last:
            self._warn(
                msg(
                    "The run ended at step {last}, before step {end}: the profile holds steps {first}-{last}.",
                    last=last,
                    end=window.last,
                    first=self._first,
                )
            )

    def _staging(self) -> Path:
        return self._logdir / f".profiling-{os.getpid()}"

    def _save(self) -> None:
        """Stop the profiler, move its session into the run's profile folder and say where it is."""
        self._active, self._window = False, None
        tf.profiler.experimental.stop()
        staging = self._staging()
        sessions = sorted((staging / "plugins" / "profile").glob("*"))
        if not sessions:
            self._warn(
                msg(
                    "TensorFlow's profiler wrote no profile of steps {first}-{last}.",
                    first=self._first,
                    last=self._last,
                )
            )
            return
        target = _free_name(
            self._logdir / "plugins" / "profile", sessions[-1].name + (f"-{self._task}" if self._task else "")
        )
        target.parent.mkdir(parents=True, exist_ok=True)
        os.replace(sessions[-1], target)
        shutil.rmtree(staging, ignore_errors=True)
        self._emit(
            ev.ProfileSaved(
                path=str(target),
                logdir=str(self._logdir),
                first_step=self._first,
                last_step=self._last,
                task=self._task,
            )
        )

    def _warn(self, message: str) -> None:
        self._emit(ev.Log(level="warning", message=message))


def _free_name(folder: Path, name: str) -> Path:
    """folder/name, or folder/name-2, -3 … when taken (two captures in one second)."""
    target, n = folder / name, 1
    while target.exists():
        n += 1
        target = folder / f"{name}-{n}"
    return target


def profile_position(controller: Any) -> Position:
    """Where the controller's next call starts and how many steps it runs (fit's calls are as long as the
    custom loop's: the step policy's size, capped at the epoch's end)."""
    return lambda: (controller.global_step + 1, controller.block_size())


def run_profiled(
    controller: Any, loop: Any, requests: ProfileRequests | None, run_dir: Path, task: str, config: RunConfig
) -> RunStatus:
    """`controller.run(loop)`, profiling the steps `requests` asks for into `run_dir`'s tensorboard folder
    (the run's own folder: a cluster's every task writes there, each its own session). Under
    parameter_server the coordinator runs no step of its own to profile: a window is refused, saying so."""
    if requests is None:
        return controller.run(loop)
    if config.strategy == Strategy.PARAMETER_SERVER:
        if requests.steps is not None:
            controller.emit(
                ev.Log(
                    level="warning",
                    message=msg(
                        "No profile of steps {steps}: under parameter_server the steps run on the workers, "
                        "which this coordinator does not profile.",
                        steps=str(requests.steps),
                    ),
                )
            )
        return controller.run(loop)
    logdir = RunPaths(run_dir).tensorboard
    own_marker = config.loop == Loop.CUSTOM
    controller.profiler = profiler = StepProfiler(
        requests, logdir, controller.emit, profile_position(controller), own_marker, task
    )
    with profiler:
        return controller.run(loop)
