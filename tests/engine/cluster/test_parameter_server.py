"""Real ParameterServerStrategy clusters and evaluators on 127.0.0.1: both loops, failures shown, resume.

Each test starts three to five TensorFlow processes (10-20 s to start on a loaded two-core machine), so
there are few of them, each about one behaviour; all are `slow`, on loopback and free ports.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time

import pytest

from engine.cluster.group import FAILED, FINISHED, LOST, REJOINED
from engine.cluster.launcher import launch_cluster, launch_local_cluster, local_cluster_for
from engine.core import events as ev
from engine.core.runs.rundir import read_events, read_metrics
from tests.engine.cluster.rejoin_hold import HoldUntilRejoined

pytestmark = [pytest.mark.slow, pytest.mark.timeout(400)]


@pytest.fixture
def ps_config(write_run_config):
    def write(**overrides):
        settings = {"strategy": "parameter_server", "epochs": 3, "num_samples": 4096, **overrides}
        return write_run_config(**settings)

    return write


def events_by_task(result_holder: dict):
    def on_event(task, event):
        result_holder.setdefault(task.id, []).append(event)

    return on_event


def losses(events: list[ev.Event]) -> list[float]:
    return [e.loss for e in events if isinstance(e, ev.EpochEnd)]


def test_the_custom_loop_trains_on_two_workers_and_the_evaluator_validates_every_checkpoint(
    tmp_path, ps_config, monkeypatch
):
    """Also: no task leaves an AutoGraph file in the temporary folder. AutoGraph writes each converted function
    to a temporary file removed at exit, which an ending parameter-server task (os._exit: its teardown is
    skipped) never reached; here the tasks' TMPDIR is the test's own, so other runs on the machine cannot add
    theirs."""
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    monkeypatch.setenv("TMPDIR", str(scratch))
    seen: dict[str, list[ev.Event]] = {}
    run = tmp_path / "run"
    result = launch_local_cluster(
        ps_config(loop="custom", validation_split=0.2, num_samples=8192),
        2,
        run,
        ps=1,
        evaluator=True,
        join_timeout_s=180,
        on_event=events_by_task(seen),
    )
    assert result.ok, result.failure
    assert [w.state for w in result.workers if w.task.job != "evaluator"] == [FINISHED] * 4
    chief = seen["chief-0"]
    epoch_losses = losses(chief)
    assert len(epoch_losses) == 3 and epoch_losses[-1] < epoch_losses[0]  # the loss falls
    steps = [e for e in chief if isinstance(e, ev.TaskSteps)][-1].steps
    assert set(steps) == {"worker-0", "worker-1"} and all(steps.values())  # both workers ran steps
    saved = [e for e in chief if isinstance(e, ev.CheckpointSaved)]
    evaluations = [e for e in seen["evaluator-0"] if isinstance(e, ev.Evaluation)]
    assert [e.checkpoint for e in evaluations] == [e.path for e in saved]  # one validation per checkpoint
    assert [e.epoch for e in evaluations] == [1, 2, 3] and all(0 < e.val_accuracy <= 1 for e in evaluations)
    assert len(read_metrics(run / "evaluation.csv")) == 3
    assert "val_loss" not in read_metrics(run / "metrics.csv")[0]  # training itself did not validate
    assert list((run / "tensorboard").glob("events.out.tfevents.*"))
    assert list((run / "tensorboard" / "evaluation").glob("events.out.tfevents.*"))
    assert (run / "model.keras").is_file()
    assert_anatomy_is_the_wall_clock(chief)
    assert sorted(p.name for p in scratch.rglob("__autograph_generated_file*")) == []


def test_fit_trains_on_two_workers(tmp_path, ps_config):
    seen: dict[str, list[ev.Event]] = {}
    result = launch_local_cluster(
        ps_config(loop="fit", num_samples=8192),
        2,
        tmp_path / "run",
        ps=1,
        join_timeout_s=180,
        on_event=events_by_task(seen),
    )
    assert result.ok, result.failure
    epoch_losses = losses(seen["chief-0"])
    assert len(epoch_losses) == 3 and epoch_losses[-1] < epoch_losses[0]
    assert [int(r["epoch"]) for r in read_metrics(tmp_path / "run" / "metrics.csv")] == [1, 2, 3]
    assert_anatomy_is_the_wall_clock(seen["chief-0"])


@pytest.mark.parametrize("loop", ["custom", "fit"])
def test_both_loops_measure_nothing_when_the_step_anatomy_is_off(tmp_path, ps_config, loop):
    """Trainer(anatomy=False) on the chief: no step_anatomy event, and no probe runs (one would fail the run).
    One worker: the claim is about the chief."""
    seen: list[ev.Event] = []
    result = launch_cluster(
        local_cluster_for("parameter_server", 1, ps=1),
        ps_config(loop=loop, epochs=2),
        tmp_path / "run",
        join_timeout_s=180,
        on_event=lambda task, e: seen.append(e),
        command_for=lambda path, run_dir, resume: [
            sys.executable,
            "-m",
            "tests.engine.cluster.task_without_anatomy",
            *("--config", str(path), "--run-dir", str(run_dir)),
        ],
    )
    assert result.ok, result.failure
    assert [e.epoch for e in seen if isinstance(e, ev.EpochEnd)] == [1, 2]
    assert not [e for e in seen if isinstance(e, ev.StepAnatomy)]


def assert_anatomy_is_the_wall_clock(chief: list[ev.Event]) -> None:
    """The chief's step anatomy (engine.train.ps_anatomy): the parts add up to the step; the step is the run's own
    wall time per step (each epoch after the first, which traces and probes, is its anatomies' steps × step_ms
    within ±10 %); a ps means round trips."""
    anatomies = [e for e in chief if isinstance(e, ev.StepAnatomy)]
    assert {a.epoch for a in anatomies} == {1, 2, 3}, anatomies
    for a in anatomies:
        parts = a.input_ms + a.compute_ms + a.sync_ms + a.rest_ms
        assert parts == pytest.approx(a.step_ms, rel=0.10) and min(a.input_ms, a.compute_ms, a.rest_ms) >= 0, a
        assert a.sync_ms > 0, a  # every step reads its variables from the ps and pushes its gradients there
        assert a.rest_ms > 0, a  # the workers were busy less than the window's wall time: what ran in it counted
    (started,) = [e for e in chief if isinstance(e, ev.RunStarted)]
    for epoch in (e for e in chief if isinstance(e, ev.EpochEnd) and e.epoch > 1):
        of_epoch = [a for a in anatomies if a.epoch == epoch.epoch]
        assert sum(a.steps for a in of_epoch) == started.steps_per_epoch, of_epoch  # every step covered
        wall = sum(a.steps * a.step_ms for a in of_epoch) / 1000
        assert wall == pytest.approx(epoch.seconds, rel=0.10), (epoch, of_epoch)


@pytest.mark.skipif(os.name != "posix", reason="kills with SIGKILL")
def test_a_killed_worker_is_lost_then_rejoins_and_the_run_completes(tmp_path, ps_config):
    """worker-1 killed as epoch 1 ends; the chief trains on without it, held at its next epoch end until the
    worker's server answers again (rejoin_hold), so five epochs outlast the restart on any machine."""
    pids: dict[str, int] = {}
    states: dict[str, list[str]] = {}
    killed: list[float] = []
    hold = HoldUntilRejoined("worker-1")

    def on_state(status):
        pids[status.task.id] = status.pid
        states.setdefault(status.task.id, []).append(status.state)
        hold.on_state(status)

    def on_event(task, event):
        if task.job == "chief" and isinstance(event, ev.EpochEnd) and event.epoch == 1 and not killed:
            os.kill(pids["worker-1"], signal.SIGKILL)
            killed.append(time.monotonic())
        hold.on_event(task, event)

    with hold:
        result = launch_local_cluster(
            ps_config(epochs=5, num_samples=8192),
            2,
            tmp_path / "run",
            ps=1,
            join_timeout_s=180,
            on_event=on_event,
            on_state=on_state,
        )
    assert killed and result.ok, result.failure  # training went on without it
    assert states["worker-1"][-4:] == [LOST, "starting", REJOINED, FINISHED]
    assert states["chief-0"][-1] == FINISHED
    epochs = [int(r["epoch"]) for r in read_metrics(tmp_path / "run" / "metrics.csv")]
    assert epochs == list(range(1, 6))


