"""stderr.log is written only by the process that holds its run: a refused run leaves the folder as it was."""

from __future__ import annotations

import os

from engine.core.protocol.paths import RunPaths
from engine.core.runs import raw_log
from engine.core.runs.raw_log import RawLog
from engine.core.runs.runlock import RunLock


def test_lines_wait_until_the_owner_holds_the_run_then_all_are_written(tmp_path):
    paths = RunPaths(tmp_path)
    log = RawLog(paths.stderr_log, owner_pid=os.getpid())
    log.write(["I0000 cpu_feature_guard", "oneDNN custom operations are on"])
    assert not paths.stderr_log.exists(), "before the claim nothing is written"
    with RunLock.acquire(paths, "tfdd train") as lock:
        log.write(["claimed, not yet accepted"])
        assert not paths.stderr_log.exists(), "a claim can still be refused (a resume with nothing to resume)"
        lock.accept()
        log.write(["epoch 1"])
        log.close()
    assert paths.stderr_log.read_text().splitlines() == [
        "I0000 cpu_feature_guard",
        "oneDNN custom operations are on",
        "claimed, not yet accepted",
        "epoch 1",
    ]


def test_a_run_held_by_another_process_gets_none_of_our_lines(tmp_path):
    paths = RunPaths(tmp_path)
    with RunLock.acquire(paths, "tfdd train") as lock:  # this process trains it; the refused one is "another"
        lock.accept()
        log = RawLog(paths.stderr_log, owner_pid=os.getpid() + 1)
        log.write(["error: the run is in use by pid …"])
        log.close()
    assert not paths.stderr_log.exists()


def test_lines_held_before_the_claim_are_bounded(tmp_path, monkeypatch):
    monkeypatch.setattr(raw_log, "MAX_HELD_LINES", 3)
    paths = RunPaths(tmp_path)
    log = RawLog(paths.stderr_log, owner_pid=os.getpid())
    log.write([str(i) for i in range(10)])
    with RunLock.acquire(paths, "tfdd train") as lock:
        lock.accept()
        log.write(["last"])
        log.close()
    assert paths.stderr_log.read_text().splitlines() == ["8", "9", "last"], "the newest lines are kept"


def test_lines_held_when_the_run_goes_ahead_silently_are_written_at_the_end(tmp_path):
    """TensorFlow's start-up lines come before the claim is accepted, often with nothing after them."""
    paths = RunPaths(tmp_path)
    log = RawLog(paths.stderr_log, owner_pid=os.getpid())
    with RunLock.acquire(paths, "tfdd train") as lock:
        log.write(["failed call to cuInit"])
        lock.accept()
    log.close()  # the trainer has ended (its lock released): the lines still belong to its run
    assert paths.stderr_log.read_text() == "failed call to cuInit\n"


def test_a_cluster_task_other_than_the_chief_keeps_its_raw_log_in_a_file_of_its_own(tmp_path):
    import json

    from engine.core.runs.raw_log import task_raw_log

    cluster = {"worker": ["127.0.0.1:1", "127.0.0.1:2"]}
    run_dir = tmp_path / "runs" / "r"
    for index, expected in (
        (0, (RunPaths(run_dir).stderr_log, False)),
        (1, (tmp_path / "runs" / "r.worker-1.log", True)),
    ):
        env = {"TF_CONFIG": json.dumps({"cluster": cluster, "task": {"type": "worker", "index": index}})}
        assert task_raw_log(run_dir, "multi_worker_mirrored", env) == expected
    log = RawLog(tmp_path / "runs" / "r.worker-1.log", owner_pid=None)  # no run to wait for: written at once
    log.write(["I0000 grpc_server_lib.cc:467] Started server with target: grpc://127.0.0.1:2"])
    assert (tmp_path / "runs" / "r.worker-1.log").read_text().startswith("I0000 grpc_server_lib")
    log.close()
