"""The main window's menu bar: File, Run, View, Language and Help, each action wired to what it does.

Its words are the window's, in the MainWindow translation context.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from PySide6.QtCore import QCoreApplication
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QMenu

from gui import config_files, settings
from gui.keyboard import START_KEYS, STOP_KEYS, button_action, tab_actions
from gui.preferences import add_frame_rate_menu, add_language_menu, add_view_menu
from gui.window_host import WindowHost


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


def build_menus(window: WindowHost) -> Menus:
    """Every menu of `window`'s menu bar, in the order they are shown."""
    bar = window.menuBar()
    file_menu = bar.addMenu(QCoreApplication.translate("MainWindow", "&File"))
    _add_actions(
        window,
        file_menu,
        (QCoreApplication.translate("MainWindow", "&Open config…"), lambda: config_files.open_config_dialog(window)),
        (QCoreApplication.translate("MainWindow", "&Save config as…"), lambda: config_files.save_config_dialog(window)),
        (QCoreApplication.translate("MainWindow", "&Quit"), window.close),
        shortcuts=(QKeySequence.StandardKey.Open, QKeySequence.StandardKey.Save, QKeySequence.StandardKey.Quit),
    )
    start, stop, stacks, warm = _add_run_menu(window, bar.addMenu(QCoreApplication.translate("MainWindow", "&Run")))
    view_menu = add_view_menu(bar)
    view_menu.addSeparator()
    frame_rate_menu = add_frame_rate_menu(view_menu, window.plots)
    tabs = tab_actions(window.tabs, window)
    language_menu = add_language_menu(bar, window, lambda: not window.session.active)
    help_menu = bar.addMenu(QCoreApplication.translate("MainWindow", "&Help"))
    _add_actions(window, help_menu, (QCoreApplication.translate("MainWindow", "&About"), window.show_about))
    return Menus(start, stop, stacks, warm, view_menu, frame_rate_menu, tabs, language_menu)


def _add_run_menu(window: WindowHost, run_menu: QMenu) -> tuple[QAction, QAction, QAction, QAction | None]:
    """Start, Stop and the trainer's stacks; the tools that take the form's config; the warm trainer's switch."""
    run, controls = window.run, window.controls
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
    _add_actions(
        window,
        run_menu,
        (QCoreApplication.translate("MainWindow", "&Scaling study…"), window.open_scaling_study),
        (QCoreApplication.translate("MainWindow", "S&weep…"), window.open_sweep),
        (QCoreApplication.translate("MainWindow", "&Export form as script…"), window.export_form_script),
        (QCoreApplication.translate("MainWindow", "Export &cluster for other machines…"), window.export_cluster),
    )
    run_menu.addSeparator()
    warm = None
    if window.warm_trainer is not None:
        warm = window.warm_trainer.toggle_action(window)
        warm.toggled.connect(settings.save_warm_trainer)
        run_menu.addAction(warm)
    run_menu.addAction(window.runs.refresh_action)
    return start, stop, stacks, warm


def _add_actions(
    window: WindowHost,
    menu: QMenu,
    *entries: tuple[str, Callable[[], object]],
    shortcuts: tuple[QKeySequence.StandardKey, ...] = (),
) -> None:
    """One action per (text, slot) entry, with the matching shortcut when `shortcuts` gives one."""
    for index, (text, slot) in enumerate(entries):
        action = QAction(text, window)
        if index < len(shortcuts):
            action.setShortcut(shortcuts[index])
        action.triggered.connect(slot)
        menu.addAction(action)
