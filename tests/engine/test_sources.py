"""Bad data and bad model files caught before TensorFlow starts: one clear line naming the file, on its field."""

from __future__ import annotations

import numpy as np
import pytest
from PIL import Image

from engine.core.config import DataConfig, ModelConfig, RunConfig, validate
from engine.core.data_kinds.image_folder import QUICK_IMAGES_PER_CLASS
from engine.core.problems import DataError
from engine.core.sources import (
    check_fits_batch,
    inspect,
    resolve_shard_policy,
    shard_problem,
    worker_examples,
)
from tests.data_factory import encode_example, write_float_tfrecords, write_image_folder, write_tfrecord


def image_config(path, **data) -> RunConfig:
    return RunConfig(data=DataConfig(kind="image_folder", path=str(path), **data))


def tfrecord_config(pattern, **data) -> RunConfig:
    return RunConfig(data=DataConfig(kind="tfrecord", path=str(pattern), feature_shape=(6,), **data))


def refused(config: RunConfig, quick: bool = False) -> DataError:
    with pytest.raises(DataError) as info:
        inspect(config, quick=quick)
    assert "\n" not in str(info.value)  # one line
    return info.value


# ---- image folders ------------------------------------------------------------------------------------


def test_image_folder_classes_counts_and_shape(tmp_path):
    write_image_folder(tmp_path, classes=3, per_class=5, size=(12, 10), channels=1)
    info = inspect(image_config(tmp_path))
    assert info.class_names == ("class_0", "class_1", "class_2") and info.class_counts == (5, 5, 5)
    assert info.input_shape == (12, 10, 1) and info.examples == 15
    assert len(info.thumbnails(4)) == 4 and {p.split("/")[-2] for p in info.thumbnails(3)} == set(info.class_names)


def test_color_mode_and_image_size_override_what_is_stored(tmp_path):
    write_image_folder(tmp_path, classes=2, per_class=3, size=(12, 10), channels=1)
    assert inspect(image_config(tmp_path, color_mode="rgb", image_size=(8, 8))).input_shape == (8, 8, 3)


def test_empty_folder(tmp_path):
    (tmp_path / "cats").mkdir()
    error = refused(image_config(tmp_path))
    assert str(tmp_path) in str(error) and "no images in subfolders" in str(error)


def test_images_lying_in_the_folder_itself_are_named(tmp_path):
    Image.new("RGB", (4, 4)).save(tmp_path / "a.png")
    assert "a.png lie in the folder itself" in str(refused(image_config(tmp_path)))


def test_single_class(tmp_path):
    write_image_folder(tmp_path, classes=1, per_class=3)
    assert "one class (class_0)" in str(refused(image_config(tmp_path)))


@pytest.mark.parametrize("quick", [False, True])
def test_corrupt_image_is_named(tmp_path, quick):
    write_image_folder(tmp_path, classes=2, per_class=3)
    bad = tmp_path / "class_1" / "img_0001.png"
    bad.write_bytes(b"\x89PNG\r\n\x1a\n not really a png")
    assert str(bad) in str(refused(image_config(tmp_path), quick=quick))


def test_truncated_image_is_found_by_the_full_check(tmp_path):
    write_image_folder(tmp_path, classes=2, per_class=3, size=(32, 32))
    bad = tmp_path / "class_0" / "img_0002.png"
    bad.write_bytes(bad.read_bytes()[:-30])
    assert str(bad) in str(refused(image_config(tmp_path)))


def test_mixed_sizes_ask_for_image_size(tmp_path):
    write_image_folder(tmp_path, classes=2, per_class=3, size=(16, 16))
    Image.new("RGB", (20, 12)).save(tmp_path / "class_1" / "odd.png")
    error = refused(image_config(tmp_path))
    assert "mixed sizes" in str(error) and "odd.png" in str(error) and error.problems[0].field == "data.image_size"
    assert inspect(image_config(tmp_path, image_size=(16, 16))).input_shape == (16, 16, 3)


def test_mixed_channels_ask_for_color_mode(tmp_path):
    write_image_folder(tmp_path, classes=2, per_class=3, size=(16, 16))
    Image.new("L", (16, 16)).save(tmp_path / "class_0" / "gray.png")
    error = refused(image_config(tmp_path))
    assert "gray.png" in str(error) and error.problems[0].field == "data.color_mode"
    assert inspect(image_config(tmp_path, color_mode="grayscale")).input_shape == (16, 16, 1)


def test_a_big_folder_is_previewed_from_a_bounded_sample_of_headers(tmp_path, monkeypatch):
    """The preview runs as the user types: it opens a few images per class, whatever the folder's size
    (its time is in BENCHMARKS.md); the trainer's own check opens every image."""
    write_image_folder(tmp_path, classes=4, per_class=250, size=(8, 8))
    opened: list[str] = []
    real_open = Image.open
    monkeypatch.setattr(Image, "open", lambda path, *a, **k: opened.append(str(path)) or real_open(path, *a, **k))
    info = inspect(image_config(tmp_path), quick=True)
    assert info.examples == 1000 and info.class_counts == (250, 250, 250, 250)
    assert len(opened) == 4 * QUICK_IMAGES_PER_CLASS and len(set(opened)) == len(opened)
    assert info.notes, "the preview says it checked a sample"
    opened.clear()
    inspect(image_config(tmp_path))
    assert len(opened) == 1000


# ---- TFRecord ---------------------------------------------------------------------------------------------


def test_tfrecord_counts_every_file(tmp_path):
    write_float_tfrecords(tmp_path, files=3, per_file=10)
    info = inspect(tfrecord_config(tmp_path / "*.tfrecord"))
    assert info.file_examples == (10, 10, 10) and info.input_shape == (6,) and sum(info.class_counts) == 30


