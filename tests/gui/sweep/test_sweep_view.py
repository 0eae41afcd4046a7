"""The sweep view's charts: the curves' legend beside the data, not over it, and the parameters' importance
as bars with the estimator named."""

from __future__ import annotations

import sys
from pathlib import Path

import pyqtgraph as pg
import pytest

from engine.core.config import DataConfig, RunConfig
from engine.core.protocol.paths import RunPaths
from engine.core.runs.runlock import RunLock
from engine.core.sweep.space import parse_space
from gui.sweep.setup_dialog import SweepDialog
from gui.sweep.view import SweepView
from tests.sweep_fixtures import make_study

FAKE_SWEEP = Path(__file__).parents[1] / "fake_sweep.py"
BASE = RunConfig(strategy="default", epochs=2, validation_split=0.25, data=DataConfig(num_samples=256))


@pytest.fixture
def finished_view(qtbot, tmp_path) -> SweepView:
    """A view whose (fake) sweep has finished: trial 2 completed best, trial 1 pruned."""
    space = parse_space({"parameters": {"learning_rate": {"log_uniform": [0.001, 10.0]}}, "trials": 2}, BASE)
    view = SweepView(tmp_path, BASE, space)
    qtbot.addWidget(view)
    view.start([sys.executable, str(FAKE_SWEEP), "resume", str(tmp_path)])
    qtbot.waitUntil(lambda: not view.running, timeout=30_000)
    return view


def test_the_importance_is_drawn_as_bars_and_names_its_method(finished_view):
    bars = [i for i in finished_view.importance.getPlotItem().items if isinstance(i, pg.BarGraphItem)]
    assert len(bars) == 1
    assert list(bars[0].opts["width"]) == [1.0]  # learning_rate's share
    assert "PED-ANOVA" in finished_view.importance.title


def test_a_pruned_trial_says_pruned_and_why_not_stopped(finished_view):
    row = next(r for r in range(finished_view.table.rowCount()) if finished_view.table.item(r, 0).text() == "1")
    state = finished_view.table.item(row, 1)
    assert state.text() == (
        "pruned at epoch 1: its best val_loss so far, 9, is worse than the median 0.8 of the 1 completed trials at "
        "epoch 1"
    )
    assert "stopped" not in state.text() and state.toolTip().startswith("its best val_loss so far")


def test_the_curves_legend_is_outside_the_data_area(finished_view, tmp_path):
    finished_view.select_trial(2)
    item = finished_view.curves.getPlotItem()
    assert item.legend is None  # no legend box laid over the curves
    assert "trial 2" in item.titleLabel.text  # the legend is in the title, above the data


def test_closing_the_view_leaves_the_sweep_running_and_opening_its_folder_shows_that_view(qtbot, tmp_path):
    space = parse_space({"parameters": {"learning_rate": {"log_uniform": [0.001, 10.0]}}, "trials": 2}, BASE)
    dialog = SweepDialog(tmp_path / "runs")
    qtbot.addWidget(dialog)
    view = dialog._view(tmp_path, BASE, space)
    view.start([sys.executable, str(FAKE_SWEEP), "start", str(tmp_path)])
    qtbot.waitUntil(lambda: view.summary is not None, timeout=30_000)
    view.close()
    qtbot.wait(300)
    assert view.running and not view.isVisible()  # the sweep goes on without its view
    assert dialog.open_sweep(tmp_path) is view and view.isVisible()
    view.stop()
    qtbot.waitUntil(lambda: not view.running, timeout=30_000)


def test_a_sweep_folder_opened_again_shows_where_it_stands_and_follows_a_sweep_run_elsewhere(qtbot, tmp_path):
    raw = {"parameters": {"learning_rate": {"log_uniform": [0.001, 10.0]}}, "trials": 4, "method": "random"}
    sweep_dir = tmp_path / "sweep"
    make_study(sweep_dir, BASE, raw)
    dialog = SweepDialog(tmp_path)
    qtbot.addWidget(dialog)
    view = dialog.open_sweep(sweep_dir)  # stopped: nobody trains it
    qtbot.waitUntil(lambda: view.ended != "" and not view.running, timeout=60_000)
    states = {n: r.state for n, r in view.trials.rows.items()}
    assert states == {0: "completed", 1: "pruned", 2: "interrupted"}, view.problems.text()
    assert view.summary.best_number == 0 and view.ended == "stopped" and view.continue_button.isEnabled()
    assert view.progress.text() == "sweep stopped: 2 of 4 trials finished"
    view.close()
    with RunLock.acquire(RunPaths(sweep_dir), command="tfdd sweep"):  # a sweep process trains it now
        assert dialog.open_sweep(sweep_dir) is view
        qtbot.waitUntil(lambda: view.elsewhere and not view.running, timeout=60_000)
        assert view.trials.rows[2].state == "running" and view.trials.rows[2].epoch == 1
        assert view.progress.text().startswith("trained by another sweep process: 2 of 4 trials finished")
        assert not view.continue_button.isEnabled() and not view.stop_button.isEnabled()
        assert view.follow_timer.isActive()  # read again in a few seconds
        view.attach()  # while it reads again, it still says who trains the sweep
        assert view.running and view.progress.text().startswith("trained by another sweep process")
        qtbot.waitUntil(lambda: not view.running, timeout=60_000)
    view.close()
    view.follow_timer.stop()


def test_the_sweep_row_of_the_runs_tab_opens_the_sweeps_view_in_the_window(make_window, qtbot, tmp_path):
    window = make_window()
    sweep_dir = tmp_path / "sweep"
    make_study(sweep_dir, BASE, {"parameters": {"learning_rate": {"log_uniform": [0.001, 10.0]}}, "trials": 4})
    window.runs.sweep_requested.emit(sweep_dir)
    view = window.sweep_dialog.views[0]
    assert view.sweep_dir == sweep_dir and view.isVisible()
    qtbot.waitUntil(lambda: view.ended != "" and not view.running, timeout=60_000)
    assert view.ended == "stopped" and len(view.trials.rows) == 3
