"""The Live tab's "Capture profile": the window asks its REAL trainer (engine.train.worker) over stdin."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QMessageBox

from engine.core import events as ev
from engine.core.config import DataConfig, RunConfig
from gui.live.controls import RunControls
from tests.gui.test_end_to_end import real_window

STARTED = dict(
    num_replicas=1,
    devices=["CPU:0"],
    global_batch_size=64,
    per_replica_batch_size=64,
    loop="custom",
    epochs=1,
    steps_per_epoch=10,
    steps_per_execution=1,
    run_dir="/tmp/r",
)


def test_capture_is_offered_only_for_a_run_this_window_can_ask(qtbot):
    controls = RunControls()
    qtbot.addWidget(controls)
    assert not controls.profile.isEnabled()  # no run
    controls.set_running(True)
    assert controls.profile.isEnabled() and controls.profile_steps.isEnabled()
    with qtbot.waitSignal(controls.profile_requested) as asked:
        controls.profile_steps.setValue(7)
        qtbot.mouseClick(controls.profile, Qt.MouseButton.LeftButton)
    assert asked.args == [7]
    controls.add_events([ev.RunStarted(strategy="parameter_server", **STARTED)])
    assert not controls.profile.isEnabled() and "parameter_server" in controls.profile.toolTip()
    controls.set_running(True)
    controls.add_events([ev.RunStarted(strategy="multi_worker_mirrored", num_workers=2, **STARTED)])
    assert controls.profile.isEnabled(), "a local cluster's launcher passes the request to every training task"
    controls.refuse_profile("its tasks run on other machines")  # a cluster started on SSH hosts
    controls.add_events([ev.RunStarted(strategy="multi_worker_mirrored", num_workers=2, **STARTED)])
    assert not controls.profile.isEnabled() and controls.profile.toolTip() == "its tasks run on other machines"
    controls.set_running(True)
    controls.set_watching(True, "stop it")  # a run another process trains: Stop asks it, a profile cannot
    assert not controls.profile.isEnabled()


@pytest.mark.slow
def test_capture_profile_asks_the_running_trainer_and_logs_where_it_went(
    qtbot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    monkeypatch.setattr(QMessageBox, "question", staticmethod(lambda *a, **k: QMessageBox.StandardButton.Yes))
    config = RunConfig(
        strategy="mirrored",
        devices=("CPU:0",),
        loop="custom",
        epochs=50,
        global_batch_size=64,
        steps_per_execution=1,
        data=DataConfig(num_samples=20_000),
    )
    window = real_window(qtbot, tmp_path, config)
    window.start_run()
    qtbot.waitUntil(lambda: window.plots.plotted_points() > 0, timeout=180_000)
    window.controls.profile_steps.setValue(3)
    qtbot.mouseClick(window.controls.profile, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: "profile of steps" in window.log.tail(), timeout=60_000)
    assert "asked the trainer for a profile of its next 3 steps" in window.log.tail()
    window.stop_run()
    qtbot.waitUntil(lambda: window.runner is None, timeout=60_000)
    (run,) = (tmp_path / "runs").iterdir()
    sessions = list((run / "tensorboard" / "plugins" / "profile").iterdir())
    assert len(sessions) == 1 and list(sessions[0].glob("*.xplane.pb")), sessions
    assert str(sessions[0]) in window.log.tail()
