"""The real trainer on small data, in fresh processes through the worker protocol.

Equivalence tolerance: losses are compared with rtol=1e-5. All runs do the
same arithmetic in float32 except the order of summation: one replica sums
the 64 per-example losses/gradients in one reduction, N replicas sum N
partial sums and then all-reduce them. float32 has a unit roundoff of 6e-8;
reordering a sum of 64 terms moves it by a few ulps, and the training steps
carry that forward (measured here over 5 epochs, 60 Adam steps: at most
6e-8 relative between 1, 2 and 4 replicas and between the fit and custom
loops). 1e-5 leaves two orders of magnitude for other BLAS kernels and
longer runs, yet a real bug (a replica training on the whole global batch,
or a loss scaled by the replica count, the tutorial's bug) moves the loss by 1e-2
or more.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.core import events as ev
from engine.core.plan import cpu_info, precision_features
from engine.core.runs.rundir import read_metrics
from tests.engine.train.worker_process import base_config, train_all

pytestmark = pytest.mark.slow
RTOL = 1e-5


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    """One process per replica count and loop; shared by the tests below."""
    tmp = tmp_path_factory.mktemp("equivalence")
    overrides = {
        "custom-1": {"strategy": "one_device"},
        "custom-2": {"virtual_devices": 2},
        "custom-4": {"virtual_devices": 4},
        "fit-2": {"virtual_devices": 2, "loop": "fit"},
        "custom-2-float16": {"virtual_devices": 2, "mixed_precision": "float16"},
    }
    out = train_all(tmp, {name: base_config(**o, validation_split=0.25) for name, o in overrides.items()})
    for finished in out.values():
        assert finished.returncode == 0, finished.stderr[-3000:]
    return out


def epoch_losses(finished) -> list[float]:
    return [e.loss for e in finished.of(ev.EpochEnd)]


@pytest.mark.parametrize("name", ["custom-2", "custom-4"])
def test_replica_counts_give_the_same_losses(runs, name):
    assert epoch_losses(runs[name]) == pytest.approx(epoch_losses(runs["custom-1"]), rel=RTOL)
    val = [e.val_loss for e in runs[name].of(ev.EpochEnd)]
    assert val == pytest.approx([e.val_loss for e in runs["custom-1"].of(ev.EpochEnd)], rel=RTOL)


def test_fit_and_custom_loops_give_the_same_losses(runs):
    assert epoch_losses(runs["fit-2"]) == pytest.approx(epoch_losses(runs["custom-2"]), rel=RTOL)
    fit_acc = [e.accuracy for e in runs["fit-2"].of(ev.EpochEnd)]
    assert fit_acc == pytest.approx([e.accuracy for e in runs["custom-2"].of(ev.EpochEnd)], abs=1e-6)


@pytest.mark.parametrize("name, replicas", [("custom-1", 1), ("custom-2", 2), ("custom-4", 4), ("fit-2", 2)])
def test_each_replica_sees_global_over_replicas(runs, name, replicas):
    started = runs[name].of(ev.RunStarted)[0]
    assert started.num_replicas == replicas
    assert started.per_replica_batch_size == 64 // replicas
    assert len(started.devices) == replicas
    assert started.cpu_features == precision_features(cpu_info()), "the trainer's CPU, what engine.core.remedies judges"


def test_custom_loop_reports_every_step_once(runs):
    """Steps of about a millisecond: several share an event (engine.train.controller.REPORT_EVERY_S)."""
    started = runs["custom-2"].of(ev.RunStarted)[0]
    batches = runs["custom-2"].of(ev.BatchEnd)
    assert started.steps_per_execution == 4
    covered = [s for b in batches for s in range(b.global_step - b.steps + 1, b.global_step + 1)]
    assert covered == list(range(1, 2 * started.steps_per_epoch + 1))
    assert len(batches) < len(covered)


def test_run_directory_holds_everything(runs):
    finished = runs["custom-2"]
    root = Path(finished.of(ev.RunFinished)[0].run_dir)
    rows = read_metrics(root / "metrics.csv")
    assert [r["epoch"] for r in rows] == ["1", "2"]
    assert {"epoch", "loss", "accuracy", "examples_per_sec", "seconds", "val_loss", "val_accuracy"} <= set(rows[0])
    assert (root / "config.json").is_file() and (root / "model.keras").is_file()
    assert list((root / "checkpoints").glob("ckpt-*.index"))
    assert list((root / "tensorboard").glob("events.out.tfevents.*"))
    assert isinstance(finished.events[0], ev.RunStarted)
    assert finished.events[-1] == finished.of(ev.RunFinished)[0]
    assert finished.of(ev.RunFinished)[0].status == "completed"


def test_float16_custom_loop_scales_the_loss_and_tracks_float32(runs):
    """The custom loop wraps the optimizer in a LossScaleOptimizer under float16;
    the losses follow float32 to float16's precision (about 1e-3 relative)."""
    assert epoch_losses(runs["custom-2-float16"]) == pytest.approx(epoch_losses(runs["custom-2"]), rel=2e-2)
