"""The parent's side of the protocol: one client for every child that speaks it.

The window's runner, the cluster launcher and the scaling study all start a
child, read its events, ask it to stop, kill it after a grace period and reap
it through `WorkerProcess`. Each pipe has its own reader thread (selectors on
pipes are POSIX-only; threads work on Windows too), which reads chunks, not
lines, so a fast stream costs one wake-up per chunk. The queue between the
readers and the caller is bounded: a child that writes faster than its
parent reads is slowed by the full pipe instead of growing memory without
end.
"""

from __future__ import annotations

import atexit
import contextlib
import os
import queue
import signal
import subprocess
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO

from engine.core import events as ev
from engine.core.protocol.codes import STOP_LINE

READ_CHUNK = 65536
QUEUE_CHUNKS = 256  # at most this many unread chunks (16 MiB) before the child waits for us


@dataclass(frozen=True)
class Output:
    """One thing a child said: an event, a stderr line, or a stdout line that is not an event."""

    event: ev.Event | None = None
    stderr: str | None = None
    garbage: str | None = None  # the protocol says events only; tolerated, shown, never fatal


_live: set[subprocess.Popen[bytes]] = set()
_live_lock = threading.Lock()


def kill_all() -> None:
    """Last resort on exit paths (atexit, the window's aboutToQuit): no child outlives its parent."""
    with _live_lock:
        procs = list(_live)
    for proc in procs:
        if proc.poll() is None:
            proc.kill()
            with contextlib.suppress(subprocess.TimeoutExpired):
                proc.wait(timeout=5)


atexit.register(kill_all)


