"""TrainingRunner: one trainer child process per run, relayed as Qt signals.

TensorFlow fixes devices and collective ops at process start (FACTS.md 3), so
every run is a fresh process. This QThread owns that process and nothing else
in the GUI knows it exists. The worker protocol: stdout carries only JSON
lines (one event each), stderr everything else, `stop` on stdin (or EOF)
asks for a clean stop, exit code 0 means completed or stopped.

Events and log lines are batched and emitted at most every ~33 ms: one queued
signal per batch would cost the GUI thread seconds per run (FACTS.md 13).
"""
from __future__ import annotations

import atexit
import os
import selectors
import subprocess
import sys
import threading
import time
from collections import deque
from pathlib import Path

from PySide6.QtCore import QObject, QThread, Signal

from engine import events as ev
from engine.launcher import STOP_GRACE_S

REPO_ROOT = Path(__file__).resolve().parent.parent
EMIT_INTERVAL_S = 0.033
WORK_BUDGET_S = 0.010
READ_CHUNK = 16384
LOG_TAIL_LINES = 40
STREAM_DRAIN_S = 2.0
# the launcher stops its workers gracefully within its own grace period; killed sooner, it cuts their checkpoint short
CLUSTER_GRACE_S = STOP_GRACE_S + 10

_live_processes: set[subprocess.Popen] = set()
_live_lock = threading.Lock()


def kill_live_processes() -> None:
    """Last resort on exit paths (atexit, aboutToQuit): no trainer outlives the GUI."""
    with _live_lock:
        procs = list(_live_processes)
    for proc in procs:
        if proc.poll() is None:
            proc.kill()
            proc.wait(timeout=5)


atexit.register(kill_live_processes)


def worker_command(config_path: Path, run_dir: Path) -> list[str]:
    """The engine's worker entry point, as the protocol defines it."""
    return [sys.executable, "-m", "engine.worker", "--config", str(config_path), "--run-dir", str(run_dir)]


def cluster_command(config_path: Path, run_dir: Path, workers: int) -> list[str]:
    """A local N-worker cluster on 127.0.0.1 that speaks the same protocol as one worker."""
    return [sys.executable, "main.py", "cluster", "launch", "--workers", str(workers), "--config", str(config_path),
            "--run-dir", str(run_dir), "--events"]


def resume_command(run_dir: Path, workers: int = 1) -> list[str]:
    """Continue a run from its checkpoint: one worker, or a local cluster of as many workers as before."""
    if workers > 1:
        return [sys.executable, "main.py", "cluster", "launch", "--workers", str(workers), "--resume", str(run_dir),
                "--events"]
    return [sys.executable, "-m", "engine.worker", "--resume", str(run_dir)]


def source_tag(source: str) -> str:
    """How the log marks a cluster worker's lines, e.g. "[worker-1]"; what a per-worker filter looks for."""
    return f"[{source}]"


def log_line(event: ev.Log | ev.WorkerState) -> str:
    """A relayed log event or worker state change as one line of the log view."""
    if isinstance(event, ev.WorkerState):
        detail = f" (pid {event.pid})" if event.state == "starting" and event.pid else ""
        text = f"{event.state.replace('_', ' ')}{detail}" + (f": {event.message}" if event.message else "")
        return f"{source_tag(event.worker)} {text}"
    return (f"{source_tag(event.source)} " if event.source else "") + f"{event.level.upper()}: {event.message}"


