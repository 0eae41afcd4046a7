"""One process at a time trains a run: an OS file lock on RUN_DIR/.tfdd-lock.

The kernel releases the lock when its holder dies, so a crash never leaves a stale lock. The file says who
holds it (pid, host, command, since when) for the refusal message and the Runs tab. POSIX uses flock(2); Windows
locks one byte past the holder's text (msvcrt.locking). A local cluster's launcher hands the lock to its chief as
an inherited descriptor, which the chief checks before relying on it.
"""

from __future__ import annotations

import contextlib
import json
import os
import socket
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from engine.core.problems import RunDirError
from engine.core.protocol.paths import RunPaths

INHERITED_FD_ENV = "TFDD_RUN_LOCK_FD"
"""The descriptor number of a lock the parent (a cluster launcher) holds for this run."""
ACQUIRE_WAIT_S = 0.5  # a reader (the Runs tab) holds a shared lock for microseconds: wait that out
_WINDOWS_LOCK_OFFSET = 1 << 30

if sys.platform == "win32":  # pragma: no cover - exercised on Windows only
    import msvcrt

    def try_lock(fd: int, exclusive: bool) -> bool:
        os.lseek(fd, _WINDOWS_LOCK_OFFSET, os.SEEK_SET)
        try:
            msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
        except OSError:
            return False
        return True

    def unlock(fd: int) -> None:
        os.lseek(fd, _WINDOWS_LOCK_OFFSET, os.SEEK_SET)
        with contextlib.suppress(OSError):
            msvcrt.locking(fd, msvcrt.LK_UNLCK, 1)

else:
    import fcntl

    def try_lock(fd: int, exclusive: bool) -> bool:
        try:
            fcntl.flock(fd, (fcntl.LOCK_EX if exclusive else fcntl.LOCK_SH) | fcntl.LOCK_NB)
        except BlockingIOError:
            return False
        return True

    def unlock(fd: int) -> None:
        with contextlib.suppress(OSError):
            fcntl.flock(fd, fcntl.LOCK_UN)


@dataclass(frozen=True)
class Holder:
    """Who holds a run's lock, as its lock file says."""

    pid: int | None
    host: str
    command: str = ""
    since: float = 0.0
    accepted: bool = False  # the run goes ahead under this holder (RunLock.accept)

    def describe(self) -> str:
        """e.g. "pid 4242 on gpu-box (tfdd train, since 2026-11-30 10:15)"."""
        who = f"pid {self.pid}" if self.pid else "another process"
        where = f" on {self.host}" if self.host else ""
        since = time.strftime("since %Y-%m-%d %H:%M", time.localtime(self.since)) if self.since else ""
        extra = ", ".join(x for x in (self.command, since) if x)
        return f"{who}{where}" + (f" ({extra})" if extra else "")


class RunLocked(RunDirError):
    """Another live process trains this run."""

    def __init__(self, path: Path, holder: Holder):
        self.holder = holder
        super().__init__(
            f"{path} is in use by {holder.describe()}: one process at a time trains a run; "
            "wait for it to end or stop it, then try again"
        )


def _read_holder(fd: int) -> Holder:
    try:
        os.lseek(fd, 0, os.SEEK_SET)
        raw = json.loads(os.read(fd, 4096).decode("utf-8", "replace") or "{}")
    except (OSError, ValueError):
        raw = {}
    if not isinstance(raw, dict):
        raw = {}
    pid = raw.get("pid")
    return Holder(
        pid=pid if isinstance(pid, int) and not isinstance(pid, bool) else None,
        host=str(raw.get("host", ""))[:100],
        command=str(raw.get("command", ""))[:100],
        since=float(raw["since"]) if isinstance(raw.get("since"), (int, float)) else 0.0,
        accepted=raw.get("accepted") is True,
    )


def _write_info(fd: int, info: dict) -> None:
    os.ftruncate(fd, 0)
    os.lseek(fd, 0, os.SEEK_SET)
    os.write(fd, json.dumps(info).encode())


