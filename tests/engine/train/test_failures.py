"""Stopped, killed, diverged and noisy runs: the user sees why, and nothing is lost."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from engine.core import events as ev
from engine.core.runs.rundir import read_events, read_metrics
from tests.engine.train.worker_process import REPO, LiveWorker, base_config, env, run_worker, write_config

pytestmark = pytest.mark.slow

# 20000 examples / 32 = 625 steps per epoch: long enough to interrupt mid-epoch.
LONG = {"epochs": 3, "global_batch_size": 32, "data": {"num_samples": 20000}, "steps_per_execution": 5}


def metric_epochs(run_dir: Path) -> list[int]:
    return [int(r["epoch"]) for r in read_metrics(run_dir / "metrics.csv")]


def resume(run_dir: Path):
    return run_worker(["--resume", str(run_dir)])


NOISY_TRAINER = """
import os, sys
from engine.train import controller
original = controller.Controller.block_done
def noisy(self, *args, **kwargs):
    print('{"type": "batch_end", "epoch": "garbage"')
    print("a user print() in the middle of training")
    os.write(1, b"a raw write to file descriptor 1, like a C++ log line\\n")
    return original(self, *args, **kwargs)
controller.Controller.block_done = noisy
from engine.train.worker import main
sys.exit(main(sys.argv[1:]))
"""


@pytest.mark.parametrize("loop, how", [("custom", "sigterm"), ("fit", "stop")], ids=["custom", "fit"])
def test_stop_mid_epoch_then_resume_keeps_every_epoch_once(tmp_path, loop, how):
    """Stopped from the window ("stop" on stdin, exit code 0) or by SIGTERM, how Kubernetes and process managers
    stop a job, which the window's trainer honours too (exit code 143): a checkpoint mid-epoch, then the resume
    trains the rest of every epoch once. The resumed trainer prints to stdout as it trains (NOISY_TRAINER): the
    prints go to stderr and the event stream stays whole."""
    import signal

    run_dir = tmp_path / "run"
    config = write_config(tmp_path, base_config(**LONG, loop=loop))
    worker = LiveWorker(["--config", str(config), "--run-dir", str(run_dir)])
    worker.wait_for(lambda e: isinstance(e, ev.BatchEnd) and e.epoch == 2 and e.step >= 100)
    if how == "sigterm":
        worker.proc.send_signal(signal.SIGTERM)
    else:
        worker.stop()
    assert worker.finish() == (143 if how == "sigterm" else 0)
    saved = [e for e in worker.events if isinstance(e, ev.CheckpointSaved)][-1]
    finished = worker.events[-1]
    assert isinstance(finished, ev.RunFinished) and finished.status == "stopped"
    assert (saved.epoch, saved.step > 0) == (1, True)  # 0-based epoch 1 = the second, mid-way
    assert metric_epochs(run_dir) == [1]

    again = run_worker([], command=[sys.executable, "-c", NOISY_TRAINER, "--resume", str(run_dir)])
    assert again.returncode == 0, again.stderr[-2000:]
    assert again.stdout_garbage == []
    assert "a user print()" in again.stderr and "raw write" in again.stderr
    started = again.of(ev.RunStarted)[0]
    assert (started.start_epoch, started.start_step) == (1, saved.step)
    assert again.of(ev.BatchEnd)[0].global_step > started.steps_per_epoch + saved.step - 1
    assert metric_epochs(run_dir) == [1, 2, 3]
    assert [e.status for e in read_events(run_dir) if isinstance(e, ev.RunFinished)] == ["stopped", "completed"]


def test_nan_loss_fails_the_run_and_keeps_finished_epochs(tmp_path):
    """Epoch 1 trains on clean data; the file then gains an extreme row, and the
    resumed run diverges: run_failed says what to do, epoch 1 and its checkpoint stay."""
    rng = np.random.default_rng(0)
    x = rng.standard_normal((2048, 4))
    y = (x.sum(axis=1) > 0).astype(int)
    csv = tmp_path / "data.csv"

    def write(rows: np.ndarray) -> None:
        lines = ["a,b,c,d,label"] + [",".join(f"{v:.6g}" for v in row[:4]) + f",{int(row[4])}" for row in rows]
        csv.write_text("\n".join(lines) + "\n", encoding="utf-8")

    table = np.column_stack([x, y])
    write(table)
    run_dir = tmp_path / "run"
    config = write_config(tmp_path, base_config(epochs=4, data={"kind": "csv", "path": str(csv), "label": "label"}))
    worker = LiveWorker(["--config", str(config), "--run-dir", str(run_dir)])
    worker.wait_for(lambda e: isinstance(e, ev.EpochEnd) and e.epoch == 1)
    worker.stop()
    assert worker.finish() == 0
    checkpoints_before = sorted(p.name for p in (run_dir / "checkpoints").iterdir())

    table[:, :4] = 3e38  # finite in float32, but every product with a weight overflows
    write(table)
    failed = resume(run_dir)
    assert failed.returncode == 1
    message = failed.of(ev.RunFailed)[0].message
    assert "loss became" in message and "learning_rate" in message
    assert failed.of(ev.RunFailed)[0].epochs_completed == 1
    assert metric_epochs(run_dir) == [1]
    assert sorted(p.name for p in (run_dir / "checkpoints").iterdir()) == checkpoints_before


def test_bad_config_fails_before_tensorflow_with_every_problem(tmp_path):
    config = write_config(tmp_path, {"strategy": "mirored", "epochs": 0})
    finished = run_worker(["--config", str(config), "--run-dir", str(tmp_path / "run")])
    assert finished.returncode == 2
    failed = finished.of(ev.RunFailed)[0]
    assert "strategy" in failed.message and "mirrored" in failed.message and "epochs" in failed.message


def test_parameter_server_without_a_cluster_says_how_to_start_one(tmp_path):
    config = write_config(tmp_path, base_config(strategy="parameter_server"))
    finished = run_worker(["--config", str(config), "--run-dir", str(tmp_path / "run")])
    assert finished.returncode == 2
    assert "tfdd cluster launch --workers 2 --ps 1" in finished.of(ev.RunFailed)[0].message


def test_bad_data_is_a_run_failed_event(tmp_path):
    csv = tmp_path / "d.csv"
    csv.write_text("a,city,label\n1,Oslo,0\n" * 1 + "2,3,1\n" * 70, encoding="utf-8")
    config = write_config(tmp_path, base_config(data={"kind": "csv", "path": str(csv), "label": "label"}))
    finished = run_worker(["--config", str(config), "--run-dir", str(tmp_path / "run")])
    assert finished.returncode == 2  # bad input, like a bad config: nothing trained
    assert "'city' holds text 'Oslo'" in finished.of(ev.RunFailed)[0].message


def test_indivisible_global_batch_names_replicas_and_sizes(tmp_path):
    config = write_config(tmp_path, base_config(virtual_devices=3, global_batch_size=64))
    finished = run_worker(["--config", str(config), "--run-dir", str(tmp_path / "run")])
    assert finished.returncode == 2
    message = finished.of(ev.RunFailed)[0].message
    assert "3 replicas" in message and "63 or 66" in message


ORPHANING_PARENT = """
import os, subprocess, sys, time
worker = subprocess.Popen([sys.executable, "-m", "engine.train.worker", *sys.argv[1:]], stdin=subprocess.PIPE,
                          stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
print(worker.pid, flush=True)
time.sleep(600)
"""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the kernel's parent-death signal is Linux-only")
def test_a_worker_waiting_for_cluster_peers_dies_with_its_parent(tmp_path):
    """A worker blocked in MultiWorkerMirroredStrategy's constructor (its peer never comes)
    holds the GIL, so neither "stop" nor stdin EOF can reach it; when its parent (a
    window or a launcher) is killed, it must not be left waiting for an hour."""
    import os
    import time

    from engine.core.tfconfig import Task, free_loopback_ports
    from engine.train.chief_watch import chief_answers

    ports = free_loopback_ports(2)
    tf_config = {"cluster": {"worker": [f"127.0.0.1:{p}" for p in ports]}, "task": {"type": "worker", "index": 0}}
    config = write_config(tmp_path, base_config(strategy="multi_worker_mirrored"))
    parent = subprocess.Popen(
        [sys.executable, "-c", ORPHANING_PARENT, "--config", str(config), "--run-dir", str(tmp_path / "run")],
        cwd=REPO,
        stdout=subprocess.PIPE,
        text=True,
        env={**env(), "TF_CONFIG": json.dumps(tf_config)},
    )
    worker_pid = int(parent.stdout.readline())
    try:
        deadline = time.monotonic() + 120
        while not (tmp_path / "run").exists():
            assert time.monotonic() < deadline, "the worker never started"
            time.sleep(0.2)
        me = Task("worker", 0, "127.0.0.1", ports[0])
        while not chief_answers(me, 0.2):  # its own port answers once it waits for its peer
            assert _alive(worker_pid) and time.monotonic() < deadline, "the worker never came to wait for its peer"
            time.sleep(0.2)
        assert _alive(worker_pid)
        parent.kill()
        parent.wait(timeout=30)
        gone_by = time.monotonic() + 30
        while _alive(worker_pid):
            assert time.monotonic() < gone_by, "the orphaned worker is still running"
            time.sleep(0.2)
    finally:
        parent.kill()
        if _alive(worker_pid):
            os.kill(worker_pid, 9)


def _alive(pid: int) -> bool:
    """True while `pid` runs (a zombie of a dead parent is reaped by init quickly)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().split(") ")[1][0] != "Z"
    except OSError:
        return False


def test_out_of_memory_names_the_per_replica_batch_and_what_to_change(tmp_path):
    """A real ResourceExhaustedError: weights of 10**12 floats (the largest layers a config may ask for) do not
    fit in any machine's memory."""
    config = base_config(virtual_devices=2, model={"hidden_units": [1_000_000, 1_000_000]})
    out = run_worker(["--config", str(write_config(tmp_path, config)), "--run-dir", str(tmp_path / "run")])
    assert out.returncode == 1
    (failed,) = out.of(ev.RunFailed)
    assert failed.error_type == "ResourceExhaustedError"
    assert "Out of memory on CPU:0 with a per-replica batch of 32 (global batch 64 over 2 replicas)" in failed.message
    assert "before the first step" in failed.message and "a smaller model" in failed.message
    assert "function_node" not in failed.message and "[Op:" not in failed.message, "no C++ decoration"
