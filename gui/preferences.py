"""The Language and View menus: which language the window speaks, which colour scheme it wears, and how
often the live plots redraw.

A colour scheme applies at once (gui/theme.py restyles everything live), and so
does a frame rate. A language applies after a restart, which the window offers
(gui/i18n.py says why); the choice is stored either way, so the next start uses it.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QCoreApplication, QProcess
from PySide6.QtGui import QAction, QActionGroup
from PySide6.QtWidgets import QMenu, QMenuBar, QMessageBox, QWidget

from gui import i18n, settings, theme
from gui.live.live_plot import FRAME_RATES
from gui.live.plots import TrainingPlots


def restart_command() -> list[str]:
    """How this dashboard was started: `python main.py` again from a checkout, else `python -m gui.app`."""
    script = sys.argv[0] if sys.argv else ""
    if script.endswith(".py") and os.path.isfile(script):
        return [sys.executable, os.path.abspath(script), *sys.argv[1:]]
    return [sys.executable, "-m", "gui.app"]


def add_language_menu(menu_bar: QMenuBar, window: QWidget, can_restart: Callable[[], bool]) -> QMenu:
    """Language ▸ System default, English, 简体中文 (each named in its own language)."""
    menu = menu_bar.addMenu(QCoreApplication.translate("Preferences", "&Language"))
    entries = [(None, QCoreApplication.translate("Preferences", "System default"))] + list(i18n.LANGUAGES.items())
    add_choices(
        menu,
        [(name, code) for code, name in entries],
        i18n.stored_choice(),
        lambda code: choose_language(window, code, can_restart),
    )
    return menu


def add_choices(
    menu: QMenu, choices: list[tuple[str, Any]], current: Any, choose: Callable[[Any], object], tip: str = ""
) -> None:
    """One checkable action per (text, value), the one equal to `current` checked; choosing one calls
    `choose(value)`. The value is also the action's data (what tests and callers look actions up by)."""
    group = QActionGroup(menu)
    for text, value in choices:
        action = QAction(text, menu, checkable=True)
        action.setChecked(value == current)
        action.setData(value)
        if tip:
            action.setToolTip(tip)
            action.setStatusTip(tip)
        action.triggered.connect(lambda _=False, v=value: choose(v))
        group.addAction(action)
        menu.addAction(action)


def choose_language(window: QWidget, language: str | None, can_restart: Callable[[], bool]) -> QMessageBox | None:
    """Store the choice and offer a restart when it changes the language in use; returns the offer shown."""
    i18n.store_choice(language)
    wanted = i18n.resolve_language()
    if wanted == i18n.current_language():
        return None
    box = QMessageBox(window)
    box.setIcon(QMessageBox.Icon.Information)
    box.setWindowTitle(QCoreApplication.translate("Preferences", "Language"))
    if os.environ.get(i18n.ENV):
        box.setText(
            QCoreApplication.translate("Preferences", "TFDD_LANG is set in the environment and decides the language.")
        )
        box.setStandardButtons(QMessageBox.StandardButton.Ok)
    elif can_restart():
        box.setText(
            QCoreApplication.translate(
                "Preferences", "The new language applies when the dashboard starts again. Restart now?"
            )
        )
        box.setStandardButtons(QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No)
        box.accepted.connect(lambda: restart(window))
    else:
        box.setText(
            QCoreApplication.translate("Preferences", "The new language applies the next time the dashboard starts.")
        )
        box.setStandardButtons(QMessageBox.StandardButton.Ok)
    box.open()
    return box


def restart(window: QWidget) -> bool:
    """Close the window (saving form and layout as on any close) and start the dashboard again."""
    if not window.close():
        return False
    command = restart_command()
    return QProcess.startDetached(command[0], command[1:])[0]


def add_view_menu(menu_bar: QMenuBar) -> QMenu:
    """View ▸ Colour scheme: follow the system, light, dark. Applies at once."""
    menu = menu_bar.addMenu(QCoreApplication.translate("Preferences", "&View"))
    names = {
        theme.Choice.SYSTEM: QCoreApplication.translate("Preferences", "&System colours"),
        theme.Choice.LIGHT: QCoreApplication.translate("Preferences", "&Light"),
        theme.Choice.DARK: QCoreApplication.translate("Preferences", "&Dark"),
    }
    add_choices(
        menu,
        [(name, choice.value) for choice, name in names.items()],
        theme.manager().choice.value,
        lambda value: theme.manager().set_choice(theme.Choice(value)),
    )
    return menu


def add_frame_rate_menu(view_menu: QMenu, plots: TrainingPlots) -> QMenu:
    """View ▸ Live plots ▸ redraw every 0.1, 0.2 or 1 s (FRAME_RATES): on a small machine that trains on every
    core, fewer frames leave more of the CPU to training. Applies the stored choice to `plots`, and a new one at
    once."""
    stored = settings.load_live_frame_rate()
    if stored in FRAME_RATES:
        plots.set_frames_per_second(stored)
    menu = view_menu.addMenu(QCoreApplication.translate("Preferences", "Live &plots"))
    menu.setToolTipsVisible(True)
    every = QCoreApplication.translate("Preferences", "Redraw every {seconds} s")
    add_choices(
        menu,
        [(every.format(seconds=f"{1 / rate:g}"), rate) for rate in FRAME_RATES],
        plots.frames_per_second,
        lambda rate: choose_frame_rate(plots, rate),
        tip=QCoreApplication.translate(
            "Preferences",
            "How often the Live tab redraws while a run streams. On a small machine that trains on every core, "
            "fewer frames leave more of the CPU to training.",
        ),
    )
    return menu


def choose_frame_rate(plots: TrainingPlots, rate: int) -> None:
    plots.set_frames_per_second(rate)
    settings.save_live_frame_rate(rate)
