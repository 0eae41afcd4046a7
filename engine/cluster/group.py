"""A cluster's launched tasks, supervised as one group: who may fail, who is restarted, who is stopped.

TensorFlow's cluster strategies do not fail fast by themselves. Under
MultiWorkerMirroredStrategy a worker that never starts leaves the others
waiting inside the strategy's constructor (the coordination service's
registration timeout is an hour), and a dead worker is noticed by its peers
only after a heartbeat timeout (about 10 s). Under ParameterServerStrategy
the coordinator waits silently in its constructor for a missing task, and
its workers and ps tasks never end by themselves, not even when the chief
dies (measured). So the launcher supervises every process, by role
(engine.core.tfconfig.task_program):

- trainers (every MWMS task, the PS chief): the first that exits non-zero,
  or does not join in time, stops the whole group, and the result names it;
- parameter_server workers: one that dies is *lost*, not fatal (the
  coordinator reruns its closure on another worker); the launcher restarts
  it on the same port up to `restarts` times, and marks it *rejoined* once
  its server answers again (the coordinator takes it back by itself, about
  a second later, measured). When every worker is lost the run fails;
- ps tasks hold the variables: one that dies fails the run at once, named,
  with the chief's checkpoints intact for `--resume`;
- the evaluator never decides anything: its failure is reported and
  training goes on; once training is over it gets EVALUATOR_GRACE_S to
  validate the last checkpoints, then it is stopped.

Once the trainers are done, the servers and the evaluator are stopped. Each
task is a protocol process (engine.core.protocol.client): stdout carries
JSON-line events, stderr goes to RUN_DIR/workers/<task id>.log. TaskGroup
starts them on this machine (engine.cluster.launcher), RemoteGroup over ssh
(engine.cluster.remote). No TensorFlow here.
"""

from __future__ import annotations

import contextlib
import os
import socket
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path

from engine.core import events as ev
from engine.core.logs.stall import StallWatch
from engine.core.logs.tf_log import without_chatter
from engine.core.messages import msg
from engine.core.protocol.client import WorkerProcess
from engine.core.protocol.codes import CLUSTER_STOP_GRACE_S, PEER_LOST_ERRORS, ExitCode, RunStatus, WorkerState
from engine.core.protocol.paths import RunPaths
from engine.core.protocol.profile import ProfileRequests, profile_line
from engine.core.runs.runlock import RunLock
from engine.core.tfconfig import (
    TF_CONFIG_ENV,
    ClusterSpec,
    Program,
    Task,
    TFConfig,
    for_task,
    render,
    role_text,
    task_program,
)

STARTING, WAITING, TRAINING = WorkerState.STARTING, WorkerState.WAITING, WorkerState.TRAINING
EVALUATING, LOST, REJOINED = WorkerState.EVALUATING, WorkerState.LOST, WorkerState.REJOINED
FINISHED, STOPPED, FAILED = WorkerState.FINISHED, WorkerState.STOPPED, WorkerState.FAILED
FAILURE_GRACE_S = 5.0  # peers of a dead worker hang in a collective; they cannot stop politely
STOP_GRACE_S = CLUSTER_STOP_GRACE_S  # a requested stop checkpoints and saves the model first
FINISH_TIMEOUT_S = 120.0  # once one trainer has finished, the others must follow
EVALUATOR_GRACE_S = 60.0  # after training, for the evaluator to validate the last checkpoints
SERVER_STOP_S = 10.0  # after training, for the servers to hear "stop"
DEFAULT_RESTARTS = 2  # how often a lost parameter_server worker is started again
_POLL_S = 0.1


@dataclass(frozen=True)
class WorkerStatus:
    """One task's process as the launcher sees it."""

    task: Task
    state: WorkerState = STARTING
    pid: int | None = None
    exit_code: int | None = None
    message: str = ""  # why it failed, was lost or was stopped
    log_path: str = ""
    role: str = ""  # engine.core.tfconfig.role_text
    restarts: int = 0
    host: str = ""  # the machine `pid` runs on, when not this one (engine.core.hosts.Host.name)
    stacks: tuple[str, ...] = ()  # there: the command that prints its Python stacks (none: no py-spy there)