@pytest.mark.parametrize(
    "overrides, field, words",
    [
        ({"features_key": "pixels"}, "data.features_key", "no feature 'pixels'; its features are: x, y"),
        ({"labels_key": "x"}, "data.labels_key", "holds 6 float value(s)"),
        ({"feature_shape": (4,)}, "data.feature_shape", "has 6 values; feature_shape [4] needs 4"),
        ({"feature_type": "image", "feature_shape": (2, 3, 1)}, "data.feature_type", "not one encoded image"),
    ],
)
def test_tfrecord_description_that_does_not_match(tmp_path, overrides, field, words):
    write_float_tfrecords(tmp_path, files=1, per_file=4)
    config = RunConfig(
        data=DataConfig(kind="tfrecord", path=str(tmp_path / "*.tfrecord"), **{"feature_shape": (6,), **overrides})
    )
    error = refused(config)
    assert words in str(error) and "part-0.tfrecord, record 1" in str(error) and error.problems[0].field == field


def test_tfrecord_label_above_num_classes(tmp_path):
    write_tfrecord(tmp_path / "a.tfrecord", [encode_example({"x": ("float", [0.0] * 6), "y": ("int64", [5])})])
    assert "label 5 is not a class id below data.num_classes = 2" in str(refused(tfrecord_config(tmp_path / "a.*")))


def test_a_file_that_is_not_a_tfrecord(tmp_path):
    (tmp_path / "a.tfrecord").write_text("hello, world", encoding="utf-8")
    assert "a.tfrecord" in str(refused(tfrecord_config(tmp_path / "a.tfrecord")))


# ---- NPZ files ----------------------------------------------------------------------------------------


def test_an_npz_file_smaller_than_one_batch_is_named(tmp_path):
    np.savez(tmp_path / "small.npz", x=np.zeros((4, 3)), y=np.array([0, 1, 0, 1]))
    info = inspect(RunConfig(data=DataConfig(kind="npz", path=str(tmp_path / "small.npz"))))
    with pytest.raises(DataError) as error:
        check_fits_batch(info, 0.0, 8)
    assert f"npz {tmp_path / 'small.npz'}: 4 training examples are fewer than one global batch of 8" in str(error.value)


# ---- sharding ---------------------------------------------------------------------------------------------


def test_file_sharding_needs_a_file_per_worker(tmp_path):
    write_float_tfrecords(tmp_path, files=2, per_file=5)
    info = inspect(tfrecord_config(tmp_path / "*.tfrecord"))
    assert shard_problem("file", info, 2) is None
    problem = shard_problem("file", info, 3)
    assert problem.field == "data.shard_policy" and "3 workers need at least 3 files" in problem.message
    assert resolve_shard_policy("auto", info, 2, 0.0) == "file"
    assert resolve_shard_policy("auto", info, 3, 0.0) == "data"
    assert resolve_shard_policy("auto", info, 2, 0.2) == "data"
    assert worker_examples(info, "file", 2) == 5


@pytest.mark.parametrize(
    "data, split, words",
    [
        ({"kind": "synthetic", "shard_policy": "file"}, 0.0, "cannot be split by file"),
        ({"kind": "csv", "path": "x.csv", "label": "y", "shard_policy": "file"}, 0.2, "validation split"),
        ({"kind": "synthetic", "shard_policy": "rows"}, 0.0, "auto, file, data, off"),
    ],
)
def test_shard_policy_problems_before_tensorflow(data, split, words):
    config = RunConfig(data=DataConfig(**data), validation_split=split)
    assert any(p.field == "data.shard_policy" and words in p.message for p in validate(config))


# ---- models, checked without running user code ---------------------------------------------------------


def test_model_file_that_does_not_exist(tmp_path):
    config = RunConfig(model=ModelConfig(kind="python", path=str(tmp_path / "gone.py")))
    assert [(p.field, p.message) for p in validate(config)] == [
        ("model.path", "no such file (a Python file defining the model)")
    ]


def test_model_file_without_the_function(tmp_path):
    path = tmp_path / "m.py"
    path.write_text("import sys\nsys.exit(3)  # never run by the check\ndef make():\n    pass\n", encoding="utf-8")
    problems = validate(RunConfig(model=ModelConfig(kind="python", path=str(path))))
    assert problems[0].field == "model.function"
    assert "m.py defines no function 'build_model' at top level (it defines: make)" in problems[0].message


def test_model_file_with_a_syntax_error(tmp_path):
    path = tmp_path / "m.py"
    path.write_text("def build_model(:\n", encoding="utf-8")
    problems = validate(RunConfig(model=ModelConfig(kind="python", path=str(path))))
    assert problems[0].field == "model.path" and "syntax error at line 1" in problems[0].message


def test_unknown_application_name_suggests_close_ones():
    problems = validate(RunConfig(model=ModelConfig(kind="keras_application", name="MobileNetV9")))
    assert problems[0].field == "model.name" and "MobileNet, MobileNetV2" in problems[0].message


def test_weights_must_be_a_local_file():
    problems = validate(RunConfig(model=ModelConfig(kind="keras_application", weights="imagenet")))
    assert problems[0].field == "model.weights" and "no such file" in problems[0].message


def test_saved_model_must_be_a_keras_file(tmp_path):
    path = tmp_path / "model.h5"
    path.write_bytes(b"")
    problems = validate(RunConfig(model=ModelConfig(kind="saved", path=str(path))))
    assert problems[0].field == "model.path" and ".keras" in problems[0].message
