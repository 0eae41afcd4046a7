"""Clusters started over SSH on two hosts (127.0.0.2, 127.0.0.3) of a real OpenSSH server, trained for real.

Each host runs its tasks in its own folder; the chief's run comes back to
this machine's run directory. Stop, a dropped connection (the server side of
it killed) and a killed parameter_server worker end as on 127.0.0.1, and no
remote process outlives the run.
"""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path

import pytest

from engine.cluster import remote as remote_module
from engine.cluster.cli import main as cluster_main
from engine.cluster.group import FINISHED, LOST, REJOINED, STOPPED, TRAINING
from engine.cluster.remote import launch_remote_cluster, remote_cluster
from engine.cluster.remote_task import LINK_TIMEOUT_S
from engine.cluster.ssh import SSH_CONFIG_ENV, Ssh
from engine.core import events as ev
from engine.core.logs.stacks import python_stacks
from engine.core.protocol.codes import CLUSTER_STOP_GRACE_S, RunStatus
from engine.core.protocol.profile import ProfileRequests
from engine.core.runs.rundir import claim, read_events, read_metrics
from engine.core.tfconfig import local_cluster
from tests.engine.cluster.rejoin_hold import HoldUntilRejoined
from tests.engine.cluster.ssh_server import SSHD, SshServer, remote_processes, session_pids, sshd_processes

pytestmark = [
    pytest.mark.slow,
    pytest.mark.timeout(300),
    pytest.mark.skipif(SSHD is None, reason="OpenSSH's server (sshd, package openssh-server) is missing"),
]


@pytest.fixture(scope="module")
def ssh_server(tmp_path_factory):
    server = SshServer.start(tmp_path_factory.mktemp("sshd"))
    yield server
    server.stop()


def until(condition, what: str, timeout_s: float = 60.0) -> None:
    deadline = time.monotonic() + timeout_s
    while not condition():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.1)


def no_remote_process_left(server: SshServer) -> None:
    until(lambda: not remote_processes(server), "the remote tasks to end", CLUSTER_STOP_GRACE_S + 15)


def launch(server: SshServer, config_path: Path, run_dir: Path, cluster, hosts, **kwargs):
    ssh = Ssh(str(server.config))
    remote = remote_cluster(cluster, [server.host(a) for a in hosts], ssh, run_dir.parent.name)  # one per test
    return launch_remote_cluster(remote, config_path, run_dir, ssh, join_timeout_s=120, **kwargs)


