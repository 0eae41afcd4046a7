"""`tfdd sweep --status`: what a sweep's folder holds, said without running a trial."""

from __future__ import annotations

import subprocess
import sys

from engine.core.config import DataConfig, RunConfig
from engine.core.protocol.codes import ExitCode
from tests.sweep_fixtures import make_study

BASE = RunConfig(strategy="default", epochs=2, validation_split=0.25, data=DataConfig(num_samples=256))


def status(folder) -> subprocess.CompletedProcess:
    command = [sys.executable, "-m", "engine.cli", "sweep", "--status", str(folder)]
    return subprocess.run(command, capture_output=True, text=True, timeout=120, check=False)


def test_the_status_of_a_stopped_sweep_lists_its_trials_and_runs_none(tmp_path):
    make_study(tmp_path / "sweep", BASE, {"parameters": {"learning_rate": {"log_uniform": [0.001, 10.0]}}})
    done = status(tmp_path / "sweep")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert [line.split()[:2] for line in lines[2:5]] == [["0", "complete"], ["1", "pruned"], ["2", "running"]]
    assert lines[5].startswith("best: trial 0, 0.5") and lines[-1] == "stopped"
    assert not (tmp_path / "sweep" / "trial-000").exists()  # nothing trained


def test_the_status_of_a_folder_without_a_sweep_says_so(tmp_path):
    done = status(tmp_path)
    assert done.returncode == ExitCode.CONFIG and "is not a sweep folder" in done.stderr
