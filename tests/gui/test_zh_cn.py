"""In Simplified Chinese, no English word is left in the window, its tabs or its dialogs.

The walk (tests/gui/english_words.py) reads every visible text: labels,
buttons, titles, tooltips, placeholders, table headers and cells, menus,
plot titles, axes and legends, accessible names. Names that every language
keeps (MirroredStrategy, TF_CONFIG, file names, units) are allowed.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtWidgets import QApplication, QMessageBox

from gui import i18n
from tests.gui.english_words import english_texts


@pytest.fixture
def chinese(qapp):
    i18n.install(qapp, "zh_CN")
    yield
    i18n.install(qapp, "en")


def shown_texts(widget, qtbot) -> list[str]:
    widget.show()
    qtbot.waitExposed(widget)
    QApplication.processEvents()
    return english_texts(widget)


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
