"""engine.cluster.launcher with a fake trainer (tests/cluster/fake_worker.py): supervision in milliseconds."""

from __future__ import annotations

import json
import os
import socket
import sys
import threading
import time

import pytest

from engine.cluster import group
from engine.cluster.group import FAILED, FINISHED, STARTING, STOPPED, TRAINING, WAITING
from engine.cluster.launcher import launch_cluster
from engine.core import events as ev
from engine.core.problems import ConfigError
from engine.core.tfconfig import ClusterError, ClusterSpec, local_cluster, parse_tf_config
from tests.engine.cluster.fake_worker import marker

ORDER = [STARTING, WAITING, TRAINING, FINISHED]


def fake_worker_command(config_path, run_dir, resume: bool) -> list[str]:
    """The fake trainer in place of engine.train.worker, with the same arguments."""
    return [
        sys.executable,
        "-m",
        "tests.engine.cluster.fake_worker",
        "--config",
        str(config_path),
        "--run-dir",
        str(run_dir),
    ]


def launch(tmp_path, write_run_config, monkeypatch, plan: dict[int, str], n: int = 2, **kwargs):
    """Launch `n` fake workers; return (result, states seen per task name, events per task name)."""
    monkeypatch.setenv("FAKE_WORKER_PLAN", json.dumps({str(k): v for k, v in plan.items()}))
    states: dict[str, list[str]] = {}
    events: dict[str, list[ev.Event]] = {}
    on_event = kwargs.pop("on_event", None)
    on_state = kwargs.pop("on_state", None)

    def record_event(task, event):
        events.setdefault(task.name, []).append(event)
        if on_event:
            on_event(task, event)

    def record_state(status):
        seen = states.setdefault(status.task.name, [])
        if not seen or seen[-1] != status.state:
            seen.append(status.state)
        if on_state:
            on_state(status)

    kwargs.setdefault("join_timeout_s", 30)
    cluster = kwargs.pop("cluster", None) or local_cluster(n)
    result = launch_cluster(
        cluster,
        write_run_config(),
        tmp_path / "run",
        on_event=record_event,
        on_state=record_state,
        command_for=fake_worker_command,
        **kwargs,
    )
    return result, states, events


def test_all_workers_finish(tmp_path, write_run_config, monkeypatch):
    result, states, events = launch(tmp_path, write_run_config, monkeypatch, {}, n=3)
    assert result.ok and result.failure == ""
    assert [w.state for w in result.workers] == [FINISHED] * 3
    for name, seen in states.items():
        assert seen == [s for s in ORDER if s in seen] and seen[-1] == FINISHED, (name, seen)
    # garbage on stdout is skipped, every real event arrives, in order
    assert [type(e).__name__ for e in events["worker 1"]] == [
        "Log",
        "RunStarted",
        "BatchEnd",
        "BatchEnd",
        "BatchEnd",
        "EpochEnd",
        "RunFinished",
    ]
    assert (tmp_path / "run" / "workers" / "worker-2.log").exists()


def test_a_crashed_worker_is_named_and_the_others_are_stopped(tmp_path, write_run_config, monkeypatch):
    result, states, _ = launch(tmp_path, write_run_config, monkeypatch, {0: "until_stop", 1: "crash"})
    crashed, other = result.workers[1], result.workers[0]
    assert result.status == "failed"
    assert result.failure.startswith(f"worker 1 (pid {crashed.pid}) failed: exited with code 3")
    assert (crashed.state, crashed.exit_code) == (FAILED, 3)
    assert "RuntimeError: fake crash" in crashed.message  # the tail of its log
    assert other.state == STOPPED and "worker 1" in other.message
    assert states["worker 0"][-1] == STOPPED


