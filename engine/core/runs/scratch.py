"""Temporary folders that a killed process does not leave behind: locked while in use, swept when not.

A cluster's non-chief worker saves into a scratch folder, and the window
writes each run's config into one; both are removed at a normal end, but a
kill -9 skips every clean-up. So each scratch folder holds an OS file lock
(engine.core.runs.runlock's) for as long as its process lives, and whoever makes a new
one with the same prefix first removes the folders whose lock is free: their
owner is gone. A folder another live process uses is never touched.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import tempfile
from pathlib import Path

from engine.core.runs.runlock import try_lock

LOCK_NAME = ".in-use"


class ScratchDir:
    """A fresh folder under the system's temporary folder, locked until `cleanup()` or the process's end."""

    def __init__(self, prefix: str):
        self.prefix = prefix
        sweep(prefix)
        self.path = Path(tempfile.mkdtemp(prefix=prefix))
        self._fd: int | None = os.open(self.path / LOCK_NAME, os.O_RDWR | os.O_CREAT, 0o600)
        try_lock(self._fd, exclusive=True)

    def cleanup(self) -> None:
        """Remove the folder and everything in it; safe twice."""
        if self._fd is not None:
            with contextlib.suppress(OSError):
                os.close(self._fd)  # closing the descriptor releases the lock
            self._fd = None
        shutil.rmtree(self.path, ignore_errors=True)


def sweep(prefix: str) -> list[Path]:
    """Remove our scratch folders with this prefix whose owner is gone (their lock is free); those removed."""
    removed = []
    root = Path(tempfile.gettempdir())
    try:
        candidates = [p for p in root.iterdir() if p.name.startswith(prefix)]
    except OSError:
        return removed
    for folder in candidates:
        try:
            if not folder.is_dir() or folder.is_symlink() or folder.stat().st_uid != _uid():
                continue
            fd = os.open(folder / LOCK_NAME, os.O_RDONLY)
        except OSError:
            continue  # not one of ours (no lock file), or gone meanwhile
        try:
            free = try_lock(fd, exclusive=True)
        finally:
            os.close(fd)
        if free:
            shutil.rmtree(folder, ignore_errors=True)
            removed.append(folder)
    return removed


def _uid() -> int:
    return os.geteuid() if hasattr(os, "geteuid") else 0