@dataclass(frozen=True)
class ClusterResult:
    status: RunStatus  # COMPLETED, STOPPED or FAILED
    workers: tuple[WorkerStatus, ...]
    failure: str = ""  # one line naming the task at fault; empty unless failed
    run_dir: str = ""

    @property
    def ok(self) -> bool:
        return self.status == RunStatus.COMPLETED


def state_event(status: WorkerStatus) -> ev.WorkerState:
    """A task's state as the protocol's worker_state event (what the window shows in a task's row)."""
    return ev.WorkerState(
        worker=status.task.id,
        state=status.state,
        pid=status.pid,
        message=status.message,
        log_path=status.log_path,
        role=status.role,
        host=status.host,
        stacks=list(status.stacks),
    )


EventCallback = Callable[[Task, ev.Event], None]
StateCallback = Callable[[WorkerStatus], None]
StopCheck = Callable[[], bool]  # e.g. threading.Event().is_set, polled from the launching thread


class TaskProcess:
    """A task's process (through the protocol's client) and what it told us."""

    def __init__(self, status: WorkerStatus, program: Program):
        self.status = status
        self.program = program
        self.process: WorkerProcess | None = None
        self.started_at = 0.0
        self.failed_message = ""  # from its run_failed event
        self.failed_error_type = ""  # from the same event
        self.finished_status = ""  # from its run_finished event

    @property
    def task(self) -> Task:
        return self.status.task

    @property
    def killed(self) -> bool:
        return self.process is not None and self.process.killed

    def alive(self) -> bool:
        return self.process is not None and self.process.alive()

    def stop(self) -> None:
        """The protocol's polite stop.

        A trainer that has not joined yet is blocked inside TensorFlow and
        cannot hear it, and has nothing to save: it is killed at once.
        """
        if self.process is None:
            return
        self.process.request_stop()
        if self.program == Program.TRAINER and self.status.state != TRAINING:
            self.process.kill()

    def stderr_tail(self, lines: int = 5) -> list[str]:
        try:
            with open(self.status.log_path, "rb") as f:
                f.seek(max(0, f.seek(0, os.SEEK_END) - 8192))
                text = f.read().decode("utf-8", "replace")
        except OSError:
            return []
        return [line for line in without_chatter(text.splitlines()) if line.strip()][-lines:]


