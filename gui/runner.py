"""TrainingRunner: a protocol process (a trainer, a local cluster, a scaling study) relayed as Qt signals.

A thin QThread adapter over engine.protocol.client.WorkerProcess, which owns
the process (start, read, stop with grace, kill, reap). Nothing else in the
window knows a process exists. Events and log lines are batched and emitted
at most every EMIT_INTERVAL_S: a cross-thread queued signal costs about
10 µs, so one per event would cost the GUI thread seconds per run, while a
batch every 33 ms costs a few milliseconds.
"""

from __future__ import annotations

import threading
import time
from collections import deque

from PySide6.QtCore import QObject, QThread, Signal

from engine import events as ev
from engine.protocol.client import WorkerProcess, kill_all
from engine.protocol.codes import STOP_GRACE_S, ExitCode, RunStatus, WorkerState, task_id
from engine.tfconfig import EVALUATOR_JOB

EMIT_INTERVAL_S = 0.033
WORK_CHUNKS = 64  # at most this many chunks of output are decoded per interval; the rest waits in the pipe
LOG_TAIL_LINES = 40
STREAM_DRAIN_S = 2.0

kill_live_processes = kill_all  # the window's last resort on exit paths (aboutToQuit)


def source_tag(source: str) -> str:
    """How the log marks a cluster worker's lines, e.g. "[worker-1]"; what a per-worker filter looks for."""
    return f"[{source}]"


def log_line(event: ev.Log | ev.WorkerState | ev.Evaluation) -> str:
    """A relayed log event, worker state change or evaluation as one line of the log view."""
    if isinstance(event, ev.Evaluation):
        checkpoint = event.checkpoint.replace("\\", "/").rpartition("/")[2]
        return (
            f"{source_tag(task_id(EVALUATOR_JOB, 0))} {checkpoint} (epoch {event.epoch}, step {event.step}): "
            f"val loss {event.val_loss:.4f}, val acc {event.val_accuracy:.4f}"
        )
    if isinstance(event, ev.WorkerState):
        detail = f" (pid {event.pid})" if event.state == WorkerState.STARTING and event.pid else ""
        text = f"{event.state.replace('_', ' ')}{detail}" + (f": {event.message}" if event.message else "")
        return f"{source_tag(event.worker)} {text}"
    return (f"{source_tag(event.source)} " if event.source else "") + f"{event.level.upper()}: {event.message}"


class TrainingRunner(QThread):
    """Runs one protocol command to its end; stop is cooperative first, forced after `grace_seconds`."""

    process_started = Signal(int)
    """The child process is running; carries its pid."""
    events_ready = Signal(list)
    """A batch of decoded engine events (list of engine.events.Event), in order."""
    log_lines = Signal(list)
    """A batch of log lines (str): the child's stderr, log events, worker state changes, undecodable stdout."""
    run_finished = Signal(str, str)
    """The run ended cleanly: status ("completed", "stopped" or "killed") and the run dir."""
    run_failed = Signal(str, str)
    """The run failed: a message a person can act on, and the tail of the child's log."""

    def __init__(
        self,
        command: list[str],
        *,
        env: dict[str, str] | None = None,
        grace_seconds: float = STOP_GRACE_S,
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self._process = WorkerProcess(command, env=env)
        self.grace_seconds = grace_seconds
        self._stop_requested = threading.Event()
        self._tail: deque[str] = deque(maxlen=LOG_TAIL_LINES)

    def request_stop(self) -> None:
        """Ask the child to checkpoint and stop; safe to call from any thread."""
        self._stop_requested.set()

    # ---- the thread ---------------------------------------------------------
    def run(self) -> None:
        try:
            pid = self._process.start()
        except OSError as exc:
            self.run_failed.emit(f"Could not start the trainer: {exc}", "")
            return
        try:
            self.process_started.emit(pid)
            self._supervise()
        finally:
            self._process.close()

    def _supervise(self) -> None:
        """Every interval: take what has arrived (a bounded amount), emit it, enforce the stop grace period."""
        proc = self._process
        events: list[ev.Event] = []
        logs: list[str] = []
        last: dict[str, ev.Event] = {}
        kill_at: float | None = None
        killed = False
        exited_at: float | None = None
        while proc.streams_open or proc.alive():
            interval_start = time.monotonic()
            if self._stop_requested.is_set() and kill_at is None:
                kill_at = interval_start + self.grace_seconds
                proc.request_stop()
            if kill_at is not None and interval_start > kill_at and proc.alive():
                logs.append(f"[dashboard] the trainer did not stop within {self.grace_seconds:g} s; killed it")
                proc.kill()
                killed = True
            if not proc.alive():
                exited_at = exited_at or interval_start
                if interval_start - exited_at > STREAM_DRAIN_S:
                    break  # a grandchild holds the pipes open; the trainer itself is gone
            for out in proc.poll(timeout=EMIT_INTERVAL_S, max_chunks=WORK_CHUNKS):
                if out.event is not None:
                    self._take_event(out.event, events, logs, last)
                elif out.stderr is not None:
                    logs.append(out.stderr)
                elif out.garbage is not None:
                    logs.append(f"[dashboard] garbage on the event channel ignored: {out.garbage}")
            self._flush(events, logs)
            rest = interval_start + EMIT_INTERVAL_S - time.monotonic()
            if rest > 0:
                time.sleep(rest)  # the GUI thread's share of the GIL
        self._flush(events, logs)
        code = proc.wait(timeout=10)
        self._report_end(code if code is not None else -9, last, killed)

    def _take_event(self, event: ev.Event, events: list, logs: list, last: dict) -> None:
        events.append(event)
        if isinstance(event, (ev.Log, ev.WorkerState, ev.Evaluation)):
            logs.append(log_line(event))
        if isinstance(event, (ev.RunStarted, ev.RunFinished, ev.RunFailed)):
            last[event.type] = event

    def _flush(self, events: list, logs: list) -> None:
        if events:
            self.events_ready.emit(list(events))
            events.clear()
        if logs:
            self._tail.extend(logs)
            self.log_lines.emit(list(logs))
            logs.clear()

    def _report_end(self, code: int, last: dict[str, ev.Event], killed: bool) -> None:
        tail = "\n".join(self._tail)
        finished = last.get(ev.RunFinished.type)
        failed = last.get(ev.RunFailed.type)
        run_dir = getattr(finished or failed or last.get(ev.RunStarted.type), "run_dir", "")
        if killed:
            self.run_finished.emit(RunStatus.KILLED, run_dir)
        elif code in (ExitCode.OK, ExitCode.TERMINATED) and isinstance(finished, ev.RunFinished):
            # 143: stopped by SIGTERM from outside (a process manager), after its checkpoint
            self.run_finished.emit(finished.status, run_dir)
        elif isinstance(failed, ev.RunFailed):
            self.run_failed.emit(failed.message, tail)
        elif code < 0:
            self.run_failed.emit(f"The trainer was ended by signal {-code} (a crash, or killed from outside).", tail)
        elif code == ExitCode.OK and self._stop_requested.is_set():
            self.run_finished.emit(RunStatus.STOPPED, run_dir)
        else:
            self.run_failed.emit(f"The trainer exited with code {code} without reporting the end of the run.", tail)
