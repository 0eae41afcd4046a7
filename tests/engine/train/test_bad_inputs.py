"""Bad models and data on the command line: one clear line naming the file, exit code 2, nothing trained.

Errors that need TensorFlow (a model file that raises on import, returns something else, outputs the wrong
number of units; a weights file that does not fit) come after TensorFlow's start-up, before the first step.
Errors found by reading the files (engine.core.sources) come before TensorFlow and before a run directory exists.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.data_factory import write_image_folder
from tests.engine.train.worker_process import base_config, env, write_config
from tests.repo import REPO

pytestmark = pytest.mark.slow

GOOD_MODEL = "import tf_keras as keras\n\ndef build_model(input_shape, num_classes):\n{body}\n"


def tfdd_train(tmp_path: Path, config: dict) -> tuple[int, str, Path]:
    path = write_config(tmp_path, config)
    run_dir = tmp_path / "run"
    proc = subprocess.run(
        [sys.executable, "-m", "engine.cli", "train", "--config", str(path), "--run-dir", str(run_dir)],
        cwd=REPO,
        env=env(),
        capture_output=True,
        text=True,
        timeout=300,
    )
    errors = [line for line in proc.stderr.splitlines() if line.startswith("error:")]
    assert len(errors) == 1, proc.stderr[-3000:]
    return proc.returncode, errors[0], run_dir


@pytest.fixture(scope="module")
def images(tmp_path_factory) -> Path:
    return write_image_folder(tmp_path_factory.mktemp("images"), classes=3, per_class=8, size=(32, 32))


def python_model(tmp_path: Path, images: Path, body: str) -> dict:
    path = tmp_path / "my_model.py"
    path.write_text(GOOD_MODEL.format(body=body), encoding="utf-8")
    return base_config(
        data={"kind": "image_folder", "path": str(images)},
        global_batch_size=8,
        model={"kind": "python", "path": str(path)},
    )


@pytest.mark.parametrize(
    "body, words",
    [
        ("    return 1 / 0", "my_model.py:build_model raised, line 4: ZeroDivisionError: division by zero"),
        ("    return [input_shape]", "returned builtins.list, not a tf_keras model"),
        (
            "    inputs = keras.Input(input_shape)\n"
            "    return keras.Model(inputs, keras.layers.Dense(2)(keras.layers.Flatten()(inputs)))",
            "outputs shape (8, 2) for a batch of 8; expected (batch, 3) for 3 classes: make the last layer Dense(3)",
        ),
    ],
)
def test_bad_python_model(tmp_path, images, body, words):
    code, line, run_dir = tfdd_train(tmp_path, python_model(tmp_path, images, body))
    assert code == 2 and words in line
    assert not (run_dir / "model.keras").exists() and not list((run_dir / "checkpoints").glob("ckpt-*"))


def test_model_file_that_raises_on_import(tmp_path, images):
    config = python_model(tmp_path, images, "    pass")
    Path(config["model"]["path"]).write_text("import no_such_module\ndef build_model(s, n):\n    pass\n")
    code, line, _ = tfdd_train(tmp_path, config)
    assert code == 2 and "my_model.py raised on import, line 1: ModuleNotFoundError" in line


def test_weights_file_that_does_not_fit(tmp_path, images):
    """Weights saved from another architecture (the test saves them itself: nothing is downloaded)."""
    weights = tmp_path / "other.weights.h5"
    script = (
        "import tf_keras as keras\n"
        "keras.applications.MobileNetV2(include_top=False, weights=None, input_shape=(32, 32, 3), alpha=0.35)"
        f".save_weights({str(weights)!r})\n"
    )
    subprocess.run([sys.executable, "-c", script], env=env(), check=True, capture_output=True, timeout=300)
    config = base_config(
        data={"kind": "image_folder", "path": str(images)},
        global_batch_size=8,
        model={"kind": "keras_application", "name": "MobileNetV2", "weights": str(weights)},
    )
    code, line, _ = tfdd_train(tmp_path, config)
    assert code == 2 and f"weights file {weights} does not fit MobileNetV2" in line


def test_bad_image_folder_leaves_no_run_directory(tmp_path):
    write_image_folder(tmp_path / "one", classes=1, per_class=3)
    config = base_config(data={"kind": "image_folder", "path": str(tmp_path / "one")}, model={"kind": "cnn"})
    code, line, run_dir = tfdd_train(tmp_path, config)
    assert code == 2 and "has one class (class_0)" in line and not run_dir.exists()


def test_bad_csv_labels(tmp_path):
    csv = tmp_path / "d.csv"
    csv.write_text("a,label\n" + "1,0\n" * 70 + "2,yes\n", encoding="utf-8")
    code, line, run_dir = tfdd_train(tmp_path, base_config(data={"kind": "csv", "path": str(csv), "label": "label"}))
    assert code == 2 and "line 72: column 'label' holds text 'yes'" in line and not run_dir.exists()


@pytest.mark.parametrize("num_classes, loop", [(2, "custom"), (3, "fit")])
def test_python_data_with_labels_beyond_num_classes_fails_naming_the_label(tmp_path, num_classes, loop):
    """Labels 0..6 with num_classes 2 trained to a negative loss and exited 0."""
    data = tmp_path / "my_data.py"
    data.write_text(
        "import numpy as np\nimport tensorflow as tf\n\n\ndef make_dataset(input_context):\n"
        "    x = np.ones((256, 4), 'float32')\n"
        "    return tf.data.Dataset.from_tensor_slices((x, np.arange(256) % 7))\n",
        encoding="utf-8",
    )
    config = base_config(
        loop=loop,
        epochs=1,
        data={"kind": "python", "path": str(data), "num_samples": 256, "num_classes": num_classes},
    )
    code, line, _ = tfdd_train(tmp_path, config)
    assert (
        code != 0
        and f"label {num_classes} is not a class id below data.num_classes = {num_classes}" in line.replace("] [", " ")
    ), line


def test_tfrecord_labels_beyond_num_classes_after_the_checked_records_fail_naming_the_label(tmp_path):
    """The pre-check parses the first FULL_RECORDS records; a bad label after them is caught in the graph."""
    from engine.core.data_kinds.tfrecord import FULL_RECORDS
    from tests.data_factory import encode_example, write_tfrecord

    records = [
        encode_example({"x": ("float", [1.0, 2.0]), "y": ("int64", [i % 2 if i < FULL_RECORDS else 7])})
        for i in range(FULL_RECORDS + 64)
    ]
    write_tfrecord(tmp_path / "part-0.tfrecord", records)
    data = {"kind": "tfrecord", "path": str(tmp_path / "*.tfrecord"), "feature_shape": [2], "num_classes": 2}
    code, line, _ = tfdd_train(tmp_path, base_config(data=data, epochs=1, global_batch_size=64))
    assert code != 0 and "label 7 is not a class id below data.num_classes = 2" in line, line
