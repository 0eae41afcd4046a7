"""Data sources and the bad-data cases a person meets first: checked by engine.core.sources before TensorFlow."""

from __future__ import annotations

import numpy as np
import pytest

from engine.core.config import DataConfig, RunConfig
from engine.core.problems import DataError
from engine.core.sources import check_fits_batch, inspect
from engine.train.datasets.arrays import synthetic


def csv_config(path, label="label", **kw) -> RunConfig:
    return RunConfig(data=DataConfig(kind="csv", path=str(path), label=label), global_batch_size=2, **kw)


def test_synthetic_is_deterministic_under_seed_and_binary():
    data = DataConfig(num_samples=200, num_features=5)
    x1, y1 = synthetic(data, seed=3)
    x2, y2 = synthetic(data, seed=3)
    x3, _ = synthetic(data, seed=4)
    assert np.array_equal(x1, x2) and np.array_equal(y1, y2) and not np.array_equal(x1, x3)
    assert x1.shape == (200, 5) and set(np.unique(y1)) == {0, 1}


def test_synthetic_multiclass():
    info = inspect(RunConfig(data=DataConfig(num_samples=1000, num_classes=4)))
    assert info.num_classes == 4 and not info.binary and info.examples == 1000 and info.input_shape == (10,)


def test_csv_reads_numeric_columns(tmp_path):
    path = tmp_path / "d.csv"
    path.write_text("a,b,label\n1,2,0\n3,4,1\n5,6,2\n", encoding="utf-8")
    info = inspect(csv_config(path))
    assert info.examples == 3 and info.input_shape == (2,) and info.num_classes == 3
    assert info.class_counts == (1, 1, 1) and info.file_examples == (3,)


def test_csv_text_column_names_column_line_and_value(tmp_path):
    path = tmp_path / "d.csv"
    path.write_text("age,city,label\n31,12,0\n40,Paris,1\n", encoding="utf-8")
    with pytest.raises(DataError) as info:
        inspect(csv_config(path))
    assert "line 3" in str(info.value) and "'city'" in str(info.value) and "'Paris'" in str(info.value)
    assert str(path) in str(info.value)


def test_csv_missing_label_column_lists_columns(tmp_path):
    path = tmp_path / "d.csv"
    path.write_text("a,b,y\n1,2,0\n", encoding="utf-8")
    with pytest.raises(DataError, match="no column 'label'.*a, b, y") as info:
        inspect(csv_config(path))
    assert info.value.problems[0].field == "data.label"


def test_csv_missing_file(tmp_path):
    with pytest.raises(DataError, match="no CSV file matches"):
        inspect(csv_config(tmp_path / "gone.csv"))


@pytest.mark.parametrize("text, words", [("", "is empty"), ("\n\n", "is empty"), ("a,label\n", "no data rows")])
def test_csv_empty_file(tmp_path, text, words):
    path = tmp_path / "d.csv"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(DataError, match=words):
        inspect(csv_config(path))


@pytest.mark.parametrize("label", ["0.5", "-1", "cat"])
def test_csv_labels_that_are_not_class_ids_are_refused(tmp_path, label):
    path = tmp_path / "d.csv"
    path.write_text(f"a,label\n1,{label}\n2,1\n", encoding="utf-8")
    with pytest.raises(DataError, match="class numbers|holds text 'cat'") as info:
        inspect(csv_config(path))
    assert "line 2" in str(info.value)


def test_csv_missing_value_is_refused(tmp_path):
    path = tmp_path / "d.csv"
    path.write_text("a,label\n1,0\nnan,1\n", encoding="utf-8")
    with pytest.raises(DataError, match="line 3 .*missing or infinite"):
        inspect(csv_config(path))


def test_csv_glob_of_several_files(tmp_path):
    for i in range(3):
        (tmp_path / f"part-{i}.csv").write_text("a,label\n" + f"{i},{i % 2}\n" * (i + 1), encoding="utf-8")
    info = inspect(csv_config(tmp_path / "part-*.csv"))
    assert info.file_examples == (1, 2, 3) and info.examples == 6


def test_npz_with_named_arrays(tmp_path):
    path = tmp_path / "d.npz"
    np.savez(path, features=np.ones((8, 3)), target=np.array([0, 1] * 4))
    config = RunConfig(
        data=DataConfig(kind="npz", path=str(path), features_key="features", labels_key="target"), global_batch_size=4
    )
    assert inspect(config).input_shape == (3,) and inspect(config).examples == 8
    with pytest.raises(DataError, match="no array 'x'.*features, target"):
        inspect(RunConfig(data=DataConfig(kind="npz", path=str(path)), global_batch_size=4))


