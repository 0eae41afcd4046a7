"""The window's run session without a window: what it starts, where, and the states a run goes through."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.core import events as ev
from engine.core.config import RunConfig
from engine.core.logs.stall import StallWatch
from engine.core.protocol.codes import CLUSTER_GRACE_S, STOP_GRACE_S, RunStatus
from engine.core.protocol.paths import RunPaths
from engine.core.session import IDLE, STARTING, STOPPING, ClusterShape, Commands, Plan, RunSession
from engine.core.tfconfig import ClusterError, parse_tf_config


def recording_commands() -> Commands:
    """Commands that only say what they were asked for: the session's choice is what is tested."""
    return Commands(
        trainer=lambda config, run_dir: ["trainer", str(config), str(run_dir)],
        cluster=lambda config, run_dir, workers, *, ps, evaluator: ["cluster", str(workers), str(ps), str(evaluator)],
        cluster_file=lambda cluster, config, run_dir: ["cluster-file", str(cluster), str(config)],
        resume=lambda run_dir, workers: ["resume", str(run_dir), str(workers)],
    )


@pytest.fixture
def session(tmp_path: Path):
    session = RunSession(tmp_path / "runs", recording_commands())
    yield session
    session.close()


def started(**fields: object) -> ev.RunStarted:
    values = dict(
        strategy="mirrored",
        num_replicas=2,
        devices=["CPU:0", "CPU:1"],
        global_batch_size=64,
        per_replica_batch_size=32,
        loop="custom",
        epochs=1,
        steps_per_epoch=10,
        steps_per_execution=0,
        run_dir="x",
    )
    return ev.RunStarted(**{**values, **fields})


def test_a_fresh_run_gets_its_folder_and_a_scratch_config_a_warm_trainer_may_take(session):
    config = RunConfig(epochs=3)
    launch = session.start(config)
    assert launch.run_dir.parent == session.runs_root and launch.run_dir.is_dir()
    assert launch.config_file.parent.name.startswith("tfdd-window-")
    assert (launch.config_file.parent / ".in-use").is_file()  # swept by the next window if this one is killed
    assert RunConfig.load(launch.config_file) == config
    assert launch.command == ["trainer", str(launch.config_file), str(launch.run_dir)]
    assert launch.warm_args == ["--config", str(launch.config_file), "--run-dir", str(launch.run_dir)]
    assert (launch.tasks, launch.what, launch.grace_seconds()) == (0, "starting run", STOP_GRACE_S)
    assert session.state == STARTING and session.config_file == launch.config_file


def test_one_run_at_a_time(session):
    session.start(RunConfig())
    with pytest.raises(RuntimeError, match="already active"):
        session.start(RunConfig())


def test_a_local_cluster_counts_every_task_and_gets_a_cluster_grace(session):
    launch = session.start(RunConfig(strategy="parameter_server"), ClusterShape(workers=2, ps=1, evaluator=True))
    assert launch.command == ["cluster", "2", "1", "True"]
    assert launch.tasks == 5  # 2 workers, 1 ps, the evaluator and the coordinator
    assert launch.what == "starting a local cluster of 2 workers, 1 parameter servers, an evaluator"
    assert launch.warm_args is None  # a warm trainer serves runs of one process
    assert launch.grace_seconds() == CLUSTER_GRACE_S


def test_the_cluster_tab_keeps_its_cluster_in_the_run_folder_for_resume(session):
    text = json.dumps({"cluster": {"chief": ["127.0.0.1:2001"], "worker": ["127.0.0.1:2002"]}})
    launch = session.start_cluster(RunConfig(strategy="multi_worker_mirrored"), parse_tf_config(text).cluster, text)
    cluster_file = RunPaths(launch.run_dir).cluster
    assert cluster_file.read_text(encoding="utf-8") == text
    assert launch.command == ["cluster-file", str(cluster_file), str(launch.config_file)]
    assert launch.tasks == 2


def test_a_resumed_cluster_restarts_its_tasks_and_a_resumed_single_run_may_go_to_a_warm_trainer(session, tmp_path):
    single = tmp_path / "single"
    single.mkdir()
    launch = session.resume(single, workers=1)
    assert (launch.tasks, launch.warm_args, launch.config_file) == (
        0,
        ["--resume", str(single)],
        RunPaths(single).config,
    )
    session.release()
    assert RunPaths(single).config.parent.is_dir()  # a resumed run's own config is never removed

    cluster = tmp_path / "cluster"
    cluster.mkdir()
    RunPaths(cluster).cluster.write_text(
        json.dumps({"cluster": {"worker": ["127.0.0.1:2001", "127.0.0.1:2002", "127.0.0.1:2003"]}}), encoding="utf-8"
    )
    launch = session.resume(cluster, workers=3)
    assert (launch.tasks, launch.warm_args, launch.command) == (3, None, ["resume", str(cluster), "3"])


