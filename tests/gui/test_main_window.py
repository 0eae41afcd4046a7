"""The assembled window: stable object names, a whole run, failure, stop, close, config files."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QMessageBox, QWidget

from engine.core.config import RunConfig
from gui.form.device_probe import DeviceInfo, ProbeResult
from gui.main_window import MainWindow
from tests.gui.closing_helpers import answer_closing
from tests.gui.stacks_shown import assert_stacks_show

OBJECT_NAMES = [
    "deviceList",
    "epochsSpin",
    "batchSizeSpin",
    "strategyCombo",
    "loopCombo",
    "startButton",
    "stopButton",
    "lossPlot",
    "accuracyPlot",
    "throughputPlot",
    "logView",
    "progressBar",
]
CPU_ONLY = ProbeResult(tensorflow="2.21.0", devices=(DeviceInfo("CPU:0", "CPU", "Xeon", 24000, 2),))


def answer(monkeypatch: pytest.MonkeyPatch, button: QMessageBox.StandardButton) -> list[str]:
    """Answer every QMessageBox.question with `button`; returns the titles asked."""
    asked: list[str] = []

    def question(parent, title, text, *args, **kwargs):
        asked.append(title)
        return button

    monkeypatch.setattr(QMessageBox, "question", staticmethod(question))
    return asked


def wait_idle(qtbot, window: MainWindow, timeout: int = 30_000) -> None:
    qtbot.waitUntil(lambda: window.runner is None, timeout=timeout)


def test_stable_object_names(make_window):
    window = make_window()
    for name in OBJECT_NAMES:
        assert window.findChild(QWidget, name) is not None, name


def test_constructs_with_no_arguments(qtbot):
    window = MainWindow()
    qtbot.addWidget(window)
    window.shutdown()  # cancels the device probe it started


def test_a_run_fills_the_plots_and_finishes(qtbot, make_window):
    window = make_window("normal", "--epochs", "3", "--steps", "10", "--delay", "0")
    window.apply_probe(CPU_ONLY)
    assert window.controls.start.isEnabled()
    qtbot.mouseClick(window.controls.start, Qt.MouseButton.LeftButton)
    assert not window.controls.start.isEnabled() and not window.form.isEnabled()
    wait_idle(qtbot, window)
    # the last epoch's end may come in a later hand-over than its last batch, and so a frame later
    qtbot.waitUntil(lambda: window.plots.plotted_points() == 30 and window.plots.loss.plotted_points("epoch") == 3)
    assert window.plots.loss.plotted_points("val") == 3
    assert window.controls.progress_bar.value() == window.controls.progress_bar.maximum()
    assert "completed" in window.status_labels["state"].text()
    assert "per-replica batch: 32" in window.status_labels["per_replica"].text()
    assert window.controls.start.isEnabled() and window.form.isEnabled()
    assert "goes to stderr" in window.log.shown_text()


def test_a_failed_run_shows_a_dialog_and_another_can_start(qtbot, make_window):
    window = make_window("fail")
    window.apply_probe(CPU_ONLY)
    window.start_run()
    wait_idle(qtbot, window)
    qtbot.waitUntil(lambda: window.last_dialog is not None)
    assert "lower the batch size" in window.last_dialog.text()
    assert "failed" in window.status_labels["state"].text()
    window.last_dialog.close()
    assert window.controls.start.isEnabled()
    window.start_run()
    assert window.runner is not None
    wait_idle(qtbot, window)


def test_a_run_without_step_progress_is_shown_stalled_with_its_python_stacks(qtbot, make_window):
    """A run of one trainer is watched like a cluster's tasks: no step for longer than its threshold is said
    in the state, the status bar and the log, and Run › Show the trainer's Python stacks tells where it waits."""
    window = make_window("stall", "--steps", "50", stall_seconds=1.0)
    window.apply_probe(CPU_ONLY)
    assert not window.menus.stacks_action.isEnabled()
    window.start_run()
    assert window.menus.stacks_action.isEnabled()
    qtbot.waitUntil(lambda: "stalled" in window.status_labels["state"].text(), timeout=30_000)
    assert "[trainer] trainer: no step for 1 s" in window.log.shown_text()
    assert "Python stacks" in window.statusBar().currentMessage()
    assert_stacks_show(qtbot, window.show_trainer_stacks(), "hold_here_until_stopped")
    window.stop_run()
    qtbot.waitUntil(lambda: window.runner is None, timeout=30_000)
    assert "stopped" in window.status_labels["state"].text()
    assert not window.menus.stacks_action.isEnabled()


