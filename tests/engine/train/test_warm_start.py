"""The real warm trainer: it imports TensorFlow without touching a device, then applies any
device plan it is handed and trains exactly as a fresh process does."""

from __future__ import annotations

import subprocess
import sys

import pytest

from engine import events as ev
from engine.protocol.commands import assignment_line, spare_command, trainer_args
from engine.rundir import read_metrics
from tests.engine.train.worker_process import REPO, LiveWorker, base_config, env, train, write_config

pytestmark = pytest.mark.slow


def test_warm_trainer_applies_the_plan_it_is_handed_and_trains_like_a_fresh_one(tmp_path):
    config = base_config(virtual_devices=2, epochs=2)
    cold = train(tmp_path, config, "cold")
    assert cold.returncode == 0, cold.stderr[-2000:]

    warm = LiveWorker([], command=spare_command())
    ready = warm.wait_for(lambda e: isinstance(e, ev.TrainerReady))
    assert ready.rss_mb > 100 and ready.import_seconds > 0, "TensorFlow is in memory before the run exists"
    path = write_config(tmp_path, config, "warm.json")
    assert warm.proc.stdin is not None
    warm.proc.stdin.write(assignment_line(trainer_args(path, tmp_path / "warm")))
    warm.proc.stdin.flush()
    assert warm.finish() == 0
    (started,) = [e for e in warm.events if isinstance(e, ev.RunStarted)]
    assert started.num_replicas == 2 and len(started.devices) == 2, "virtual devices created after the import"
    assert started.per_replica_batch_size == 32
    warm_losses = [r["loss"] for r in read_metrics(tmp_path / "warm" / "metrics.csv")]
    cold_losses = [r["loss"] for r in read_metrics(tmp_path / "cold" / "metrics.csv")]
    assert warm_losses == cold_losses, "a warm start changes nothing but the time it takes"


def run_spare(stdin: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        spare_command(), cwd=REPO, env=env(), input=stdin, capture_output=True, text=True, timeout=300
    )


def test_warm_trainer_leaves_quietly_when_its_parent_goes_and_refuses_garbage():
    gone = run_spare("")
    assert gone.returncode == 0 and "run_failed" not in gone.stdout
    garbage = run_spare("not arguments\n")
    assert garbage.returncode == 2
    events = [ev.decode(line) for line in garbage.stdout.splitlines() if line.strip()]
    assert [type(e) for e in events] == [ev.TrainerReady, ev.RunFailed]
    assert isinstance(events[-1], ev.RunFailed) and "not a trainer assignment" in events[-1].message


def test_the_spare_command_is_the_worker_in_its_waiting_mode():
    assert spare_command()[1:] == ["-m", "engine.train.worker", "--wait-for-config"]
    assert sys.executable == spare_command()[0]
