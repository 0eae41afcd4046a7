"""Data sources and the bad-data cases a person meets first."""

from __future__ import annotations

import numpy as np
import pytest

from engine.config import DataConfig, RunConfig
from engine.train.data import DataError, load_arrays, synthetic


def csv_config(path, label="label", **kw) -> RunConfig:
    return RunConfig(data=DataConfig(kind="csv", path=str(path), label=label), global_batch_size=2, **kw)


def test_synthetic_is_deterministic_under_seed_and_binary():
    data = DataConfig(num_samples=200, num_features=5)
    x1, y1 = synthetic(data, seed=3)
    x2, y2 = synthetic(data, seed=3)
    x3, _ = synthetic(data, seed=4)
    assert np.array_equal(x1, x2) and np.array_equal(y1, y2) and not np.array_equal(x1, x3)
    assert x1.shape == (200, 5) and set(np.unique(y1)) == {0, 1}


def test_synthetic_multiclass_and_validation_split():
    arrays = load_arrays(RunConfig(data=DataConfig(num_samples=1000, num_classes=4), validation_split=0.25))
    assert arrays.num_classes == 4 and not arrays.binary
    assert len(arrays.x_train) == 750 and len(arrays.x_val) == 250


def test_csv_reads_numeric_columns(tmp_path):
    path = tmp_path / "d.csv"
    path.write_text("a,b,label\n1,2,0\n3,4,1\n5,6,2\n", encoding="utf-8")
    arrays = load_arrays(csv_config(path))
    assert arrays.x_train.shape == (3, 2) and arrays.num_classes == 3


def test_csv_text_column_names_column_line_and_value(tmp_path):
    path = tmp_path / "d.csv"
    path.write_text("age,city,label\n31,12,0\n40,Paris,1\n", encoding="utf-8")
    with pytest.raises(DataError) as info:
        load_arrays(csv_config(path))
    assert "line 3" in str(info.value) and "'city'" in str(info.value) and "'Paris'" in str(info.value)


def test_csv_missing_label_column_lists_columns(tmp_path):
    path = tmp_path / "d.csv"
    path.write_text("a,b,y\n1,2,0\n", encoding="utf-8")
    with pytest.raises(DataError, match="no column 'label'.*a, b, y"):
        load_arrays(csv_config(path))


def test_csv_missing_file(tmp_path):
    with pytest.raises(DataError, match="does not exist"):
        load_arrays(csv_config(tmp_path / "gone.csv"))


@pytest.mark.parametrize("text, words", [("", "is empty"), ("\n\n", "is empty"), ("a,label\n", "no data rows")])
def test_csv_empty_file(tmp_path, text, words):
    path = tmp_path / "d.csv"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(DataError, match=words):
        load_arrays(csv_config(path))


def test_csv_fractional_labels_are_refused(tmp_path):
    path = tmp_path / "d.csv"
    path.write_text("a,label\n1,0.5\n2,1\n", encoding="utf-8")
    with pytest.raises(DataError, match="class numbers"):
        load_arrays(csv_config(path))


def test_csv_missing_value_is_refused(tmp_path):
    path = tmp_path / "d.csv"
    path.write_text("a,label\n1,0\nnan,1\n", encoding="utf-8")
    with pytest.raises(DataError, match="example 1 has a missing"):
        load_arrays(csv_config(path))


def test_npz_with_named_arrays(tmp_path):
    path = tmp_path / "d.npz"
    np.savez(path, features=np.ones((8, 3)), target=np.array([0, 1] * 4))
    config = RunConfig(
        data=DataConfig(kind="npz", path=str(path), features_key="features", labels_key="target"), global_batch_size=4
    )
    assert load_arrays(config).x_train.shape == (8, 3)
    with pytest.raises(DataError, match="no array 'x'.*features, target"):
        load_arrays(RunConfig(data=DataConfig(kind="npz", path=str(path)), global_batch_size=4))


def test_fewer_examples_than_one_batch():
    with pytest.raises(DataError, match="fewer than one global batch"):
        load_arrays(RunConfig(data=DataConfig(num_samples=10), global_batch_size=64))


def test_labels_that_skip_class_numbers_are_refused_with_the_classes_found(tmp_path):
    """Labels {3, 7} would silently train an 8-class model with 6 classes that never occur."""
    path = tmp_path / "d.csv"
    path.write_text("a,label\n" + "".join(f"{i},{3 if i % 2 else 7}\n" for i in range(10)), encoding="utf-8")
    with pytest.raises(DataError) as info:
        load_arrays(csv_config(path))
    message = str(info.value)
    assert "3, 7" in message and "0, 1" in message and "renumber" in message


def test_a_single_class_is_refused(tmp_path):
    path = tmp_path / "d.csv"
    path.write_text("a,label\n" + "".join(f"{i},0\n" for i in range(10)), encoding="utf-8")
    with pytest.raises(DataError, match="only one class"):
        load_arrays(csv_config(path))


def test_a_npy_file_named_npz_is_a_clear_data_error(tmp_path):
    path = tmp_path / "data.npz"
    with open(path, "wb") as f:
        np.save(f, np.zeros((10, 3)))
    config = RunConfig(data=DataConfig(kind="npz", path=str(path)), global_batch_size=2)
    with pytest.raises(DataError, match=r"a single array \(\.npy\).*numpy\.savez"):
        load_arrays(config)