@pytest.mark.skipif(os.name != "posix", reason="kills with SIGKILL")
def test_a_killed_ps_or_chief_fails_the_run_at_once_and_resume_continues_it(tmp_path, ps_config):
    """The ps killed as epoch 1's checkpoint is saved, then the chief of the resumed run at epoch 2's: each time
    the run fails at once, naming the task, and keeps its finished epochs; a last resume completes it. One
    worker: the claim is about the ps and the chief."""
    run = tmp_path / "run"
    config = ps_config(epochs=4, num_samples=8192)
    for victim, epoch in (("ps-0", 1), ("chief-0", 2)):
        failed, pids, killed = launch_and_kill(config, run, victim, epoch, resume=victim != "ps-0")
        assert killed, failed.failure
        assert time.monotonic() - killed[0] < 15  # named within seconds, every task stopped
        assert failed.status == "failed"
        job, index = victim.split("-")
        assert failed.failure.startswith(f"{job} {index} (pid {pids[victim]}) failed: killed by SIGKILL")
        assert {w.task.id: w.state for w in failed.workers}[victim] == FAILED
        done = [int(r["epoch"]) for r in read_metrics(run / "metrics.csv")]
        assert done[:epoch] == list(range(1, epoch + 1)) and (run / "checkpoints").is_dir()  # finished ones kept
        config = run / "config.json"

    resumed = launch_local_cluster(config, 1, run, ps=1, join_timeout_s=180, resume=True)
    assert resumed.ok, resumed.failure
    assert [int(r["epoch"]) for r in read_metrics(run / "metrics.csv")] == list(range(1, 5))
    assert [e.start_epoch for e in read_events(run) if isinstance(e, ev.RunStarted)][-1] >= 2


