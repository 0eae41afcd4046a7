"""Work continued without the window: a headless command in a session of its own, its output in a log file.

The window's children stop when the window goes (they read their stop from the window's pipe); a run or a sweep
the user keeps running is stopped with its checkpoint and continued by a `tfdd` command started here instead:
no terminal or window it could die with, its stdin empty (it stops on SIGTERM or Ctrl-C only), what it prints
appended to a log in its folder. It holds the folder's lock, so a window opened later shows it trained by another
process, follows it and can stop it.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path


def start_in_background(command: list[str], log: Path) -> int:
    """Start `command` detached from this process, printing to `log`; its pid. OSError when it cannot."""
    with open(log, "ab") as out:  # appended: work continued again keeps its earlier lines
        process = subprocess.Popen(
            command,
            stdin=subprocess.DEVNULL,
            stdout=out,
            stderr=out,
            start_new_session=os.name == "posix",
            creationflags=getattr(subprocess, "CREATE_NEW_PROCESS_GROUP", 0),
        )
    return process.pid
