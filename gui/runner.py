"""TrainingRunner: a protocol process (a trainer, a local cluster, a scaling study) relayed as Qt signals.

A thin QThread adapter over engine.core.protocol.client.WorkerProcess, which owns
the process (start, read, stop with grace, kill, reap). Nothing else in the
window knows a process exists. Events and log lines are batched and emitted
at most every EMIT_INTERVAL_S: a cross-thread queued signal costs about
10 µs, so one per event would cost the GUI thread seconds per run, while a
batch every 33 ms costs a few milliseconds.
"""

from __future__ import annotations

import queue
import threading
import time
from collections import deque
from dataclasses import replace
from pathlib import Path

from PySide6.QtCore import QObject, QThread, Signal

from engine.core import events as ev
from engine.core.logs import event_lines
from engine.core.logs.stall import TRAINER_TASK, StallWatch, resumed_line, stall_line
from engine.core.logs.tf_log import line_prefix, source_tag, without_chatter
from engine.core.protocol.client import WorkerProcess, kill_all
from engine.core.protocol.codes import STOP_GRACE_S, ExitCode, RunStatus, WorkerState, task_id
from engine.core.protocol.profile import profile_line
from engine.core.runs.raw_log import RawLog
from engine.core.tfconfig import EVALUATOR_JOB
from gui.i18n import event_message, event_text, translate
from gui.live.warm_trainer import TakenTrainer
from gui.statuses import run_status_name, worker_state_name

EMIT_INTERVAL_S = 0.1
# How often the runner hands what arrived to the window. The plots draw one frame per 100 ms; each
# wake-up of this thread costs the window's process CPU (a third of a millisecond here, GIL hand-overs
# included), so every 33 ms cost about 1 % of a core and every 100 ms a third of that. Until the run's
# first step has gone out nothing is paced (each arrival is handed over at once: Start → first point is
# what users wait for); from then on what arrives goes out within 100 ms.
# Decoding holds the GIL, which the GUI thread needs for every frame: per interval the runner
# decodes for at most this long (a chunk at a time) and leaves the rest in the pipe, so a
# flooding child is slowed by its full pipe instead of freezing the window. The real engine's
# events (a few dozen a second, engine.train.controller.REPORT_EVERY_S) take well under a millisecond.
DECODE_BUDGET_S = 0.02
LOG_TAIL_LINES = 40
STREAM_DRAIN_S = 2.0

kill_live_processes = kill_all  # the window's last resort on exit paths (aboutToQuit)


def dashboard_line(text: str) -> str:
    """A line the window itself adds to the log, tagged like a worker's with the source "dashboard"."""
    return f"{source_tag('dashboard')} {text}"


def log_line(event: ev.Event, epochs: int = 0) -> str | None:
    """The line an event adds to the log view (a log event, a worker's state, an epoch, a checkpoint,
    an evaluation, the start and end of the run) in the window's language, or None for events the
    plots show (batches). Runs on the runner's thread: Qt's translate is thread-safe."""
    if isinstance(event, ev.Evaluation):
        return f"{source_tag(task_id(EVALUATOR_JOB, 0))} {translate(event_lines.evaluation_line(event))}"
    if isinstance(event, ev.WorkerState):
        detail = f" (pid {event.pid})" if event.state == WorkerState.STARTING and event.pid else ""
        text = f"{worker_state_name(event.state)}{detail}" + (f": {translate(event.message)}" if event.message else "")
        return f"{source_tag(event.worker)} {text}"
    if isinstance(event, ev.TaskStalled):
        line = resumed_line(event.worker) if event.resumed else stall_line(event.worker, event.idle_s, event.step_s)
        return f"{source_tag(event.worker)} {translate(line)}"
    if isinstance(event, ev.Log):
        message = event_message(event.message, event.message_template)
        return f"{line_prefix(event.source)}{event.level.upper()}: {message}"
    if isinstance(event, ev.EpochEnd):
        return translate(event_lines.epoch_line(event, epochs))
    if isinstance(event, ev.CheckpointSaved):
        return translate(event_lines.checkpoint_line(event))
    if isinstance(event, ev.ProfileSaved):
        return translate(event_lines.profile_line(event))
    if isinstance(event, ev.RunStarted):
        return translate(event_lines.run_started_line(event))
    if isinstance(event, ev.RunFailed):
        said = event_text(event.message, event.message_template)
        return translate(event_lines.end_line(replace(event, message=said)))
    if isinstance(event, ev.RunFinished):
        return translate(event_lines.end_line(replace(event, status=run_status_name(event.status))))
    return None


