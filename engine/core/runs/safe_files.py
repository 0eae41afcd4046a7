"""Writes that survive a crash or a full disk: whole lines, whole files, and a little space kept back.

`LineFile` appends whole lines (a write that fails half-way is cut back; a torn last line from a kill is set
aside on the next open) and fsyncs on a thread of its own (`sync_later`, `synced`). `atomic_write_bytes` renames
a temporary file over the target. `Reserve` keeps a few kilobytes so a full disk's run_failed can still be
written; `is_disk_full` recognises ENOSPC and EDQUOT, also in TensorFlow's error text.
"""

from __future__ import annotations

import contextlib
import errno
import os
import threading
import time
from pathlib import Path

DISK_FULL_ERRNOS = frozenset({errno.ENOSPC, errno.EDQUOT})
_DISK_FULL_TEXTS = (os.strerror(errno.ENOSPC), os.strerror(errno.EDQUOT), "No space left on device")
RESERVE_BYTES = 64 * 1024


class DiskFull(OSError):
    """A write failed because the disk (or the user's quota) is full; the message says where."""


def is_disk_full(exc: BaseException) -> bool:
    if isinstance(exc, OSError) and exc.errno in DISK_FULL_ERRNOS:
        return True
    text = str(exc)
    return any(t in text for t in _DISK_FULL_TEXTS)


def disk_full_message(path: str | Path) -> str:
    """What a person reads when a run stops on a full disk."""
    free = ""
    with contextlib.suppress(OSError):
        import shutil

        free = f", {shutil.disk_usage(Path(path).parent).free // 1024:,} KB free"
    return (
        f"The disk is full: {path} could not be written (no space left on device{free}). "
        "Free space on that disk (or raise your quota), then resume the run; finished epochs and "
        "checkpoints are kept."
    )


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        written = os.write(fd, view)
        view = view[written:]


def _fsync_dir(path: Path) -> None:
    """Make a rename durable (POSIX; a no-op where directories cannot be opened)."""
    if os.name != "posix":
        return
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return
    try:
        with contextlib.suppress(OSError):
            os.fsync(fd)
    finally:
        os.close(fd)


def atomic_write_bytes(path: Path, data: bytes) -> None:
    """Replace `path` with `data` all at once; DiskFull when the disk is full (the old file stays)."""
    path = Path(path)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
        try:
            _write_all(fd, data)
            os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(tmp, path)
    except OSError as exc:
        with contextlib.suppress(OSError):
            tmp.unlink()
        if is_disk_full(exc):
            raise DiskFull(exc.errno, disk_full_message(path)) from exc
        raise
    _fsync_dir(path.parent)


def atomic_write_text(path: Path, text: str) -> None:
    atomic_write_bytes(path, text.encode("utf-8"))


def set_aside_torn_tail(path: Path, set_aside_dir: Path) -> int:
    """Cut an unterminated last line off `path` into set_aside_dir/<name>.torn; the bytes moved."""
    try:
        size = path.stat().st_size
    except OSError:
        return 0
    if size == 0:
        return 0
    with open(path, "rb+") as f:
        # read backwards to the last newline; a torn tail is at most one line long
        pos, tail = size, b""
        while pos > 0:
            step = min(65536, pos)
            f.seek(pos - step)
            chunk = f.read(step)
            cut = chunk.rfind(b"\n")
            if cut >= 0:
                tail = chunk[cut + 1 :] + tail
                pos = pos - step + cut + 1
                break
            tail = chunk + tail
            pos -= step
        if not tail:
            return 0
        set_aside_dir.mkdir(parents=True, exist_ok=True)
        with open(set_aside_dir / f"{path.name}.torn", "ab") as side:
            side.write(time.strftime("# set aside %Y-%m-%d %H:%M:%S: an unterminated last line\n").encode())
            side.write(tail + b"\n")
            side.flush()
            os.fsync(side.fileno())
        f.truncate(pos)
        f.flush()
        os.fsync(f.fileno())
    return len(tail)


