"""The log view: filter, tail for failure dialogs, copy."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtGui import QGuiApplication

from gui.live.log_view import LogView


def make(qtbot) -> LogView:
    view = LogView()
    qtbot.addWidget(view)
    view.append_lines(["epoch 1 done", "WARNING: slow step", "epoch 2 done"])
    return view


def test_filter_shows_matching_lines_and_clearing_restores_all(qtbot):
    view = make(qtbot)
    view.filter.setText("EPOCH")
    assert view.shown_text() == "epoch 1 done\nepoch 2 done"
    assert view.count.text() == "2 of 3 lines"
    view.append_lines(["epoch 3 done", "error: boom"])
    assert view.shown_text().splitlines()[-1] == "epoch 3 done"
    view.filter.clear()
    assert len(view.shown_text().splitlines()) == 5


def test_tail_ignores_the_filter(qtbot):
    view = make(qtbot)
    view.filter.setText("warning")
    assert view.tail(2) == "WARNING: slow step\nepoch 2 done"


def test_copy_puts_the_shown_lines_on_the_clipboard(qtbot):
    view = make(qtbot)
    view.filter.setText("epoch")
    view.copy_to_clipboard()
    assert QGuiApplication.clipboard().text() == "epoch 1 done\nepoch 2 done"


CHATTER = (Path(__file__).parents[2] / "engine" / "tf_stderr" / "mirrored_stderr_0.txt").read_text().splitlines()


def test_tensorflow_chatter_is_folded_into_plain_lines_that_expand_to_the_raw_ones(qtbot):
    view = LogView()
    qtbot.addWidget(view)
    view.append_lines(["[dashboard] starting run", *CHATTER[:6]])
    view.append_lines(["epoch 1/2: loss 0.5", *CHATTER[6:]])
    shown = view.shown_text().splitlines()
    assert shown[0] == "[dashboard] starting run"
    assert "TensorFlow: No CUDA driver: training on the CPU (an error only if you expected a GPU)" in shown
    assert not any("cuInit" in line or "absl" in line for line in shown), "no raw chatter at the top level"
    model = view.model
    row = shown.index(next(line for line in shown if "No CUDA driver" in line))
    index = model.index(row, 0)
    assert model.rowCount(index) == 3, "the cuInit line that came later joined its topic"
    assert "failed call to cuInit" in model.data(model.index(2, 0, index))
    assert "[3 raw lines]" in model.data(index)
    view.tree.expand(index)
    view.copy_to_clipboard()
    assert "    E0000" in QGuiApplication.clipboard().text(), "an expanded entry copies its raw lines"
    assert len(view.tail(100).splitlines()) == 2 + len(CHATTER), "the tail is the raw stream"


def test_filter_finds_a_folded_entry_by_its_raw_lines(qtbot):
    view = LogView()
    qtbot.addWidget(view)
    view.append_lines([*CHATTER, "epoch 1 done"])
    view.filter.setText("cuinit")
    assert view.shown_text() == "TensorFlow: No CUDA driver: training on the CPU (an error only if you expected a GPU)"


def test_each_run_folds_on_its_own_and_the_raw_log_button_follows_the_run(qtbot, tmp_path):
    view = LogView()
    qtbot.addWidget(view)
    assert not view.raw_button.isEnabled()
    view.begin_run(tmp_path / "stderr.log")
    view.append_lines(CHATTER)
    view.begin_run(tmp_path / "second" / "stderr.log")
    view.append_lines(CHATTER)
    assert sum("No CUDA driver" in line for line in view.shown_text().splitlines()) == 2
    assert view.raw_button.isEnabled() and view.raw_log == tmp_path / "second" / "stderr.log"


def test_the_windows_own_lines_are_tagged_by_one_owner():
    """The window's own log lines carry a source tag like a worker's ("[dashboard] ..."), spelled in one place so
    a filter or a test that looks for them finds every one."""
    from gui.runner import dashboard_line, source_tag

    assert dashboard_line("starting run") == f"{source_tag('dashboard')} starting run" == "[dashboard] starting run"
    gui = Path(__file__).resolve().parents[3] / "gui"
    spelled = [p.name for p in gui.rglob("*.py") if "[dashboard]" in p.read_text(encoding="utf-8")]
    assert spelled == [], spelled
