"""The Runs tab compares step anatomies: the table says each run's step time and what bound it, the compare
view stacks each selected run's anatomy, all read from events.jsonl files the engine's own writer wrote."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.core import events as ev
from engine.core.runs.history import RunHistory
from gui.runs.panel import RunsPanel
from gui.runs.table_model import COLUMNS
from tests.gui.runs.panel_helpers import refresh, select
from tests.run_fixtures import write_run


def done(t: float) -> ev.RunFinished:
    return ev.RunFinished(status="completed", epochs_completed=2, run_dir="", time=t)


@pytest.fixture
def runs(tmp_path: Path) -> dict[str, Path]:
    root = tmp_path / "runs"
    return {
        "input": write_run(root, "20240101-100000-slow-input", done(1010.0), 2, 1000.0, anatomy=(12.0, 6.0, 0.0, 2.0)),
        "sync": write_run(root, "20240101-110000-four-replicas", done(2010.0), 2, 2000.0, anatomy=(1.0, 3.0, 5.0, 1.0)),
        "none": write_run(root, "20240101-120000-older", done(3010.0), 2, 3000.0),
    }


def cell(panel: RunsPanel, path: Path, column: str, role=None) -> str:
    row = next(i for i, r in enumerate(panel.model.runs) if r.path == path)
    index = panel.model.index(row, COLUMNS.index(column))
    return panel.model.data(index) if role is None else panel.model.data(index, role)


def test_the_summary_holds_the_runs_mean_anatomy(runs):
    summary = RunHistory(runs["input"].parent).summary(runs["input"])
    assert summary.anatomy is not None and summary.anatomy.steps == 4
    assert (summary.anatomy.input_ms, summary.anatomy.step_ms) == (12.0, 20.0)
    assert RunHistory(runs["none"].parent).summary(runs["none"]).anatomy is None


def test_the_table_says_each_runs_step_time_and_what_bound_it(qtbot, runs):
    panel = RunsPanel(runs["input"].parent)
    qtbot.addWidget(panel)
    refresh(qtbot, panel)
    assert cell(panel, runs["input"], "Step time") == "20.0 ms"
    assert cell(panel, runs["input"], "Bound by") == "waiting for input (60 %)"
    assert cell(panel, runs["sync"], "Bound by") == "synchronising (50 %)"
    assert cell(panel, runs["none"], "Step time") == cell(panel, runs["none"], "Bound by") == ""
    tooltip = cell(panel, runs["input"], "Bound by", role=3)  # Qt.ToolTipRole
    assert tooltip.startswith("input-bound: 60 % of each step waits for data")


def test_the_compare_view_stacks_each_selected_runs_anatomy(qtbot, runs):
    panel = RunsPanel(runs["input"].parent)
    qtbot.addWidget(panel)
    panel.show()
    refresh(qtbot, panel)
    select(qtbot, panel, [runs["input"], runs["sync"]])
    bars = panel.compare.anatomy_plot
    assert bars.isVisible() and panel.compare.plots["examples_per_sec"].isVisible()
    grid = panel.compare.grid
    assert grid.getItemPosition(grid.indexOf(bars)) == (1, 1, 1, 1)  # beside throughput
    assert bars.labels == ["four-replicas", "slow-input"]  # the table's order: newest first
    assert bars.bar_tops() == {
        "input": [1.0, 12.0],
        "compute": [4.0, 18.0],
        "sync": [9.0, 18.0],
        "rest": [10.0, 20.0],
    }
    select(qtbot, panel, [runs["none"]])
    assert not bars.isVisible()  # no run of the selection has an anatomy
