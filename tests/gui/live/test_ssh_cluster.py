"""The Cluster tab's "Start on these machines": each task over SSH on the machine its row names.

A real OpenSSH server on 127.0.0.2 and 127.0.0.3 (tests/engine/cluster/ssh_server.py) and real
TensorFlow workers; the window sees the run as it sees a local cluster.
"""

from __future__ import annotations

import json

import pytest
from PySide6.QtCore import Qt

from engine.cluster.ssh import SSH_CONFIG_ENV
from engine.core.config import DataConfig, RunConfig
from engine.core.tfconfig import free_loopback_ports
from tests.engine.cluster.ssh_server import SSHD, SshServer, remote_processes
from tests.gui.live.test_local_cluster import CPU_ONLY

pytestmark = pytest.mark.skipif(SSHD is None, reason="OpenSSH's server (sshd, package openssh-server) is missing")


@pytest.fixture(scope="module")
def ssh_server(tmp_path_factory):
    server = SshServer.start(tmp_path_factory.mktemp("sshd"))
    yield server
    server.stop()


def start_on(window, qtbot, machines: list[str], config: RunConfig) -> None:
    window.apply_probe(CPU_ONLY)
    window.form.set_config(config)
    jobs = {"worker": [f"127.0.0.1:{p}" for p in free_loopback_ports(len(machines))]}
    window.cluster.json.setPlainText(json.dumps({"cluster": jobs}))
    window.cluster.table.set_machines(machines)
    assert window.cluster.machines_button.isEnabled(), window.cluster.machines_button.toolTip()
    qtbot.mouseClick(window.cluster.machines_button, Qt.MouseButton.LeftButton)


def test_hosts_that_are_not_ready_are_listed_in_the_log(qtbot, make_window, ssh_server, monkeypatch):
    monkeypatch.setenv(SSH_CONFIG_ENV, str(ssh_server.config))
    window = make_window()
    bare = ssh_server.host("h2", python="/usr/bin/python3").row()
    start_on(window, qtbot, [bare, ssh_server.host("h3").row()], RunConfig(strategy="multi_worker_mirrored"))
    qtbot.waitUntil(lambda: window.runner is None, timeout=60_000)
    assert "h2: the dashboard is not installed for `/usr/bin/python3`" in window.log.shown_text()
    assert not remote_processes(ssh_server)


def test_the_hosts_problems_are_in_the_windows_language(qtbot, chinese, make_window, ssh_server, monkeypatch):
    monkeypatch.setenv(SSH_CONFIG_ENV, str(ssh_server.config))
    window = make_window()
    bare = ssh_server.host("h2", python="/usr/bin/python3").row()
    start_on(window, qtbot, [bare, ssh_server.host("h3").row()], RunConfig(strategy="multi_worker_mirrored"))
    qtbot.waitUntil(lambda: window.runner is None, timeout=60_000)
    shown = window.log.shown_text()
    assert "未启动任何任务" in shown and "h2：`/usr/bin/python3` 未安装本仪表板" in shown, shown
    assert "其他机器可以访问各 worker 的端口：任务在其他机器上运行" in shown, shown


@pytest.mark.slow
def test_the_cluster_tab_starts_a_two_host_run_over_ssh(qtbot, make_window, ssh_server, monkeypatch):
    monkeypatch.setenv(SSH_CONFIG_ENV, str(ssh_server.config))
    window = make_window()
    window.apply_probe(CPU_ONLY)
    window.form.set_config(RunConfig(strategy="multi_worker_mirrored", epochs=2, data=DataConfig(num_samples=512)))
    jobs = {"worker": [f"127.0.0.1:{p}" for p in free_loopback_ports(2)]}
    window.cluster.json.setPlainText(json.dumps({"cluster": jobs}))
    editor = window.cluster
    assert not editor.machines_button.isEnabled() and "Machine column" in editor.machines_button.toolTip()
    editor.table.set_machines([ssh_server.host("h2").row(), ""])
    assert editor.machines_button.toolTip() == "worker 1 has no machine: name one for every task"
    editor.table.set_machines([ssh_server.host("h2").row(), ssh_server.host("h3").row()])
    assert editor.machines_button.isEnabled(), editor.machines_button.toolTip()
    qtbot.mouseClick(editor.machines_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: window.runner is None, timeout=240_000)
    assert "completed" in window.status_labels["state"].text(), window.log.tail(60)
    panel = window.workers
    assert panel.workers() == ["worker-0", "worker-1"]
    assert {panel.state(w) for w in panel.workers()} == {"finished"}
    window.plots.redraw_all()
    assert window.plots.loss.plotted_points("epoch") == 2
    qtbot.waitUntil(lambda: not remote_processes(ssh_server), timeout=45_000)


def test_a_remote_tasks_stacks_are_read_on_its_host(qtbot, ssh_server):
    """A task's row keeps where its process runs: its Python stacks are read there, over ssh (here the task's
    "process" is this test's own, on the loopback host h3)."""
    import os

    from engine.cluster.ssh import Ssh
    from engine.core import events as ev
    from engine.core.logs.stacks import py_spy
    from gui.live.workers_panel import WorkersPanel
    from tests.gui.stacks_shown import assert_stacks_show

    panel = WorkersPanel()
    qtbot.addWidget(panel)
    there = Ssh(str(ssh_server.config)).command(ssh_server.host("h3"), f"{py_spy()} dump --pid {os.getpid()}")
    state = ev.WorkerState(worker="worker-1", state="training", pid=os.getpid(), host="h3", stacks=there)
    panel.add_events([state])
    assert_stacks_show(qtbot, panel.show_stacks("worker-1"), "test_a_remote_tasks_stacks_are_read_on_its_host")
    panel.add_events([ev.WorkerState(worker="worker-1", state="training", pid=os.getpid(), host="h3")])
    dialog = panel.show_stacks("worker-1")
    qtbot.waitUntil(lambda: dialog.ready)
    assert "py-spy is not installed on h3" in dialog.text()