def test_fewer_examples_than_one_batch():
    with pytest.raises(DataError, match="fewer than one global batch"):
        check_fits_batch(inspect(RunConfig(data=DataConfig(num_samples=10))), 0.0, 64)


def test_labels_that_skip_class_numbers_are_refused_with_the_classes_found(tmp_path):
    """Labels {3, 7} would silently train an 8-class model with 6 classes that never occur."""
    path = tmp_path / "d.csv"
    path.write_text("a,label\n" + "".join(f"{i},{3 if i % 2 else 7}\n" for i in range(10)), encoding="utf-8")
    with pytest.raises(DataError) as info:
        inspect(csv_config(path))
    message = str(info.value)
    assert "3, 7" in message and "0, 1" in message and "renumber" in message


def test_a_single_class_is_refused(tmp_path):
    path = tmp_path / "d.csv"
    path.write_text("a,label\n" + "".join(f"{i},0\n" for i in range(10)), encoding="utf-8")
    with pytest.raises(DataError, match="only one class"):
        inspect(csv_config(path))


def test_a_npy_file_named_npz_is_a_clear_data_error(tmp_path):
    path = tmp_path / "data.npz"
    with open(path, "wb") as f:
        np.save(f, np.zeros((10, 3)))
    config = RunConfig(data=DataConfig(kind="npz", path=str(path)), global_batch_size=2)
    with pytest.raises(DataError, match=r"a single array \(\.npy\).*numpy\.savez"):
        inspect(config)


def test_an_epochs_distributed_dataset_is_made_once_and_iterates_whole_each_time():
    """The trainer reads the per-replica batch from the first epoch's distributed dataset, then the loop
    trains on that same dataset: it must still hold every step of the epoch."""
    from engine.train.datasets import make_source
    from engine.train.tf_runtime import tf

    config = RunConfig(data=DataConfig(num_samples=100), global_batch_size=10, validation_split=0.0)
    source = make_source(config, inspect(config), "auto", 1)
    strategy = tf.distribute.get_strategy()
    first = source.distributed_train(strategy, 0)
    assert source.distributed_train(strategy, 0) is first
    assert source.distributed_train(strategy, 1) is not first and source.distributed_train(strategy, 0) is not first
    again = source.distributed_train(strategy, 0, skip_steps=2)
    assert [sum(1 for _ in first) for _ in range(2)] == [10, 10] and sum(1 for _ in again) == 8


@pytest.mark.parametrize("shuffle_buffer", [10000, 0])
def test_examples_in_memory_train_on_a_permutation_per_epoch_and_fit_gets_the_same_batches(shuffle_buffer):
    """Synthetic and npz examples: each epoch a permutation of every training example (seeded by seed and
    epoch; shuffle_buffer 0 keeps their order), cut to whole global batches; `train` (what fit reads) holds
    exactly the batches the custom loop gathers by `order`, from the step a resume skips to."""
    from engine.train.datasets import make_source

    config = RunConfig(data=DataConfig(num_samples=100), global_batch_size=8, shuffle_buffer=shuffle_buffer)
    source = make_source(config, inspect(config), "auto", 1)
    features, labels = source.in_memory()
    orders = [source.order(epoch) for epoch in (0, 1, 0)]
    assert len(orders[0]) == 96 and len(set(orders[0].tolist())) == 96
    assert np.array_equal(orders[0], orders[2])
    assert np.array_equal(orders[0], np.arange(96)) is (shuffle_buffer == 0)
    assert np.array_equal(orders[0], orders[1]) is (shuffle_buffer == 0)
    batches = list(source.train(1, skip_steps=3))
    assert len(batches) == 9
    for step, (x, y) in enumerate(batches, start=3):
        index = orders[1][step * 8 : (step + 1) * 8]
        assert np.array_equal(x.numpy(), features.numpy()[index])
        assert np.array_equal(y.numpy(), labels.numpy()[index])


def test_the_custom_loop_takes_each_epochs_order_made_ahead_on_a_thread():
    """OrdersAhead gives every epoch exactly `InputSource.order(epoch)`, in turn or after a jump (a resume)."""
    from engine.train.datasets import make_source
    from engine.train.loops import OrdersAhead

    config = RunConfig(data=DataConfig(num_samples=100), global_batch_size=8, epochs=5)
    source = make_source(config, inspect(config), "auto", 1)
    orders = OrdersAhead(source, config.epochs)
    for epoch in (0, 1, 3, 4):
        assert np.array_equal(orders.take(epoch).numpy(), source.order(epoch)), epoch