def test_a_run_failed_message_is_reported(tmp_path, write_run_config, monkeypatch):
    result, _, _ = launch(tmp_path, write_run_config, monkeypatch, {0: "fail", 1: "until_stop"})
    pid = result.workers[0].pid
    assert result.failure.startswith(f"worker 0 (pid {pid}) failed: fake failure: the loss became nan")
    assert result.workers[0].exit_code == 1 and result.workers[1].state == STOPPED


def ended(pid: int) -> bool:
    """A child of this process that the launcher can reap now, or has reaped, asked without reaping it.
    (Not /proc's "Z": a leader thread shows it while the process's other threads are still dying, and until
    they are gone the launcher still sees it running: failed 1 time in 12 under load.)"""
    try:
        return os.waitid(os.P_PID, pid, os.WEXITED | os.WNOHANG | os.WNOWAIT) is not None
    except ChildProcessError:
        return True


def until(condition, what: str, timeout_s: float = 60.0) -> None:
    """Poll `condition`; a hang fails at once with `what` it waited for, not at the suite's timeout."""
    deadline = time.monotonic() + timeout_s
    while not condition():
        assert time.monotonic() < deadline, f"waited {timeout_s:g} s until {what}"
        time.sleep(0.01)


def test_a_dead_worker_is_blamed_not_the_peer_that_lost_it(tmp_path, write_run_config, monkeypatch):
    """Worker 1 dies, worker 0 fails a moment later saying its peer stopped responding; when the launcher
    sees both gone at once, the cause is worker 1 (the order a SIGKILL and a collective's error come in)."""

    monkeypatch.setenv("FAKE_WORKER_MARKERS", str(tmp_path))
    pids: dict[str, int] = {}

    def hold_the_launcher(task, event):
        """Worker 0's first word: from here the launcher looks away until both workers have ended."""
        if task.name == "worker 0" and isinstance(event, ev.Log):
            until(marker("worker-0.saw_peer").exists, "worker 0 sees worker 1's server")
            marker("cue").touch()  # worker 1 crashes
            until(marker("worker-0.lost_peer").exists, "worker 0 sees it gone")
            until(lambda: ended(pids["worker 0"]), "worker 0 ends")

    result, states, _ = launch(
        tmp_path,
        write_run_config,
        monkeypatch,
        {0: "peer_lost", 1: "crash_on_cue"},
        on_event=hold_the_launcher,
        on_state=lambda status: pids.setdefault(status.task.name, status.pid),
    )
    lost, crashed = result.workers
    assert (lost.state, crashed.state) == (FAILED, FAILED), states
    assert result.failure.startswith(f"worker 1 (pid {crashed.pid}) failed: exited with code 3"), result.failure
    assert "stopped responding" in lost.message


def test_workers_that_never_join_are_named_after_the_timeout(tmp_path, write_run_config, monkeypatch):
    """Every task still joining when the first one's time is up is named: the launcher starts them one by one
    (on a loaded host, worker 1 starts half a second after worker 0), and the one started last is no less
    missing."""
    spawn = group.TaskGroup._spawn

    def late_second(self, w, **changes):
        if w.task.index == 1 and w.process is None:
            time.sleep(0.5)
        spawn(self, w, **changes)

    monkeypatch.setattr(group.TaskGroup, "_spawn", late_second)
    result, states, _ = launch(
        tmp_path, write_run_config, monkeypatch, {0: "never_join", 1: "no_server"}, join_timeout_s=2
    )
    pids = [w.pid for w in result.workers]
    assert result.failure == (
        f"worker 0 (pid {pids[0]}), worker 1 (pid {pids[1]}) did not start training "
        "within 2 s (worker 0 waited for peers)"
    )
    assert states == {"worker 0": [STARTING, WAITING, FAILED], "worker 1": [STARTING, FAILED]}


def test_a_task_started_elsewhere_is_mentioned_when_it_never_comes(tmp_path, write_run_config, monkeypatch):
    result, _, _ = launch(
        tmp_path, write_run_config, monkeypatch, {0: "never_join"}, join_timeout_s=1, start_only={"worker 0"}
    )
    assert [w.task.name for w in result.workers] == ["worker 0"]
    assert result.failure.endswith("not started by this launcher: worker 1")


