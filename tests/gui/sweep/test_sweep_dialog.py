"""The Sweep dialog and its view: a bad space refused line by line, the slot plan for the window's GPUs, and a
real tiny sweep started from the window whose view fills in and whose best config reaches the run form."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
import shiboken6
from PySide6.QtGui import QColor

from engine.core.config import CheckpointConfig, DataConfig, RunConfig
from engine.core.sweep.space import DISTRIBUTIONS, METHODS, PRUNERS, parse_space
from gui import theme
from gui.form.device_probe import DeviceInfo, ProbeResult
from gui.sweep.setup_dialog import SweepDialog
from gui.sweep.view import SweepView

FAKE_SWEEP = Path(__file__).parents[1] / "fake_sweep.py"

BASE = RunConfig(strategy="mirrored", epochs=2, global_batch_size=64, data=DataConfig(num_samples=256))


@pytest.fixture
def dialog(qtbot, tmp_path) -> SweepDialog:
    dialog = SweepDialog(tmp_path / "runs")
    qtbot.addWidget(dialog)
    return dialog


def problem_lines(dialog: SweepDialog) -> list[str]:
    return dialog.problems.text().splitlines() if dialog.problems.isVisibleTo(dialog) else []


def test_a_bad_space_shows_each_problem_on_a_line_and_start_stays_disabled(dialog):
    dialog.set_config(BASE, ["GPU:0", "GPU:1"])
    dialog.gpus_per_trial.setValue(2)
    assert problem_lines(dialog) == [] and dialog.start_button.isEnabled()
    dialog.editor.rows["learning_rate"].values.setText("0.1, 0.0001")  # an empty range
    batch = dialog.editor.rows["global_batch_size"]
    batch.vary.setChecked(True)
    batch.values.setText("64, 33")  # 33 does not split over a slot's 2 replicas
    lines = problem_lines(dialog)
    assert len(lines) == 1 and lines[0].startswith("parameters.learning_rate") and "empty range" in lines[0]
    assert not dialog.start_button.isEnabled()
    dialog.editor.rows["learning_rate"].values.setText("0.0001, 0.1")
    lines = problem_lines(dialog)
    assert len(lines) == 1 and lines[0].startswith("parameters.global_batch_size = 33"), lines
    assert not dialog.start_button.isEnabled() and dialog.plan.text() == ""
    batch.values.setText("64, 32")
    assert problem_lines(dialog) == [] and dialog.start_button.isEnabled()


def test_the_plan_gives_each_slot_its_gpus_and_the_per_replica_batch_of_each_batch_choice(dialog):
    dialog.set_config(BASE, ["GPU:0", "GPU:1", "GPU:2", "GPU:3"])
    batch = dialog.editor.rows["global_batch_size"]
    batch.vary.setChecked(True)
    batch.values.setText("32, 64")
    assert dialog.plan.text().splitlines()[:4] == [
        "Slot 1: GPU:0, 1 replica(s); per-replica batch 32 → 32, 64 → 64",
        "Slot 2: GPU:1, 1 replica(s); per-replica batch 32 → 32, 64 → 64",
        "Slot 3: GPU:2, 1 replica(s); per-replica batch 32 → 32, 64 → 64",
        "Slot 4: GPU:3, 1 replica(s); per-replica batch 32 → 32, 64 → 64",
    ]
    dialog.gpus_per_trial.setValue(2)
    assert dialog.plan.text().splitlines() == [
        "Slot 1: GPU:0, GPU:1, 2 replica(s); per-replica batch 32 → 16, 64 → 32",
        "Slot 2: GPU:2, GPU:3, 2 replica(s); per-replica batch 32 → 16, 64 → 32",
        "2 trial(s) at once, 16 in all; each trains 2 epoch(s).",
    ]
    dialog.gpus_per_trial.setValue(3)  # one slot of three GPUs: neither batch splits over 3 replicas
    assert [line.split(":")[0] for line in problem_lines(dialog)] == [
        "parameters.global_batch_size = 32",
        "parameters.global_batch_size = 64",
    ]
    assert dialog.plan.text() == "" and not dialog.start_button.isEnabled()


def test_the_window_opens_the_dialog_with_the_gpus_its_device_probe_found(make_window):
    window = make_window()
    gpus = tuple(DeviceInfo(f"GPU:{i}", "GPU") for i in range(2))
    window.devices.set_probe(ProbeResult(devices=(DeviceInfo("CPU:0", "CPU"), *gpus)))
    dialog = window.open_sweep()
    assert dialog.gpus == ["GPU:0", "GPU:1"] and dialog.gpus_per_trial.maximum() == 2
    assert dialog.plan.text().startswith("Slot 1: GPU:0, ")
    assert window.sweep_dialog is dialog


@pytest.mark.slow
def test_a_real_sweep_started_from_the_window_fills_its_view_and_its_best_config_reaches_the_form(make_window, qtbot):
    window = make_window()
    tiny = RunConfig(
        strategy="default",
        epochs=2,
        global_batch_size=32,
        validation_split=0.25,
        data=DataConfig(num_samples=256, num_features=8),
        checkpoint=CheckpointConfig(every_epoch=False),  # its trials are never continued
    )
    window.form.set_config(tiny)
    dialog = window.open_sweep()
    rate = dialog.editor.rows["learning_rate"]
    rate.distribution.setCurrentIndex(DISTRIBUTIONS.index("choice"))
    rate.values.setText("0.001, 0.05")
    dialog.method.setCurrentIndex(METHODS.index("grid"))
    dialog.pruner.setCurrentIndex(PRUNERS.index("none"))
    dialog.trials.setValue(2)
    dialog.concurrency.setValue(2)
    assert problem_lines(dialog) == [] and "2 trial(s) at once, 2 in all" in dialog.plan.text()
    view = dialog.start()
    assert view is not None and not dialog.isVisible()
    qtbot.waitUntil(lambda: any(r.state == "running" for r in view.trials.rows.values()), timeout=300_000)
    qtbot.waitUntil(lambda: not view.running, timeout=600_000)
    assert view.ended == "completed", view.problems.text()
    rows = view.trials.sorted()
    assert [r.state for r in rows] == ["completed", "completed"]
    assert sorted(r.params["learning_rate"] for r in rows) == [0.001, 0.05]
    assert all(len(r.curve) == 2 for r in rows)  # the objective at each epoch, as it was reported
    best = view.summary.best_number
    assert best == rows[0].number and view.table.item(0, 0).text() == str(best)
    assert "PED-ANOVA" in view.importance.title and "learning_rate" in view.importance.shares
    line = view.parallel.lines[best]
    line.sigClicked.emit(line, None)  # a click on the best trial's line selects it and overlays its curves
    assert view.selected == {best} and view.table.selectedItems()[0].row() == 0
    assert [label for _colour, label in view.legend] == [f"trial {best}"]
    assert len(view.curves.getPlotItem().listDataItems()) == 1 + 2  # the other trial thin, the chosen one's two
    assert not view.continue_button.isEnabled()
    view.best_button.click()
    assert window.form.evaluate()[0].learning_rate == rows[0].params["learning_rate"]


def test_the_view_shows_trials_live_marks_the_pruned_one_and_stops_and_continues_the_sweep(qtbot, tmp_path):
    base = BASE.replace(validation_split=0.25)
    space = parse_space({"parameters": {"learning_rate": {"log_uniform": [0.001, 10.0]}}, "trials": 2}, base)
    view = SweepView(
        tmp_path,
        base,
        space,
        resume_command_for=lambda folder: [sys.executable, str(FAKE_SWEEP), "resume", str(folder)],
    )
    qtbot.addWidget(view)
    view.start([sys.executable, str(FAKE_SWEEP), "start", str(tmp_path)])
    qtbot.waitUntil(lambda: view.summary is not None, timeout=30_000)
    states = [view.table.item(row, 1).text() for row in range(view.table.rowCount())]
    assert states[1] == "training (epoch 1)"  # the pruned trial has a final value: it comes first
    assert states[0].startswith("pruned at epoch 1: its best val_loss so far, 9, is worse than the median")
    assert view.stop_button.isEnabled() and not view.continue_button.isEnabled()
    assert "not yet" in view.importance.title and not view.best_button.isEnabled()
    view.stop_button.click()
    qtbot.waitUntil(lambda: not view.running, timeout=30_000)
    assert view.trials.rows[0].state == "interrupted" and view.continue_button.isEnabled()
    assert view.progress.text() == "sweep stopped: 1 of 2 trials finished"
    view.continue_button.click()
    qtbot.waitUntil(lambda: not view.running, timeout=30_000)
    assert sorted(view.trials.rows) == [1, 2]  # trial 2 continued trial 0's folder: one row for it
    assert view.trials.rows[2].curve == {1: 0.8, 2: 0.5}  # its objective before and after the stop
    assert [view.table.item(row, 0).text() for row in range(view.table.rowCount())] == ["2", "1"]
    assert view.best_config().learning_rate == 0.01 and not view.continue_button.isEnabled()


def test_continuing_a_folder_that_holds_no_sweep_says_so_and_opens_no_view(dialog, tmp_path):
    dialog.set_config(BASE, [])
    assert dialog.open_sweep(tmp_path) is None
    assert problem_lines(dialog)[0].startswith(f"(sweep) = '{tmp_path}': is not a sweep folder")
    assert dialog.views == []


def test_the_view_follows_a_change_of_theme_and_a_closed_view_is_left_alone(qtbot, tmp_path):
    base = BASE.replace(validation_split=0.25)
    space = parse_space({"parameters": {"learning_rate": {"log_uniform": [0.001, 10.0]}}, "trials": 2}, base)
    view = SweepView(tmp_path, base, space)
    view.start([sys.executable, str(FAKE_SWEEP), "resume", str(tmp_path)])
    qtbot.waitUntil(lambda: not view.running, timeout=30_000)
    manager = theme.manager()
    try:
        manager.set_choice(theme.Choice.DARK)
        assert view.parallel.backgroundBrush().color() == QColor(theme.DARK.plot.background)
        view.deleteLater()
        qtbot.waitUntil(lambda: not shiboken6.isValid(view), timeout=5_000)
        manager.set_choice(theme.Choice.LIGHT)  # no slot of the deleted view is called
    finally:
        manager.set_choice(theme.Choice.LIGHT)