class TaskGroup:
    """The launched tasks; all waiting happens in watch() and shutdown(), on the caller's thread."""

    def __init__(
        self,
        cluster: ClusterSpec,
        strategy: str,
        tasks: list[Task],
        run_dir: Path,
        on_event: EventCallback | None,
        on_state: StateCallback | None,
        restarts: int,
        lock: RunLock | None = None,
        stall_s: float | None = None,
        profile: ProfileRequests | None = None,
    ):
        self.cluster = cluster
        self.chief = cluster.chief()
        self.lock = lock
        self.run_dir = run_dir
        self.paths = RunPaths(run_dir)
        self.workers = [
            TaskProcess(
                WorkerStatus(
                    t, log_path=str(self.paths.worker_log(t.id)), role=role_text(t.job, t.index, strategy, cluster)
                ),
                task_program(t.job, strategy),
            )
            for t in tasks
        ]
        self.not_started = [t.name for t in cluster.tasks() if t not in tasks]
        self.on_event = on_event
        self.on_state = on_state
        self.max_restarts = restarts
        self.failure = ""
        self.failure_is_echo = False  # the failure is a trainer saying that a peer stopped responding
        self.chief_training = False
        self.training_over: float | None = None  # when the last trainer ended
        self._command: list[str] = []
        self.stalls = StallWatch(stall_s)
        self.profile = profile  # the "profile N" lines the launcher heard, passed on (_pass_profile_asks)

    def _of(self, program: Program) -> list[TaskProcess]:
        return [w for w in self.workers if w.program == program]

    # ---- start -----------------------------------------------------------------

    def start(self, command: list[str]) -> None:
        self.run_dir.mkdir(parents=True, exist_ok=True)
        self.paths.cluster.write_text(render(TFConfig(self.cluster), indent=2) + "\n", encoding="utf-8")
        self.paths.workers.mkdir(exist_ok=True)
        self.paths.worker_states.write_bytes(b"")  # this launch's states only
        self._command = command
        for w in self.workers:
            self._spawn(w)

    def _spawn(self, w: TaskProcess, **changes: object) -> None:
        w.process = self._process_for(w.task, Path(w.status.log_path))
        w.started_at = time.monotonic()
        w.failed_message = w.failed_error_type = w.finished_status = ""
        self._set(w, state=STARTING, pid=w.process.start(), exit_code=None, **changes)

    def _process_for(self, task: Task, log_path: Path) -> WorkerProcess:
        """The task's process on this machine, with its TF_CONFIG (and the run's lock for the chief)."""
        env = dict(os.environ, **{TF_CONFIG_ENV: render(for_task(self.cluster, task.job, task.index))})
        hand_lock = self.lock is not None and task == self.chief
        if hand_lock:
            env.update(self.lock.child_env())
        # its own session: kill() takes anything the task started along
        return WorkerProcess(
            self._command,
            env=env,
            stderr_path=log_path,
            own_group=True,
            pass_fds=(self.lock.fd,) if hand_lock else (),
        )

    # ---- watch ---------------------------------------------------------------------

    def watch(self, join_timeout_s: float, should_stop: StopCheck) -> ClusterResult:
        first_done: float | None = None
        stop_deadline: float | None = None
        while not self.failure:
            self._drain(wait_s=_POLL_S)
            self._report_stalls()
            self._probe_ports()
            self._each_pass()
            self._pass_profile_asks()
            # servers first: when a ps dies, the chief fails a moment later, and the ps is the cause
            for w in sorted(self.workers, key=lambda w: w.program != Program.SERVER):
                if not w.status.state.done and w.process is not None and not w.alive():
                    self._exited(w, stopping=stop_deadline is not None)
            live = [w for w in self.workers if not w.status.state.done]
            if self.failure or not live:
                break
            now = time.monotonic()
            trainers = [w for w in live if w.program == Program.TRAINER]
            if stop_deadline is None and should_stop():
                stop_deadline = now + STOP_GRACE_S
                for w in trainers:
                    w.stop()
            if not trainers and self.training_over is None:
                self._training_over(now)
            # once one task's time to join is up, every task still joining is named: tasks start one by one
            joining = [w for w in live if w.status.state.joining and w.program != Program.EVALUATOR]
            late = any(now - w.started_at > join_timeout_s for w in joining)
            if first_done is None and len(trainers) < len(self._of(Program.TRAINER)):
                first_done = now
            if stop_deadline is not None and now > stop_deadline and trainers:
                self._fail(trainers, f"did not stop within {STOP_GRACE_S:g} s of the stop request")
            elif late and self.training_over is None:
                self._fail(joining, self._join_failure(joining, join_timeout_s))
            elif trainers and first_done is not None and now - first_done > FINISH_TIMEOUT_S:
                self._fail(trainers, f"did not finish within {FINISH_TIMEOUT_S:g} s after the others")
            elif trainers and self._all_workers_lost():
                self._fail(trainers, "has no worker left to run its steps: every worker was lost")
            elif self.training_over is not None:
                self._stop_stragglers(live, now - self.training_over)
        self.shutdown(FAILURE_GRACE_S)
        return self._result()

    def _each_pass(self) -> None:
        """Once per pass of watch(), for what a group must do all along (the remote group's heartbeat)."""

    def _pass_profile_asks(self) -> None:
        """Each profile request goes on to every task that trains steps; each writes its own session into the
        run's tensorboard folder and says so (engine.train.profile). A task that ended hears none, said."""
        for steps in self.profile.take() if self.profile is not None else ():
            for w in self._of(Program.TRAINER):
                sent = w.alive() and w.process.send(profile_line(steps))  # type: ignore[union-attr]
                if not sent and self.on_event:
                    said = msg("{task} has ended: no profile was asked of it", task=w.task.name)
                    self.on_event(w.task, ev.Log(level="warning", message=said))

    def _result(self) -> ClusterResult:
        deciding = [w for w in self.workers if w.program != Program.EVALUATOR]  # the evaluator never blocks
        trainer_states = {w.status.state for w in self._of(Program.TRAINER)}
        status = (
            RunStatus.FAILED
            if self.failure or any(w.status.state == FAILED for w in deciding)
            else RunStatus.STOPPED
            if STOPPED in trainer_states
            else RunStatus.COMPLETED
        )
        return ClusterResult(status, tuple(w.status for w in self.workers), self.failure, str(self.run_dir))

    def _training_over(self, now: float) -> None:
        """The trainers are done: servers have nothing left to serve; the evaluator finishes what is written."""
        self.training_over = now
        for w in self.workers:
            if w.program != Program.TRAINER and w.alive():
                w.process.request_stop()  # type: ignore[union-attr]

    def _stop_stragglers(self, live: list[TaskProcess], since_s: float) -> None:
        for w in live:
            limit = EVALUATOR_GRACE_S if w.program == Program.EVALUATOR else SERVER_STOP_S
            if since_s > limit and w.process is not None:
                w.process.kill()
                what = "still validating" if w.program == Program.EVALUATOR else "still running"
                self._set(w, state=STOPPED, message=f"{what} {limit:g} s after training ended; stopped")

    def _all_workers_lost(self) -> bool:
        servers = [w for w in self._of(Program.SERVER) if w.task.job == "worker"]
        return bool(servers) and all(w.status.state == LOST for w in servers)

    def _fail(self, culprits: list[TaskProcess], reason: str) -> None:
        """Blame tasks that are still running; shutdown() then ends them."""
        for w in culprits:
            self._set(w, state=FAILED, message=reason)
        self.failure = f"{_names(culprits)} {reason}"

    def _drain(self, wait_s: float = 0.0) -> None:
        """Hand what the tasks said to on_event; sleep up to `wait_s` when none said anything."""
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

    def _handle(self, w: TaskProcess, event: ev.Event) -> None:
        if isinstance(event, ev.RunStarted) and w.status.state.joining:
            self._set(w, state=TRAINING)
            if w.task == self.chief:
                self._chief_trains()
        elif w.program == Program.EVALUATOR and w.status.state == STARTING:
            self._set(w, state=EVALUATING)  # its first word: it is ready, watching the checkpoints
        if isinstance(event, ev.RunFailed):
            w.failed_message, w.failed_error_type = event.message, event.error_type
        elif isinstance(event, ev.RunFinished):
            w.finished_status = event.status
        if self.on_event:
            self.on_event(w.task, event)
            said = self.stalls.seen(w.task.id, w.status.pid, event) if w.program == Program.TRAINER else None
            if said is not None:
                self.on_event(w.task, said)

    def _report_stalls(self) -> None:
        if self.on_event:
            by_id = {w.task.id: w for w in self.workers}
            for stalled in self.stalls.check(lambda task: by_id[task].status.pid):
                self.on_event(by_id[stalled.worker].task, stalled)

    def _chief_trains(self) -> None:
        """The chief trains only once every server has answered it."""
        self.chief_training = True
        for s in self._of(Program.SERVER):
            if s.status.state.joining and s.alive():
                self._set(s, state=TRAINING)

    def _probe_ports(self) -> None:
        """A task whose TensorFlow server accepts connections waits for its peers (or, restarted, is back)."""
        for w in self.workers:
            if w.status.state == STARTING and w.program != Program.EVALUATOR and w.alive():
                try:
                    socket.create_connection((w.task.host, w.task.port), timeout=0.05).close()
                except OSError:
                    continue
                if w.status.restarts and self.chief_training:
                    self._set(w, state=REJOINED, message=f"rejoined after restart {w.status.restarts}")
                else:
                    self._set(w, state=TRAINING if self.chief_training else WAITING)

    def _exited(self, w: TaskProcess, stopping: bool) -> None:
        assert w.process is not None
        deadline = time.monotonic() + 2
        while w.process.streams_open and time.monotonic() < deadline:  # its last events may still be queued
            self._drain(wait_s=0.01)
        code = w.process.returncode
        assert code is not None
        if w.program == Program.TRAINER:
            self._trainer_exited(w, code, stopping)
        elif w.program == Program.SERVER:
            self._server_exited(w, code, stopping)
        elif code == ExitCode.OK or w.killed:
            done = w.finished_status == RunStatus.COMPLETED
            self._set(w, state=FINISHED if done else STOPPED, exit_code=code)
        else:
            self._set(w, state=FAILED, exit_code=code, message=self._reason(w, code) + "; training goes on")

    def _reason(self, w: TaskProcess, code: int) -> str:
        reason = w.failed_message or ExitCode.describe(code)
        tail = " | ".join(w.stderr_tail())
        return reason + (f" (last log lines: {tail})" if tail else "")

    def _trainer_exited(self, w: TaskProcess, code: int, stopping: bool) -> None:
        terminated = code == ExitCode.TERMINATED and w.finished_status == RunStatus.STOPPED  # SIGTERM, checkpointed
        if code == ExitCode.OK or terminated or w.killed:
            stopped = stopping or w.killed or w.finished_status == RunStatus.STOPPED
            self._set(w, state=STOPPED if stopped else FINISHED, exit_code=code)
            return
        self._set(w, state=FAILED, exit_code=code, message=self._reason(w, code))
        # A peer that lost this one fails a moment after it; seen in the same pass, the dead one is the cause.
        echo = w.failed_error_type in PEER_LOST_ERRORS
        if not self.failure or (self.failure_is_echo and not echo):
            reason = w.failed_message or ExitCode.describe(code)
            if echo:  # a collective gave up (its timeout): the peer it waited for is one still running
                peers = [t for t in self._of(Program.TRAINER) if t is not w and t.alive()]
                reason += self.stalls.still_running([(t.task.name, t.task.id, t.status.pid) for t in peers])
            self.failure = f"{w.task.name} (pid {w.status.pid}) failed: {reason}; log: {w.status.log_path}"
            self.failure_is_echo = echo

    def _server_exited(self, w: TaskProcess, code: int, stopping: bool) -> None:
        if self.training_over is not None or stopping or w.killed:
            chief_done = any(t.status.state == FINISHED for t in self._of(Program.TRAINER))
            self._set(w, state=FINISHED if chief_done else STOPPED, exit_code=code)
            return
        how = ExitCode.describe(code)
        pid = w.status.pid
        if w.task.job == "ps":
            self._set(w, state=FAILED, exit_code=code, message=self._reason(w, code))
            self.failure = (
                f"{w.task.name} (pid {pid}) failed: {how}; the coordinator cannot go on without the variables "
                f"it holds. The checkpoints are kept: `cluster launch --resume {self.run_dir}` continues the run; "
                f"log: {w.status.log_path}"
            )
            return
        lost = f"{how}; the coordinator reruns its steps on the other workers"
        if w.status.restarts < self.max_restarts:
            self._set(w, state=LOST, exit_code=code, message=lost)
            restart = w.status.restarts + 1
            self._spawn(
                w, restarts=restart, message=f"restart {restart} of {self.max_restarts} after it was lost ({how})"
            )
        else:
            self._set(w, state=LOST, exit_code=code, message=f"{lost} (not restarted: {self.max_restarts} restarts)")

    def _join_failure(self, joining: list[TaskProcess], join_timeout_s: float) -> str:
        waiting = [w.task.name for w in joining if w.status.state == WAITING]
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

    def _set(self, w: TaskProcess, **changes: object) -> None:
        w.status = replace(w.status, **changes)
        with contextlib.suppress(OSError), open(self.paths.worker_states, "a", encoding="utf-8") as f:
            f.write(ev.encode(state_event(w.status)) + "\n")  # a full disk costs the watchers, never the run
        if w.status.state.done:
            self.stalls.ended(w.task.id)
        if self.on_state:
            self.on_state(w.status)


def _names(workers: list[TaskProcess]) -> str:
    return ", ".join(f"{w.task.name} (pid {w.status.pid})" for w in workers)
