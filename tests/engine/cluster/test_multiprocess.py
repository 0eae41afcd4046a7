"""Real trainer processes on 127.0.0.1: exported scripts, the launcher, the CLI, a detached cluster, both loops.

A killed worker's fail-fast on real workers is proven through the window, which runs this launcher
(tests/gui/live/test_local_cluster.py); with fake workers in test_launcher.py.

Each test trains a tiny model on tiny data; they are `slow` (tens of seconds),
and only loopback addresses and free ports are used.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import re
import subprocess
import sys
import threading
import time
from collections.abc import Iterator

import pytest

from engine.cluster.cli import main as cluster_main
from engine.cluster.group import FINISHED, WAITING
from engine.cluster.launcher import launch_cluster, launch_local_cluster
from engine.core import events as ev
from engine.core.config import RunConfig
from engine.core.exports.bundle import export_bundle
from engine.core.protocol.codes import ExitCode
from engine.core.protocol.commands import cli_command
from engine.core.protocol.paths import RunPaths
from engine.core.runs.follow import ask_to_stop
from engine.core.runs.rundir import read_events, read_metrics
from engine.core.runs.runlock import holder
from engine.core.tfconfig import local_cluster

pytestmark = [pytest.mark.slow, pytest.mark.timeout(300)]
EPOCH_LINE = re.compile(r"epoch (\d+)/\d+: loss ([0-9.]+)")


def test_exported_scripts_train_a_two_worker_cluster(tmp_path, write_run_config):
    export_bundle(local_cluster(2), RunConfig.load(write_run_config()), tmp_path / "bundle")
    env = dict(os.environ, TFDD_PYTHON=sys.executable, TFDD_RUN_DIR=str(tmp_path / "run"))
    procs = []
    try:
        for i in (0, 1):
            with open(tmp_path / f"worker-{i}.err", "w") as err:  # a file: a full pipe would stall the collective
                procs.append(
                    subprocess.Popen(
                        ["sh", str(tmp_path / "bundle" / f"worker-{i}" / "start.sh")],
                        env=env,
                        stdin=subprocess.DEVNULL,
                        stdout=err,
                        stderr=err,
                    )
                )
        codes = [p.wait(timeout=240) for p in procs]
    finally:
        for p in procs:
            if p.poll() is None:
                p.kill()
                p.wait(timeout=10)
    logs = [(tmp_path / f"worker-{i}.err").read_text() for i in (0, 1)]
    assert codes == [0, 0], logs
    final = [EPOCH_LINE.findall(log)[-1] for log in logs]
    assert final[0] == final[1] and final[0][0] == "2"  # the same loss after the last epoch
    assert len(read_metrics(tmp_path / "run" / "metrics.csv")) == 2  # only the chief writes the run dir


def test_both_loops_train_two_workers_to_the_same_loss_and_accuracy_and_the_chief_reports_each_epochs_anatomy(
    tmp_path, write_run_config
):
    """Keras fit's figures are already averaged over the workers: they match the custom loop's, not twice them.
    Each epoch has the chief's step anatomy; its parts add up to the step, and two workers all-reduce their
    gradients every step, so synchronising is more than nothing."""
    figures: dict[str, dict[int, list[float]]] = {}
    for loop in ("fit", "custom"):
        figures[loop] = {0: [], 1: []}
        anatomies: list[ev.StepAnatomy] = []

        def on_event(task, event, seen=figures[loop], anatomies=anatomies):
            if isinstance(event, ev.EpochEnd):
                seen[task.index] += [event.loss, event.accuracy, event.val_loss, event.val_accuracy]
            elif isinstance(event, ev.StepAnatomy) and task.index == 0:
                anatomies.append(event)

        # 3072 training examples: 3 calls of 16 steps an epoch, the first traces
        config = write_run_config(loop=loop, validation_split=0.25, num_samples=4096, steps_per_execution=16)
        result = launch_local_cluster(config, 2, tmp_path / loop, join_timeout_s=120, on_event=on_event)
        assert result.ok, result.failure
        assert [w.state for w in result.workers] == [FINISHED, FINISHED]
        assert len(figures[loop][0]) == 2 * 4 and figures[loop][0] == pytest.approx(figures[loop][1], rel=1e-6)
        assert (tmp_path / loop / "model.keras").exists()
        for w in result.workers:  # each task's raw log holds its own TensorFlow lines (they name their thread)
            raw = (tmp_path / loop / "workers" / f"{w.task.id}.log").read_text()
            assert w.log_path.endswith(f"{w.task.id}.log") and re.search(
                rf"^[IWE]\d{{4}} [\d:.]+\s+{w.pid} ", raw, re.M
            )
        assert {a.epoch for a in anatomies} == {1, 2}, (loop, anatomies)
        for a in anatomies:
            parts = a.input_ms + a.compute_ms + a.sync_ms + a.rest_ms
            assert parts == pytest.approx(a.step_ms, rel=0.10) and min(a.input_ms, a.compute_ms, a.rest_ms) >= 0, a
            assert a.sync_ms > 0, a
    assert all(0 <= accuracy <= 1 for accuracy in figures["fit"][0][1::2])
    assert figures["fit"][0] == pytest.approx(figures["custom"][0], rel=1e-3)


def test_a_worker_that_never_joins_is_reported_after_the_timeout(tmp_path, write_run_config):
    states: list[str] = []
    result = launch_cluster(
        local_cluster(2),
        write_run_config(),
        tmp_path / "run",
        join_timeout_s=20,  # TensorFlow's import comes first (up to 9.9 s in a CI run), then its server waits
        start_only={"worker 0"},
        on_state=lambda s: states.append(s.state),
    )
    assert result.status == "failed"
    assert result.failure == (
        f"worker 0 (pid {result.workers[0].pid}) did not start training within 20 s "
        "(worker 0 waited for peers); not started by this launcher: worker 1"
    )
    assert WAITING in states  # its TensorFlow server was up, waiting for worker 1


def test_launch_events_speaks_the_worker_protocol_for_the_cluster(tmp_path, write_run_config):
    command = [
        sys.executable,
        "-m",
        "engine.cluster.cli",
        "cluster",
        "launch",
        "--workers",
        "2",
        "--events",
        "--config",
        str(write_run_config(num_samples=4096, epochs=50)),  # 64 steps an epoch: the first ends soon
        "--run-dir",
        str(tmp_path / "run"),
    ]
    relay = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    watchdog = threading.Timer(240, relay.kill)  # never wait without a bound
    watchdog.start()
    events = []
    try:
        for line in relay.stdout:
            events.append(ev.decode(line))  # nothing but events on stdout
            if isinstance(events[-1], ev.EpochEnd) and not relay.stdin.closed:
                relay.stdin.write("stop\n")  # what the GUI's Stop button sends
                relay.stdin.close()
        code = relay.wait(timeout=30)
    finally:
        watchdog.cancel()
        if relay.poll() is None:
            relay.kill()
            relay.wait(timeout=10)
    states = {(e.worker, e.state) for e in events if isinstance(e, ev.WorkerState)}
    assert code == 0
    assert {
        ("worker-0", "training"),
        ("worker-1", "training"),
        ("worker-0", "stopped"),
        ("worker-1", "stopped"),
    } <= states
    assert sum(isinstance(e, ev.RunStarted) for e in events) == 1  # the chief's only
    started = next(e for e in events if isinstance(e, ev.RunStarted))
    assert started.steps_per_execution == 32  # "auto" is fixed in a cluster: tuned sizes would desync collectives
    logs = [e for e in events if isinstance(e, ev.Log)]
    # every log line names its source: a worker, or the launcher (where the workers' network is)
    assert logs and all(e.source in ("worker-0", "worker-1", "launcher") for e in logs)
    assert isinstance(events[-1], ev.RunFinished) and events[-1].status == "stopped"


PR_SET_CHILD_SUBREAPER = 36  # linux/prctl.h


@contextlib.contextmanager
def adopting_orphans() -> Iterator[None]:
    """While inside, this process adopts the descendants whose parent exits (a subreaper, as systemd is), so
    the test can reap a detached launcher and read its exit code."""
    prctl = ctypes.CDLL(None, use_errno=True).prctl
    if prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != 0:
        raise OSError(ctypes.get_errno(), "prctl(PR_SET_CHILD_SUBREAPER) failed")
    try:
        yield
    finally:
        prctl(PR_SET_CHILD_SUBREAPER, 0, 0, 0, 0)


def exit_code_of(pid: int, timeout_s: float) -> int:
    """Reap the child `pid` once it ends (never waiting without a bound); its exit code."""
    deadline = time.monotonic() + timeout_s
    while True:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            return os.waitstatus_to_exitcode(status)
        assert time.monotonic() < deadline, f"pid {pid} still runs after {timeout_s:g} s"
        time.sleep(0.2)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reaps the detached launcher as a subreaper")
def test_a_detached_cluster_stopped_through_its_lock_checkpoints_and_cluster_launch_resume_prints_the_rest(
    tmp_path, write_run_config, capsys
):
    """A detached launcher outlives its command. Stopped through its lock, as the Runs tab's Stop does (SIGTERM,
    as a process manager or `kill` sends), it stops the whole cluster as Stop does: a checkpoint, exit 143.
    `cluster launch --resume` with 2 workers continues from that checkpoint, trains every epoch once, and
    prints every task's states and the chief's epochs (only its), each with its step anatomy."""
    run_dir = tmp_path / "run"
    paths = RunPaths(run_dir)
    config = write_run_config(num_samples=12288, epochs=3, steps_per_execution=4)
    command = cli_command("cluster", "launch", "--detach", "--workers", "2", "--config", str(config))
    with adopting_orphans():
        proc = subprocess.Popen([*command, "--run-dir", str(run_dir)], stdout=subprocess.PIPE, text=True)
        out, _ = proc.communicate(timeout=120)
        assert proc.returncode == 0 and "detached: the launcher goes on as pid" in out, out
        held = holder(paths)
        assert held is not None and held.pid != proc.pid and held.command == "tfdd cluster launch"
        deadline = time.monotonic() + 240
        while not any(isinstance(e, ev.BatchEnd) and e.epoch == 2 for e in read_events(run_dir)):  # on its own
            assert time.monotonic() < deadline and holder(paths) is not None, paths.launcher_log.read_text()[-3000:]
            time.sleep(0.2)
        assert ask_to_stop(run_dir).pid == held.pid
        assert exit_code_of(held.pid, timeout_s=120) == ExitCode.TERMINATED, paths.launcher_log.read_text()[-3000:]
    assert holder(paths) is None
    log = paths.launcher_log.read_text()
    assert "worker 0 (pid" in log and "worker 1 (pid" in log and "stopped; results so far" in log, log
    assert "failed" not in log, log
    events = read_events(run_dir)
    assert isinstance(events[-1], ev.RunFinished) and events[-1].status == "stopped"
    saved = [e for e in events if isinstance(e, ev.CheckpointSaved)]
    assert saved and (saved[-1].epoch, saved[-1].step) > (1, 0), saved  # where training stood, in epoch 2
    assert list((run_dir / "checkpoints").glob("ckpt-*.index"))

    capsys.readouterr()
    code = cluster_main(["cluster", "launch", "--workers", "2", "--resume", str(run_dir), "--join-timeout", "120"])
    out = capsys.readouterr().out
    assert code == 0, out
    assert [int(r["epoch"]) for r in read_metrics(run_dir / "metrics.csv")] == [1, 2, 3]
    events = read_events(run_dir)
    assert [e.epoch for e in events if isinstance(e, ev.EpochEnd)] == [1, 2, 3]
    last_start = max(i for i, e in enumerate(events) if isinstance(e, ev.RunStarted))
    start = events[last_start]
    assert (start.start_epoch, start.start_step) == (saved[-1].epoch, saved[-1].step)  # from its checkpoint
    assert start.num_workers == 2
    assert "worker 1 (pid" in out and ": training" in out and ": finished" in out
    resumed_epochs = [e.epoch for e in events[last_start:] if isinstance(e, ev.EpochEnd)]
    assert [int(m[0]) for m in EPOCH_LINE.findall(out)] == resumed_epochs  # the chief's lines only
    lines = out.splitlines()
    under_epoch_3 = lines[lines.index(next(line for line in lines if line.startswith("epoch 3/3"))) + 1]
    assert re.fullmatch(r"  step [\d.]+ ms: input \d+ %, compute \d+ %, sync \d+ %, rest \d+ % \(.+\)", under_epoch_3)
    assert out.rstrip().splitlines()[-1].startswith("completed: all 2 task(s) done")
