"""The equivalence guarantee for the new model kinds: the CNN and a python model on generated images.

Same tolerance and reasoning as tests/engine/train/test_training.py (rtol 1e-5: the runs differ only in the
order of float32 summation). What makes it hold for a CNN is synchronized batch normalisation: its batch mean
and variance are all-reduced over the replicas, so two replicas normalise by the global batch's statistics
as one replica does (per-replica statistics would move the losses by far more than 1e-5).
A saved model of one of these runs is also trained on (the model kind "saved").
"""

from __future__ import annotations

import pytest

from engine.core import events as ev
from tests.data_factory import write_image_folder, write_python_model
from tests.engine.train.worker_process import base_config, train, train_all

pytestmark = pytest.mark.slow
RTOL = 1e-5


@pytest.fixture(scope="module")
def kinds_dir(tmp_path_factory):
    """Generated images (images/) and a python model (my_model.py) for the runs below."""
    tmp = tmp_path_factory.mktemp("kinds")
    write_image_folder(tmp / "images", classes=3, per_class=32, size=(12, 12))
    write_python_model(tmp / "my_model.py")
    return tmp


@pytest.fixture(scope="module")
def runs(kinds_dir):
    tmp = kinds_dir
    model_file = tmp / "my_model.py"
    data = {"kind": "image_folder", "path": str(tmp / "images")}
    cnn = {"kind": "cnn", "filters": [8, 16], "hidden_units": [16]}
    python = {"kind": "python", "path": str(model_file), "function": "build_model"}
    common = {"data": data, "global_batch_size": 16, "validation_split": 0.25, "steps_per_execution": 3}
    overrides = {
        "cnn-custom-1": {"strategy": "one_device", "model": cnn},
        "cnn-custom-2": {"virtual_devices": 2, "model": cnn},
        "cnn-fit-2": {"virtual_devices": 2, "loop": "fit", "model": cnn},
        "python-custom-1": {"strategy": "one_device", "model": python},
        "python-custom-2": {"virtual_devices": 2, "model": python},
        "python-fit-2": {"virtual_devices": 2, "loop": "fit", "model": python},
    }
    out = train_all(tmp, {name: base_config(**common, **o) for name, o in overrides.items()})
    for finished in out.values():
        assert finished.returncode == 0, finished.stderr[-3000:]
    return out


def losses(finished, key: str = "loss") -> list[float]:
    return [getattr(e, key) for e in finished.of(ev.EpochEnd)]


@pytest.mark.parametrize("model", ["cnn", "python"])
def test_one_and_two_replicas_give_the_same_losses(runs, model):
    one, two = runs[f"{model}-custom-1"], runs[f"{model}-custom-2"]
    assert losses(two) == pytest.approx(losses(one), rel=RTOL)
    assert losses(two, "val_loss") == pytest.approx(losses(one, "val_loss"), rel=RTOL)
    assert two.of(ev.RunStarted)[0].per_replica_batch_size == 8


@pytest.mark.parametrize("model", ["cnn", "python"])
def test_fit_and_custom_loops_give_the_same_losses(runs, model):
    assert losses(runs[f"{model}-fit-2"]) == pytest.approx(losses(runs[f"{model}-custom-2"]), rel=RTOL)
    assert losses(runs[f"{model}-fit-2"], "val_loss") == pytest.approx(
        losses(runs[f"{model}-custom-2"], "val_loss"), rel=RTOL
    )


def test_the_cnn_learns_the_images(runs):
    epochs = runs["cnn-custom-2"].of(ev.EpochEnd)
    assert epochs[-1].loss < epochs[0].loss


def test_the_log_says_what_trains(runs):
    logs = [e.message for e in runs["cnn-custom-2"].of(ev.Log)]
    assert any("image_folder: 72 training and 24 validation examples" in m for m in logs)
    assert any(m.startswith("model: cnn") and "outputs logits" in m for m in logs)


def test_a_saved_model_trains_on(runs, kinds_dir, tmp_path):
    """model.keras of an earlier run (the python model, with synchronized batch norm, on 2 replicas), continued
    on the same examples: its first epoch starts where the earlier run ended."""
    first = runs["python-custom-2"]
    saved = {"kind": "saved", "path": first.of(ev.RunFinished)[0].model_path}
    data = {"kind": "image_folder", "path": str(kinds_dir / "images")}
    again = train(tmp_path, base_config(data=data, global_batch_size=16, validation_split=0.25, model=saved))
    assert again.returncode == 0, again.stderr[-3000:]
    assert losses(again)[0] < losses(first)[0]
