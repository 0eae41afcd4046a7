"""The log view: filter, tail for failure dialogs, copy."""

from __future__ import annotations

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
