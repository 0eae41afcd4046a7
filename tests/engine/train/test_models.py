"""The model kinds against tf_keras itself: the application names, local weights, the output contract."""

from __future__ import annotations

import subprocess
import sys

import pytest

from engine.core import events as ev
from engine.core.model_kinds.keras_application import KERAS_APPLICATIONS
from tests.data_factory import write_image_folder
from tests.engine.train.worker_process import base_config, env, train

pytestmark = pytest.mark.slow


def test_the_application_names_are_tf_keras_applications():
    from engine.train.tf_runtime import keras

    found = {n for n in dir(keras.applications) if n[0].isupper() and callable(getattr(keras.applications, n))}
    assert set(KERAS_APPLICATIONS) == found


def test_ends_in_probabilities_and_the_output_check():
    from engine.train.models import check_output
    from engine.train.models.contract import ends_in_probabilities
    from engine.train.tf_runtime import keras, tf
    from engine.train.user_code import ModelError

    def model(units: int, activation: str | None = None, softmax_layer: bool = False):
        layers = [keras.Input((4,)), keras.layers.Dense(units, activation=activation)]
        return keras.Sequential(layers + ([keras.layers.Softmax()] if softmax_layer else []))

    assert not ends_in_probabilities(model(3))
    assert ends_in_probabilities(model(3, "softmax")) and ends_in_probabilities(model(1, "sigmoid"))
    assert ends_in_probabilities(model(3, softmax_layer=True))
    batch = tf.zeros((5, 4))
    check_output(model(3), batch, 3, "m.py:f")
    check_output(model(1, "sigmoid"), batch, 2, "m.py:f")
    with pytest.raises(ModelError, match=r"outputs shape \(5, 2\) for a batch of 5; expected \(batch, 1\)"):
        check_output(model(2), batch, 2, "m.py:f")
    with pytest.raises(ModelError, match="softmax over 1 unit"):
        check_output(model(1, "softmax"), batch, 2, "m.py:f")


def test_a_keras_application_trains_from_weights_the_test_saved(tmp_path):
    """No download: the weights file is MobileNetV3Small's own random weights, saved by this test."""
    weights = tmp_path / "small.weights.h5"
    script = (
        "import tf_keras as keras\n"
        "keras.applications.MobileNetV3Small(include_top=False, weights=None, input_shape=(32, 32, 3),"
        f" pooling='avg').save_weights({str(weights)!r})\n"
    )
    subprocess.run([sys.executable, "-c", script], env=env(), check=True, capture_output=True, timeout=300)
    images = write_image_folder(tmp_path / "images", classes=2, per_class=8, size=(32, 32))
    config = base_config(
        epochs=1,
        global_batch_size=8,
        data={"kind": "image_folder", "path": str(images)},
        model={"kind": "keras_application", "name": "MobileNetV3Small", "weights": str(weights)},
    )
    finished = train(tmp_path, config)
    assert finished.returncode == 0, finished.stderr[-3000:]
    assert any(e.message.startswith("model: MobileNetV3Small") for e in finished.of(ev.Log))
    assert len(finished.of(ev.EpochEnd)) == 1


def test_a_python_models_keyword_arguments_reach_its_function(tmp_path):
    from engine.core.config import RunConfig
    from engine.train.models import build_model

    model_file = tmp_path / "wide.py"
    model_file.write_text(
        "import tf_keras as keras\n\n\n"
        "def build_model(input_shape, num_classes, width=3, activation='relu'):\n"
        "    inputs = keras.Input(shape=input_shape)\n"
        "    x = keras.layers.Dense(width, activation=activation, name='wide')(inputs)\n"
        "    return keras.Model(inputs, keras.layers.Dense(num_classes)(x))\n"
    )
    kwargs = {"width": 7, "activation": "tanh"}
    config = RunConfig.from_dict({"model": {"kind": "python", "path": str(model_file), "kwargs": kwargs}})
    layer = build_model(config, (4,), 3).model.get_layer("wide")
    assert (layer.units, layer.activation.__name__) == (7, "tanh")


def test_a_keyword_argument_the_models_function_does_not_take_is_refused_before_it_is_called(tmp_path):
    """A function the config check cannot read (made by another function): the trainer checks its signature."""
    from engine.core.config import RunConfig
    from engine.train.models import build_model
    from engine.train.user_code import ModelError

    model_file = tmp_path / "made.py"
    model_file.write_text(
        "import tf_keras as keras\n\n\n"
        "def make():\n"
        "    def build(input_shape, num_classes, width=3):\n"
        "        raise AssertionError('called')\n"
        "    return build\n\n\n"
        "build_model = make()\n"
    )
    config = RunConfig.from_dict({"model": {"kind": "python", "path": str(model_file), "kwargs": {"widht": 7}}})
    with pytest.raises(ModelError) as caught:
        build_model(config, (4,), 3)
    said = str(caught.value)
    assert "made.py" in said and "build_model()" in said and "'widht'" in said and "width" in said, said
    assert "called" not in said  # refused before the function ran
    assert [p.field for p in caught.value.problems] == ["model.kwargs.widht"]
