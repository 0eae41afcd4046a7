"""A task of an exported multi_worker_mirrored bundle started before its peers: it says what it waits for,
stops at once on SIGTERM, gives up after the join timeout; once training runs, SIGTERM stops the cluster.

Real `start.sh` processes on 127.0.0.1, free ports.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from engine.core.config import RunConfig
from engine.core.exports.bundle import export_bundle
from engine.core.protocol.codes import ExitCode
from engine.core.tfconfig import local_cluster

pytestmark = pytest.mark.timeout(300)


def start_task(bundle: Path, task: str, log: Path, **env: str) -> subprocess.Popen:
    environ = dict(os.environ, TFDD_PYTHON=sys.executable, TFDD_RUN_DIR=str(bundle.parent / "run"), **env)
    with open(log, "w") as out:  # a file: a full pipe would stall the task
        return subprocess.Popen(
            ["sh", str(bundle / task / "start.sh")], env=environ, stdin=subprocess.DEVNULL, stdout=out, stderr=out
        )


def wait_for_text(log: Path, pattern: str, proc: subprocess.Popen, timeout_s: float = 120) -> re.Match:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        found = re.search(pattern, log.read_text())
        if found:
            return found
        assert proc.poll() is None, log.read_text()[-3000:]
        time.sleep(0.2)
    raise AssertionError(f"no {pattern!r} in {log}:\n{log.read_text()[-3000:]}")


@pytest.fixture
def bundle(tmp_path, write_run_config):
    cluster = local_cluster(2)
    export_bundle(cluster, RunConfig.load(write_run_config()), tmp_path / "bundle")
    return tmp_path / "bundle", cluster


@pytest.mark.parametrize(
    "signal_number, code", [(signal.SIGTERM, ExitCode.TERMINATED), (signal.SIGINT, ExitCode.INTERRUPTED)]
)
def test_a_task_alone_says_what_it_waits_for_and_a_signal_ends_it_at_once(bundle, tmp_path, signal_number, code):
    folder, cluster = bundle
    log = tmp_path / "worker-1.log"
    proc = start_task(folder, "worker-1", log)
    try:
        chief = cluster.training_tasks()[0]
        wait_for_text(log, rf"waiting for worker 0 at {re.escape(chief.address)} for \d+ s", proc)
        proc.send_signal(signal_number)
        assert proc.wait(timeout=30) == code, log.read_text()[-3000:]
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(timeout=10)


def test_a_task_alone_gives_up_after_the_join_timeout_with_a_clear_message(bundle, tmp_path):
    folder, cluster = bundle
    log = tmp_path / "worker-1.log"
    proc = start_task(folder, "worker-1", log, TFDD_JOIN_TIMEOUT_S="1")
    try:
        code = proc.wait(timeout=120)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(timeout=10)
    text = log.read_text()
    assert code == ExitCode.FAILED, text[-3000:]
    chief = cluster.training_tasks()[0]
    assert f"worker 0 at {chief.address} did not join within 1 s" in text, text[-3000:]
    assert "TFDD_JOIN_TIMEOUT_S" in text


@pytest.mark.slow
def test_sigterm_to_one_task_while_training_stops_the_cluster_and_each_task_keeps_its_raw_log(
    tmp_path, write_run_config
):
    """The stop: a checkpoint, then every task ends. The raw logs: the chief's is the run's stderr.log, the
    other task's a file of its own beside the run directory, and each task's terminal names its own."""
    export_bundle(local_cluster(2), RunConfig.load(write_run_config(epochs=300)), tmp_path / "bundle")
    logs = [tmp_path / f"worker-{i}.log" for i in (0, 1)]
    procs = [start_task(tmp_path / "bundle", f"worker-{i}", logs[i]) for i in (0, 1)]
    try:
        wait_for_text(logs[1], r"epoch 2/300", procs[1])
        procs[1].send_signal(signal.SIGTERM)
        codes = [p.wait(timeout=120) for p in procs]
    finally:
        for p in procs:
            if p.poll() is None:
                p.kill()
                p.wait(timeout=10)
    texts = [log.read_text() for log in logs]
    tails = [text[-3000:] for text in texts]
    assert codes == [ExitCode.OK, ExitCode.TERMINATED], tails
    assert "stopped" in tails[0] and "epoch 300/300" not in texts[0]
    assert list((tmp_path / "run" / "checkpoints").glob("*.index")), tails
    raw_logs = [tmp_path / "run" / "stderr.log", tmp_path / "run.worker-1.log"]
    for proc, raw, text in zip(procs, raw_logs, texts, strict=True):  # start.sh execs: the pid is the task's
        # TensorFlow's lines name their thread; its main thread's id is the process's
        assert re.search(rf"^[IWE]\d{{4}} [\d:.]+\s+{proc.pid} ", raw.read_text(), re.M), raw.read_text()[:3000]
        assert f"all of them are in {raw}" in text, text[:3000]
