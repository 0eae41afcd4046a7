"""engine.cluster.cli without training: validate, export, and refusals."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from engine.cluster.cli import main
from engine.core import events as ev
from engine.core.config import RunConfig


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

    from engine.core.protocol.paths import RunPaths
    from engine.core.runs.runlock import RunLock
    from tests.run_fixtures import write_run

    run = write_run(tmp_path, "stopped", ev.RunFinished(status="stopped", epochs_completed=1, run_dir=""), 1)
    RunConfig(strategy="multi_worker_mirrored").save(RunPaths(run).config)
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


PS = {"chief": ["127.0.0.1:20101"], "worker": ["127.0.0.1:20102", "127.0.0.1:20103"], "ps": ["127.0.0.1:20104"]}


@pytest.mark.parametrize(
    "strategy, shape, words",
    [
        ("parameter_server", ["--workers", "2"], "cluster.ps = []: parameter_server needs at least one ps task"),
        (
            "parameter_server",
            ["--cluster", {"cluster": {**PS, "chief": ["127.0.0.1:1", "127.0.0.1:2"]}}],
            "at most one chief",
        ),
        (
            "mirrored",
            ["--cluster", {"cluster": {"worker": ["127.0.0.1:1"], "evaluator": ["127.0.0.1:2"]}}],
            "cannot use an evaluator",
        ),
        ("multi_worker_mirrored", ["--workers", "2", "--ps", "1"], "multi_worker_mirrored uses no parameter servers"),
        ("multi_worker_mirrored", ["--workers", "2", "--evaluator"], "validation_split is 0"),
    ],
)
def test_launch_refuses_a_bad_cluster_with_one_clear_line(tmp_path, capsys, strategy, shape, words):
    (tmp_path / "run.json").write_text(json.dumps({"strategy": strategy}))
    if shape[0] == "--cluster":
        shape = ["--cluster", write(tmp_path, shape[1])]
    args = ["cluster", "launch", *shape, "--config", str(tmp_path / "run.json"), "--run-dir", str(tmp_path / "run")]
    assert main(args) == 2
    (line,) = capsys.readouterr().err.strip().splitlines()
    assert line.startswith("error: cluster.") and words in line, line
    assert not (tmp_path / "run").exists()  # nothing was started, nothing was written


def test_resume_relaunches_the_tasks_the_run_had_on_fresh_ports(tmp_path, write_run_config):
    from engine.cluster.cli import register
    from engine.cluster.launch_plan import launch_plan
    from engine.core.protocol.paths import RunPaths

    run_dir = tmp_path / "run"
    run_dir.mkdir()
    RunPaths(run_dir).config.write_text(json.dumps({"strategy": "parameter_server", "validation_split": 0.2}))
    RunPaths(run_dir).cluster.write_text(json.dumps({"cluster": {**PS, "evaluator": ["127.0.0.1:20105"]}}))
    import argparse

    parser = argparse.ArgumentParser()
    register(parser.add_subparsers(dest="command"))
    plan = launch_plan(parser.parse_args(["cluster", "launch", "--resume", str(run_dir)]))
    assert plan.resume and plan.run_dir == run_dir
    assert {job: len(a) for job, a in plan.cluster.jobs} == {"chief": 1, "worker": 2, "ps": 1, "evaluator": 1}
    assert "127.0.0.1:20101" not in plan.cluster.addresses("chief")  # the old ports may be taken now


@pytest.mark.parametrize("cluster_file", [None, '{"cluster": {"worker": [', '{"cluster": {"chief": 3}}'])
def test_a_run_without_a_readable_cluster_file_needs_workers_to_resume(tmp_path, capsys, cluster_file):
    run_dir = tmp_path / "run"
    run_dir.mkdir()
    (run_dir / "config.json").write_text(json.dumps({"strategy": "multi_worker_mirrored"}))
    if cluster_file is not None:
        (run_dir / "cluster.json").write_text(cluster_file)
    assert main(["cluster", "launch", "--resume", str(run_dir)]) == 2
    assert "give --workers N" in capsys.readouterr().err


def test_export_slurm_writes_a_batch_job(tmp_path, write_run_config, capsys):
    cluster = write(tmp_path, {"cluster": PS})
    config = write_run_config(strategy="parameter_server")
    out = tmp_path / "slurm"
    args = ["cluster", "export", "--slurm", "--cluster", cluster, "--config", str(config), "--out", str(out)]
    assert main([*args, "--gpus-per-node", "2", "--port-base", "23456"]) == 0
    assert sorted(p.name for p in out.iterdir()) == [".tfdd-bundle", "README.md", "run.json", "task.sh", "tfdd.sbatch"]
    sbatch = (out / "tfdd.sbatch").read_text()
    assert "#SBATCH --nodes=4" in sbatch and "#SBATCH --gpus-per-node=2" in sbatch
    assert "--kill-on-bad-exit=0" in sbatch  # a lost parameter-server worker does not end the job
    assert "--jobs 'chief=1,worker=2,ps=1' --port-base 23456" in (out / "task.sh").read_text()
    assert main([*args, "--port-base", "80"]) == 2
    assert "port_base" in capsys.readouterr().err


def test_launch_refuses_more_tasks_than_the_machine_holds_unless_forced(tmp_path, capsys):
    """--workers 1000 started TensorFlow processes without limit (134 in 2.3 GB before a probe stopped it)."""
    from engine.cluster.capacity import local_task_limit

    limit = local_task_limit()
    assert limit >= 1
    (tmp_path / "run.json").write_text(json.dumps({"strategy": "multi_worker_mirrored"}))
    args = ["cluster", "launch", "--workers", str(limit + 1), "--config", str(tmp_path / "run.json")]
    assert main([*args, "--run-dir", str(tmp_path / "run")]) == 2
    (line,) = capsys.readouterr().err.strip().splitlines()
    assert f"{limit + 1} tasks" in line and f"holds about {limit}" in line and "--force" in line, line
    assert not (tmp_path / "run").exists()  # nothing was started, nothing was written