def test_a_stop_request_stops_every_worker(tmp_path, write_run_config, monkeypatch):
    stop, training = threading.Event(), set()

    def stop_when_all_train(task, event):
        if isinstance(event, ev.RunStarted):
            training.add(task.name)
        if len(training) == 2:
            stop.set()

    result, _, events = launch(
        tmp_path,
        write_run_config,
        monkeypatch,
        {0: "until_stop", 1: "until_stop"},
        should_stop=stop.is_set,
        on_event=stop_when_all_train,
    )
    assert result.status == "stopped" and result.failure == ""
    assert [w.state for w in result.workers] == [STOPPED, STOPPED]
    assert all(isinstance(e[-1], ev.RunFinished) and e[-1].status == "stopped" for e in events.values())


def test_a_worker_ending_with_143_after_its_checkpoint_is_stopped_not_failed(tmp_path, write_run_config, monkeypatch):
    """A worker stopped by SIGTERM (a process manager, kill) checkpoints and exits 143: not a failure."""
    stop = threading.Event()
    result, _, _ = launch(
        tmp_path,
        write_run_config,
        monkeypatch,
        {0: "terminated", 1: "terminated"},
        should_stop=stop.is_set,
        on_event=lambda task, event: isinstance(event, ev.BatchEnd) and stop.set(),
    )
    assert result.status == "stopped" and result.failure == ""
    assert [w.state for w in result.workers] == [STOPPED, STOPPED]


def test_a_stop_request_before_training_kills_the_joining_workers(tmp_path, write_run_config, monkeypatch):
    stop = threading.Event()
    result, states, _ = launch(
        tmp_path,
        write_run_config,
        monkeypatch,
        {0: "never_join", 1: "never_join"},
        should_stop=stop.is_set,
        on_event=lambda task, event: stop.set(),
    )  # at its first log
    assert result.status == "stopped" and result.failure == ""
    assert [w.state for w in result.workers] == [STOPPED, STOPPED]


def test_a_worker_that_does_not_finish_after_the_others_is_named(tmp_path, write_run_config, monkeypatch):
    monkeypatch.setattr(group, "FINISH_TIMEOUT_S", 0.5)
    result, _, _ = launch(tmp_path, write_run_config, monkeypatch, {0: "ok", 1: "until_stop"})
    assert result.failure.startswith("worker 1 (pid") and "did not finish" in result.failure
    assert [w.state for w in result.workers] == [FINISHED, FAILED]


def test_ctrl_c_leaves_no_process_behind(tmp_path, write_run_config, monkeypatch):
    def interrupt(task, event):
        if isinstance(event, ev.RunStarted):
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        launch(tmp_path, write_run_config, monkeypatch, {0: "until_stop", 1: "never_join"}, on_event=interrupt)
    # the autouse fixture no_process_left_behind fails the test otherwise


def test_a_port_in_use_is_reported_before_launch(tmp_path, write_run_config, monkeypatch):
    with socket.create_server(("127.0.0.1", 0)) as busy:
        port = busy.getsockname()[1]
        cluster = local_cluster(2, ports=[local_cluster(1).training_tasks()[0].port, port])
        with pytest.raises(ClusterError) as info:
            launch(tmp_path, write_run_config, monkeypatch, {}, cluster=cluster)
    (problem,) = info.value.problems
    assert problem.location == "cluster.worker[1]" and f"port {port} of worker 1 is already in use" in problem.message
    assert not (tmp_path / "run").exists()


