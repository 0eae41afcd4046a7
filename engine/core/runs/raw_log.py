"""RUN_DIR/stderr.log: a trainer's raw stderr, written only once its run is really its own.

The stream starts before the trainer has claimed its folder, and a claim can be refused (the user's files,
another run), so lines are held in memory until the writer (`owner_pid`) holds the run's lock and its claim was
accepted, then written with every later line; a refused run leaves the folder as it was. A cluster task other
than the chief writes its own file beside the run (task_raw_log). Used by `tfdd train`'s tee and the window.
"""

from __future__ import annotations

import contextlib
import os
import socket
from collections.abc import Mapping
from pathlib import Path
from typing import IO

from engine.core.protocol.paths import RunPaths
from engine.core.runs.runlock import last_taken_by
from engine.core.tfconfig import role_from_environment

MAX_HELD_LINES = 20_000  # before the claim: TensorFlow's start-up says a few dozen


def task_raw_log(run_dir: Path, strategy: str, environ: Mapping[str, str] = os.environ) -> tuple[Path, bool]:
    """Where this process's raw stderr goes, and whether that is a file of its own: the run's stderr.log
    (a run, a cluster's chief), else RUN_DIR.<task id>.log beside it (each task of a cluster its own file).
    ConfigError for a malformed TF_CONFIG."""
    role = role_from_environment(strategy, environ)
    if role.is_chief:
        return RunPaths(run_dir).stderr_log, False
    run_dir = Path(run_dir).resolve()
    return run_dir.with_name(f"{run_dir.name}.{role.task}.log"), True


class RawLog:
    """Appends lines to `path` (RUN_DIR/stderr.log) once `owner_pid` holds the run's lock; with no
    `owner_pid`, to a file of the task's own from the first line (its folder made if need be)."""

    def __init__(self, path: Path, owner_pid: int | None) -> None:
        self.path = Path(path)
        self.owner_pid = owner_pid
        self._paths = RunPaths(self.path.parent)
        self._held: list[str] = []
        self._file: IO[str] | None = None
        self._failed = False  # a full disk or a vanished folder: the run matters more than its raw log

    def write(self, lines: list[str]) -> None:
        if self._failed or not (lines or self._held):
            return
        if self._file is None:
            self._held.extend(lines)
            del self._held[:-MAX_HELD_LINES]
            if self.owner_pid is not None and not self._owned():
                return
            lines, self._held = self._held, []
            try:
                if self.owner_pid is None:
                    self.path.parent.mkdir(parents=True, exist_ok=True)
                self._file = open(self.path, "a", encoding="utf-8")  # noqa: SIM115 - open for the run
            except OSError:
                self._failed = True
                return
        if not lines:
            return
        try:
            self._file.write("\n".join(lines) + "\n")
            self._file.flush()
        except (OSError, ValueError):
            self._failed = True

    def _owned(self) -> bool:
        """The owner took the run's lock and its claim was accepted (it may have died since: its last words
        still belong here). A resume refused after taking the lock (nothing to resume from) is not accepted."""
        taken = last_taken_by(self._paths) if self.owner_pid is not None else None
        mine = taken is not None and taken.pid == self.owner_pid and taken.host == socket.gethostname()
        return mine and taken.accepted

    def close(self) -> None:
        """The stream ended: lines still held are written if the run went ahead after the last of them."""
        self.write([])
        if self._file is not None:
            with contextlib.suppress(OSError):
                self._file.close()
            self._file = None
