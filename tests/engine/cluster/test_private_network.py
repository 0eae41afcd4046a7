"""A local cluster's workers listen where no one else can reach them (issue item 9).

TensorFlow's server listens on every interface (`*:port`) whatever TF_CONFIG says. On Linux the
launcher moves itself into a private network namespace first thing, so its workers' ports exist on
no interface of the machine: they are absent from this process's /proc/net/tcp and a connection
from here is refused, while the workers still train together on 127.0.0.1 inside.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from engine.cluster.netns import DISABLE_ENV, can_isolate
from engine.core import events as ev
from tests.engine.train.worker_process import REPO, base_config, env, write_config

ISOLATION = can_isolate() if sys.platform.startswith("linux") else "not Linux"
needs_namespaces = pytest.mark.skipif(bool(ISOLATION), reason=f"no private network namespaces here: {ISOLATION}")

LAUNCH_FAKES = textwrap.dedent(
    """
    import json, sys, threading
    from engine.cluster.netns import isolate_network
    iso = isolate_network()  # first, as `cluster launch` does: before any thread
    print(json.dumps({"isolated": iso.isolated, "message": iso.message()}), flush=True)
    from engine.cluster.launcher import launch_cluster
    from engine.core.tfconfig import local_cluster
    from tests.engine.cluster.test_launcher import fake_worker_command
    stop = threading.Event()
    threading.Thread(target=lambda: (sys.stdin.readline(), stop.set()), daemon=True).start()
    def on_state(s):
        print(json.dumps({"worker": s.task.index, "pid": s.pid, "state": s.state, "port": s.task.port}), flush=True)
    result = launch_cluster(local_cluster(2), sys.argv[1], sys.argv[2], join_timeout_s=60, on_state=on_state,
                            should_stop=stop.is_set, command_for=fake_worker_command)
    print(json.dumps({"result": result.status}), flush=True)
    """
)


def listening_ports(net_dir: str) -> set[int]:
    """TCP ports in LISTEN state (0A) in a /proc/<pid>/net (or /proc/net) table."""
    ports = set()
    for name in ("tcp", "tcp6"):
        path = Path(net_dir, name)
        if path.exists():
            for line in path.read_text().splitlines()[1:]:
                fields = line.split()
                if fields[3] == "0A":
                    ports.add(int(fields[1].rsplit(":", 1)[1], 16))
    return ports


def assert_unreachable_from_here(pid: int, port: int) -> None:
    assert os.readlink(f"/proc/{pid}/ns/net") != os.readlink("/proc/self/ns/net")
    assert port in listening_ports(f"/proc/{pid}/net"), "the worker listens in its own namespace"
    assert port not in listening_ports("/proc/net"), "and on no interface of this machine"
    with pytest.raises(ConnectionRefusedError):
        socket.create_connection(("127.0.0.1", port), timeout=2).close()


def launch_fakes(tmp_path: Path, extra_env: dict[str, str] | None = None) -> subprocess.Popen:
    config = write_config(tmp_path, {"strategy": "multi_worker_mirrored", "epochs": 1})
    return subprocess.Popen(
        [sys.executable, "-c", LAUNCH_FAKES, str(config), str(tmp_path / "run")],
        cwd=REPO,
        env={
            **env(),
            **(extra_env or {}),
            "FAKE_WORKER_PLAN": json.dumps({"0": "until_stop", "1": "until_stop"}),
        },
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )


@needs_namespaces
def test_the_workers_ports_exist_only_inside_the_private_namespace(tmp_path):
    proc = launch_fakes(tmp_path)
    try:
        first = json.loads(proc.stdout.readline())
        assert first["isolated"], first["message"]
        workers: dict[int, dict] = {}
        deadline = time.monotonic() + 60
        while sum(w["state"] == "training" for w in workers.values()) < 2:
            assert time.monotonic() < deadline, workers
            line = json.loads(proc.stdout.readline())
            if "worker" in line:
                workers[line["worker"]] = line
        for worker in workers.values():
            assert_unreachable_from_here(worker["pid"], worker["port"])
        proc.stdin.write("stop\n")
        proc.stdin.flush()
        assert json.loads(proc.stdout.readlines()[-1])["result"] == "stopped"  # pipes and stop still work
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.wait(timeout=30)


def test_without_a_private_network_the_launcher_says_so_once_and_why(tmp_path):
    """The opt-out (or a machine without namespaces) gives one warning with the reason and the advice."""
    config = write_config(tmp_path, {"strategy": "mirrored"})  # refused after the warning: nothing trains
    out = subprocess.run(
        [sys.executable, "main.py", "cluster", "launch", "--workers", "2", "--config", str(config), "--events"],
        cwd=REPO,
        env={**env(), DISABLE_ENV: "1"},
        capture_output=True,
        text=True,
        timeout=60,
    )
    logs = [e for e in map(ev.decode, out.stdout.splitlines()) if isinstance(e, ev.Log)]
    assert len(logs) == 1 and logs[0].level == "warning" and logs[0].source == "launcher"
    assert f"{DISABLE_ENV} is set" in logs[0].message and "firewall" in logs[0].message


def test_the_launcher_is_still_single_threaded_when_it_isolates():
    """unshare() needs a single thread; NumPy's BLAS starts threads the moment it is imported, so nothing
    `tfdd cluster launch` imports before isolating may pull it in (it once did, through the data checks)."""
    probe = "import os, engine.cli, engine.cluster.cli; print(len(os.listdir('/proc/self/task')))"
    out = subprocess.run([sys.executable, "-c", probe], cwd=REPO, env=env(), capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "1", "importing the launcher started threads: isolation would be refused"


@pytest.mark.slow
@needs_namespaces
def test_cluster_launch_trains_real_workers_that_no_one_else_can_reach(tmp_path):
    """The real command, as the window starts it: two TensorFlow workers, isolated, then stopped."""
    config = write_config(
        tmp_path, base_config(strategy="multi_worker_mirrored", epochs=50, data={"num_samples": 20000})
    )
    proc = subprocess.Popen(
        [sys.executable, "main.py", "cluster", "launch", "--workers", "2", "--config", str(config), "--events"],
        cwd=REPO,
        env=env(),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    try:
        pids: dict[str, int] = {}
        first_log = None
        for line in proc.stdout:
            event = ev.decode(line)
            if isinstance(event, ev.Log) and first_log is None:
                first_log = event
            if isinstance(event, ev.WorkerState) and event.pid:
                pids[event.worker] = event.pid
            if isinstance(event, ev.BatchEnd):
                break
        assert first_log is not None and "private network namespace" in first_log.message
        for pid in pids.values():
            tf_config = json.loads(
                dict(
                    item.split("=", 1) for item in Path(f"/proc/{pid}/environ").read_text().split("\0") if "=" in item
                )["TF_CONFIG"]
            )
            index = tf_config["task"]["index"]
            port = int(tf_config["cluster"]["worker"][index].rsplit(":", 1)[1])
            assert_unreachable_from_here(pid, port)
        proc.stdin.write("stop\n")
        proc.stdin.flush()
        last = [ev.decode(line) for line in proc.stdout][-1]
        assert isinstance(last, ev.RunFinished) and last.status == "stopped"
        assert proc.wait(timeout=120) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.wait(timeout=30)
