"""Start a cluster's training tasks on this machine and watch them as one group.

MultiWorkerMirroredStrategy does not fail fast by itself: a worker that
never starts leaves the others waiting inside the strategy's constructor
(the coordination service's registration timeout is an hour), and a worker
that dies mid-run is noticed by its peers only after a heartbeat timeout
(about 10 s). So the launcher supervises every process: the first worker
that exits non-zero, or does not join in time, stops the whole group (stop
request, then kill after a grace period), and the result names it.

Each task is the protocol's trainer command (engine.protocol.commands) with
its own TF_CONFIG, driven by the protocol's client; stdout carries JSON-line
events, stderr goes to RUN_DIR/workers/<task id>.log. No TensorFlow here:
this module only starts processes. Tasks are addressed on loopback only, yet
TensorFlow's server listens on every interface whatever TF_CONFIG says
(measured with `ss`), and trusts anyone who reaches it: on an untrusted
network, firewall the ports.
"""

from __future__ import annotations

import os
import socket
import time
from collections.abc import Callable, Collection
from dataclasses import dataclass, replace
from pathlib import Path

from engine import events as ev
from engine.config import RunConfig
from engine.protocol import commands
from engine.protocol.client import WorkerProcess
from engine.protocol.codes import CLUSTER_STOP_GRACE_S, ExitCode, RunStatus, WorkerState
from engine.protocol.paths import RunPaths
from engine.tf_log import without_chatter
from engine.tfconfig import (
    TF_CONFIG_ENV,
    ClusterError,
    ClusterProblem,
    ClusterSpec,
    Task,
    TFConfig,
    errors,
    for_task,
    is_loopback,
    local_cluster,
    port_in_use,
    render,
    validate,
)

STARTING, WAITING, TRAINING = WorkerState.STARTING, WorkerState.WAITING, WorkerState.TRAINING
FINISHED, STOPPED, FAILED = WorkerState.FINISHED, WorkerState.STOPPED, WorkerState.FAILED
FAILURE_GRACE_S = 5.0  # peers of a dead worker hang in a collective; they cannot stop politely
STOP_GRACE_S = CLUSTER_STOP_GRACE_S  # a requested stop checkpoints and saves the model first
FINISH_TIMEOUT_S = 120.0  # once one worker has finished, the others must follow
_POLL_S = 0.1


@dataclass(frozen=True)
class WorkerStatus:
    """One task's process as the launcher sees it."""

    task: Task
    state: WorkerState = STARTING
    pid: int | None = None
    exit_code: int | None = None
    message: str = ""  # why it failed or was stopped
    log_path: str = ""


@dataclass(frozen=True)
class ClusterResult:
    status: RunStatus  # COMPLETED, STOPPED or FAILED
    workers: tuple[WorkerStatus, ...]
    failure: str = ""  # one line naming the worker at fault; empty unless failed
    run_dir: str = ""

    @property
    def ok(self) -> bool:
        return self.status == RunStatus.COMPLETED


EventCallback = Callable[[Task, ev.Event], None]
StateCallback = Callable[[WorkerStatus], None]
StopCheck = Callable[[], bool]  # e.g. threading.Event().is_set, polled from the launching thread


CommandFactory = Callable[[Path, Path, bool], list[str]]  # (run config, run dir, resume) -> command


def trainer_command(config_path: Path, run_dir: Path, resume: bool) -> list[str]:
    """The protocol's trainer command for one task: a fresh run, or a resume of `run_dir`."""
    return commands.resume_command(run_dir) if resume else commands.trainer_command(config_path, run_dir)


def launch_local_cluster(
    run_config_path: str | Path,
    n_workers: int,
    run_dir: str | Path,
    *,
    join_timeout_s: float,
    on_event: EventCallback | None = None,
    on_state: StateCallback | None = None,
    should_stop: StopCheck | None = None,
    resume: bool = False,
) -> ClusterResult:
    """`n_workers` workers on free 127.0.0.1 ports; worker 0 is the chief."""
    return launch_cluster(
        local_cluster(n_workers),
        run_config_path,
        run_dir,
        join_timeout_s=join_timeout_s,
        on_event=on_event,
        on_state=on_state,
        should_stop=should_stop,
        resume=resume,
    )


