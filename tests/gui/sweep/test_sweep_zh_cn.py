"""In Simplified Chinese, the Sweep dialog and the sweep view leave no English word (tests/gui/english_words.py)."""

from __future__ import annotations

import sys
from pathlib import Path

from engine.core.config import DataConfig, RunConfig
from engine.core.sweep.space import parse_space
from gui.sweep.view import SweepView
from tests.gui.english_words import shown_texts

FAKE_SWEEP = Path(__file__).parents[1] / "fake_sweep.py"
# the config's own field names and objectives (the space's JSON keys and values, the same in every language) and
# the library's name
NAMES = {"optimizer", "epochs", "optuna", "loss", "accuracy"}
BASE = RunConfig(strategy="default", epochs=2, validation_split=0.25, data=DataConfig(num_samples=256))


def test_the_sweep_dialog_and_its_problems_are_in_chinese(chinese, make_window, qtbot) -> None:
    window = make_window()
    window.form.set_config(BASE)
    dialog = window.open_sweep()
    assert shown_texts(dialog, qtbot, NAMES) == []
    dialog.editor.rows["learning_rate"].values.setText("0.1, 0.0001")
    assert "空范围" in dialog.problems.text() and shown_texts(dialog, qtbot, NAMES) == []


def test_the_sweep_view_is_in_chinese(chinese, qtbot, tmp_path) -> None:
    space = parse_space({"parameters": {"learning_rate": {"log_uniform": [0.001, 10.0]}}, "trials": 2}, BASE)
    view = SweepView(tmp_path, BASE, space)
    qtbot.addWidget(view)
    view.start([sys.executable, str(FAKE_SWEEP), "resume", str(tmp_path)])
    qtbot.waitUntil(lambda: not view.running, timeout=30_000)
    view.select_trial(2)
    assert "已完成" in view.table.item(0, 1).text()
    pruned = next(view.table.item(r, 1).text() for r in range(3) if view.table.item(r, 0).text() == "1")
    assert "剪枝" in pruned and "中位数" in pruned, pruned  # pruned, and why: worse than the median
    assert shown_texts(view, qtbot, NAMES) == []
