"""The main window's menu bar: File, Run, View, Language and Help, each action wired to what it does.

Its words are the window's, in the MainWindow translation context.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from PySide6.QtCore import QCoreApplication
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QMenu

from gui import config_files, settings
from gui.keyboard import START_KEYS, STOP_KEYS, button_action, tab_actions
from gui.preferences import add_frame_rate_menu, add_language_menu, add_view_menu

if TYPE_CHECKING:
    from gui.main_window import MainWindow


@dataclass(frozen=True)
class Menus:
    """The actions and menus the window changes or tests look at after they are built."""

    start_action: QAction
    stop_action: QAction
    stacks_action: QAction  # enabled while a run of one trainer is active
    warm_action: QAction | None  # Keep a trainer warm, when the window keeps one
    view_menu: QMenu
    frame_rate_menu: QMenu
    tab_actions: list[QAction]
    language_menu: QMenu


def build_menus(window: MainWindow) -> Menus:
    """Every menu of `window`'s menu bar, in the order they are shown."""
    bar = window.menuBar()
    file_menu = bar.addMenu(QCoreApplication.translate("MainWindow", "&File"))
    for text, shortcut, slot in (
        (
            QCoreApplication.translate("MainWindow", "&Open config…"),
            QKeySequence.StandardKey.Open,
            lambda: config_files.open_config_dialog(window),
        ),
        (
            QCoreApplication.translate("MainWindow", "&Save config as…"),
            QKeySequence.StandardKey.Save,
            lambda: config_files.save_config_dialog(window),
        ),
        (QCoreApplication.translate("MainWindow", "&Quit"), QKeySequence.StandardKey.Quit, window.close),
    ):
        action = QAction(text, window, shortcut=shortcut)
        action.triggered.connect(slot)
        file_menu.addAction(action)
    run, controls = window.run, window.controls
    run_menu = bar.addMenu(QCoreApplication.translate("MainWindow", "&Run"))
    start = button_action(
        controls.start, QCoreApplication.translate("MainWindow", "&Start"), START_KEYS, run.start, window
    )
    stop = button_action(
        controls.stop, QCoreApplication.translate("MainWindow", "S&top…"), STOP_KEYS, run.ask_stop, window
    )
    run_menu.addActions([start, stop])
    stacks = QAction(
        QCoreApplication.translate("MainWindow", "Show the trainer's &Python stacks…"), window, enabled=False
    )
    stacks.triggered.connect(run.show_stacks)
    run_menu.addAction(stacks)
    run_menu.addSeparator()
    for text, slot in (
        (QCoreApplication.translate("MainWindow", "&Scaling study…"), window.open_scaling_study),
        (QCoreApplication.translate("MainWindow", "S&weep…"), window.open_sweep),
        (QCoreApplication.translate("MainWindow", "&Export form as script…"), window.export_form_script),
        (QCoreApplication.translate("MainWindow", "Export &cluster for other machines…"), window.export_cluster),
    ):
        action = QAction(text, window)
        action.triggered.connect(slot)
        run_menu.addAction(action)
    run_menu.addSeparator()
    warm = None
    if run.spare is not None:
        warm = run.spare.toggle_action(window)
        warm.toggled.connect(settings.save_warm_trainer)
        run_menu.addAction(warm)
    run_menu.addAction(window.runs.refresh_action)
    view_menu = add_view_menu(bar)
    view_menu.addSeparator()
    frame_rate_menu = add_frame_rate_menu(view_menu, window.plots)
    tabs = tab_actions(window.tabs, window)
    language_menu = add_language_menu(bar, window, lambda: not run.session.active)
    help_menu = bar.addMenu(QCoreApplication.translate("MainWindow", "&Help"))
    about = QAction(QCoreApplication.translate("MainWindow", "&About"), window)
    about.triggered.connect(window.show_about)
    help_menu.addAction(about)
    return Menus(start, stop, stacks, warm, view_menu, frame_rate_menu, tabs, language_menu)
