"""How a trainer process ends: only through its own path, never silently by the user's code.

A script, Slurm or a TFJob reads exit code 0 as a finished run, so a process
must not exit 0 before run_finished is written. The user's `sys.exit` is an
exception and is caught where user code is called (engine.train.user_code);
`os._exit` cannot be caught, so while a run is going `os._exit` is replaced
(`exits_guarded`): a call from anywhere but the engine's own `exit_now`
reports the file and line that made it, then ends the process with code 1.
"""

from __future__ import annotations

import contextlib
import os
import sys
import threading
from collections.abc import Callable, Iterator

from engine.core.protocol.codes import ExitCode
from engine.train.retire import THREAD_NAME as RETIRER

_os_exit = os._exit  # the real one: the engine's own way out


AUTOGRAPH_MODULE_PREFIX = "__autograph_generated_file"  # AutoGraph's name for a converted function's module


def remove_autograph_files() -> None:
    """AutoGraph writes each converted function to a temporary file (its module, in sys.modules) and removes
    them at exit through atexit, which os._exit skips: they are removed here instead."""
    for name, module in list(sys.modules.items()):
        if name.startswith(AUTOGRAPH_MODULE_PREFIX):
            with contextlib.suppress(OSError, TypeError):
                os.remove(getattr(module, "__file__", None))


def exit_now(code: int) -> None:
    """End the process at once with `code`, after flushing Python's streams and removing AutoGraph's temporary
    files (no interpreter teardown, so no atexit)."""
    remove_autograph_files()
    with contextlib.suppress(Exception):
        sys.stdout.flush()
        sys.stderr.flush()
    _os_exit(code)


def user_threads_left() -> list[str]:
    """Names of live non-daemon threads the user's code started: the interpreter would wait for them at exit
    (the engine's own iterator retirer is not one: engine.train.retire)."""
    ours = (threading.main_thread().name, RETIRER)
    return [t.name for t in threading.enumerate() if t.name not in ours and not t.daemon and t.is_alive()]


@contextlib.contextmanager
def exits_guarded(report: Callable[[str], None]) -> Iterator[None]:
    """While inside, `os._exit` from the user's code calls `report(message)` and exits with code 1."""
    reported = threading.Lock()

    def guarded_exit(code: int) -> None:
        caller = sys._getframe(1)
        message = (
            f"the user's code ended the process with os._exit({code}) in {caller.f_code.co_filename}, "
            f"line {caller.f_lineno} ({caller.f_code.co_name}); it must return instead. Finished epochs "
            "and checkpoints are kept."
        )
        if reported.acquire(blocking=False):  # one report, even when several threads exit at once
            with contextlib.suppress(Exception):
                report(message)
            with contextlib.suppress(Exception):
                print(f"error: {message}", file=sys.stderr)
        exit_now(ExitCode.FAILED)

    os._exit = guarded_exit
    try:
        yield
    finally:
        os._exit = _os_exit