class RunLock:
    """The held lock of one run directory; `release()` (or the holder's death) frees it."""

    def __init__(self, paths: RunPaths, fd: int, owned: bool):
        self.paths = paths
        self._fd: int | None = fd
        self._owned = owned  # False: a parent's lock handed down; the parent releases it

    def accept(self) -> None:
        """Say in the lock file that the run goes ahead: training starts, or a failure is recorded in it.
        Until then a claim may still be refused and must change nothing (engine.core.runs.raw_log waits for this before
        writing the trainer's stderr there). A lock handed down keeps its holder's name."""
        if self._fd is None:
            return
        try:
            os.lseek(self._fd, 0, os.SEEK_SET)
            info = json.loads(os.read(self._fd, 4096).decode("utf-8", "replace") or "{}")
        except (OSError, ValueError):
            info = {}
        if isinstance(info, dict) and info.get("accepted") is not True:
            with contextlib.suppress(OSError):
                _write_info(self._fd, {**info, "accepted": True})

    @classmethod
    def acquire(cls, paths: RunPaths, command: str, wait_s: float = ACQUIRE_WAIT_S) -> RunLock:
        """Take the run's lock, or raise RunLocked naming the holder. The folder must exist."""
        inherited = cls._inherited(paths)
        if inherited is not None:
            return inherited
        fd = os.open(paths.lock, os.O_RDWR | os.O_CREAT, 0o644)
        deadline = time.monotonic() + wait_s
        while not try_lock(fd, exclusive=True):
            if time.monotonic() >= deadline:
                holder = _read_holder(fd)
                os.close(fd)
                raise RunLocked(paths.root, holder)
            time.sleep(0.02)
        info = {"pid": os.getpid(), "host": socket.gethostname(), "command": command, "since": time.time()}
        _write_info(fd, info)
        return cls(paths, fd, owned=True)

    @classmethod
    def _inherited(cls, paths: RunPaths) -> RunLock | None:
        """The lock a parent handed down through INHERITED_FD_ENV, if it really is this run's, held."""
        text = os.environ.get(INHERITED_FD_ENV, "")
        if not text.isdigit() or sys.platform == "win32":
            return None
        fd = int(text)
        try:
            mine, theirs = os.fstat(fd), os.stat(paths.lock)
        except OSError:
            return None
        if (mine.st_dev, mine.st_ino) != (theirs.st_dev, theirs.st_ino):
            return None
        # the same open file description as the parent's: flock succeeds only because it is already held by
        # it; a stray descriptor of an unlocked file would take the lock here, which is just as good
        return cls(paths, fd, owned=False) if try_lock(fd, exclusive=True) else None

    def handed_to(self, pid: int) -> None:
        """The lock names `pid` as its holder: a fork that detaches the launcher hands the held lock to its child
        (the same open file), and a Stop must reach the child, not its gone parent. The parent writes this before
        it says "detached", so nobody ever reads the parent's pid there."""
        if self._fd is None:
            return
        try:
            os.lseek(self._fd, 0, os.SEEK_SET)
            info = json.loads(os.read(self._fd, 4096).decode("utf-8", "replace") or "{}")
        except (OSError, ValueError):
            info = {}
        with contextlib.suppress(OSError):
            _write_info(self._fd, {**(info if isinstance(info, dict) else {}), "pid": pid})

    @property
    def fd(self) -> int:
        assert self._fd is not None, "released"
        return self._fd

    def child_env(self) -> dict[str, str]:
        """Environment that hands this lock to a child started with pass_fds=(lock.fd,)."""
        return {INHERITED_FD_ENV: str(self.fd)}

    def release(self) -> None:
        if self._fd is None:
            return
        if self._owned:
            unlock(self._fd)
        with contextlib.suppress(OSError):
            os.close(self._fd)
        self._fd = None

    def __enter__(self) -> RunLock:
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()


def last_taken_by(paths: RunPaths) -> Holder | None:
    """Who last took the run's lock, held or since released (its file names them); None without a lock
    file. A process refused the lock never writes it, so this tells the run's writer from a refused one
    even after the writer has died."""
    try:
        fd = os.open(paths.lock, os.O_RDONLY)
    except OSError:
        return None
    try:
        return _read_holder(fd)
    finally:
        os.close(fd)


def holder(paths: RunPaths) -> Holder | None:
    """Who trains this run right now, or None. Never creates the lock file."""
    try:
        fd = os.open(paths.lock, os.O_RDONLY)
    except OSError:
        return None
    try:
        if try_lock(fd, exclusive=False):
            unlock(fd)
            return None
        return _read_holder(fd)
    finally:
        os.close(fd)