def launch_cluster(
    cluster: ClusterSpec,
    run_config_path: str | Path,
    run_dir: str | Path,
    *,
    join_timeout_s: float,
    start_only: Collection[str] | None = None,
    on_event: EventCallback | None = None,
    on_state: StateCallback | None = None,
    should_stop: StopCheck | None = None,
    command_for: CommandFactory = trainer_command,
    resume: bool = False,
) -> ClusterResult:
    """Run the cluster's training tasks here and wait for all of them (never unbounded).

    `start_only` names the tasks to start ("worker 0"); the others are expected
    to be started elsewhere. Once `should_stop()` is true the group stops gracefully.
    `command_for` builds each task's command (tests use a fake trainer).
    `resume` continues the run in `run_dir` from its latest checkpoint (every
    worker restores the chief's). ConfigError or ClusterError (port in use
    included) before anything starts.
    """
    config_path = Path(run_config_path).resolve()
    config = RunConfig.load(config_path)
    tasks = [t for t in _checked_tasks(cluster, config.strategy) if start_only is None or t.name in start_only]
    if not tasks:
        raise ClusterError([ClusterProblem("error", "cluster", cluster.to_dict(), f"no task named {start_only}")])
    _check_ports(tasks)
    group = _Group(cluster, tasks, Path(run_dir).resolve(), on_event, on_state)
    try:
        group.start(command_for(config_path, group.run_dir, resume))
        return group.watch(join_timeout_s, should_stop or (lambda: False))
    finally:
        group.shutdown(STOP_GRACE_S)  # a no-op unless an exception (e.g. Ctrl-C) got here


def _checked_tasks(cluster: ClusterSpec, strategy: str) -> list[Task]:
    problems = errors(validate(TFConfig(cluster), strategy))
    if problems:
        raise ClusterError(problems)
    tasks = cluster.training_tasks()
    remote = [t for t in tasks if not is_loopback(t.host)]
    if remote:
        raise ClusterError(
            [
                ClusterProblem(
                    "error",
                    f"cluster.{t.job}[{t.index}]",
                    t.address,
                    "the launcher starts tasks on this machine only, on a loopback "
                    "address; use `cluster export` for other machines",
                )
                for t in remote
            ]
        )
    return tasks


def _check_ports(tasks: list[Task]) -> None:
    busy = [t for t in tasks if port_in_use(t.host, t.port)]
    if busy:
        raise ClusterError(
            [
                ClusterProblem(
                    "error",
                    f"cluster.{t.job}[{t.index}]",
                    t.address,
                    f"port {t.port} of {t.name} is already in use on this machine; stop "
                    "the program that holds it or pick another port",
                )
                for t in busy
            ]
        )


class _Worker:
    """A task's process (through the protocol's client) and what it told us."""

    def __init__(self, status: WorkerStatus):
        self.status = status
        self.process: WorkerProcess | None = None
        self.failed_message = ""  # from its run_failed event
        self.finished_status = ""  # from its run_finished event

    @property
    def killed(self) -> bool:
        return self.process is not None and self.process.killed

    def alive(self) -> bool:
        return self.process is not None and self.process.alive()

    def stop(self) -> None:
        """The protocol's polite stop for a training worker.

        A worker that has not joined yet is blocked inside TensorFlow and cannot
        hear it, and has nothing to save: it is killed at once.
        """
        if self.process is None:
            return
        self.process.request_stop()
        if self.status.state != TRAINING:
            self.process.kill()

    def kill(self) -> None:
        if self.process is not None:
            self.process.kill()

    def stderr_tail(self, lines: int = 5) -> list[str]:
        try:
            with open(self.status.log_path, "rb") as f:
                f.seek(max(0, f.seek(0, os.SEEK_END) - 8192))
                text = f.read().decode("utf-8", "replace")
        except OSError:
            return []
        return [line for line in without_chatter(text.splitlines()) if line.strip()][-lines:]


