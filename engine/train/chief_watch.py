"""Tasks that serve a run end with it: stop when the chief's server stops answering.

A parameter-server worker or ps task's TensorFlow server never returns, and the evaluator waits for checkpoints
a dead chief will never write. The local launcher stops them, but a task started by an exported script, Slurm
or Kubernetes has no such parent: so each watches the chief's port, and once the chief has answered, a silence
of a few seconds stops the task. A chief that never answered is not judged: tasks start in any order.
"""

from __future__ import annotations

import socket
import threading

from engine.core.protocol.channel import StopSignal
from engine.core.protocol.codes import ExitCode
from engine.core.tfconfig import Task

POLL_S = 1.0
MISSES = 3  # consecutive failed connections before the chief counts as gone


def chief_answers(task: Task, timeout_s: float = POLL_S) -> bool:
    try:
        socket.create_connection((task.host, task.port), timeout=timeout_s).close()
    except OSError:
        return False
    return True


def watch_chief(chief: Task, stop: StopSignal, poll_s: float = POLL_S, misses: int = MISSES) -> threading.Thread:
    """A daemon thread that requests a stop once the chief, after answering, stays silent `misses` polls."""

    def watch() -> None:
        seen, missed = False, 0
        while not stop.wait(poll_s):
            if chief_answers(chief, poll_s):
                seen, missed = True, 0
            elif seen:
                missed += 1
                if missed >= misses:
                    stop.request(f"the chief ({chief.address}) is gone: its run has ended", ExitCode.OK)
                    return

    thread = threading.Thread(target=watch, name="chief-watch", daemon=True)
    thread.start()
    return thread