def test_stop_stops_every_host_after_a_checkpoint_and_resume_on_the_same_hosts_completes(
    ssh_server, write_run_config, tmp_path, monkeypatch
):
    """Stop: every host stops after a checkpoint, the chief's run having come back while it trained; the pids and
    stacks are the hosts'. Each task ran in its own folder on its host; `--resume` (the command line, its hosts
    from RUN_DIR/hosts.txt) continues the stopped run on the same hosts to its end."""
    sync_s = remote_module.SYNC_S
    monkeypatch.setattr(remote_module, "SYNC_S", 0.3)  # the stop's: the chief's run comes back while it trains
    monkeypatch.setenv(SSH_CONFIG_ENV, str(ssh_server.config))
    run_dir = tmp_path / tmp_path.name  # its folders' name on the hosts, as `cluster launch` names them
    states: dict[str, str] = {}
    stop = []
    came_back = run_dir / "config.json"  # the chief writes it there first

    def on_event(task, event):  # stop once the chief's run has come back while it trains (or give up waiting)
        if isinstance(event, ev.Log) and event.level == "warning":
            warnings.append(event.message)
        if (
            isinstance(event, ev.BatchEnd)
            and event.global_step >= 3
            and (came_back.is_file() or event.global_step > 200)
        ):
            stop.append(came_back.is_file())

    def on_state(status):
        states[status.task.id] = status.state
        if status.state == TRAINING and status.task.id == "worker-1" and not stacks:  # its process, on its host
            stacks.append((status, Path(f"/proc/{status.pid}/cmdline").read_bytes()))
            stacks.append(python_stacks(status.pid, status.host, status.stacks))

    stacks: list = []
    warnings: list[str] = []
    profile = ProfileRequests()
    profile.ask(3)  # the window's Capture profile: a task's profile would stay on its host, so it is refused
    lock = claim(run_dir, resume=False, command="test")  # as `cluster launch` does
    try:
        config = write_run_config(epochs=3, num_samples=8192)  # 384 steps: the stop comes long before the end
        result = launch(
            ssh_server, config, run_dir, local_cluster(2), ["h2", "h3"],
            on_event=on_event, on_state=on_state, should_stop=lambda: bool(stop), profile=profile, lock=lock,
        )  # fmt: skip
    finally:
        lock.release()
    assert result.status == RunStatus.STOPPED, result.failure
    assert stop[0], "the chief's run came back while it trained"
    (status, cmdline), dump = stacks
    assert b"engine.train.worker" in cmdline and status.host == "h3", cmdline  # the trainer, not the ssh client
    if "may not attach" not in dump.text:
        assert dump.ok and "engine/train/" in dump.text, dump.text
    assert states == {"worker-0": STOPPED, "worker-1": STOPPED}
    assert list((run_dir / "checkpoints").glob("ckpt-*.index")), "the chief's checkpoint came back"
    assert any("not asked for one yet" in w for w in warnings), warnings
    assert not (run_dir / "tensorboard" / "plugins" / "profile").exists()
    assert len(read_metrics(run_dir / "metrics.csv")) < 3
    no_remote_process_left(ssh_server)

    monkeypatch.setattr(remote_module, "SYNC_S", sync_s)
    code = cluster_main(["cluster", "launch", "--resume", str(run_dir)])  # its hosts from RUN_DIR/hosts.txt
    assert code == 0, [p.read_text()[-2000:] for p in (run_dir / "workers").glob("*.log")]
    assert [int(r["epoch"]) for r in read_metrics(run_dir / "metrics.csv")] == [1, 2, 3]  # the chief's run came back
    assert (run_dir / "config.json").is_file() and list((run_dir / "checkpoints").glob("ckpt-*.index"))
    for alias, task in (("h2", "worker-0"), ("h3", "worker-1")):
        folder = ssh_server.folder / f"remote-{alias}" / run_dir.name / task
        assert (folder / "tf_config.json").is_file(), f"{task} ran in its own folder on {alias}"
    assert (ssh_server.folder / "remote-h2" / run_dir.name / "worker-0" / "run" / "metrics.csv").is_file()
    no_remote_process_left(ssh_server)


def test_a_dropped_connection_is_named_within_5_s_and_the_remote_tasks_stop_after_a_checkpoint(
    ssh_server, write_run_config, tmp_path
):
    dropped: list[float] = []
    named: list[float] = []

    def on_event(task, event):
        if isinstance(event, ev.BatchEnd) and event.global_step >= 3 and not dropped:
            for pid in session_pids(ssh_server):  # the server's side of every connection: the links drop
                os.kill(pid, signal.SIGKILL)
            dropped.append(time.monotonic())

    def on_state(status):
        if dropped and not named and "connection was lost" in status.message:
            named.append(time.monotonic())

    config = write_run_config(num_samples=100_000, epochs=50)
    result = launch(
        ssh_server, config, tmp_path / "run", local_cluster(2), ["h2", "h3"], on_event=on_event, on_state=on_state
    )
    assert result.status == RunStatus.FAILED
    assert "connection was lost" in result.failure, result.failure
    assert named and named[0] - dropped[0] < 5.0
    no_remote_process_left(ssh_server)
    there = read_events(ssh_server.folder / "remote-h2" / tmp_path.name / "worker-0" / "run")  # the chief's run
    assert isinstance(there[-2], ev.CheckpointSaved) and isinstance(there[-1], ev.RunFinished), there[-2:]
    assert there[-1].status == RunStatus.STOPPED  # the link dropped: it stopped after its checkpoint