@pytest.mark.parametrize(
    "cluster, match",
    [
        (ClusterSpec.from_dict({"worker": ["10.0.0.5:2222"]}), "this machine only"),
        (ClusterSpec.from_dict({"worker": ["127.0.0.1:1", "localhost:1"]}), "same machine and port"),
    ],
)
def test_bad_clusters_are_refused_before_launch(tmp_path, write_run_config, monkeypatch, cluster, match):
    with pytest.raises(ClusterError, match=match):
        launch(tmp_path, write_run_config, monkeypatch, {}, cluster=cluster)


def test_a_bad_run_config_is_refused_before_launch(tmp_path):
    (tmp_path / "run.json").write_text('{"epochs": 0}')
    with pytest.raises(ConfigError, match="epochs"):
        launch_cluster(local_cluster(2), tmp_path / "run.json", tmp_path / "run", join_timeout_s=5)


def test_the_launcher_claims_and_locks_the_run_folder_for_its_cluster(tmp_path, write_run_config, monkeypatch):
    """Marker first (the workers' logs must not make a fresh folder look like someone else's), then the lock,
    held by the launcher for its whole cluster."""
    import os

    from engine.core.protocol.paths import RunPaths
    from engine.core.runs.runlock import holder

    holders = []
    result, _, _ = launch(
        tmp_path,
        write_run_config,
        monkeypatch,
        {},
        on_event=lambda task, event: holders.append(holder(RunPaths(tmp_path / "run"))),
    )
    assert result.ok and RunPaths(tmp_path / "run").is_ours()
    assert holders and all(h is not None and h.pid == os.getpid() for h in holders)
    assert holder(RunPaths(tmp_path / "run")) is None  # released at the end


# ---- parameter_server and the evaluator: supervision by role --------------------------------------------


def ps_cluster(workers: int = 2, evaluator: bool = False) -> ClusterSpec:
    return local_cluster(workers, ps=1, chief=True, evaluator=evaluator)


@pytest.fixture
def ps_config(write_run_config):
    return lambda **kw: write_run_config(strategy="parameter_server", validation_split=0.2, **kw)


def test_a_parameter_server_cluster_runs_every_role_and_ends_with_its_chief(tmp_path, ps_config, monkeypatch):
    result, states, events = launch(
        tmp_path, ps_config, monkeypatch, {"chief-0": "long"}, cluster=ps_cluster(evaluator=True)
    )
    assert result.ok, result.failure
    roles = {w.task.id: (w.role, w.state) for w in result.workers}
    assert roles == {
        "chief-0": ("coordinator: runs the training program", FINISHED),
        "worker-0": ("worker: runs the coordinator's steps", FINISHED),
        "worker-1": ("worker: runs the coordinator's steps", FINISHED),
        "ps-0": ("parameter server: holds variables", FINISHED),
        "evaluator-0": ("evaluator: validates each checkpoint", STOPPED),  # stopped once training was over
    }
    assert states["ps 0"][-2:] == [TRAINING, FINISHED]  # serving once the chief trains, stopped after it
    assert states["evaluator 0"][:2] == [STARTING, group.EVALUATING]
    assert any(isinstance(e, ev.Evaluation) for e in events["evaluator 0"])
    saved = parse_tf_config((tmp_path / "run" / "cluster.json").read_text()).cluster
    assert saved == ps_cluster_of(result)  # what --resume rebuilds the cluster from


def ps_cluster_of(result) -> ClusterSpec:
    jobs: dict[str, list[str]] = {}
    for w in result.workers:
        jobs.setdefault(w.task.job, []).append(w.task.address)
    return ClusterSpec.from_dict(jobs)


def test_a_lost_worker_is_restarted_and_rejoins_while_training_goes_on(tmp_path, ps_config, monkeypatch):
    monkeypatch.setenv("FAKE_WORKER_MARKERS", str(tmp_path))
    result, states, _ = launch(
        tmp_path, ps_config, monkeypatch, {"chief-0": "long", "worker-1": "die_once"}, cluster=ps_cluster()
    )
    assert result.ok, result.failure
    assert states["worker 1"][-4:] == [group.LOST, STARTING, group.REJOINED, FINISHED]
    worker = result.workers[2]
    assert worker.restarts == 1 and "rejoined after restart 1" in worker.message
    assert states["chief 0"][-1] == FINISHED  # never disturbed


