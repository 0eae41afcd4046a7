"""In Simplified Chinese, no English word is left in the window, its tabs or its dialogs.

The walk (tests/gui/english_words.py) reads every visible text: labels,
buttons, titles, tooltips, placeholders, table headers and cells, menus,
plot titles, axes and legends, accessible names. Names that every language
keeps (MirroredStrategy, TF_CONFIG, file names, units) are allowed.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import QMessageBox

from tests.gui.english_words import english_texts, shown_texts


def test_every_tab_of_the_main_window_is_in_chinese(chinese, make_window, qtbot) -> None:
    window = make_window()
    found = []
    for index in range(window.tabs.count()):
        window.tabs.setCurrentIndex(index)
        found += shown_texts(window, qtbot)
    assert sorted(set(found)) == [], "\n".join(sorted(set(found)))


def test_the_scaling_dialog_is_in_chinese(chinese, make_window, qtbot) -> None:
    window = make_window()
    window.open_scaling_study()
    assert shown_texts(window.scaling_dialog, qtbot) == []


def test_the_cluster_export_dialog_is_in_chinese(chinese, make_window, qtbot) -> None:
    window = make_window()
    dialog = window.export_cluster()
    assert shown_texts(dialog, qtbot) == []


def test_a_config_file_with_problems_is_explained_in_chinese(chinese, make_window, qtbot, tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{"epochs": 0, "global_batch_size": 7, "strategy": "nope"}', encoding="utf-8")
    window = make_window()
    window.show()
    assert not window.open_config(bad)
    box = window.last_dialog
    assert isinstance(box, QMessageBox)
    texts = english_texts(box, allowed={"nope"})
    assert texts == []
    assert "必须" in box.detailedText()  # the engine's problems, translated from their templates


def test_the_about_box_is_in_chinese(chinese, make_window, qtbot) -> None:
    box = make_window().show_about()
    assert english_texts(box) == [] and "Ctrl+Return" in box.text()
    box.close()


def test_a_failed_run_is_explained_in_chinese(chinese, make_window, qtbot) -> None:
    window = make_window("crash")
    window.show()
    window.start_run()
    qtbot.waitUntil(lambda: window.runner is None, timeout=30_000)
    box = window.last_dialog
    assert isinstance(box, QMessageBox) and box.isVisible()
    assert english_texts(box) == [], box.text()
    box.close()


def test_the_log_of_a_run_is_in_chinese(chinese, make_window, qtbot) -> None:
    """Epoch and checkpoint lines, and TensorFlow's folded start-up chatter, in the window's language."""
    window = make_window("normal", "--epochs", "2", "--steps", "5", "--delay", "0")
    window.start_run()
    qtbot.waitUntil(lambda: window.runner is None, timeout=30_000)
    shown = window.log.shown_text()
    assert "轮次 1/2：损失" in shown and "样本/秒" in shown
    assert "运行已完成，共 2 个轮次" in shown and "[dashboard] 开始运行，目录 " in shown
    assert "TensorFlow：没有 CUDA 驱动：在 CPU 上训练" in shown
    assert "No CUDA driver" not in shown and "examples/s" not in shown
    window.log.append_lines(["off"])  # a process's own words stay as written, even where a template matches
    assert window.log.shown_text().endswith("\noff")


def test_an_engine_log_event_is_in_chinese_after_crossing_the_pipe(chinese) -> None:
    """The trainer's own lines (strategy, data, model) carry their templates across the process boundary."""
    from engine.core import events as ev
    from engine.core.messages import msg
    from gui.runner import log_line

    said = msg(
        "data: {source}; shard policy: {policy}",
        source=msg(
            "{kind}: {train} training and {validation} validation examples", kind="csv", train="9", validation="1"
        ),
        policy="data",
    )
    received = ev.decode(ev.encode(ev.Log(level="info", message=said)))
    assert log_line(received) == "INFO: 数据：csv：9 个训练样本和 1 个验证样本；分片策略：data"
    failed = ev.decode(ev.encode(ev.RunFailed(message=msg("must be at most {high:,}", high=5000), epochs_completed=1)))
    assert log_line(failed) == "运行在 1 个轮次后失败：最多为 5,000"