class EventRelay(QThread):
    """What the Live tab is fed from: a run's events and log lines, handed over in batches at most every
    EMIT_INTERVAL_S, and how the run ended. TrainingRunner relays a process the window started; a
    gui.live.follower.RunFollower, a run folder another process writes: the views cannot tell them apart."""

    events_ready = Signal(list)
    """A batch of decoded engine events (list of engine.core.events.Event), in order."""
    log_lines = Signal(list)
    """A batch of log lines (str): the child's stderr, log events, worker state changes, undecodable stdout."""
    run_finished = Signal(str, str)
    """The run ended cleanly: status ("completed", "stopped" or "killed") and the run dir."""
    run_failed = Signal(str, str)
    """The run failed: a message a person can act on, and the tail of the child's log."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._tail: deque[str] = deque(maxlen=LOG_TAIL_LINES)
        self._epochs = 0

    def _take_event(self, event: ev.Event, events: list, logs: list, last: dict) -> None:
        """An event for the next hand-over, its log line (if it has one) with it."""
        events.append(event)
        if type(event) is ev.BatchEnd:
            return  # the common case at thousands a second: nothing more to do
        if isinstance(event, ev.RunStarted):
            self._epochs = event.epochs
        line = log_line(event, self._epochs)
        if line is not None:
            logs.append(line)
        if isinstance(event, (ev.RunStarted, ev.RunFinished, ev.RunFailed)):
            last[event.type] = event

    def _hand_over(self, events: list, logs: list) -> None:
        if events:
            self.events_ready.emit(list(events))
            events.clear()
        if logs:
            self._tail.extend(logs)
            self.log_lines.emit(list(logs))
            logs.clear()

    def _log_tail(self) -> str:
        """The last lines that are not TensorFlow's chatter: what a failure's dialog shows."""
        return "\n".join(without_chatter(self._tail))


class TrainingRunner(EventRelay):
    """Runs one protocol command to its end; stop is cooperative first, forced after `grace_seconds`."""

    process_started = Signal(int)
    """The child process is running; carries its pid."""

    def __init__(
        self,
        command: list[str],
        *,
        env: dict[str, str] | None = None,
        grace_seconds: float = STOP_GRACE_S,
        stderr_log: Path | None = None,
        warm: TakenTrainer | None = None,
        assignment: str = "",
        stalls: StallWatch | None = None,
        parent: QObject | None = None,
    ) -> None:
        """`stderr_log` keeps the child's raw stderr (RunPaths.stderr_log); `warm` is a warm trainer
        that takes the run by reading `assignment`, else `command` starts a fresh process. `stalls` watches the
        step progress of a child that is one trainer (a launcher watches its own tasks)."""
        super().__init__(parent)
        self._command, self._env = command, env
        self._warm, self._assignment = warm, assignment
        self._process = warm.process if warm is not None else WorkerProcess(command, env=env)
        self.grace_seconds = grace_seconds
        self._stderr_log_path = stderr_log
        self._stderr_log: RawLog | None = None
        self._stop_requested = threading.Event()
        self._profile_asks: queue.SimpleQueue[int] = queue.SimpleQueue()
        self.warm_start = warm is not None
        self._stalls = stalls

    def request_stop(self) -> None:
        """Ask the child to checkpoint and stop; safe to call from any thread."""
        self._stop_requested.set()

    def request_profile(self, steps: int) -> None:
        """Ask the trainer for a TensorFlow profile of its next `steps` steps (engine.core.protocol.profile); safe
        to call from any thread. The trainer says where it wrote it (profile_saved), or why it did not."""
        self._profile_asks.put(steps)

    def _send_profile_asks(self, logs: list[str]) -> None:
        while not self._profile_asks.empty():
            steps = self._profile_asks.get()
            if self._stop_requested.is_set() or not self._process.send(profile_line(steps)):
                said = self.tr("the trainer takes no more requests (it is stopping or gone); no profile was asked for")
            else:
                said = self.tr("asked the trainer for a profile of its next {steps} steps").format(steps=steps)
            logs.append(dashboard_line(said))

    # ---- the thread ---------------------------------------------------------
    def run(self) -> None:
        try:
            pid = self._start()
        except OSError as exc:
            self.run_failed.emit(self.tr("Could not start the trainer: {error}").format(error=exc), "")
            return
        try:
            self._open_stderr_log(pid)
            self.process_started.emit(pid)
            if self._warm is not None and self._warm.early_output:
                self._flush([], [*self._warm.early_output], raw=list(self._warm.early_output))
            self._supervise()
        finally:
            self._process.close()
            if self._stderr_log is not None:
                self._stderr_log.close()

    def _start(self) -> int:
        """Hand the run to the warm trainer, or start a fresh one (also when the warm one is gone)."""
        if self._warm is not None:
            if self._process.alive() and self._process.send(self._assignment):
                return self._process.pid or 0
            self._process.close()
            self._warm, self.warm_start = None, False
            self._process = WorkerProcess(self._command, env=self._env)
        return self._process.start()

    def _open_stderr_log(self, pid: int) -> None:
        if self._stderr_log_path is not None:  # written once the child holds its run (a trainer, or a launcher)
            self._stderr_log = RawLog(self._stderr_log_path, owner_pid=pid)

    def _supervise(self) -> None:
        """Every interval: take what has arrived (a bounded amount), emit it, enforce the stop grace period."""
        proc = self._process
        events: list[ev.Event] = []
        logs: list[str] = []
        raw: list[str] = []
        last: dict[str, ev.Event] = {}
        kill_at: float | None = None
        killed = False
        exited_at: float | None = None
        pacing = False  # from the run's first step on
        while proc.streams_open or proc.alive():
            interval_start = time.monotonic()
            self._send_profile_asks(logs)
            if self._stop_requested.is_set() and kill_at is None:
                kill_at = interval_start + self.grace_seconds
                proc.request_stop()
                if self._stalls is not None:  # a stopping trainer checkpoints: its silence is no stall
                    self._stalls.ended(TRAINER_TASK)
            if kill_at is not None and interval_start > kill_at and proc.alive():
                said = self.tr("the trainer did not stop within {seconds} s; killed it")
                logs.append(dashboard_line(said.format(seconds=f"{self.grace_seconds:g}")))
                proc.kill()
                killed = True
            if not proc.alive():
                exited_at = exited_at or interval_start
                if interval_start - exited_at > STREAM_DRAIN_S:
                    break  # a grandchild holds the pipes open; the trainer itself is gone
            outputs = proc.poll(timeout=EMIT_INTERVAL_S, max_chunks=1)
            budget_end = time.monotonic() + DECODE_BUDGET_S
            while outputs:
                for out in outputs:
                    if out.event is not None:
                        self._take_event(out.event, events, logs, last)
                    elif out.stderr is not None:
                        logs.append(out.stderr)
                        raw.append(out.stderr)
                    elif out.garbage is not None:
                        said = self.tr("garbage on the event channel ignored: {line}").format(line=out.garbage)
                        logs.append(dashboard_line(said))
                outputs = proc.poll(max_chunks=1) if time.monotonic() < budget_end else []
            if self._stalls is not None:
                for stalled in self._stalls.check(lambda _task: proc.pid):
                    self._take_event(stalled, events, logs, last)
            pacing = pacing or any(type(e) is ev.BatchEnd for e in events)
            self._flush(events, logs, raw)
            rest = interval_start + EMIT_INTERVAL_S - time.monotonic()
            if pacing and rest > 0:
                time.sleep(rest)  # the GUI thread's share of the GIL
        self._flush(events, logs, raw)
        code = proc.wait(timeout=10)
        self._report_end(code if code is not None else -9, last, killed)

    def _take_event(self, event: ev.Event, events: list, logs: list, last: dict) -> None:
        super()._take_event(event, events, logs, last)
        if self._stalls is not None and (resumed := self._stalls.seen(TRAINER_TASK, self._process.pid, event)):
            self._take_event(resumed, events, logs, last)

    def _flush(self, events: list, logs: list, raw: list) -> None:
        self._hand_over(events, logs)
        if self._stderr_log is not None:  # held lines go out once the run is accepted, new lines or not
            self._stderr_log.write(raw)  # a full disk must not end the run; the view still has the lines
        raw.clear()

    def _report_end(self, code: int, last: dict[str, ev.Event], killed: bool) -> None:
        tail = self._log_tail()
        finished = last.get(ev.RunFinished.type)
        failed = last.get(ev.RunFailed.type)
        run_dir = getattr(finished or failed or last.get(ev.RunStarted.type), "run_dir", "")
        if isinstance(finished, ev.RunFinished) and (killed or code in (ExitCode.OK, ExitCode.TERMINATED)):
            # 143: stopped by SIGTERM from outside (a process manager), after its checkpoint; killed: the run
            # had ended as it said, and something of the user's code kept the process
            self.run_finished.emit(finished.status, run_dir)
        elif killed:
            self.run_finished.emit(RunStatus.KILLED, run_dir)
        elif isinstance(failed, ev.RunFailed):
            self.run_failed.emit(event_message(failed.message, failed.message_template), tail)
        elif code < 0:
            self.run_failed.emit(
                self.tr("The trainer was ended by signal {signal} (a crash, or killed from outside).").format(
                    signal=-code
                ),
                tail,
            )
        elif code == ExitCode.OK and self._stop_requested.is_set():
            self.run_finished.emit(RunStatus.STOPPED, run_dir)
        else:
            self.run_failed.emit(
                self.tr("The trainer exited with code {code} without reporting the end of the run.").format(code=code),
                tail,
            )