def test_stop_asks_then_stops(qtbot, make_window, monkeypatch):
    asked = answer(monkeypatch, QMessageBox.StandardButton.Yes)
    window = make_window("normal", "--epochs", "1000", "--steps", "100", "--delay", "0.01")
    window.apply_probe(CPU_ONLY)
    window.start_run()
    qtbot.waitUntil(lambda: window.plots.plotted_points() > 0, timeout=30_000)
    qtbot.mouseClick(window.controls.stop, Qt.MouseButton.LeftButton)
    assert asked == ["Stop the run?"]
    wait_idle(qtbot, window)
    assert "stopped" in window.status_labels["state"].text()


def test_stop_declined_keeps_running(qtbot, make_window, monkeypatch):
    answer(monkeypatch, QMessageBox.StandardButton.No)
    window = make_window("normal", "--epochs", "1000", "--steps", "100", "--delay", "0.01")
    window.apply_probe(CPU_ONLY)
    window.start_run()
    window.ask_stop()
    assert window.runner is not None and window.controls.stop.isEnabled()
    window.stop_run()
    wait_idle(qtbot, window)


def test_closing_mid_run_asks_stops_and_leaves_no_process(qtbot, make_window):
    window = make_window("normal", "--epochs", "1000", "--steps", "100", "--delay", "0.01")
    window.apply_probe(CPU_ONLY)
    window.show()
    window.start_run()
    qtbot.waitUntil(lambda: window.plots.plotted_points() > 0, timeout=30_000)
    asked: list[str] = []
    QTimer.singleShot(0, lambda: answer_closing("stopOnCloseButton", asked))
    window.close()
    assert asked, "closing did not ask"
    assert window.isVisible(), "the window waits for the trainer to stop"
    qtbot.waitUntil(lambda: not window.isVisible(), timeout=30_000)
    assert window.runner is None


def test_shutdown_kills_a_trainer_that_ignores_stop(qtbot, make_window):
    window = make_window("ignore_stop", "--epochs", "1000", "--steps", "100", "--delay", "0.01", grace_seconds=0.3)
    window.apply_probe(CPU_ONLY)
    window.start_run()
    qtbot.waitUntil(lambda: window.plots.plotted_points() > 0, timeout=30_000)
    window.shutdown()
    assert window.runner is None or not window.runner.isRunning()


def test_start_is_disabled_with_the_reason(qtbot, make_window):
    window = make_window()
    window.apply_probe(CPU_ONLY)
    window.form.virtual.setValue(3)
    start = window.controls.start
    assert not start.isEnabled()
    assert "global_batch_size" in start.toolTip()
    assert window.controls.reason.text() == start.toolTip()


def test_config_files_round_trip_and_bad_files_show_problems(qtbot, make_window, tmp_path: Path):
    window = make_window()
    window.apply_probe(CPU_ONLY)
    window.form.epochs.setValue(7)
    path = tmp_path / "run.json"
    window.save_config(path)
    assert RunConfig.load(path).epochs == 7
    window.form.epochs.setValue(1)
    assert window.open_config(path)
    assert window.form.epochs.value() == 7
    bad = tmp_path / "bad.json"
    bad.write_text('{"epochs": 0, "strategy": "nope"}')
    assert not window.open_config(bad)
    assert "strategy" in window.last_dialog.detailedText()
    window.last_dialog.close()


def test_last_config_comes_back(qtbot, make_window):
    first = make_window()
    first.apply_probe(CPU_ONLY)
    first.form.epochs.setValue(11)
    first.form.virtual.setValue(3)  # invalid with batch 64: must still come back as it was
    first.close()
    second = make_window()
    assert second.form.epochs.value() == 11
    assert second.form.virtual.value() == 3


def test_the_live_plots_frame_rate_is_in_the_view_menu_and_comes_back(qtbot, make_window):
    first = make_window()
    assert first.menus.frame_rate_menu.menuAction() in first.menus.view_menu.actions()
    slowest = first.menus.frame_rate_menu.actions()[-1]
    slowest.trigger()
    assert first.plots.frames_per_second == slowest.data() == 1
    first.close()
    assert make_window().plots.frames_per_second == 1


@pytest.mark.parametrize(
    "example", sorted((Path(__file__).parents[2] / "resources" / "examples").glob("*.json")), ids=lambda p: p.name
)
def test_example_configs_load(example: Path):
    assert RunConfig.load(example)


def test_the_title_names_the_app_once(qtbot, qapp):
    """Qt adds " — <display name>" to a window title that does not end with it: the title must not say the
    app's name twice (it read "TensorFlow Distributed Training Dashboard — TF Distributed Dashboard")."""
    from gui.app import create_application

    name = create_application([]).applicationDisplayName()
    window = MainWindow()
    qtbot.addWidget(window)
    title = window.windowTitle()
    shown = title if title.endswith(name) else f"{title} — {name}"
    assert shown == name
    window.shutdown()
