"""Every data kind trains end to end through the worker protocol, with validation, both loops and resume."""

from __future__ import annotations

import numpy as np
import pytest

from engine.core import events as ev
from engine.core.runs.rundir import read_metrics
from tests.data_factory import write_image_tfrecords, write_python_data
from tests.engine.train.worker_process import LiveWorker, base_config, run_worker, train, write_config

pytestmark = pytest.mark.slow


def epochs(finished) -> list[ev.EpochEnd]:
    assert finished.returncode == 0, finished.stderr[-3000:]
    return finished.of(ev.EpochEnd)


def test_csv_streamed_gives_the_losses_of_the_same_rows_in_memory(tmp_path):
    """Streaming changes how rows are read, not which batches train: the same losses as an NPZ of the rows.
    In file order (shuffle_buffer 0): rows in memory are shuffled as a permutation per epoch, a stream through
    its shuffle buffer, so shuffled they train the same rows in different batches."""
    rng = np.random.default_rng(0)
    x = rng.standard_normal((600, 4)).astype(np.float32)
    y = (x[:, 0] - x[:, 2] > 0).astype(int)
    for part in range(3):  # a glob of three files
        rows = range(part * 200, (part + 1) * 200)
        lines = ["a,b,c,d,label"] + [",".join(f"{v:.9g}" for v in x[i]) + f",{y[i]}" for i in rows]
        (tmp_path / f"part-{part}.csv").write_text("\n".join(lines) + "\n", encoding="utf-8")
    np.savez(tmp_path / "same.npz", x=np.array([[float(f"{v:.9g}") for v in row] for row in x], np.float32), y=y)
    common = {"validation_split": 0.2, "global_batch_size": 32, "shuffle_buffer": 0}
    csv = train(
        tmp_path,
        base_config(data={"kind": "csv", "path": str(tmp_path / "part-*.csv"), "label": "label"}, **common),
        "csv",
    )
    npz = train(tmp_path, base_config(data={"kind": "npz", "path": str(tmp_path / "same.npz")}, **common), "npz")
    assert [e.loss for e in epochs(csv)] == pytest.approx([e.loss for e in epochs(npz)], rel=1e-5)
    assert [e.val_loss for e in epochs(csv)] == pytest.approx([e.val_loss for e in epochs(npz)], rel=1e-5)


# tfrecord float features, in both loops: tests/engine/train/test_iterator_retirement.py


def test_tfrecord_images_with_the_cnn_and_mixed_precision(tmp_path):
    write_image_tfrecords(tmp_path / "records", files=2, per_file=32)
    data = {
        "kind": "tfrecord",
        "path": str(tmp_path / "records" / "*.tfrecord"),
        "feature_type": "image",
        "features_key": "image",
        "labels_key": "label",
        "feature_shape": [16, 16, 3],
        "num_classes": 3,
    }
    config = base_config(
        data=data, model={"kind": "cnn", "filters": [8]}, global_batch_size=16, mixed_precision="bfloat16"
    )
    assert len(epochs(train(tmp_path, config))) == 2


def test_python_dataset_and_python_model_with_a_final_softmax(tmp_path):
    """make_dataset(input_context) through distribute_datasets_from_function; the model's softmax is detected."""
    data_file = write_python_data(tmp_path / "my_data.py")
    model_file = tmp_path / "my_model.py"
    model_file.write_text(
        "import tf_keras as keras\n\ndef build_model(input_shape, num_classes):\n"
        "    return keras.Sequential([keras.Input(input_shape), keras.layers.Dense(8, activation='relu'),\n"
        "                             keras.layers.Dense(1, activation='sigmoid')])\n",
        encoding="utf-8",
    )
    config = base_config(
        data={
            "kind": "python",
            "path": str(data_file),
            "num_samples": 512,
            "validation_function": "make_validation",
        },
        model={"kind": "python", "path": str(model_file)},
        virtual_devices=2,
        epochs=3,
        learning_rate=0.05,
    )
    finished = train(tmp_path, config)
    ends = epochs(finished)
    assert [e.epoch for e in ends] == [1, 2, 3] and ends[-1].loss < ends[0].loss
    assert ends[-1].accuracy > 0.8 and ends[-1].val_accuracy > 0.8  # probabilities thresholded at 0.5, not 0
    assert any("ends in softmax/sigmoid" in e.message for e in finished.of(ev.Log))
    assert finished.of(ev.RunStarted)[0].per_replica_batch_size == 32
    fit = train(tmp_path, {**config, "loop": "fit"}, "fit")
    assert [e.loss for e in epochs(fit)] == pytest.approx([e.loss for e in ends], rel=1e-5)


def test_python_dataset_stopped_mid_epoch_resumes_without_repeating_steps(tmp_path):
    data_file = write_python_data(tmp_path / "my_data.py")
    config = base_config(
        data={"kind": "python", "path": str(data_file), "num_samples": 20000},
        global_batch_size=32,
        epochs=2,
        steps_per_execution=5,
    )
    run_dir = tmp_path / "run"
    worker = LiveWorker(["--config", str(write_config(tmp_path, config)), "--run-dir", str(run_dir)])
    worker.wait_for(lambda e: isinstance(e, ev.BatchEnd) and e.epoch == 1 and e.step >= 100)
    worker.stop()
    assert worker.finish() == 0
    saved = [e for e in worker.events if isinstance(e, ev.CheckpointSaved)][-1]
    again = run_worker(["--resume", str(run_dir)])
    assert again.returncode == 0, again.stderr[-2000:]
    started = again.of(ev.RunStarted)[0]
    assert (started.start_epoch, started.start_step) == (0, saved.step)
    first = again.of(ev.BatchEnd)[0]
    assert first.global_step - first.steps + 1 == saved.step + 1
    assert [r["epoch"] for r in read_metrics(run_dir / "metrics.csv")] == ["1", "2"]


# a saved model trained on: tests/engine/train/test_kinds_equivalence.py
