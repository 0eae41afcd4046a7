"""The real warm trainer: it imports TensorFlow without touching a device, then applies any
device plan it is handed and trains exactly as a fresh process does."""

from __future__ import annotations

import subprocess
import sys

import pytest

from engine.core import events as ev
from engine.core.protocol.commands import assignment_line, trainer_args, warm_trainer_command
from engine.core.runs.rundir import read_metrics
from tests.engine.train.worker_process import REPO, LiveWorker, base_config, env, run_python, train, write_config

pytestmark = pytest.mark.slow


def test_warm_trainer_applies_the_plan_it_is_handed_and_trains_like_a_fresh_one(tmp_path):
    config = base_config(virtual_devices=2, epochs=2)
    cold = train(tmp_path, config, "cold")
    assert cold.returncode == 0, cold.stderr[-2000:]

    warm = LiveWorker([], command=warm_trainer_command())
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


def run_warm_trainer(stdin: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        warm_trainer_command(), cwd=REPO, env=env(), input=stdin, capture_output=True, text=True, timeout=300
    )


def test_warm_trainer_leaves_quietly_when_its_parent_goes_and_refuses_garbage():
    gone = run_warm_trainer("")
    assert gone.returncode == 0 and "run_failed" not in gone.stdout
    garbage = run_warm_trainer("not arguments\n")
    assert garbage.returncode == 2
    events = [ev.decode(line) for line in garbage.stdout.splitlines() if line.strip()]
    assert [type(e) for e in events] == [ev.TrainerReady, ev.RunFailed]
    assert isinstance(events[-1], ev.RunFailed) and "not a trainer assignment" in events[-1].message


def test_the_warm_trainer_command_is_the_worker_in_its_waiting_mode():
    assert warm_trainer_command()[1:] == ["-m", "engine.train.worker", "--wait-for-config"]
    assert sys.executable == warm_trainer_command()[0]


CONVERSIONS_DURING_A_RUN = """
import sys
from engine.train import warm_start
warm_start._preload()  # what a warm trainer does while it waits; it fails if a device was touched
from tensorflow.python.autograph.pyct import transpiler
converted = []
convert = transpiler.GenericTranspiler.transform_function  # reached only when AutoGraph's cache misses
def counting(self, fn, context):
    converted.append(fn.__code__.co_filename.rpartition("/")[2] + ":" + fn.__qualname__)
    return convert(self, fn, context)
transpiler.GenericTranspiler.transform_function = counting
from engine.core.protocol.channel import StopSignal
from engine.core.runs.rundir import open_run
from engine.train.task import run_task
config, run_dir, resume = open_run(sys.argv[1], sys.argv[2], None)
outcome = run_task(config, run_dir, [lambda event: None], StopSignal(), resume=resume)
print(outcome.status, sorted(set(converted)))
"""


def test_a_warm_trainer_has_converted_the_custom_loop_before_its_run(tmp_path):
    """AutoGraph's source conversion of the loop's functions (about 0.3 s of the first trace) is done
    while the warm trainer waits; the run, validation included, then converts none of them."""
    path = write_config(tmp_path, base_config(epochs=1, validation_split=0.25))
    run = run_python("-c", CONVERSIONS_DURING_A_RUN, str(path), str(tmp_path / "run"))
    assert run.returncode == 0, run.stderr[-2000:]
    status, converted = run.stdout.strip().splitlines()[-1].split(" ", 1)
    assert status == "completed"
    assert "loops.py" not in converted, f"converted during the run: {converted}"
