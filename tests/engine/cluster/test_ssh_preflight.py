"""Hosts checked before a cluster starts over SSH, against a real OpenSSH server on 127.0.0.2 and 127.0.0.3."""

from __future__ import annotations

import dataclasses
import json
import socket
import subprocess
from pathlib import Path

import pytest

from engine.cluster.cli import main as cluster_main
from engine.cluster.remote import PreflightError, preflight, remote_cluster, send_tasks
from engine.cluster.ssh import Ssh
from engine.core.config import DataConfig, ModelConfig, RunConfig
from engine.core.protocol.codes import ExitCode
from engine.core.tfconfig import local_cluster
from tests.engine.cluster.ssh_server import SSHD, SshServer

pytestmark = pytest.mark.skipif(SSHD is None, reason="OpenSSH's server (sshd, package openssh-server) is missing")


@pytest.fixture(scope="module")
def ssh_server(tmp_path_factory):
    server = SshServer.start(tmp_path_factory.mktemp("sshd"))
    yield server
    server.stop()


CONFIG = RunConfig(strategy="multi_worker_mirrored")


def check(server: SshServer, hosts, config: RunConfig = CONFIG, ssh_config=None) -> list[str]:
    ssh = Ssh(str(ssh_config or server.config))
    try:
        preflight(remote_cluster(local_cluster(len(hosts)), hosts, ssh, "run-1"), config, ssh)
    except PreflightError as exc:
        return exc.lines
    return []


def test_two_good_hosts_pass(ssh_server):
    assert check(ssh_server, [ssh_server.host("h2"), ssh_server.host("h3")]) == []


def test_the_hosts_addresses_are_what_ssh_connects_to(ssh_server):
    remote = remote_cluster(
        local_cluster(2), [ssh_server.host("h2"), ssh_server.host("h3")], Ssh(str(ssh_server.config)), "r"
    )
    assert [t.host for t in remote.cluster.tasks()] == ["127.0.0.2", "127.0.0.3"]
    assert remote.folders["worker-1"].endswith("remote-h3/r/worker-1")


def test_an_unknown_host_key_stops_the_start_and_says_what_to_check(ssh_server, tmp_path):
    config = tmp_path / "ssh_config"
    config.write_text(SshServer.client_config(ssh_server.folder, ssh_server.port, tmp_path / "empty_known_hosts"))
    (tmp_path / "empty_known_hosts").write_text("")
    lines = check(ssh_server, [ssh_server.host("h2"), ssh_server.host("h3")], ssh_config=config)
    assert len(lines) == 2 and all("host key is not known here" in line for line in lines), lines
    assert "fingerprint" in lines[0]
    assert (tmp_path / "empty_known_hosts").read_text() == ""  # never accepted silently


def test_a_changed_host_key_is_named(ssh_server, tmp_path):
    subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", str(tmp_path / "other")], check=True)
    other = (tmp_path / "other.pub").read_text().strip()
    (tmp_path / "known_hosts").write_text(f"[127.0.0.2]:{ssh_server.port} {other}\n")
    config = tmp_path / "ssh_config"
    config.write_text(SshServer.client_config(ssh_server.folder, ssh_server.port, tmp_path / "known_hosts"))
    [line] = check(ssh_server, [ssh_server.host("h2")], ssh_config=config)
    assert line.startswith("h2: its host key has CHANGED"), line


def test_a_refused_key_gets_how_to_set_one_up(ssh_server, tmp_path):
    subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", str(tmp_path / "client_key")], check=True)
    config = tmp_path / "ssh_config"
    config.write_text(SshServer.client_config(tmp_path, ssh_server.port, ssh_server.folder / "known_hosts"))
    [line] = check(ssh_server, [ssh_server.host("h2")], ssh_config=config)
    assert "authentication refused" in line and "ssh-copy-id h2" in line, line


