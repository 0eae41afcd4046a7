"""The Language and View menus: choices stored, a language offered after a restart, a scheme and a frame rate
applied at once."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QProcess
from PySide6.QtWidgets import QMainWindow, QMessageBox

from gui import i18n, preferences, settings, theme
from gui.live.live_plot import FRAME_RATES
from gui.live.plots import TrainingPlots


@pytest.fixture
def window(qtbot, monkeypatch: pytest.MonkeyPatch) -> QMainWindow:
    monkeypatch.delenv(i18n.ENV, raising=False)
    monkeypatch.delenv(theme.ENV, raising=False)
    w = QMainWindow()
    qtbot.addWidget(w)
    return w


def test_the_language_menu_lists_each_language_in_its_own_words(window: QMainWindow) -> None:
    i18n.store_choice("zh_CN")
    menu = preferences.add_language_menu(window.menuBar(), window, lambda: True)
    names = [a.text() for a in menu.actions()]
    assert names[1:] == ["English", "简体中文"]
    assert [a.data() for a in menu.actions() if a.isChecked()] == ["zh_CN"]


def test_choosing_another_language_stores_it_and_offers_a_restart(window, monkeypatch) -> None:
    started: list[tuple[str, list[str]]] = []
    monkeypatch.setattr(QProcess, "startDetached", staticmethod(lambda p, a: started.append((p, a)) or (True, 1)))
    monkeypatch.setattr(i18n, "_language", "en")
    window.show()
    box = preferences.choose_language(window, "zh_CN", can_restart=lambda: True)
    assert settings.load_language() == "zh_CN"
    assert box is not None and box.isVisible()
    assert box.standardButtons() == QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No
    box.button(QMessageBox.StandardButton.Yes).click()
    assert not window.isVisible()  # closed the usual way (form and layout saved)
    command = preferences.restart_command()
    assert started == [(command[0], command[1:])]


def test_the_restart_runs_the_dashboard_the_way_it_was_started(monkeypatch, tmp_path) -> None:
    main = tmp_path / "main.py"
    main.write_text("", encoding="utf-8")
    monkeypatch.setattr("sys.argv", [str(main)])
    assert preferences.restart_command()[1:] == [str(main)]
    monkeypatch.setattr("sys.argv", ["/usr/bin/tfdd-gui"])  # an installed entry point
    assert preferences.restart_command()[1:] == ["-m", "gui.app"]


def test_during_a_run_the_language_waits_for_the_next_start(window, monkeypatch) -> None:
    monkeypatch.setattr(i18n, "_language", "en")
    box = preferences.choose_language(window, "zh_CN", can_restart=lambda: False)
    assert box.standardButtons() == QMessageBox.StandardButton.Ok
    assert "next time" in box.text()
    box.close()


def test_the_same_language_asks_nothing_and_tfdd_lang_is_named_when_it_decides(window, monkeypatch) -> None:
    monkeypatch.setattr(i18n, "_language", "en")
    assert preferences.choose_language(window, "en", can_restart=lambda: True) is None
    monkeypatch.setenv(i18n.ENV, "zh_CN")
    box = preferences.choose_language(window, "zh_CN", can_restart=lambda: True)
    assert "TFDD_LANG" in box.text() and box.standardButtons() == QMessageBox.StandardButton.Ok
    box.close()


def test_the_view_menu_applies_a_scheme_at_once_and_remembers_it(window, qapp, monkeypatch) -> None:
    manager = theme.ThemeManager(qapp)
    monkeypatch.setattr(theme, "_manager", manager)
    menu = preferences.add_view_menu(window.menuBar())
    actions = {a.data(): a for a in menu.actions()}
    assert set(actions) == {"system", "light", "dark"}
    actions["dark"].trigger()
    assert theme.current() is theme.DARK and settings.load_color_scheme() == "dark"
    actions["light"].trigger()
    assert theme.current() is theme.LIGHT


def test_the_live_plots_frame_rate_applies_at_once_and_is_remembered(window, qtbot) -> None:
    plots = TrainingPlots()
    qtbot.addWidget(plots)
    menu = preferences.add_frame_rate_menu(window.menuBar().addMenu("View"), plots)
    actions = {a.data(): a for a in menu.actions()}
    assert tuple(actions) == FRAME_RATES
    assert [a.text() for a in menu.actions()] == ["Redraw every 0.1 s", "Redraw every 0.2 s", "Redraw every 1 s"]
    assert actions[FRAME_RATES[0]].isChecked(), "ten a second until a user chooses"
    actions[1].trigger()
    assert plots.frames_per_second == 1 and settings.load_live_frame_rate() == 1
    again = TrainingPlots()  # the next start
    qtbot.addWidget(again)
    menu = preferences.add_frame_rate_menu(window.menuBar().addMenu("View"), again)
    assert again.frames_per_second == 1 and [a.data() for a in menu.actions() if a.isChecked()] == [1]


@pytest.mark.parametrize("stored", ["fast", 7, ""])
def test_a_stored_frame_rate_not_offered_leaves_the_default(window, qtbot, stored) -> None:
    settings._settings().setValue(settings.LIVE_FRAME_RATE_KEY, stored)
    plots = TrainingPlots()
    qtbot.addWidget(plots)
    menu = preferences.add_frame_rate_menu(window.menuBar().addMenu("View"), plots)
    assert plots.frames_per_second == FRAME_RATES[0]
    assert [a.data() for a in menu.actions() if a.isChecked()] == [FRAME_RATES[0]]
