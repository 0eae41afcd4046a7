"""Following a run from its folder as its trainer writes it, from any process that can read the folder.

`RunWatch` reads what was appended to events.jsonl, stderr.log, gpus.csv and workers/states.jsonl, so a run
started anywhere shows as it grows, with the events a pipe would give. `FileTail` hands out complete lines; a
replaced or shortened file is read again from its start; each read reopens the file (NFS close-to-open). The
run ends when its end is recorded and its lock (engine.core.runs.runlock) is let go (or END_LINGER_S after the
end), when the lock goes without an end, or when the folder is gone.
"""

from __future__ import annotations

import csv
import os
import signal
import socket
import time
from dataclasses import dataclass, field
from pathlib import Path

from engine.core import events as ev
from engine.core.messages import Message, msg
from engine.core.nvml import GpuSample
from engine.core.protocol.paths import RunPaths
from engine.core.runs.gpu_log import COLUMNS as GPU_COLUMNS
from engine.core.runs.gpu_log import sample_of
from engine.core.runs.runlock import Holder, holder

CHUNK_BYTES = 64 << 10  # one read of a file: a backlog is decoded a chunk at a time, between the GUI's turns
MAX_LINE_BYTES = 1 << 20  # a "line" longer than this is not an event: it is skipped, not waited for
LOCK_EVERY_S = 1.0  # how often the lock is looked at (a network file system asks its server)
END_LINGER_S = 5.0  # after a recorded end, how long a still-held lock is waited for


@dataclass
class TailRead:
    """What one read of a growing file gave."""

    lines: list[bytes] = field(default_factory=list)  # complete lines, without their newlines
    replaced: bool = False  # the file is another one than before: `lines` start from its beginning
    more: bool = False  # it holds more than this read looked at (a backlog)
    skipped: int = 0  # over-long lines left out


@dataclass
class FileTail:
    """The complete lines appended to one file since the last read."""

    path: Path
    identity: tuple[int, int] | None = None  # (device, inode) of the file read so far
    offset: int = 0  # bytes taken so far (complete lines only)
    _skipping: bool = False  # inside an over-long line: its rest is dropped up to its newline

    def read(self, max_bytes: int = CHUNK_BYTES) -> TailRead:
        """Up to about `max_bytes` of complete new lines; none while the file does not exist."""
        out = TailRead()
        try:
            f = open(self.path, "rb")  # noqa: SIM115 - closed below; opened afresh for NFS's sake
        except OSError:
            return out
        with f:
            st = os.fstat(f.fileno())
            identity = (st.st_dev, st.st_ino)
            if self.identity is not None and (identity != self.identity or st.st_size < self.offset):
                out.replaced, self.offset, self._skipping = True, 0, False
            self.identity = identity
            if st.st_size <= self.offset:
                return out
            f.seek(self.offset)
            data = f.read(min(max_bytes, st.st_size - self.offset))
            if b"\n" not in data and len(data) == max_bytes:  # a line longer than a chunk: read it whole
                data += f.read(MAX_LINE_BYTES - len(data))
        out.more = self.offset + len(data) < st.st_size  # not read to its end (a torn last line is its end)
        cut = data.rfind(b"\n")
        if cut < 0 and (self._skipping or len(data) >= MAX_LINE_BYTES):
            out.skipped, self._skipping = int(not self._skipping), True  # the middle of an over-long line
            self.offset += len(data)
        elif cut >= 0:
            self.offset += cut + 1
            out.lines = data[:cut].split(b"\n")
            if self._skipping:
                out.lines.pop(0)  # the over-long line's end
                self._skipping = False
        return out


class Ending:
    """Why a watched run is over, when no run_finished or run_failed says it."""

    GONE = "gone"  # the folder is gone (deleted, moved, unmounted)
    LET_GO = "let go"  # the lock was let go with no end recorded: killed, or its machine went down


@dataclass
class WatchRead:
    """What one read of a run's folder gave, in the order the run wrote it."""

    events: list[ev.Event] = field(default_factory=list)
    garbage: list[str] = field(default_factory=list)  # lines of events.jsonl that are not events
    log: list[str] = field(default_factory=list)  # new lines of stderr.log
    gpu: list[GpuSample] = field(default_factory=list)  # new rows of gpus.csv
    replaced: bool = False  # events.jsonl was replaced (a resume rewrote it): `events` start from its top
    origin: float | None = None  # the time of the events file's first event, in the read that holds it
    more: bool = False  # a backlog is left for the next read
    end: ev.RunFinished | ev.RunFailed | None = None  # the run is over, as it recorded
    ending: str = ""  # or an Ending when it recorded none