def test_every_problem_of_every_host_at_once(ssh_server, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "data.csv").write_text("x,label\n1,0\n")  # here, not in the hosts' home (relative paths start there)
    with socket.socket() as busy, socket.socket() as free:
        busy.bind(("0.0.0.0", 0))
        busy.listen()
        free.bind(("127.0.0.1", 0))
        port, free_port = busy.getsockname()[1], free.getsockname()[1]
        free.close()
        config = RunConfig(strategy="multi_worker_mirrored", data=DataConfig(kind="csv", path="data.csv"))
        hosts = [ssh_server.host("h2", python="/usr/bin/python3"), ssh_server.host("h3")]
        ssh = Ssh(str(ssh_server.config))
        remote = remote_cluster(local_cluster(2, ports=[free_port, port]), hosts, ssh, "r")
        with pytest.raises(PreflightError) as raised:
            preflight(remote, config, ssh)
    lines = raised.value.lines
    assert any(line.startswith("h2: the dashboard is not installed for `/usr/bin/python3`") for line in lines), lines
    assert any("pip install tf-distributed-dashboard" in line for line in lines), lines
    assert sum("the data path data.csv does not exist there" in line for line in lines) == 2, lines
    assert f"h3: port {port} is in use there; a task of this cluster listens on it (pick other ports)" in lines


def test_an_unreachable_host_and_a_missing_python_are_named(ssh_server, tmp_path):
    closed = socket.socket()
    closed.bind(("127.0.0.3", 0))
    port = closed.getsockname()[1]
    closed.close()
    hosts = [ssh_server.host("h2", python="/nowhere/python3"), dataclasses.replace(ssh_server.host("h3"), port=port)]
    lines = check(ssh_server, hosts)
    assert lines[0].startswith("h2: no Python at `/nowhere/python3`"), lines
    assert lines[1].startswith(f"h3:{port}: unreachable") and "refused" in lines[1], lines


def test_the_command_line_lists_the_hosts_problems_and_starts_nothing(ssh_server, write_run_config, tmp_path, capsys):
    run_dir = tmp_path / "run"
    hosts = f"{ssh_server.host('h2', python='/usr/bin/python3').row()}, {ssh_server.host('h3').row()}"
    code = cluster_main(
        ["cluster", "launch", "--workers", "2", "--config", str(write_run_config()), "--run-dir", str(run_dir),
         "--hosts", hosts, "--ssh-config", str(ssh_server.config)]
    )  # fmt: skip
    err = capsys.readouterr().err
    assert code == ExitCode.CONFIG
    assert "nothing was started; the hosts are not ready:\n  h2: the dashboard is not installed" in err, err
    assert not run_dir.exists()  # no empty run left behind
    assert not (ssh_server.folder / "remote-h3" / "run").exists()  # nothing copied anywhere


def test_each_task_gets_its_config_tf_config_and_the_users_files_in_its_own_folder(ssh_server, tmp_path):
    model = tmp_path / "my_model.py"
    model.write_text("def build_model(input_shape, num_classes): ...\n")
    config = RunConfig(strategy="multi_worker_mirrored", model=ModelConfig(kind="python", path=str(model)))
    ssh = Ssh(str(ssh_server.config))
    remote = remote_cluster(local_cluster(2), [ssh_server.host("h2"), ssh_server.host("h3")], ssh, tmp_path.name)
    send_tasks(remote, config, ssh)
    for task in remote.cluster.tasks():
        folder = Path(remote.folders[task.id])
        assert (folder / "my_model.py").read_text() == model.read_text()
        assert json.loads((folder / "config.json").read_text())["model"]["path"] == "my_model.py"  # found beside it
        tf_config = json.loads((folder / "tf_config.json").read_text())
        assert tf_config["task"] == {"type": task.job, "index": task.index}
        assert tf_config["cluster"] == remote.cluster.to_dict()


def test_a_missing_ssh_config_file_is_named_before_anything_starts(write_run_config, tmp_path, capsys):
    run_dir = tmp_path / "run"
    code = cluster_main(
        ["cluster", "launch", "--workers", "2", "--config", str(write_run_config()), "--run-dir", str(run_dir),
         "--hosts", "h2, h3", "--ssh-config", str(tmp_path / "nowhere")]
    )  # fmt: skip
    err = capsys.readouterr().err
    assert code == ExitCode.CONFIG and "--ssh-config" in err and "nowhere" in err, err
    assert not run_dir.exists()
