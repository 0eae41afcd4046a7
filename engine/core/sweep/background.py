"""A sweep continued without the window: `tfdd sweep --resume` in a session of its own, its output in its folder.

The window's sweep process stops when the window goes (it reads its stop from the window's pipe); a sweep the
user keeps running is continued by this process instead: no terminal or window it could die with, its stdin
empty (it stops on SIGTERM or Ctrl-C only), what it prints in SWEEP_DIR/sweep.log. It holds the sweep's lock, so
a window opened later shows the sweep trained by another process and follows it.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

from engine.core.protocol.commands import cli_command
from engine.core.sweep import SweepPaths


def background_command(sweep_dir: Path) -> list[str]:
    """The sweep continued in its folder, printing its trials (no events: nobody reads them)."""
    return cli_command("sweep", "--resume", str(sweep_dir))


def start_in_background(sweep_dir: Path, command: list[str]) -> int:
    """Start `command` (background_command) detached from this process; its pid. OSError when it cannot."""
    paths = SweepPaths(sweep_dir)
    with open(paths.log, "ab") as log:  # appended: a sweep continued again keeps its earlier lines
        process = subprocess.Popen(
            command,
            stdin=subprocess.DEVNULL,
            stdout=log,
            stderr=log,
            start_new_session=os.name == "posix",
            creationflags=getattr(subprocess, "CREATE_NEW_PROCESS_GROUP", 0),
        )
    return process.pid
