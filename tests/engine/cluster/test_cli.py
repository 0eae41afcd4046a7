"""engine.cluster.cli without training: validate, export, and refusals."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from engine import events as ev
from engine.cluster.cli import main


def write(tmp_path, doc) -> str:
    path = tmp_path / "cluster.json"
    path.write_text(json.dumps(doc) if not isinstance(doc, str) else doc)
    return str(path)


def test_validate_prints_every_problem_and_fails_on_errors(tmp_path, capsys):
    path = write(tmp_path, {"cluster": {"worker": ["127.0.0.1:1", "127.0.0.1:1", "10.0.0.5:2"]}})
    assert main(["cluster", "validate", path]) == 1
    captured = capsys.readouterr()
    assert "error: cluster.worker[1] = '127.0.0.1:1': same machine and port as worker 0" in captured.err
    assert "warning: cluster.worker[2]" in captured.err
    assert captured.out.strip().endswith("1 error(s), 3 warning(s)")


@pytest.mark.parametrize(
    "doc, code",
    [
        ({"cluster": {"worker": ["127.0.0.1:1"]}}, 0),
        ({"cluster": {"worker": ["10.0.0.5:1"]}}, 0),  # warnings only
        ({"cluster": {"worker": ["127.0.0.1:1"], "ps": ["127.0.0.1:2"]}}, 0),
        ("{not json", 2),
    ],
)
def test_validate_exit_codes(tmp_path, doc, code):
    assert main(["cluster", "validate", write(tmp_path, doc)]) == code


def test_validate_checks_strategy_rules(tmp_path):
    path = write(tmp_path, {"cluster": {"worker": ["127.0.0.1:1"], "ps": ["127.0.0.1:2"]}})
    assert main(["cluster", "validate", path, "--strategy", "multi_worker_mirrored"]) == 1


def test_export_writes_the_bundle(tmp_path, write_run_config, capsys):
    cluster = write(tmp_path, {"cluster": {"worker": ["127.0.0.1:20001", "127.0.0.1:20002"]}})
    out = tmp_path / "bundle"
    assert (
        main(["cluster", "export", "--cluster", cluster, "--config", str(write_run_config()), "--out", str(out)]) == 0
    )
    assert (out / "worker-1" / "start.sh").exists() and (out / "tfjob.yaml").exists()
    assert "README.md" in capsys.readouterr().out


def test_export_refuses_a_bad_cluster(tmp_path, write_run_config, capsys):
    cluster = write(tmp_path, {"cluster": {"worker": ["bad host:1"]}})
    assert (
        main(
            [
                "cluster",
                "export",
                "--cluster",
                cluster,
                "--config",
                str(write_run_config()),
                "--out",
                str(tmp_path / "bundle"),
            ]
        )
        == 2
    )
    assert "cluster.worker[0]" in capsys.readouterr().err
    assert not (tmp_path / "bundle").exists()


def test_launch_refuses_a_bad_config_before_starting_anything(tmp_path, capsys):
    (tmp_path / "run.json").write_text('{"strategy": "mirrored"}')
    assert (
        main(
            [
                "cluster",
                "launch",
                "--workers",
                "2",
                "--config",
                str(tmp_path / "run.json"),
                "--run-dir",
                str(tmp_path / "run"),
            ]
        )
        == 2
    )
    assert "strategy mirrored ignores the cluster" in capsys.readouterr().err


def test_launch_events_reports_a_bad_config_as_an_event(tmp_path):
    (tmp_path / "run.json").write_text('{"strategy": "mirrored"}')
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "engine.cluster.cli",
            "cluster",
            "launch",
            "--workers",
            "2",
            "--config",
            str(tmp_path / "run.json"),
            "--events",
        ],
        capture_output=True,
        text=True,
        timeout=60,
    )
    *before, event = [ev.decode(line) for line in done.stdout.splitlines()]
    assert all(isinstance(e, ev.Log) for e in before)  # at most where the workers' network is
    assert done.returncode == 2
    assert isinstance(event, ev.RunFailed) and "ignores the cluster" in event.message


def launch_cli(*args: str) -> subprocess.CompletedProcess:
    from tests.repo import REPO

    return subprocess.run(
        [sys.executable, "main.py", "cluster", "launch", "--workers", "2", *args],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_launch_refuses_a_run_another_process_trains(tmp_path, write_run_config):
    import os

    from engine.protocol.paths import RunPaths
    from engine.runlock import RunLock
    from tests.run_fixtures import write_run

    run = write_run(tmp_path, "stopped", ev.RunFinished(status="stopped", epochs_completed=1, run_dir=""), 1)
    (run / "checkpoints" / "ckpt-1.index").write_bytes(b"")
    with RunLock.acquire(RunPaths(run), "tfdd train"):
        out = launch_cli("--resume", str(run))
    assert out.returncode == 2 and f"in use by pid {os.getpid()}" in out.stderr
    assert not (run / "workers").exists()  # no worker was started


def test_launch_refuses_a_folder_that_is_not_a_run(tmp_path, write_run_config):
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "README.md").write_text("mine")
    out = launch_cli("--config", str(write_run_config()), "--run-dir", str(mine))
    assert out.returncode == 2 and "not a run folder" in out.stderr
    assert [p.name for p in mine.iterdir()] == ["README.md"]