class TrainingRunner(QThread):
    """Runs one trainer command to its end; stop is cooperative first, forced second."""

    process_started = Signal(int)
    """The child process is running; carries its pid."""
    events_ready = Signal(list)
    """A batch of decoded engine events (list of engine.events.Event), in order."""
    log_lines = Signal(list)
    """A batch of log lines (str): the trainer's stderr, log events, worker state changes, undecodable stdout."""
    run_finished = Signal(str, str)
    """The run ended cleanly: status ("completed", "stopped" or "killed") and the run dir."""
    run_failed = Signal(str, str)
    """The run failed: a message a person can act on, and the tail of the trainer's log."""

    def __init__(
        self,
        command: list[str],
        *,
        cwd: Path = REPO_ROOT,
        env: dict[str, str] | None = None,
        grace_seconds: float = 10.0,
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self._command = list(command)
        self._cwd = cwd
        self._env = dict(os.environ if env is None else env, PYTHONUNBUFFERED="1")
        self.grace_seconds = grace_seconds
        self._stop_requested = threading.Event()
        self._tail: deque[str] = deque(maxlen=LOG_TAIL_LINES)

    def request_stop(self) -> None:
        """Ask the trainer to checkpoint and stop; safe to call from any thread."""
        self._stop_requested.set()

    # ---- the thread ---------------------------------------------------------
    def run(self) -> None:
        try:
            proc = subprocess.Popen(
                self._command, cwd=self._cwd, env=self._env, bufsize=0,
                stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            )
        except OSError as exc:
            self.run_failed.emit(f"Could not start the trainer: {exc}", "")
            return
        with _live_lock:
            _live_processes.add(proc)
        try:
            self.process_started.emit(proc.pid)
            self._supervise(proc)
        finally:
            if proc.poll() is None:
                proc.kill()
            proc.wait()
            _close_pipes(proc)
            with _live_lock:
                _live_processes.discard(proc)

    def _supervise(self, proc: subprocess.Popen) -> None:
        """Read both pipes, decode, emit every ~33 ms, enforce the stop grace period.

        One thread reads both pipes (a selector), so only one Python thread
        competes with the GUI thread for the GIL. Each interval it takes what
        has arrived, at most WORK_BUDGET_S of work, and sleeps the rest: a
        trainer printing faster than that is slowed by the full pipe instead
        of freezing the window, and a steady stream costs a few % of a core.
        """
        streams = _LineStreams(proc)
        events: list[ev.Event] = []
        logs: list[str] = []
        last: dict[str, ev.Event] = {}
        kill_at, killed, exited_at = None, False, None
        while streams.open or proc.poll() is None:
            interval_start = time.monotonic()
            if self._stop_requested.is_set() and kill_at is None:
                kill_at = interval_start + self.grace_seconds
                _send_stop(proc)
            if kill_at is not None and interval_start > kill_at and proc.poll() is None:
                logs.append(f"[dashboard] the trainer did not stop within {self.grace_seconds:g} s; killed it")
                proc.kill()
                killed = True
            if proc.poll() is not None:
                exited_at = exited_at or interval_start
                if interval_start - exited_at > STREAM_DRAIN_S:
                    break  # a grandchild holds the pipes open; the trainer itself is gone
            work_until = interval_start + WORK_BUDGET_S
            while streams.open and time.monotonic() < work_until:
                lines = streams.read(timeout=0)  # what has arrived; waiting for more would spin the CPU
                if not lines:
                    break
                for name, line in lines:
                    if name == "out":
                        self._take_stdout(line, events, logs, last)
                    else:
                        logs.append(line)
            self._flush(events, logs)
            rest = interval_start + EMIT_INTERVAL_S - time.monotonic()
            if rest > 0:
                time.sleep(rest)  # the GUI thread's share of the GIL
        self._flush(events, logs)
        proc.wait()
        self._report_end(proc.returncode, last, killed)

    def _take_stdout(self, line: str, events: list, logs: list, last: dict) -> None:
        if not line.strip():
            return
        try:
            event = ev.decode(line)
        except ev.EventDecodeError as exc:
            logs.append(f"[dashboard] garbage on the event channel ignored: {exc}")
            return
        events.append(event)
        if isinstance(event, (ev.Log, ev.WorkerState)):
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
            self.run_finished.emit("killed", run_dir)
        elif code == 0 and isinstance(finished, ev.RunFinished):
            self.run_finished.emit(finished.status, run_dir)
        elif isinstance(failed, ev.RunFailed):
            self.run_failed.emit(failed.message, tail)
        elif code < 0:
            self.run_failed.emit(f"The trainer was ended by signal {-code} (a crash, or killed from outside).", tail)
        elif code == 0 and self._stop_requested.is_set():
            self.run_finished.emit("stopped", run_dir)
        else:
            self.run_failed.emit(f"The trainer exited with code {code} without reporting the end of the run.", tail)


def _send_stop(proc: subprocess.Popen) -> None:
    """`stop` then EOF: the worker honours either; a dead pipe means it is already gone."""
    try:
        assert proc.stdin is not None
        proc.stdin.write(b"stop\n")
        proc.stdin.flush()
        proc.stdin.close()
    except (BrokenPipeError, OSError, ValueError):
        pass


def _close_pipes(proc: subprocess.Popen) -> None:
    for pipe in (proc.stdin, proc.stdout, proc.stderr):
        try:
            if pipe is not None:
                pipe.close()
        except OSError:
            pass


class _LineStreams:
    """Non-blocking line reader over the trainer's stdout and stderr."""

    def __init__(self, proc: subprocess.Popen) -> None:
        self._selector = selectors.DefaultSelector()
        self._pending: dict[str, bytes] = {}
        for name, pipe in (("out", proc.stdout), ("err", proc.stderr)):
            assert pipe is not None
            os.set_blocking(pipe.fileno(), False)
            self._selector.register(pipe.fileno(), selectors.EVENT_READ, name)
            self._pending[name] = b""

    @property
    def open(self) -> bool:
        return bool(self._selector.get_map())

    def read(self, timeout: float) -> list[tuple[str, str]]:
        """Complete lines that arrived within `timeout`, as (stream name, text)."""
        lines: list[tuple[str, str]] = []
        for key, _ in self._selector.select(timeout):
            name = key.data
            try:
                data = os.read(key.fd, READ_CHUNK)
            except BlockingIOError:
                continue
            if not data:  # end of stream: an unterminated last line still counts
                self._selector.unregister(key.fd)
                complete = [self._pending[name]] if self._pending[name] else []
                self._pending[name] = b""
            else:
                *complete, self._pending[name] = (self._pending[name] + data).split(b"\n")
            lines += [(name, raw.decode("utf-8", "replace").rstrip("\r")) for raw in complete]
        return lines
