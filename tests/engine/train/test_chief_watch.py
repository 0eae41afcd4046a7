"""engine.train.chief_watch: tasks that serve a run stop once its chief is gone, never before it came."""

from __future__ import annotations

import socket

from engine.core.protocol.channel import StopSignal
from engine.core.protocol.codes import ExitCode
from engine.core.tfconfig import Task
from engine.train.chief_watch import watch_chief


def test_a_chief_that_answered_and_went_quiet_stops_the_task():
    server = socket.create_server(("127.0.0.1", 0))
    chief = Task("chief", 0, "127.0.0.1", server.getsockname()[1])
    stop = StopSignal()
    thread = watch_chief(chief, stop, poll_s=0.05, misses=2)
    assert not stop.wait(0.3), "the chief answers: nothing happens"
    server.close()
    assert stop.wait(5), "its silence asks the task to stop"
    assert "is gone" in stop.reason and stop.exit_code == ExitCode.OK
    thread.join(5)


def test_a_chief_that_never_answered_is_not_judged():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]  # free, and nobody listens: a chief that has not started yet
    stop = StopSignal()
    thread = watch_chief(Task("chief", 0, "127.0.0.1", port), stop, poll_s=0.05, misses=2)
    assert not stop.wait(0.5)
    stop.request("test over")
    thread.join(5)
