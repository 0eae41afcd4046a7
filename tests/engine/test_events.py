"""The event codec: every event type survives a JSON-lines round trip."""

from __future__ import annotations

import math

import pytest

from engine.core import events as ev

SAMPLES = [
    ev.RunStarted(
        strategy="mirrored",
        num_replicas=2,
        devices=["/cpu:0", "/cpu:1"],
        global_batch_size=64,
        per_replica_batch_size=32,
        loop="custom",
        epochs=3,
        steps_per_epoch=10,
        steps_per_execution=4,
        run_dir="/tmp/r",
    ),
    ev.BatchEnd(epoch=1, step=4, global_step=4, loss=0.5, accuracy=0.75, examples_per_sec=1234.5),
    ev.EpochEnd(
        epoch=1, loss=0.4, accuracy=0.8, seconds=1.5, examples_per_sec=1000.0, val_loss=0.45, val_accuracy=0.79
    ),
    ev.StepAnatomy(
        epoch=1, global_step=40, steps=20, step_ms=4.0, input_ms=1.0, compute_ms=2.0, sync_ms=0.5, rest_ms=0.5
    ),
    ev.CheckpointSaved(path="/tmp/r/checkpoints/ckpt-1", epoch=1, step=0),
    ev.ProfileSaved(
        path="/tmp/r/tensorboard/plugins/profile/s-worker-1", logdir="/tmp/r/tensorboard", first_step=2, last_step=3
    ),
    ev.SweepTrial(number=3, state="pruned", params={"learning_rate": 0.1}, value=0.9, epoch=2, devices="CPU"),
    ev.SweepSummary(
        finished=4,
        budget=8,
        best_number=2,
        best_value=0.31,
        best_params={"learning_rate": 0.01},
        best_run_dir="/tmp/s/trial-002",
        importance={"learning_rate": 1.0},
        importance_method="PED-ANOVA",
    ),
    ev.Log(level="info", message="hello"),
    ev.Log(level="info", message="from a worker", source="worker-1"),
    ev.WorkerState(worker="worker-1", state="failed", pid=42, message="exit code -9", log_path="/tmp/w1.log"),
    ev.RunFinished(status="completed", epochs_completed=3, run_dir="/tmp/r"),
    ev.RunFailed(message="boom", error_type="ValueError"),
    ev.Evaluation(
        epoch=2,
        step=0,
        global_step=20,
        val_loss=0.3,
        val_accuracy=0.9,
        examples=200,
        seconds=0.2,
        checkpoint="/tmp/r/checkpoints/ckpt-2",
        cpu_seconds=0.1,
    ),
    ev.TaskSteps(steps={"worker-0": 320, "worker-1": 288}),
    ev.TaskStalled(worker="worker-1", pid=42, idle_s=42.0, step_s=0.3, threshold_s=30.0),
    ev.TaskStalled(worker="worker-1", pid=42, step_s=None, resumed=True),
    ev.TaskProcess(pid=4242, py_spy="/opt/venv/bin/py-spy"),
    ev.TrainerReady(pid=4242, import_seconds=4.1, rss_mb=602.5),
    ev.ScalingPoint(replicas=2, examples_per_sec=900.0, speedup=1.8, efficiency=0.9, run_dir="/tmp/s/replicas-2"),
    ev.TrialArm(arm="changed", round=1, examples_per_sec=1200.0, run_dir="/tmp/t/changed-1"),
]


def test_every_event_type_has_a_round_trip_sample():
    """A new event type (or field type) the decoder does not know would be dropped as garbage in the window."""
    assert {e.type for e in SAMPLES} == set(ev.EVENT_TYPES)


@pytest.mark.parametrize("event", SAMPLES, ids=lambda e: e.type)
def test_round_trip(event):
    line = ev.encode(event)
    assert "\n" not in line
    assert ev.decode(line) == event


def test_nan_survives_as_float():
    event = ev.BatchEnd(epoch=1, step=1, global_step=1, loss=float("nan"), accuracy=0.5, examples_per_sec=1.0)
    back = ev.decode(ev.encode(event))
    assert math.isnan(back.loss)


@pytest.mark.parametrize(
    "line", ["hello", "{", "[1, 2]", '{"type": "martian"}', '{"type": "batch_end"}', '{"type": ["batch_end"]}']
)
def test_garbage_is_a_decode_error(line):
    with pytest.raises(ev.EventDecodeError):
        ev.decode(line)


@pytest.mark.parametrize(
    "change",
    [{"time": "yesterday"}, {"epoch": "1"}, {"loss": [1]}, {"global_step": 1.5}, {"steps": True}, {"epoch": None}],
)
def test_a_field_of_the_wrong_type_is_a_decode_error(change):
    """One hand-edited event must not poison whoever reads it later (the Runs tab sorts by time)."""
    raw = ev.to_dict(ev.BatchEnd(epoch=1, step=1, global_step=1, loss=0.5, accuracy=0.5, examples_per_sec=1.0))
    with pytest.raises(ev.EventDecodeError, match=next(iter(change))):
        ev.from_dict({**raw, **change})


def test_optional_and_integer_valued_fields_still_decode():
    raw = ev.to_dict(ev.EpochEnd(epoch=1, loss=1, accuracy=0, seconds=2, examples_per_sec=3, val_loss=None))
    assert ev.from_dict(raw).val_loss is None and ev.from_dict({**raw, "loss": 1}).loss == 1
    assert ev.from_dict(ev.to_dict(ev.WorkerState(worker="w", state="s", pid=None))).pid is None


@pytest.mark.parametrize(
    "line",
    [
        '{"type":"task_steps","steps":{"worker-0":"many"}}',
        '{"type":"run_started","strategy":"mirrored","num_replicas":1,"devices":[0],"global_batch_size":8,'
        '"per_replica_batch_size":8,"loop":"fit","epochs":1,"steps_per_epoch":1,"steps_per_execution":1,"run_dir":"r"}',
        '{"type":"epoch_end","epoch":1,"loss":0.5,"accuracy":0.5,"seconds":1,"examples_per_sec":1,"val_loss":true}',
    ],
    ids=["steps-of-text", "a-device-number", "a-bool-loss"],
)
def test_what_a_field_holds_is_checked_inside_lists_and_dicts(line):
    """A worker's step count of text would break the window's sum; a list of devices holds names."""
    with pytest.raises(ev.EventDecodeError, match=r"task_steps|run_started|epoch_end"):
        ev.decode(line)


def test_non_finite_numbers_survive_anywhere_in_an_event():
    """Top-level floats are written as "nan"/"inf"; a NaN inside a dict is JSON's NaN token: both decode."""
    event = ev.EpochEnd(
        epoch=1, loss=float("inf"), accuracy=0.5, seconds=1.0, examples_per_sec=1.0, val_loss=float("-inf")
    )
    back = ev.decode(ev.encode(event))
    assert (back.loss, back.val_loss) == (float("inf"), float("-inf"))
    point = ev.ScalingPoint(
        replicas=2, examples_per_sec=1.0, speedup=1.0, efficiency=1.0, run_dir="r", anatomy={"sync_ms": float("nan")}
    )
    assert math.isnan(ev.decode(ev.encode(point)).anatomy["sync_ms"])
