"""Start clicked on the REAL engine (`engine.train.worker`): plots fill, the run finishes, nothing is left behind."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt

from engine.core.config import DataConfig, RunConfig
from gui.form.device_probe import DeviceInfo, ProbeResult
from gui.main_window import MainWindow

pytestmark = pytest.mark.slow
CPU_ONLY = ProbeResult(tensorflow="2.21.0", devices=(DeviceInfo("CPU:0", "CPU", "Xeon", 24000, 2),))


def real_window(qtbot, tmp_path: Path, config: RunConfig) -> MainWindow:
    window = MainWindow(start_probe=False, runs_dir=tmp_path / "runs")
    qtbot.addWidget(window)
    window.show()  # the plots draw only while shown
    window.apply_probe(CPU_ONLY)
    window.form.set_config(config)
    assert window.controls.start.isEnabled(), window.controls.reason.text()
    return window


def test_one_epoch_mirrored_run_on_two_virtual_cpus(qtbot, tmp_path: Path):
    config = RunConfig(
        strategy="mirrored",
        devices=("CPU:0",),
        virtual_devices=2,
        loop="custom",
        epochs=1,
        global_batch_size=32,
        validation_split=0.25,
        data=DataConfig(num_samples=512),
    )
    window = real_window(qtbot, tmp_path, config)
    qtbot.mouseClick(window.controls.start, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: window.runner is None, timeout=180_000)
    assert "completed" in window.status_labels["state"].text(), window.log.tail()
    # the run's last events are drawn at the next frame, which may come after the run's end reached the window
    qtbot.waitUntil(lambda: window.plots.loss.plotted_points("epoch") == 1)
    assert window.plots.plotted_points() > 0
    assert window.status_labels["replicas"].text() == "replicas: 2"
    assert window.controls.progress_bar.value() == window.controls.progress_bar.maximum()
    assert len(list((tmp_path / "runs").iterdir())) == 1