def test_a_lost_worker_is_not_restarted_when_asked_not_to(tmp_path, ps_config, monkeypatch):
    result, states, _ = launch(
        tmp_path, ps_config, monkeypatch, {"chief-0": "long", "worker-1": "crash"}, cluster=ps_cluster(), restarts=0
    )
    assert result.ok, result.failure  # the other worker ran the steps
    assert states["worker 1"][-1] == group.LOST and "not restarted" in result.workers[2].message


def test_when_every_worker_is_lost_the_coordinator_is_named(tmp_path, ps_config, monkeypatch):
    result, _, _ = launch(
        tmp_path,
        ps_config,
        monkeypatch,
        {"chief-0": "until_stop", "worker-0": "crash"},
        cluster=ps_cluster(1),
        restarts=0,
    )
    assert result.status == "failed"
    assert result.failure.startswith("chief 0 (pid") and "every worker was lost" in result.failure


def test_a_dead_parameter_server_fails_the_run_at_once_and_is_named(tmp_path, ps_config, monkeypatch):
    result, states, _ = launch(
        tmp_path, ps_config, monkeypatch, {"chief-0": "until_stop", "ps-0": "crash"}, cluster=ps_cluster()
    )
    ps = result.workers[3]
    assert result.status == "failed"
    assert result.failure.startswith(f"ps 0 (pid {ps.pid}) failed: exited with code 9")
    assert "--resume" in result.failure and ps.state == FAILED
    assert states["chief 0"][-1] == STOPPED


def test_a_failing_evaluator_never_stops_training(tmp_path, ps_config, monkeypatch):
    result, _, _ = launch(
        tmp_path,
        ps_config,
        monkeypatch,
        {"chief-0": "long", "evaluator-0": "crash"},
        cluster=ps_cluster(evaluator=True),
    )
    assert result.ok, result.failure
    evaluator = result.workers[-1]
    assert evaluator.state == FAILED and "fake evaluator failure; training goes on" in evaluator.message


def test_an_evaluator_still_busy_after_training_is_stopped(tmp_path, ps_config, monkeypatch):
    monkeypatch.setattr(group, "EVALUATOR_GRACE_S", 0.5)
    result, _, _ = launch(tmp_path, ps_config, monkeypatch, {"evaluator-0": "deaf"}, cluster=ps_cluster(evaluator=True))
    assert result.ok, result.failure
    evaluator = result.workers[-1]
    assert evaluator.state == STOPPED and "still validating 0.5 s after training ended" in evaluator.message


def test_an_evaluator_beside_multi_worker_mirrored(tmp_path, write_run_config, monkeypatch):
    config = lambda: write_run_config(validation_split=0.2)  # noqa: E731
    result, _, events = launch(tmp_path, config, monkeypatch, {}, cluster=local_cluster(2, evaluator=True))
    assert result.ok, result.failure
    assert [w.task.id for w in result.workers] == ["worker-0", "worker-1", "evaluator-0"]
    assert result.workers[0].role == "chief: trains and writes the results"


def test_every_tasks_state_is_kept_in_the_run_folder_for_a_window_that_watches_it(
    tmp_path, write_run_config, monkeypatch
):
    from engine.core.runs.follow import RunWatch

    result, states, _ = launch(tmp_path, write_run_config, monkeypatch, {})
    assert result.ok, result.failure
    read = RunWatch(tmp_path / "run").read()
    seen: dict[str, list[str]] = {}
    for event in read.events:
        if isinstance(event, ev.WorkerState) and seen.get(event.worker, [None])[-1] != event.state:
            seen.setdefault(event.worker, []).append(event.state)
    assert seen == {"worker-0": states["worker 0"], "worker-1": states["worker 1"]}