class WorkerProcess:
    """A child process speaking the worker protocol; start(), poll(), request_stop(), kill(), close()."""

    def __init__(
        self,
        command: list[str],
        *,
        env: dict[str, str] | None = None,
        cwd: Path | str | None = None,
        stderr_path: Path | None = None,
        own_group: bool = False,
        pass_fds: tuple[int, ...] = (),
    ) -> None:
        """`stderr_path` sends stderr to that file instead of poll(); `own_group` starts the child in a
        session of its own, so kill() also ends whatever it started; `pass_fds` are inherited (POSIX)."""
        self.command = list(command)
        self._env = dict(os.environ if env is None else env, PYTHONUNBUFFERED="1")
        self._cwd = cwd
        self._stderr_path = stderr_path
        self._own_group = own_group and os.name == "posix"
        self._pass_fds = pass_fds if os.name == "posix" else ()
        self._queue: queue.Queue[tuple[str, list[bytes] | None]] = queue.Queue(maxsize=QUEUE_CHUNKS)
        self._readers: list[threading.Thread] = []
        self._open_streams = 0
        self.process: subprocess.Popen[bytes] | None = None
        self.killed = False

    # ---- lifecycle ------------------------------------------------------------
    def start(self) -> int:
        """Start the child; its pid. OSError when it cannot start."""
        stderr: int | IO[bytes] = subprocess.PIPE
        log = None
        if self._stderr_path is not None:
            self._stderr_path.parent.mkdir(parents=True, exist_ok=True)
            # appended: a restarted cluster task (or a resumed run) keeps the earlier lines
            log = stderr = open(self._stderr_path, "ab")  # noqa: SIM115 - the child gets it; closed below
        try:
            self.process = subprocess.Popen(
                self.command,
                cwd=self._cwd,
                env=self._env,
                bufsize=0,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=stderr,
                start_new_session=self._own_group,
                pass_fds=self._pass_fds,
                creationflags=getattr(subprocess, "CREATE_NEW_PROCESS_GROUP", 0) if self._own_group else 0,
            )
        finally:
            if log is not None:
                log.close()  # the child holds its own copy
        with _live_lock:
            _live.add(self.process)
        streams = [("out", self.process.stdout)] + ([("err", self.process.stderr)] if self.process.stderr else [])
        self._open_streams = len(streams)
        for name, pipe in streams:
            assert pipe is not None
            reader = threading.Thread(
                target=self._read, args=(name, pipe), daemon=True, name=f"protocol-{name}-{self.process.pid}"
            )
            reader.start()
            self._readers.append(reader)
        return self.process.pid

    @property
    def pid(self) -> int | None:
        return self.process.pid if self.process else None

    def alive(self) -> bool:
        return self.process is not None and self.process.poll() is None

    @property
    def returncode(self) -> int | None:
        return self.process.poll() if self.process else None

    @property
    def streams_open(self) -> bool:
        """True until every pipe has reached its end and been drained by poll()."""
        return self._open_streams > 0 or not self._queue.empty()

    def send(self, line: str) -> bool:
        """Write one line to the child's stdin (a warm trainer's assignment); False when it is gone."""
        stdin = self.process.stdin if self.process else None
        try:
            if stdin is None or stdin.closed:
                return False
            stdin.write(line.encode() if line.endswith("\n") else f"{line}\n".encode())
            stdin.flush()
            return True
        except (OSError, ValueError):
            return False

    def request_stop(self) -> None:
        """The protocol's polite stop: "stop", then EOF; harmless when the child is gone."""
        stdin = self.process.stdin if self.process else None
        try:
            if stdin is not None and not stdin.closed:
                stdin.write(f"{STOP_LINE}\n".encode())
                stdin.flush()
                stdin.close()
        except (OSError, ValueError):
            pass  # already gone

    def kill(self) -> None:
        """SIGKILL the child (and its session when it has one of its own)."""
        if not self.alive():
            return
        assert self.process is not None
        self.killed = True
        try:
            if self._own_group:
                os.killpg(self.process.pid, signal.SIGKILL)
            else:
                self.process.kill()
        except ProcessLookupError:
            pass

    def stop(self, grace_s: float) -> int | None:
        """Ask to stop, kill after `grace_s`, reap; the exit code. Output still queued is discarded."""
        self.request_stop()
        deadline = time.monotonic() + grace_s
        while self.alive() and time.monotonic() < deadline:
            self.poll(timeout=0.1)
        self.close()
        return self.returncode

    def wait(self, timeout: float) -> int | None:
        """The exit code once the child has exited within `timeout`, else None."""
        if self.process is None:
            return None
        try:
            return self.process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            return None

    def close(self) -> None:
        """Kill the child if it still runs, reap it, join the readers, close the pipes; safe twice."""
        if self.process is None:
            return
        self.kill()
        with contextlib.suppress(subprocess.TimeoutExpired):  # an unkillable process: nothing more to do here
            self.process.wait(timeout=10)
        if self.process.stdin is not None:
            with contextlib.suppress(OSError):
                self.process.stdin.close()
        deadline = time.monotonic() + 2
        while any(r.is_alive() for r in self._readers) and time.monotonic() < deadline:
            self._drop_queued()  # a reader blocked on a full queue must be able to finish
            time.sleep(0.01)
        for pipe in (self.process.stdout, self.process.stderr):
            if pipe is not None:
                with contextlib.suppress(OSError):
                    pipe.close()
        with _live_lock:
            _live.discard(self.process)

    # ---- output -------------------------------------------------------------------
    def poll(self, timeout: float = 0.0, max_chunks: int | None = None) -> list[Output]:
        """What the child said since the last call, waiting up to `timeout` for the first of it."""
        out: list[Output] = []
        taken = 0
        try:
            item = self._queue.get(timeout=timeout) if timeout > 0 else self._queue.get_nowait()
            while True:
                name, lines = item
                if lines is None:
                    self._open_streams -= 1
                else:
                    out += (
                        _decoded(lines)
                        if name == "out"
                        else [Output(stderr=line.decode("utf-8", "replace").rstrip("\r")) for line in lines]
                    )
                taken += 1
                if max_chunks is not None and taken >= max_chunks:
                    break
                item = self._queue.get_nowait()
        except queue.Empty:
            pass
        return out

    def outputs(self, poll_s: float = 0.1) -> Iterator[Output]:
        """Everything the child says, until its streams end (the caller bounds the wait)."""
        while self.streams_open:
            yield from self.poll(timeout=poll_s)

    def _read(self, name: str, pipe: IO[bytes]) -> None:
        pending = b""
        fd = pipe.fileno()
        try:
            while True:
                try:
                    data = os.read(fd, READ_CHUNK)
                except OSError:
                    data = b""
                if not data:
                    break
                *lines, pending = (pending + data).split(b"\n")
                if lines:
                    self._queue.put((name, lines))
        finally:
            if pending:
                self._queue.put((name, [pending]))  # an unterminated last line still counts
            self._queue.put((name, None))

    def _drop_queued(self) -> None:
        try:
            while True:
                name, lines = self._queue.get_nowait()
                if lines is None:
                    self._open_streams -= 1
        except queue.Empty:
            pass


def _decoded(lines: list[bytes]) -> list[Output]:
    """stdout lines as events; a line that is not one is kept as garbage, a blank line is dropped."""
    out = []
    for line in lines:
        text = line.decode("utf-8", "replace").rstrip("\r")
        if not text.strip():
            continue
        try:
            out.append(Output(event=ev.decode(text)))
        except ev.EventDecodeError as exc:
            out.append(Output(garbage=str(exc)))
    return out
