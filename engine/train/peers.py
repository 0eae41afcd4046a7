"""A multi_worker_mirrored task waits for its peers in Python, where it can speak and be stopped.

The strategy's constructor blocks in TensorFlow's coordination service, holding the GIL, until every task has
registered (up to an hour): nothing runs, nothing is said. So first each task listens on its cluster port and
waits until every peer's port answers: a wait that names whom it waits for, ends at once on SIGTERM or Ctrl-C,
and gives up after TFDD_JOIN_TIMEOUT_S seconds.
"""

from __future__ import annotations

import contextlib
import os
import socket
import time
from collections.abc import Iterator, Mapping

from engine.core import events as ev
from engine.core.config import Strategy
from engine.core.messages import msg
from engine.core.protocol.channel import StopSignal
from engine.core.protocol.codes import DEFAULT_JOIN_TIMEOUT_S, JOIN_TIMEOUT_ENV
from engine.core.tfconfig import EVALUATOR_JOB, TF_CONFIG_ENV, Task, parse_tf_config
from engine.train.chief_watch import chief_answers

POLL_S = 0.5
REPORT_EVERY_S = 10.0


class NotJoined(Exception):
    """The cluster did not form: a peer never answered within the join timeout, or a stop came first."""


def join_timeout_s(environ: Mapping[str, str] = os.environ) -> float:
    """TFDD_JOIN_TIMEOUT_S, else the default; NotJoined when it is not a positive number of seconds."""
    text = environ.get(JOIN_TIMEOUT_ENV, "").strip()
    if not text:
        return float(DEFAULT_JOIN_TIMEOUT_S)
    try:
        value = float(text)
    except ValueError:
        value = 0.0
    if not value > 0:
        raise NotJoined(f"{JOIN_TIMEOUT_ENV}={text!r} is not a number of seconds above 0; set it to e.g. 600")
    return value


def wait_for_peers(strategy: str, stop: StopSignal, emit: ev.Sink) -> None:
    """Under multi_worker_mirrored in a cluster of two or more: return once every chief and worker task of
    TF_CONFIG answers on its port; NotJoined after the join timeout or on a stop. Elsewhere: return."""
    doc = parse_tf_config(os.environ.get(TF_CONFIG_ENV) or "{}")
    if strategy != Strategy.MULTI_WORKER_MIRRORED or doc.task_type in (None, EVALUATOR_JOB):
        return
    tasks = doc.cluster.training_tasks()
    me = next((t for t in tasks if (t.job, t.index) == (doc.task_type, doc.task_index or 0)), None)
    missing = [t for t in tasks if t != me]
    if me is None or not missing:
        return
    timeout_s = join_timeout_s()
    started = time.monotonic()
    reported = started - REPORT_EVERY_S
    with _listening(me.port):
        while True:
            missing = [t for t in missing if not chief_answers(t, POLL_S)]
            waited = time.monotonic() - started
            if not missing:
                if waited >= REPORT_EVERY_S:
                    emit(
                        ev.Log(
                            level="info", message=msg("every task has joined after {seconds} s", seconds=round(waited))
                        )
                    )
                return
            if waited >= timeout_s:
                raise NotJoined(
                    msg(
                        "{tasks} did not join within {timeout} s: start every task of the cluster (is it running, "
                        "is its port open?), or wait longer: {variable}=SECONDS",
                        tasks=_listed(missing),
                        timeout=f"{timeout_s:g}",
                        variable=JOIN_TIMEOUT_ENV,
                    )
                )
            if time.monotonic() - reported >= REPORT_EVERY_S:
                reported = time.monotonic()
                waiting = msg(
                    "waiting for {tasks} for {seconds} s (gives up after {timeout} s: {variable})",
                    tasks=_listed(missing),
                    seconds=round(waited),
                    timeout=f"{timeout_s:g}",
                    variable=JOIN_TIMEOUT_ENV,
                )
                emit(ev.Log(level="info", message=waiting))
            if stop.wait(POLL_S):
                raise NotJoined(
                    msg("stopped while waiting for {tasks} ({reason})", tasks=_listed(missing), reason=stop.reason)
                )


def _listed(tasks: list[Task]) -> str:
    return ", ".join(msg("{task} at {address}", task=t.name, address=t.address) for t in tasks)


@contextlib.contextmanager
def _listening(port: int) -> Iterator[None]:
    """Answer connections on `port` (on every interface, as TensorFlow's server will) while inside; closed
    before the server binds it. Never accepting leaves no connection of ours in TIME_WAIT on the port. A port
    already taken is left alone: the server's start will say so."""
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    try:
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind(("", port))
        listener.listen(64)
    except OSError:
        listener.close()
        yield
        return
    try:
        yield
    finally:
        listener.close()