class LineFile:
    """Appends whole lines to one file; never leaves a torn line of its own."""

    def __init__(self, path: Path, set_aside_dir: Path):
        self.path = Path(path)
        self.torn_bytes = set_aside_torn_tail(self.path, set_aside_dir)
        self._fd: int | None = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        self._pending: list[str] = []
        self._pending_bytes = 0
        self._syncer: Syncer | None = None  # made at the first sync_later

    @property
    def closed(self) -> bool:
        return self._fd is None

    def append(self, line: str, flush: bool = True, sync: bool = False) -> None:
        """Queue one line (without its newline); write what is queued when `flush`, and fsync when `sync`."""
        self._pending.append(line + "\n")
        self._pending_bytes += len(line) + 1
        if flush or sync or self._pending_bytes > 65536:
            self.flush(sync)

    def flush(self, sync: bool = False) -> None:
        """Write the queued lines in one go; on failure cut the file back, drop them and raise."""
        if self._fd is None:
            return
        if self._pending:
            data = "".join(self._pending).encode("utf-8")
            self._pending, self._pending_bytes = [], 0
            before = os.fstat(self._fd).st_size
            try:
                _write_all(self._fd, data)
            except OSError as exc:
                with contextlib.suppress(OSError):
                    os.ftruncate(self._fd, before)
                if is_disk_full(exc):
                    raise DiskFull(exc.errno, disk_full_message(self.path)) from exc
                raise
        if sync:
            _fsync(self._fd, self.path)

    def sync_later(self) -> None:
        """Write what is queued now and fsync it on the syncer's thread; raises what an earlier sync raised."""
        self.flush()
        if self._fd is None:
            return
        if self._syncer is None:
            self._syncer = Syncer(self._fd, self.path)
        self._syncer.ask()

    def synced(self) -> None:
        """Return once everything `sync_later` was asked for is on disk (DiskFull or OSError if it failed)."""
        if self._syncer is not None:
            self._syncer.wait()

    def close(self) -> None:
        if self._fd is None:
            return
        try:
            if self._syncer is not None:
                self._syncer.close()
            self.flush(sync=True)
        finally:
            os.close(self._fd)
            self._fd = None


def _fsync(fd: int, path: Path) -> None:
    try:
        os.fsync(fd)
    except OSError as exc:
        if is_disk_full(exc):
            raise DiskFull(exc.errno, disk_full_message(path)) from exc
        raise


class Syncer:
    """fsyncs one open file on a thread of its own each time it is asked (asks made during a sync share the
    next one); `wait` returns once everything asked before it is on disk, and raises what a sync raised."""

    def __init__(self, fd: int, path: Path):
        self._fd, self._path = fd, path
        self._changed = threading.Condition()
        self._asked = self._done = 0
        self._error: OSError | None = None
        self._closing = False
        self._thread = threading.Thread(target=self._run, name="tfdd-fsync", daemon=True)
        self._thread.start()

    def ask(self) -> None:
        with self._changed:
            self._raise()
            self._asked += 1
            self._changed.notify_all()

    def wait(self) -> None:
        with self._changed:
            wanted = self._asked
            while self._done < wanted and self._error is None:
                self._changed.wait()
            self._raise()

    def close(self) -> None:
        """Finish what was asked and end the thread (the file stays open: its owner closes it)."""
        with self._changed:
            self._closing = True
            self._changed.notify_all()
        self._thread.join()

    def _raise(self) -> None:
        if self._error is not None:
            error, self._error = self._error, None
            raise error

    def _run(self) -> None:
        while True:
            with self._changed:
                while self._done == self._asked and not self._closing:
                    self._changed.wait()
                if self._done == self._asked:
                    return
                wanted = self._asked
            error = None
            try:
                _fsync(self._fd, self._path)
            except OSError as exc:
                error = exc
            with self._changed:
                self._done = wanted
                self._error = self._error or error
                self._changed.notify_all()


class Reserve:
    """A few kilobytes held on the run's disk, given back when the disk is full."""

    def __init__(self, path: Path, size: int = RESERVE_BYTES):
        self.path = Path(path)
        fd = os.open(self.path, os.O_WRONLY | os.O_CREAT, 0o644)
        try:
            if hasattr(os, "posix_fallocate"):
                try:
                    os.posix_fallocate(fd, 0, size)
                except OSError as exc:
                    if exc.errno in DISK_FULL_ERRNOS:
                        raise
                    _write_all(fd, b"\0" * size)  # a file system without fallocate
            else:
                _write_all(fd, b"\0" * size)
            os.fsync(fd)
        except OSError as exc:
            os.close(fd)
            with contextlib.suppress(OSError):
                self.path.unlink()
            if is_disk_full(exc):
                raise DiskFull(exc.errno, disk_full_message(self.path)) from exc
            raise
        os.close(fd)

    def release(self) -> bool:
        """Give the space back; True if there was any to give."""
        try:
            self.path.unlink()
        except OSError:
            return False
        return True
