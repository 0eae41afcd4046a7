"""A run directory is ours or it is not, and one process at a time trains it (issue items 1 and 2).

The refusals happen before TensorFlow starts, so these run the real command line in a second.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from engine.core import events as ev
from engine.core.config import RunConfig
from engine.core.problems import RunDirError
from engine.core.protocol.codes import RunStatus
from engine.core.protocol.paths import RunPaths
from engine.core.runs.history import summarize
from engine.core.runs.rundir import RunDir, new_run_dir
from engine.core.runs.runlock import RunLock, RunLocked, holder
from tests.engine.train.worker_process import REPO, env, run_worker, write_config
from tests.run_fixtures import write_run


def cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "main.py", *args], cwd=REPO, env=env(), capture_output=True, text=True, timeout=120
    )


def snapshot(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def test_train_into_a_folder_of_the_users_files_is_refused_and_changes_nothing(tmp_path):
    mine = tmp_path / "my-project"
    mine.mkdir()
    (mine / "config.json").write_text('{"my": "own settings"}', encoding="utf-8")
    (mine / "model.keras").write_bytes(b"my precious model")
    (mine / "metrics.csv").write_text("epoch,loss\n1,0.5\n", encoding="utf-8")
    before = snapshot(mine)
    config = write_config(tmp_path, {"epochs": 1})
    out = cli("train", "--config", str(config), "--run-dir", str(mine))
    assert out.returncode == 2, out.stderr
    lines = [line for line in out.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and "not a run folder" in lines[0] and str(mine) in lines[0], out.stderr
    assert snapshot(mine) == before


def test_train_into_another_runs_folder_is_refused(tmp_path):
    other = write_run(tmp_path, "finished", ev.RunFinished(status="completed", epochs_completed=2, run_dir=""))
    (other / "checkpoints" / "ckpt-2.index").write_bytes(b"the other run's checkpoint")
    before = snapshot(other)
    config = write_config(tmp_path, {"epochs": 1})
    out = cli("train", "--config", str(config), "--run-dir", str(other))
    assert out.returncode == 2
    assert "already holds a run" in out.stderr and f"--resume {other}" in out.stderr
    assert snapshot(other) == before


def test_the_worker_refuses_with_a_run_failed_event(tmp_path):
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "notes.txt").write_text("keep me", encoding="utf-8")
    config = write_config(tmp_path, {"epochs": 1})
    finished = run_worker(["--config", str(config), "--run-dir", str(mine)])
    assert finished.returncode == 2
    assert "not a run folder" in finished.of(ev.RunFailed)[0].message
    assert sorted(p.name for p in mine.iterdir()) == ["notes.txt"]


def test_a_new_run_dir_is_marked_first_and_accepts_a_fresh_run(tmp_path):
    run = new_run_dir(RunConfig(), tmp_path)
    assert RunPaths(run).is_ours() and not RunPaths(run).has_run_files()
    writer = RunDir(run, validation=False)  # the window's and the launcher's way: claimed, then trained
    writer.close()
    empty = tmp_path / "empty"
    empty.mkdir()
    RunDir(empty, validation=False).close()
    assert RunPaths(empty).is_ours()


def test_an_older_run_without_the_marker_can_still_be_resumed(tmp_path):
    run = write_run(tmp_path, "old", None, 1)
    RunPaths(run).marker.unlink()
    (run / "checkpoints" / "ckpt-1.index").write_bytes(b"")
    writer = RunDir(run, validation=True, resume=True)
    writer.close()


def test_a_second_writer_is_refused_naming_the_holders_pid_and_host(tmp_path):
    run = new_run_dir(RunConfig(), tmp_path)
    first = RunDir(run, validation=False)
    try:
        with pytest.raises(RunLocked) as refused:
            RunDir(run, validation=False, resume=True)
        assert f"pid {os.getpid()}" in str(refused.value) and socket.gethostname() in str(refused.value)
    finally:
        first.close()


def test_a_second_resume_from_the_command_line_is_refused(tmp_path):
    run = write_run(tmp_path, "stopped", ev.RunFinished(status="stopped", epochs_completed=1, run_dir=""), 1)
    (run / "checkpoints" / "ckpt-1.index").write_bytes(b"")
    before = snapshot(run)
    with RunLock.acquire(RunPaths(run), "test holder"):
        out = cli("train", "--resume", str(run))
        assert summarize(run).status == RunStatus.RUNNING and not summarize(run).resumable
    assert out.returncode == 2
    assert f"in use by pid {os.getpid()} on {socket.gethostname()}" in out.stderr
    assert {k: v for k, v in snapshot(run).items() if k != ".tfdd-lock"} == {
        k: v for k, v in before.items() if k != ".tfdd-lock"
    }


HOLDER = """
import sys, time
from engine.core.protocol.paths import RunPaths
from engine.core.runs.runlock import RunLock
lock = RunLock.acquire(RunPaths(sys.argv[1]), "test")
print("locked", flush=True)
time.sleep(600)
"""


@pytest.mark.skipif(os.name != "posix", reason="kill -9")
def test_the_kernel_releases_the_lock_of_a_killed_holder(tmp_path):
    run = new_run_dir(RunConfig(), tmp_path)
    proc = subprocess.Popen(
        [sys.executable, "-c", HOLDER, str(run)], cwd=REPO, env=env(), stdout=subprocess.PIPE, text=True
    )
    try:
        assert proc.stdout.readline().strip() == "locked"
        held = holder(RunPaths(run))
        assert held is not None and held.pid == proc.pid and held.command == "test"
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=30)
    finally:
        proc.kill()
        proc.wait(timeout=30)
    deadline = time.monotonic() + 5
    while holder(RunPaths(run)) is not None:
        assert time.monotonic() < deadline, "the lock outlived its holder"
        time.sleep(0.05)
    RunDir(run, validation=False).close()  # and the run is free again


def test_history_shows_a_locked_run_as_running_without_resume(tmp_path):
    run = write_run(tmp_path, "killed", None, 1)
    (run / "checkpoints" / "ckpt-1.index").write_bytes(b"")
    assert summarize(run).status == RunStatus.INTERRUPTED and summarize(run).resumable
    lock = RunLock.acquire(RunPaths(run), "tfdd train")
    try:
        running = summarize(run)
        assert running.status == RunStatus.RUNNING and not running.resumable
        assert running.holder is not None and running.holder.pid == os.getpid()
    finally:
        lock.release()
    assert summarize(run).status == RunStatus.INTERRUPTED


def test_continue_resumes_a_run_of_the_same_config_and_refuses_another(tmp_path):
    from engine.core.runs.rundir import open_run

    run = new_run_dir(RunConfig(), tmp_path)
    RunConfig(epochs=3).save(run / "config.json")
    same = write_config(tmp_path, RunConfig(epochs=3).to_dict(), "same.json")
    other = write_config(tmp_path, RunConfig(epochs=4).to_dict(), "other.json")
    assert open_run(str(same), str(run), None, continue_existing=True)[2] is True
    with pytest.raises(RunDirError, match="different config"):
        open_run(str(other), str(run), None, continue_existing=True)
    fresh = tmp_path / "fresh"
    assert open_run(str(same), str(fresh), None, continue_existing=True)[2] is False
    json.loads((run / ".tfdd-run").read_text())  # the marker is JSON a person can read