class _Group:
    """The launched workers; all waiting happens in watch() and shutdown(), on the caller's thread."""

    def __init__(
        self,
        cluster: ClusterSpec,
        tasks: list[Task],
        run_dir: Path,
        on_event: EventCallback | None,
        on_state: StateCallback | None,
    ):
        self.cluster = cluster
        self.run_dir = run_dir
        self.paths = RunPaths(run_dir)
        self.workers = [_Worker(WorkerStatus(t, log_path=str(self.paths.worker_log(t.id)))) for t in tasks]
        self.not_started = [t.name for t in cluster.training_tasks() if t not in tasks]
        self.on_event = on_event
        self.on_state = on_state
        self.failure = ""

    # ---- start -----------------------------------------------------------------

    def start(self, command: list[str]) -> None:
        for w in self.workers:
            task = w.status.task
            env = dict(os.environ, **{TF_CONFIG_ENV: render(for_task(self.cluster, task.job, task.index))})
            # its own session: kill() takes anything the worker started along
            w.process = WorkerProcess(command, env=env, stderr_path=Path(w.status.log_path), own_group=True)
            self._set(w, pid=w.process.start())

    # ---- watch ---------------------------------------------------------------------

    def watch(self, join_timeout_s: float, should_stop: StopCheck) -> ClusterResult:
        started = time.monotonic()
        first_done: float | None = None
        stop_deadline: float | None = None
        while not self.failure:
            self._drain(wait_s=_POLL_S)
            self._probe_ports()
            for w in self.workers:
                if not w.status.state.done and not w.alive():
                    self._exited(w, stopping=stop_deadline is not None)
            live = [w for w in self.workers if not w.status.state.done]
            if self.failure or not live:
                break
            now = time.monotonic()
            if stop_deadline is None and should_stop():
                stop_deadline = now + STOP_GRACE_S
                for w in live:
                    w.stop()
            joining = [w for w in live if w.status.state.joining]
            if first_done is None and len(live) < len(self.workers):
                first_done = now
            if stop_deadline is not None and now > stop_deadline:
                self._fail(live, f"did not stop within {STOP_GRACE_S:g} s of the stop request")
            elif joining and now - started > join_timeout_s:
                self._fail(joining, self._join_failure(joining, join_timeout_s))
            elif first_done is not None and now - first_done > FINISH_TIMEOUT_S:
                self._fail(live, f"did not finish within {FINISH_TIMEOUT_S:g} s after the others")
        self.shutdown(FAILURE_GRACE_S)
        states = {w.status.state for w in self.workers}
        status = (
            RunStatus.FAILED
            if self.failure or FAILED in states
            else RunStatus.STOPPED
            if STOPPED in states
            else RunStatus.COMPLETED
        )
        return ClusterResult(status, tuple(w.status for w in self.workers), self.failure, str(self.run_dir))

    def _fail(self, culprits: list[_Worker], reason: str) -> None:
        """Blame workers that are still running; shutdown() then ends them."""
        for w in culprits:
            self._set(w, state=FAILED, message=reason)
        self.failure = f"{_names(culprits)} {reason}"

    def _drain(self, wait_s: float = 0.0) -> None:
        """Hand what the workers said to on_event; sleep up to `wait_s` when none said anything."""
        said = False
        for w in self.workers:
            if w.process is None:
                continue
            for out in w.process.poll():
                said = True
                if out.event is not None:
                    self._handle(w, out.event)
        if not said and wait_s:
            time.sleep(wait_s)

    def _handle(self, w: _Worker, event: ev.Event) -> None:
        if isinstance(event, ev.RunStarted) and w.status.state.joining:
            self._set(w, state=TRAINING)
        elif isinstance(event, ev.RunFailed):
            w.failed_message = event.message
        elif isinstance(event, ev.RunFinished):
            w.finished_status = event.status
        if self.on_event:
            self.on_event(w.status.task, event)

    def _probe_ports(self) -> None:
        """A worker whose TensorFlow server accepts connections is only waiting for its peers."""
        for w in self.workers:
            if w.status.state == STARTING and w.alive():
                try:
                    socket.create_connection((w.status.task.host, w.status.task.port), timeout=0.05).close()
                except OSError:
                    continue
                self._set(w, state=WAITING)

    def _exited(self, w: _Worker, stopping: bool) -> None:
        assert w.process is not None
        deadline = time.monotonic() + 2
        while w.process.streams_open and time.monotonic() < deadline:  # its last events may still be queued
            self._drain(wait_s=0.01)
        code = w.process.returncode
        assert code is not None
        if code == ExitCode.OK or w.killed:
            stopped = stopping or w.killed or w.finished_status == RunStatus.STOPPED
            self._set(w, state=STOPPED if stopped else FINISHED, exit_code=code)
            return
        reason = w.failed_message or ExitCode.describe(code)
        tail = " | ".join(w.stderr_tail())
        self._set(w, state=FAILED, exit_code=code, message=reason + (f" (last log lines: {tail})" if tail else ""))
        if not self.failure:
            self.failure = f"{w.status.task.name} (pid {w.process.pid}) failed: {reason}; log: {w.status.log_path}"

    def _join_failure(self, joining: list[_Worker], join_timeout_s: float) -> str:
        waiting = [w.status.task.name for w in joining if w.status.state == WAITING]
        detail = f" ({', '.join(waiting)} waited for peers)" if waiting else ""
        hint = f"; not started by this launcher: {', '.join(self.not_started)}" if self.not_started else ""
        return f"did not start training within {join_timeout_s:g} s{detail}{hint}"

    # ---- stop ------------------------------------------------------------------------

    def shutdown(self, grace_s: float) -> None:
        """Stop politely, kill after `grace_s`, reap everything; safe to call twice."""
        live = [w for w in self.workers if w.alive()]
        reason = f"stopped because {self.failure}" if self.failure else "stopped by the launcher"
        try:
            for w in live:
                w.stop()
            deadline = time.monotonic() + grace_s
            while any(w.alive() for w in live) and time.monotonic() < deadline:
                self._drain(wait_s=_POLL_S)
        finally:
            for w in self.workers:
                if w.process is not None:
                    w.process.close()  # kills what still runs, reaps, joins the readers
                if w in live and not w.status.state.done:
                    self._set(w, state=STOPPED, exit_code=w.process.returncode if w.process else None, message=reason)

    def _set(self, w: _Worker, **changes: object) -> None:
        w.status = replace(w.status, **changes)
        if self.on_state:
            self.on_state(w.status)


def _names(workers: list[_Worker]) -> str:
    return ", ".join(f"{w.status.task.name} (pid {w.status.pid})" for w in workers)