class RunWatch:
    """Reads a run's folder as it grows and says when the run is over."""

    def __init__(self, run_dir: Path) -> None:
        self.paths = RunPaths(run_dir)
        self.events = FileTail(self.paths.events)
        self.stderr = FileTail(self.paths.stderr_log)
        self.gpus = FileTail(self.paths.gpu_samples)
        self.states = FileTail(self.paths.worker_states)  # a cluster launcher's: every task's state
        self.holder: Holder | None = None  # who trains it, as last seen
        self.lock_seen = False  # its lock was held once while watched
        self._lock_at = -LOCK_EVERY_S
        self._first_seen = False  # the events file's first event was read
        self._end: ev.RunFinished | ev.RunFailed | None = None  # the latest recorded end, if after the latest start
        self._end_seen_at: float | None = None

    def check_lock(self, now: float | None = None) -> bool:
        """Look at the lock again if LOCK_EVERY_S has passed; True when its holder changed."""
        now = time.monotonic() if now is None else now
        if now - self._lock_at < LOCK_EVERY_S:
            return False
        self._lock_at = now
        try:
            held = holder(self.paths)
        except OSError:
            held = None
        self.lock_seen = self.lock_seen or held is not None
        changed, self.holder = held != self.holder, held
        return changed

    def read(self, max_bytes: int = CHUNK_BYTES) -> WatchRead:
        """What was appended since the last read (up to about `max_bytes` of events), and the end if it came.
        Call check_lock first: the lock is judged as it was before the files were read."""
        out = WatchRead()
        tail = self.events.read(max_bytes)
        out.replaced, out.more = tail.replaced, tail.more
        if tail.replaced:
            self._first_seen, self._end, self._end_seen_at = False, None, None
        for line in tail.lines:
            self._take(line, out)
        out.garbage += [f"{tail.skipped} line(s) longer than {MAX_LINE_BYTES:,} bytes"] * bool(tail.skipped)
        out.events += self._worker_states()
        out.log = [line.decode("utf-8", "replace") for line in self.stderr.read().lines]
        out.gpu = self._gpu_rows()
        if not out.more:
            self._judge_end(out)
        return out

    def _take(self, line: bytes, out: WatchRead) -> None:
        if not line.strip():
            return
        try:
            event = ev.decode(line.decode("utf-8"))
        except (ev.EventDecodeError, UnicodeDecodeError):
            out.garbage.append(line[:200].decode("utf-8", "replace"))
            return
        if not self._first_seen:
            self._first_seen, out.origin = True, event.time
        if isinstance(event, ev.RunStarted):
            self._end, self._end_seen_at = None, None
        elif isinstance(event, (ev.RunFinished, ev.RunFailed)):
            self._end, self._end_seen_at = event, time.monotonic()
        out.events.append(event)

    def _worker_states(self) -> list[ev.Event]:
        """New worker_state events of a cluster launcher (a damaged line is left out)."""
        found: list[ev.Event] = []
        for line in self.states.read().lines:
            try:
                found.append(ev.decode(line.decode("utf-8")))
            except (ev.EventDecodeError, UnicodeDecodeError):
                continue
        return [e for e in found if isinstance(e, ev.WorkerState)]

    def _gpu_rows(self) -> list[GpuSample]:
        lines = [line.decode("utf-8", "replace") for line in self.gpus.read().lines]
        rows = (row for row in csv.reader(lines) if row and row != GPU_COLUMNS)
        return [s for row in rows if (s := sample_of(dict(zip(GPU_COLUMNS, row, strict=False)))) is not None]

    def _judge_end(self, out: WatchRead) -> None:
        if not self.paths.root.is_dir():
            out.ending = Ending.GONE
        elif self._end is not None:
            lingered = self._end_seen_at is not None and time.monotonic() - self._end_seen_at > END_LINGER_S
            if self.holder is None or lingered:
                out.end = self._end
        elif self.lock_seen and self.holder is None:
            out.ending = Ending.LET_GO


def ending_message(ending: str, run_dir: Path) -> Message:
    """What the window says of a watched run that is over without a recorded end."""
    if ending == Ending.GONE:
        return msg(
            "The run folder {folder} is gone (deleted, moved or unmounted); stopped watching it.", folder=str(run_dir)
        )
    return msg(
        "The run's process let go of its lock without recording its end: it was killed, or its machine went "
        "down. Resume it from its last checkpoint in the Runs tab."
    )


def trains_here(held: Holder | None) -> bool:
    """The run's lock is held by a process of this machine, which can be asked to stop by a signal."""
    return held is not None and bool(held.pid) and held.host == socket.gethostname() and os.name == "posix"


def ask_to_stop(run_dir: Path) -> Holder | None:
    """Ask the process that trains this run on this machine to checkpoint and stop (SIGTERM: `tfdd train`, a
    window's trainer and a cluster launcher all stop gracefully on it). The lock is read again just before,
    so the signal goes to its holder of now; the holder it went to, or None when it trains nowhere here."""
    held = holder(RunPaths(run_dir))
    if not trains_here(held):
        return None
    assert held is not None and held.pid
    try:
        os.kill(held.pid, signal.SIGTERM)
    except OSError:
        return None
    return held
