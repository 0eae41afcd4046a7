"""Reading a run's events.jsonl the way a history needs it: incrementally, in chunks, with a cap.

A summary needs few events (first and last times, starts and ends, step anatomies, the pauses before a
resume): `EventsDigest` finds them by a byte search per line, decodes only them, and on the next update reads
only what was appended. A file over CAP_BYTES is read at its head and tail only; reads are chunked so the
window's event loop never waits long. `read_batch_points` thins the batch events to about MAX_POINTS.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import BinaryIO

from engine.core import anatomy
from engine.core import events as ev

CHUNK_BYTES = 1 << 20
CAP_BYTES = 8 << 20  # larger files: the head and the tail only
HEAD_BYTES = 1 << 20
TAIL_BYTES = 4 << 20
MAX_POINTS = 4_000  # batch points read for plotting: plots are ~1,400 px wide, and each point costs their paint
# the lines a summary decodes: the run's starts and ends and its step anatomies (one search of a line costs
# less than one per name)
_DECODED = re.compile(rb'"(?:run_started|run_finished|run_failed|step_anatomy|sweep_trial)"')


def _lines(f: BinaryIO, start: int, stop: int) -> Iterator[tuple[int, bytes]]:
    """(offset just after the line, line) for every complete line in [start, stop) of an open binary file."""
    f.seek(start)
    pos, base, pending = start, start, b""
    while pos < stop:
        chunk = f.read(min(CHUNK_BYTES, stop - pos))
        if not chunk:
            break
        pos += len(chunk)
        *lines, pending = (pending + chunk).split(b"\n")
        for line in lines:
            base += len(line) + 1
            yield base, line


def _decode(line: bytes) -> ev.Event | None:
    try:
        return ev.decode(line.decode("utf-8"))
    except (ev.EventDecodeError, UnicodeDecodeError):
        return None


@dataclass
class EventsDigest:
    """What a run's summary needs from its events, kept up to date by reading only what was appended."""

    identity: tuple[int, int] | None = None  # (device, inode): a replaced file is read again from the start
    offset: int = 0  # bytes read so far (complete lines only)
    first_time: float | None = None
    last_time: float | None = None
    started: ev.RunStarted | None = None  # the latest run start (a resume starts again)
    end: ev.RunFinished | ev.RunFailed | None = None  # the latest end, if it came after the latest start
    bad_lines: int = 0  # lines that were decoded and are not events (a hand edit, a torn line)
    skipped_bytes: int = 0  # the middle of a huge file, not read
    paused: float = 0.0  # seconds between each resume's start and the event before it
    anatomy: ev.StepAnatomy | None = None  # the steps' anatomy over the whole run (engine.core.anatomy.combine)
    trial_end: ev.SweepTrial | None = None  # how its sweep ended the trial (engine.core.sweep.note_trial_end)
    last_line: bytes = field(default=b"", repr=False)  # decoded only when asked for its time
    _after_skip: bool = field(default=False, repr=False)  # the event before the next one is in the skipped middle

    @property
    def active_seconds(self) -> float:
        """First to last event, less the pauses before resumes (a huge file's unread middle counts as active)."""
        if self.first_time is None or self.last_time is None:
            return 0.0
        return self.last_time - self.first_time - self.paused

    def update(self, path: Path) -> bool:
        """Read what was appended since the last update; True when anything changed."""
        try:
            st = os.stat(path)
        except OSError:
            changed = self.identity is not None
            self._reset(None)
            return changed
        identity = (st.st_dev, st.st_ino)
        if identity != self.identity or st.st_size < self.offset:
            self._reset(identity)
        if st.st_size == self.offset:
            return False
        with open(path, "rb") as f:
            if self.offset == 0 and st.st_size > CAP_BYTES:
                for end, line in _lines(f, 0, HEAD_BYTES):
                    self._take(line)
                    self.offset = end
                f.seek(st.st_size - TAIL_BYTES)
                partial = f.readline()  # the tail begins at a line boundary
                tail = st.st_size - TAIL_BYTES + len(partial)
                self.skipped_bytes = tail - self.offset
                self.offset = tail
                self._settle_last_time()
                self._after_skip = True
            for end, line in _lines(f, self.offset, st.st_size):
                self._take(line)
                self.offset = end
        self._settle_last_time()
        return True

    def _reset(self, identity: tuple[int, int] | None) -> None:
        self.__init__(identity=identity)  # type: ignore[misc]

    def _take(self, line: bytes) -> None:
        if not line.strip():
            return
        if self.first_time is not None and _DECODED.search(line) is None:
            self.last_line = line  # a batch event, most likely: only its time may matter, later
            return
        event = _decode(line)
        if event is None:
            self.bad_lines += 1
            return
        if isinstance(event, ev.SweepTrial):  # the sweep's word after the trainer's end: no training time
            self.trial_end = event
            return
        if isinstance(event, ev.RunStarted):
            self._settle_last_time()  # the time of the event before this start: the pause begins there
            if self.last_time is not None and not self._after_skip:
                self.paused += max(0.0, event.time - self.last_time)
            self.started, self.end = event, None
        elif isinstance(event, (ev.RunFinished, ev.RunFailed)):
            self.end = event
        elif isinstance(event, ev.StepAnatomy):
            self.anatomy = anatomy.combine([event] if self.anatomy is None else [self.anatomy, event])
        self.last_line, self._after_skip = b"", False
        if self.first_time is None:
            self.first_time = event.time
        self.last_time = event.time

    def _settle_last_time(self) -> None:
        if self.last_line:
            event = _decode(self.last_line)
            if event is None:
                self.bad_lines += 1
            else:
                self.last_time = event.time
                self._after_skip = False
            self.last_line = b""


@dataclass(frozen=True)
class BatchPoints:
    """Batch series for plotting."""

    global_step: list[int]
    time: list[float]  # seconds since the run's first event
    loss: list[float]
    accuracy: list[float]
    examples_per_sec: list[float]
    thinned: int = 1  # one batch event in `thinned` was read (a long run)
    bad_lines: int = 0
    t0: float | None = None  # the run's first event's time, what `time` counts from


def read_batch_points(path: Path) -> BatchPoints:
    """The batch events of an events file, thinned evenly to about MAX_POINTS."""
    points: tuple[list, ...] = ([], [], [], [], [])
    bad, t0, n = 0, None, 0
    try:
        size = os.path.getsize(path)
    except OSError:
        return BatchPoints(*points)
    with open(path, "rb") as f:
        sample = f.read(CHUNK_BYTES)
        estimated = size * max(sample.count(b"\n"), 1) // max(len(sample), 1)
        every = max(1, -(-estimated // MAX_POINTS))
        for _, line in _lines(f, 0, size):
            n += 1
            if t0 is not None and (n % every or b'"batch_end"' not in line):
                continue
            event = _decode(line)
            if event is None:
                bad += bool(line.strip())
                continue
            t0 = event.time if t0 is None else t0
            if isinstance(event, ev.BatchEnd):
                for series, value in zip(
                    points,
                    (event.global_step, event.time - t0, event.loss, event.accuracy, event.examples_per_sec),
                    strict=True,
                ):
                    series.append(value)
    return BatchPoints(*points, thinned=every, bad_lines=bad, t0=t0)