def test_a_host_that_stops_answering_is_named_within_5_s(ssh_server, write_run_config, tmp_path):
    frozen: list[int] = []
    named: list[float] = []
    when: list[float] = []

    def on_event(task, event):
        if isinstance(event, ev.BatchEnd) and event.global_step >= 3 and not frozen:
            frozen.extend(sshd_processes(ssh_server))  # the connections stay open; nothing answers on them
            for pid in frozen:
                os.kill(pid, signal.SIGSTOP)
            when.append(time.monotonic())

    def on_state(status):
        if when and not named and "connection was lost" in status.message:
            named.append(time.monotonic())

    config = write_run_config(num_samples=100_000, epochs=50)
    try:
        result = launch(
            ssh_server, config, tmp_path / "run", local_cluster(2), ["h2", "h3"], on_event=on_event, on_state=on_state
        )
    finally:
        for pid in frozen:  # the host comes back: it sees the connections gone and ends its tasks
            os.kill(pid, signal.SIGCONT)
    assert result.status == RunStatus.FAILED and "connection was lost" in result.failure, result.failure
    assert named and named[0] - when[0] < 5.0
    no_remote_process_left(ssh_server)


def test_when_this_machine_goes_silent_the_remote_tasks_stop_after_a_checkpoint(ssh_server, write_run_config, tmp_path):
    frozen: list[int] = []

    def on_event(task, event):  # a closed laptop lid: this machine's ssh clients say nothing more, close nothing
        if isinstance(event, ev.BatchEnd) and event.global_step >= 3 and not frozen:
            frozen.extend(p for p in remote_processes(ssh_server) if _cmdline(p).startswith("ssh "))
            for pid in frozen:
                os.kill(pid, signal.SIGSTOP)
            until(lambda: not [p for p in remote_processes(ssh_server) if p not in frozen], "the tasks there to end",
                  LINK_TIMEOUT_S + CLUSTER_STOP_GRACE_S + 15)  # fmt: skip
            for pid in frozen:
                os.kill(pid, signal.SIGCONT)

    config = write_run_config(num_samples=100_000, epochs=50)
    result = launch(ssh_server, config, tmp_path / "run", local_cluster(2), ["h2", "h3"], on_event=on_event)
    assert frozen and result.status != RunStatus.COMPLETED
    there = read_events(ssh_server.folder / "remote-h2" / tmp_path.name / "worker-0" / "run")  # the chief's run
    assert isinstance(there[-2], ev.CheckpointSaved) and isinstance(there[-1], ev.RunFinished), there[-2:]
    assert there[-1].status == RunStatus.STOPPED


def _cmdline(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode("utf-8", "replace")
    except OSError:
        return ""


def test_a_parameter_server_run_goes_on_when_a_worker_host_is_killed(ssh_server, write_run_config, tmp_path):
    """worker-1's task killed on its host as epoch 1 ends; the chief trains on without it, held at its next epoch
    end until the worker rejoins (rejoin_hold), so five epochs outlast the restart on any machine."""
    config = write_run_config(strategy="parameter_server", validation_split=0.2, epochs=5, num_samples=8192)
    states: dict[str, list[str]] = {}
    killed = []
    hold = HoldUntilRejoined("worker-1")

    def on_event(task, event):
        if task.job == "chief" and isinstance(event, ev.EpochEnd) and event.epoch == 1 and not killed:
            [task_there] = [p for p in remote_processes(ssh_server) if _is_remote_task(p, "worker-1")]
            os.kill(task_there, signal.SIGKILL)  # the task on its host, and with it its trainer
            killed.append(task_there)
        hold.on_event(task, event)

    def on_state(status):  # a state once: a task's pid on its host comes as a change of the same state
        seen = states.setdefault(status.task.id, [])
        if not seen or seen[-1] != status.state:
            seen.append(status.state)
        hold.on_state(status)

    cluster = local_cluster(2, ps=1, chief=True)
    with hold:
        result = launch(
            ssh_server, config, tmp_path / "run", cluster, ["h2", "h3"], on_event=on_event, on_state=on_state
        )
    assert killed and result.ok, result.failure
    assert states["worker-1"][-4:] == [LOST, "starting", REJOINED, FINISHED]
    assert states["chief-0"][-1] == FINISHED
    assert len(read_metrics(tmp_path / "run" / "metrics.csv")) == 5
    no_remote_process_left(ssh_server)


def _is_remote_task(pid: int, task: str) -> bool:
    """The remote_task process of `task` on its host (not the ssh client here that started it)."""
    try:
        words = Path(f"/proc/{pid}/cmdline").read_bytes().decode().split("\0")
    except OSError:
        return False
    return words[0] != "ssh" and "engine.cluster.remote_task" in words and any(w.endswith(task) for w in words)
