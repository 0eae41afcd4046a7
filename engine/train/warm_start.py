"""The warm trainer: TensorFlow imported ahead of time, its run handed over on stdin.

`python -m engine.train.worker --wait-for-config` imports TensorFlow, sends `trainer_ready` and waits for a line
of trainer arguments (engine.core.protocol.commands.assignment_line); then it is an ordinary worker. It touches
no device while waiting, so the run's device plan still applies. The import runs in a thread that lowers only
its own priority (Linux priorities are per thread), so the run trains at normal priority. What TensorFlow reads
at import is fixed, so its owner hands it only runs with the environment it started with.
"""

from __future__ import annotations

import os
import sys
import threading
import time

from engine.core import events as ev
from engine.core.protocol.codes import STOP_LINE, ExitCode
from engine.core.protocol.commands import parse_assignment

IMPORT_NICENESS = 10


def resident_mb() -> float:
    """This process's resident size (Linux VmRSS; elsewhere the peak, which is close while idle)."""
    try:
        with open("/proc/self/status", encoding="ascii") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    import resource

    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _lower_own_priority() -> None:
    """Only this thread's: the main thread, and every thread it creates later, keep theirs."""
    if sys.platform.startswith("linux"):
        try:
            tid = threading.get_native_id()
            os.setpriority(os.PRIO_PROCESS, tid, os.getpriority(os.PRIO_PROCESS, tid) + IMPORT_NICENESS)
        except OSError:
            pass  # keep normal priority rather than not start


def _preload() -> None:
    """Import what a run imports and convert the custom loop's functions, touching no device; fail if
    something did touch one."""
    _lower_own_priority()
    import engine.train.checkpoints  # noqa: F401
    import engine.train.devices  # noqa: F401
    import engine.train.loops  # noqa: F401
    import engine.train.models  # noqa: F401
    import engine.train.strategies  # noqa: F401
    import engine.train.tensorboard_sink  # noqa: F401
    import engine.train.trainer  # noqa: F401
    from engine.train.loops import convert_loop_functions_ahead
    from engine.train.tf_runtime import devices_untouched

    convert_loop_functions_ahead()

    if not devices_untouched():
        raise RuntimeError("TensorFlow's devices were initialised while preloading; a device plan could not apply")


def wait_for_assignment(emit: ev.Sink) -> list[str]:
    """Preload, say ready, and return the run's arguments.

    Ends the process when told to go (EOF or "stop": exit 0), and when TensorFlow cannot be
    imported or the line is not an assignment (a run_failed event first).
    """
    started = time.perf_counter()

    def importer() -> None:
        try:
            _preload()
        except BaseException as exc:  # a warm trainer must never hang silently
            emit(ev.RunFailed(message=f"The warm trainer could not prepare TensorFlow: {exc}", error_type="WarmStart"))
            os._exit(ExitCode.FAILED)
        emit(
            ev.TrainerReady(
                pid=os.getpid(), import_seconds=round(time.perf_counter() - started, 3), rss_mb=round(resident_mb(), 1)
            )
        )

    thread = threading.Thread(target=importer, name="tf-importer", daemon=True)
    thread.start()
    line = sys.stdin.readline()
    if not line or line.strip().lower() == STOP_LINE:
        os._exit(ExitCode.OK)  # not Python's exit: the importer may be inside a native module's init
    thread.join()
    try:
        return parse_assignment(line)
    except ValueError as exc:
        emit(ev.RunFailed(message=str(exc), error_type="UsageError"))
        os._exit(ExitCode.CONFIG)
