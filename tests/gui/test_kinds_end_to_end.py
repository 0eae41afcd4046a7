"""An image folder, a python model and a python dataset trained from the window's form by the REAL engine;
the model summary computed by a real child process."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt

from engine.core.config import DataConfig, ModelConfig, RunConfig
from engine.core.runs.rundir import read_metrics
from tests.data_factory import write_image_folder, write_python_data, write_python_model
from tests.gui.test_end_to_end import real_window

pytestmark = pytest.mark.slow


def run_to_the_end(qtbot, window) -> Path:
    qtbot.mouseClick(window.controls.start, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: window.runner is None, timeout=240_000)
    assert "completed" in window.status_labels["state"].text(), window.log.tail()
    (run_dir,) = list((window._runs_root()).iterdir())
    return run_dir


def test_image_folder_cnn_run_from_the_form(qtbot, tmp_path):
    images = write_image_folder(tmp_path / "images", classes=3, per_class=16, size=(12, 12))
    config = RunConfig(
        devices=("CPU:0",),
        virtual_devices=2,
        epochs=2,
        global_batch_size=8,
        validation_split=0.25,
        data=DataConfig(kind="image_folder", path=str(images)),
        model=ModelConfig(kind="cnn", filters=(8,), hidden_units=(8,)),
    )
    window = real_window(qtbot, tmp_path, config)
    assert "48 examples · input 12×12×3 · 3 classes" in window.form.data_source.preview.summary.text()
    run_dir = run_to_the_end(qtbot, window)
    assert [r["epoch"] for r in read_metrics(run_dir / "metrics.csv")] == ["1", "2"]
    assert read_metrics(run_dir / "metrics.csv")[0]["val_loss"]
    # the run's last events are drawn at the next frame, which may come after the run's end reached the window
    qtbot.waitUntil(lambda: window.plots.loss.plotted_points("epoch") == 2)
    assert "sync_bn_0" in (run_dir / "model.keras").read_bytes().decode("latin-1")


def test_python_model_and_python_dataset_from_the_form(qtbot, tmp_path):
    config = RunConfig(
        devices=("CPU:0",),
        virtual_devices=2,
        loop="fit",
        epochs=1,
        global_batch_size=32,
        data=DataConfig(
            kind="python",
            path=str(write_python_data(tmp_path / "my_data.py")),
            num_samples=256,
            validation_function="make_validation",
        ),
        model=ModelConfig(kind="mlp", hidden_units=(8,)),
    )
    window = real_window(qtbot, tmp_path, config)
    run_dir = run_to_the_end(qtbot, window)
    assert read_metrics(run_dir / "metrics.csv")[0]["val_accuracy"]


def test_model_summary_from_a_child_process(qtbot, tmp_path):
    images = write_image_folder(tmp_path / "images", classes=2, per_class=4, size=(16, 16))
    config = RunConfig(
        devices=("CPU:0",),
        virtual_devices=2,
        global_batch_size=8,
        data=DataConfig(kind="image_folder", path=str(images)),
        model=ModelConfig(kind="python", path=str(write_python_model(tmp_path / "m.py", "sigmoid"))),
    )
    window = real_window(qtbot, tmp_path, config)
    summary = window.form.model_form.summary
    with qtbot.waitSignal(summary.summary_ready, timeout=120_000) as ready:
        qtbot.mouseClick(summary.button, Qt.MouseButton.LeftButton)
        assert not summary.button.isEnabled()  # the window stays responsive: the child builds the model
    document = ready.args[0]
    assert document["input_shape"] == [16, 16, 3] and document["output_units"] == 1
    assert document["from_logits"] is False and document["per_replica_batch"] == 4
    assert summary.table.rowCount() == len(document["layers"]) and "per replica" in summary.status.text()
    window.form.batch_size.setValue(16)
    assert summary.status.text().startswith("Out of date")

    Path(config.model.path).write_text("def build_model(s, n):\n    return 'not a model'\n", encoding="utf-8")
    with qtbot.waitSignal(summary.summary_failed, timeout=120_000) as failed:
        summary.button.click()
    assert "not a tf_keras model" in failed.args[0] and failed.args[1] == "model.function"