def launch_and_kill(config, run, victim: str, epoch: int, resume: bool):
    """A local parameter-server run whose `victim` is killed with SIGKILL once the chief saved `epoch`'s checkpoint;
    the result, every task's pid and when the kill was sent."""
    pids: dict[str, int] = {}
    killed: list[float] = []

    def on_state(status):
        pids[status.task.id] = status.pid

    def on_event(task, event):
        if task.job == "chief" and isinstance(event, ev.CheckpointSaved) and event.epoch == epoch and not killed:
            os.kill(pids[victim], signal.SIGKILL)
            killed.append(time.monotonic())

    result = launch_local_cluster(
        config, 1, run, ps=1, join_timeout_s=180, on_event=on_event, on_state=on_state, resume=resume
    )
    return result, pids, killed


def test_an_evaluator_beside_multi_worker_mirrored_reaches_the_event_stream(tmp_path, write_run_config):
    """`cluster launch --events --evaluator`: what the window reads; validation arrives as evaluation events.
    One worker: the claim is about the evaluator and the event stream."""
    command = [
        sys.executable,
        "-m",
        "engine.cluster.cli",
        "cluster",
        "launch",
        "--workers",
        "1",
        "--evaluator",
        "--events",
        "--config",
        str(write_run_config(epochs=2, validation_split=0.25)),
        "--run-dir",
        str(tmp_path / "run"),
    ]
    relay = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)  # stdin open:
    watchdog = threading.Timer(300, relay.kill)  # its EOF would mean "stop"; never wait without a bound
    watchdog.start()
    try:
        events = [ev.decode(line) for line in relay.stdout]
        relay.wait(timeout=30)
    finally:
        watchdog.cancel()
        if relay.poll() is None:
            relay.kill()
            relay.wait(timeout=10)
        relay.stdin.close()
    assert relay.returncode == 0, events[-3:]
    roles = {e.worker: e.role for e in events if isinstance(e, ev.WorkerState)}
    assert roles["evaluator-0"] == "evaluator: validates each checkpoint"
    evaluations = [e for e in events if isinstance(e, ev.Evaluation)]
    assert [e.epoch for e in evaluations] == [1, 2]
    assert isinstance(events[-1], ev.RunFinished) and events[-1].status == "completed"
