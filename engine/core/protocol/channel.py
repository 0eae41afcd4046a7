"""The child's side of the protocol: a clean event channel, stop requests, dying with the parent.

- stdout carries only events, one JSON line each. At start-up the real stdout
  is moved to a private descriptor and fd 1 is pointed at stderr, so a
  print() from user code or a C++ log line from TensorFlow cannot corrupt the
  stream; stderr carries everything else.
- The line "stop" on stdin, or stdin closing (the parent died), SIGINT and
  SIGTERM all ask for a graceful stop (a checkpoint, then run_finished).
  A trainer also reads "profile N" there (engine.core.protocol.profile).
- On Linux the process dies with its parent even while TensorFlow blocks.
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator
from typing import IO

from engine.core import events as ev
from engine.core.protocol.codes import STOP_LINE, TRAINER_STOP_GRACE_S, ExitCode
from engine.core.protocol.profile import ProfileRequests, parse_profile_line


class StopSignal:
    """A stop request from a Stop button, Ctrl-C, SIGTERM or the stdin channel; thread-safe.

    Until training is reached the process may be blocked inside TensorFlow (a
    multi-worker strategy waits for its peers) and has nothing to save, so an
    early request goes to `on_early_stop`, which ends the process at once.
    After it, a request that training has not honoured within `grace_s` (the
    user's code blocks: a sleep in build_model, a stalled generator) goes to
    `on_overdue`, which ends the process itself. While `held`, the engine does work of its own that
    cannot stop half-way (a step-time probe): the grace does not run out then, and starts over after it.
    `exit_code` is what the first request asked the process to exit with.
    """

    def __init__(
        self, on_early_stop: Callable[[str], None] | None = None, grace_s: float = TRAINER_STOP_GRACE_S
    ) -> None:
        self._event = threading.Event()
        self._reached = threading.Event()
        self._honoured = threading.Event()
        self._on_early_stop = on_early_stop
        self.on_overdue: Callable[[str], None] | None = None
        self._grace_s = grace_s
        self._timer: threading.Timer | None = None
        self._holds = 0
        self._ran_out = False  # the grace ran out while held
        self._lock = threading.RLock()  # a signal handler may run while the main thread holds it
        self.reason = ""
        self.exit_code = ExitCode.OK

    def training_reached(self) -> None:
        """From here on a stop is honoured between steps, with a checkpoint."""
        self._reached.set()

    @property
    def grace_s(self) -> float:
        return self._grace_s

    def honour(self) -> None:
        """Training has reached a point where it stops (a checkpoint, then run_finished): not overdue."""
        self._honoured.set()

    def request(self, reason: str = "stop requested", exit_code: ExitCode = ExitCode.OK) -> None:
        with self._lock:  # a signal's handler and its relay thread may both ask
            if not self._event.is_set():
                self.reason, self.exit_code = reason, exit_code
            self._event.set()
            if self._reached.is_set() and self._timer is None:
                self._start_grace()
        if not self._reached.is_set() and self._on_early_stop:
            self._on_early_stop(reason)

    def _start_grace(self) -> None:
        self._timer = threading.Timer(self._grace_s, self._overdue)
        self._timer.daemon = True
        self._timer.start()

    @contextlib.contextmanager
    def held(self) -> Iterator[None]:
        """The engine's own work, which a stop waits for: a grace that runs out inside starts over after it."""
        with self._lock:
            self._holds += 1
        try:
            yield
        finally:
            with self._lock:
                self._holds -= 1
                if not self._holds and self._ran_out:
                    self._ran_out = False
                    self._start_grace()

    def _overdue(self) -> None:
        with self._lock:
            if self._holds:
                self._ran_out = True
                return
        if not self._honoured.is_set() and self.on_overdue is not None:
            self.on_overdue(self.reason)

    @property
    def requested(self) -> bool:
        return self._event.is_set()

    def wait(self, timeout: float | None = None) -> bool:
        """Block until a stop is requested (True) or `timeout` passes (False)."""
        return self._event.wait(timeout)


def protect_stdout() -> IO[str]:
    """Return a private line-buffered channel to the real stdout; fd 1 becomes stderr."""
    sys.stdout.flush()
    channel = os.fdopen(os.dup(1), "w", buffering=1, encoding="utf-8")
    os.dup2(2, 1)
    return channel


class EventChannel:
    """An event sink writing JSON lines to the protected channel; silent once the reader is gone.

    A training loop reports a call's steps as a burst of batch_end events. Written one by one,
    each line would wake the reader (the window) on its own, hundreds of times a second; so
    batch_end lines wait up to BURST_S for the rest of their burst and go out in one write.
    Every other event is written at once, after the batch_end lines before it.
    """

    BURST_S = 0.005

    def __init__(self, channel: IO[str]):
        self._channel = channel
        self._lock = threading.RLock()  # a signal handler may run while the main thread holds it
        self._pending: list[str] = []
        self._wake = threading.Event()
        threading.Thread(target=self._flusher, name="event-flusher", daemon=True).start()

    def __call__(self, event: ev.Event) -> None:
        line = ev.encode(event) + "\n"
        with self._lock:
            self._pending.append(line)
            if type(event) is ev.BatchEnd:
                self._wake.set()
                return
            self._write()

    def flush(self) -> None:
        with self._lock:
            self._write()

    def _flusher(self) -> None:
        while True:
            self._wake.wait()
            time.sleep(self.BURST_S)
            with self._lock:
                self._wake.clear()
                self._write()

    def _write(self) -> None:
        """Under the lock: everything pending, in one write. A reader that is gone (BrokenPipeError, or
        ValueError on a closed channel) loses nothing: the run directory still gets every event."""
        if self._pending:
            text, self._pending = "".join(self._pending), []
            with contextlib.suppress(BrokenPipeError, ValueError, OSError):
                self._channel.write(text)
                self._channel.flush()


def watch_stdin(stop: StopSignal, profile: ProfileRequests | None = None) -> None:
    """A daemon thread: "stop" or EOF on stdin requests a stop; "profile N" asks `profile` for a profile of
    the next N steps (engine.core.protocol.profile)."""

    def read() -> None:
        for line in sys.stdin:
            if line.strip().lower() == STOP_LINE:
                stop.request("stop requested")
                return
            if profile is not None and (steps := parse_profile_line(line)) is not None:
                profile.ask(steps)
        stop.request("the parent process closed the control channel")

    threading.Thread(target=read, name="stop-listener", daemon=True).start()


def handle_stop_signals(
    stop: StopSignal, ctrl_c_code: ExitCode = ExitCode.INTERRUPTED, *, main_thread_may_block: bool = False
) -> None:
    """SIGINT and SIGTERM become graceful stop requests (SIGTERM exits 143 after its checkpoint).

    SIGTERM is how Kubernetes (and so an exported TFJob) and most process
    managers stop a job; it deserves the same checkpoint as Ctrl-C. Python
    runs signal handlers in the main thread only, between bytecodes: a trainer
    waiting inside TensorFlow for a stalled input pipeline would never run one.
    So for a trainer (`main_thread_may_block`), on POSIX, the signal's number
    also goes through a wake-up pipe to a thread of its own, which makes the
    request at once (a request is made once).
    """
    reasons = {signal.SIGINT: ("interrupted (Ctrl-C)", ctrl_c_code)}
    if hasattr(signal, "SIGTERM"):
        reasons[signal.SIGTERM] = ("terminated (SIGTERM)", ExitCode.TERMINATED)

    def on_signal(signum: int, _frame: object = None) -> None:
        if signum in reasons:
            stop.request(*reasons[signum])

    for sig in reasons:
        signal.signal(sig, on_signal)
    if os.name != "posix" or not main_thread_may_block:
        return
    read_fd, write_fd = os.pipe()
    os.set_blocking(write_fd, False)
    signal.set_wakeup_fd(write_fd, warn_on_full_buffer=False)

    def relay() -> None:
        while data := os.read(read_fd, 64):
            for signum in data:
                on_signal(signum)

    threading.Thread(target=relay, name="stop-signals", daemon=True).start()


def die_with_parent() -> None:
    """Linux: have the kernel end this process when its parent dies.

    The stdin EOF rule cannot help while TensorFlow holds the GIL, which it
    does while a multi-worker strategy waits for its peers; without this, a
    worker whose window or launcher was killed could wait there for an hour
    (the coordination service's registration timeout). SIGKILL because a
    Python-level handler would need the GIL too.
    """
    if not sys.platform.startswith("linux"):
        return
    import ctypes

    pr_set_pdeathsig = 1
    ctypes.CDLL(None, use_errno=True).prctl(pr_set_pdeathsig, signal.SIGKILL)
    if os.getppid() == 1:  # the parent died before prctl took effect
        os._exit(ExitCode.FAILED)