def test_the_states_of_a_run_and_the_engines_plan(session):
    assert session.state == IDLE
    launch = session.start(RunConfig())
    assert session.observe([]) is None and session.state == STARTING
    assert session.observe([started()]) == Plan("mirrored", 2, 32)
    assert session.state == RunStatus.RUNNING
    session.request_stop()
    assert session.state == STOPPING
    session.ended(RunStatus.STOPPED)
    session.release()
    assert session.state == RunStatus.STOPPED and not session.active
    assert not launch.config_file.exists()  # handed to the trainer, which has read it
    session.close()
    assert not launch.config_file.parent.exists()


def test_the_forms_plan_shows_no_per_replica_batch_that_does_not_divide():
    assert Plan.of("mirrored", 2, 64) == Plan("mirrored", 2, 32)
    assert Plan.of("mirrored", 3, 64).per_replica is None
    assert Plan.of("mirrored", None, 64) == Plan("mirrored", None, None)


def test_a_run_is_stalled_while_any_of_its_tasks_makes_no_progress(session):
    from engine.core.logs.stall import STALLED

    session.start(RunConfig())
    session.observe([ev.TaskStalled(worker="worker-0", idle_s=40.0)])
    assert session.state == STARTING  # before the run has started, silence is start-up
    session.observe([started()])
    session.observe([ev.TaskStalled(worker="worker-0", idle_s=40.0), ev.TaskStalled(worker="worker-1", idle_s=41.0)])
    assert session.state == STALLED
    session.observe([ev.TaskStalled(worker="worker-0", resumed=True)])
    assert session.state == STALLED and session.stalled == {"worker-1"}
    session.observe([ev.TaskStalled(worker="worker-1", resumed=True)])
    assert session.state == RunStatus.RUNNING


def test_the_window_is_told_every_change_of_state_once(session):
    seen: list[tuple[str, str]] = []
    session.listeners.append(lambda before, now: seen.append((before, now)))
    session.start(RunConfig())
    session.observe([started()])
    session.observe([started()])  # no change: nothing said
    session.request_stop()
    session.ended(RunStatus.STOPPED)
    assert seen == [
        (IDLE, STARTING),
        (STARTING, RunStatus.RUNNING),
        (RunStatus.RUNNING, STOPPING),
        (STOPPING, RunStatus.STOPPED),
    ]


def test_a_local_cluster_shape_is_used_only_by_a_cluster_strategy(session):
    launch = session.start(RunConfig(strategy="mirrored"), ClusterShape(workers=1))
    assert (launch.command[0], launch.tasks) == ("trainer", 0)


def test_the_cluster_tabs_blocking_problems_stop_the_run_before_any_folder_is_made(session):
    text = json.dumps({"cluster": {"worker": ["127.0.0.1:2001"], "evaluator": ["127.0.0.1:2002"]}})
    config = RunConfig(strategy="multi_worker_mirrored", validation_split=0.0)
    with pytest.raises(ClusterError) as raised:
        session.start_cluster(config, parse_tf_config(text).cluster, text)
    assert [p.location for p in raised.value.problems] == ["cluster.evaluator"]
    assert not session.active and not session.runs_root.exists()


def test_a_single_trainer_is_watched_for_stalls_and_a_cluster_by_its_launcher(tmp_path):
    session = RunSession(tmp_path / "runs", recording_commands(), grace_s=7.0, stall_s=30.0)
    session.start(RunConfig())
    assert session.stop_grace() == 7.0 and isinstance(session.stall_watch(), StallWatch)
    session.release()
    session.start(RunConfig(strategy="multi_worker_mirrored"), ClusterShape(workers=2))
    assert session.stop_grace() == CLUSTER_GRACE_S and session.stall_watch() is None
    session.close()


def test_a_warm_trainer_that_takes_the_run_is_handed_its_arguments(session):
    launch = session.start(RunConfig())
    assert session.assignment() == ""  # a cold trainer reads its arguments from its command line
    session.took_warm_trainer(4242)
    assert session.warm_pid == 4242
    assert json.loads(session.assignment()) == launch.warm_args
    session.process_started(4242)
    assert session.pid == 4242
    session.release()
    assert (session.pid, session.warm_pid) == (None, None)
    session.start(RunConfig(strategy="multi_worker_mirrored"), ClusterShape(workers=2))
    with pytest.raises(RuntimeError, match="starts its own process"):
        session.took_warm_trainer(4243)  # a local cluster's launcher starts its tasks itself


def test_a_stop_to_close_the_window_is_remembered_until_the_run_is_gone(session):
    session.start(RunConfig())
    session.request_stop(closing=True)
    assert session.closing and session.state == STOPPING


def test_a_watched_runs_state_goes_when_the_watch_ends_but_the_windows_own_run_stays(session):
    session.observe([started()])  # a watched run's events
    session.watch_over()
    assert session.state == IDLE
    session.start(RunConfig())
    session.watch_over()
    assert session.state == STARTING
