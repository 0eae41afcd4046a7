"""stderr.log is written only by the process that holds its run: a refused run leaves the folder as it was."""

from __future__ import annotations

import os

from engine import raw_log
from engine.protocol.paths import RunPaths
from engine.raw_log import RawLog
from engine.runlock import RunLock


def test_lines_wait_until_the_owner_holds_the_run_then_all_are_written(tmp_path):
    paths = RunPaths(tmp_path)
    log = RawLog(paths.stderr_log, owner_pid=os.getpid())
    log.write(["I0000 cpu_feature_guard", "oneDNN custom operations are on"])
    assert not paths.stderr_log.exists(), "before the claim nothing is written"
    with RunLock.acquire(paths, "tfdd train"):
        log.write(["epoch 1"])
        log.close()
    assert paths.stderr_log.read_text().splitlines() == [
        "I0000 cpu_feature_guard",
        "oneDNN custom operations are on",
        "epoch 1",
    ]


def test_a_run_held_by_another_process_gets_none_of_our_lines(tmp_path):
    paths = RunPaths(tmp_path)
    with RunLock.acquire(paths, "tfdd train"):  # this process trains it; the refused one is "another"
        log = RawLog(paths.stderr_log, owner_pid=os.getpid() + 1)
        log.write(["error: the run is in use by pid …"])
        log.close()
    assert not paths.stderr_log.exists()


def test_lines_held_before_the_claim_are_bounded(tmp_path, monkeypatch):
    monkeypatch.setattr(raw_log, "MAX_HELD_LINES", 3)
    paths = RunPaths(tmp_path)
    log = RawLog(paths.stderr_log, owner_pid=os.getpid())
    log.write([str(i) for i in range(10)])
    with RunLock.acquire(paths, "tfdd train"):
        log.write(["last"])
        log.close()
    assert paths.stderr_log.read_text().splitlines() == ["8", "9", "last"], "the newest lines are kept"
