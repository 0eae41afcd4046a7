"""engine.train.peers: the wait for a multi_worker_mirrored cluster's other tasks, on real loopback sockets."""

from __future__ import annotations

import json
import socket
import threading

import pytest

from engine.core import events as ev
from engine.core.protocol.channel import StopSignal
from engine.core.tfconfig import free_loopback_ports
from engine.train.peers import NotJoined, wait_for_peers


@pytest.fixture
def two_tasks(monkeypatch):
    """TF_CONFIG of worker 1 of two on free loopback ports; returns (my port, worker 0's port)."""
    ports = free_loopback_ports(2)
    cluster = {"worker": [f"127.0.0.1:{p}" for p in ports]}
    monkeypatch.setenv("TF_CONFIG", json.dumps({"cluster": cluster, "task": {"type": "worker", "index": 1}}))
    return ports[1], ports[0]


def test_it_returns_once_the_peer_answers_and_says_nothing_then(two_tasks):
    _, peer = two_tasks
    logs: list[ev.Event] = []
    with socket.create_server(("127.0.0.1", peer)):
        wait_for_peers("multi_worker_mirrored", StopSignal(), logs.append)
    assert logs == []


def test_while_it_waits_its_own_port_answers_and_a_stop_ends_the_wait(two_tasks):
    mine, peer = two_tasks
    stop = StopSignal()
    answered: list[bool] = []

    def peer_looks_then_stops() -> None:
        with socket.create_connection(("127.0.0.1", mine), timeout=30):
            answered.append(True)
        stop.request("stop requested")

    logs: list[ev.Event] = []

    def emit(event: ev.Event) -> None:
        logs.append(event)
        if len(logs) == 1:
            threading.Thread(target=peer_looks_then_stops, daemon=True).start()

    with pytest.raises(NotJoined, match=rf"stopped while waiting for worker 0 at 127.0.0.1:{peer}"):
        wait_for_peers("multi_worker_mirrored", stop, emit)
    assert answered == [True]
    assert f"waiting for worker 0 at 127.0.0.1:{peer} for 0 s" in logs[0].message


def test_a_join_timeout_that_is_no_number_is_refused_by_name(two_tasks, monkeypatch):
    monkeypatch.setenv("TFDD_JOIN_TIMEOUT_S", "ten")
    with pytest.raises(NotJoined, match="TFDD_JOIN_TIMEOUT_S='ten' is not a number of seconds"):
        wait_for_peers("multi_worker_mirrored", StopSignal(), lambda event: None)


def test_other_strategies_do_not_wait(two_tasks):
    wait_for_peers("parameter_server", StopSignal(), lambda event: None)
