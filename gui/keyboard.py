"""The window without a mouse: Start and Stop actions with shortcuts, tab switching, focus order by layout.

Start (Ctrl+Return) and Stop (Esc, after asking) are Run menu actions that mirror their buttons' enabled
state, so they work from every tab and do what the button would. Ctrl+1 … Ctrl+N show the N-th tab, and Tab
moves through a panel's fields in the order the layout shows them, not the order the code made them.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QAbstractButton, QLayout, QTabWidget, QWidget

START_KEYS = (QKeySequence("Ctrl+Return"), QKeySequence("Ctrl+Enter"))
STOP_KEYS = (QKeySequence(Qt.Key.Key_Escape),)


class _EnabledMirror(QObject):
    """Keeps an action enabled exactly when its button is."""

    def __init__(self, button: QAbstractButton, action: QAction) -> None:
        super().__init__(button)
        self.action = action
        action.setEnabled(button.isEnabled())
        button.installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt's name
        if event.type() == QEvent.Type.EnabledChange:
            self.action.setEnabled(watched.isEnabled())
        return False


def button_action(
    button: QAbstractButton, text: str, keys: tuple[QKeySequence, ...], slot: Callable[[], None], parent: QWidget
) -> QAction:
    """A window-wide action that does what `button` does, under `keys`, enabled when the button is."""
    action = QAction(text, parent)
    action.setShortcuts(list(keys))
    action.setShortcutContext(Qt.ShortcutContext.WindowShortcut)
    action.triggered.connect(slot)
    _EnabledMirror(button, action)
    parent.addAction(action)  # a shortcut works while its action is in the window, menu or not
    shortcut = keys[0].toString(QKeySequence.SequenceFormat.NativeText)
    if shortcut not in button.toolTip():
        button.setToolTip(f"{button.toolTip()} ({shortcut})" if button.toolTip() else shortcut)
    return action


def tab_actions(tabs: QTabWidget, parent: QWidget) -> list[QAction]:
    """Ctrl+1 … Ctrl+N: show the N-th tab (N up to 9)."""
    actions = []
    for index in range(min(tabs.count(), 9)):
        action = QAction(parent)
        action.setShortcut(QKeySequence(f"Ctrl+{index + 1}"))
        action.setShortcutContext(Qt.ShortcutContext.WindowShortcut)
        action.triggered.connect(lambda _=False, i=index: _show_tab(tabs, i))
        parent.addAction(action)
        actions.append(action)
    return actions


def _show_tab(tabs: QTabWidget, index: int) -> None:
    tabs.setCurrentIndex(index)
    page = tabs.widget(index)
    if page is not None and not page.isAncestorOf(tabs.focusWidget()):
        tabs.tabBar().setFocus(Qt.FocusReason.ShortcutFocusReason)


def plain_label(text: str) -> str:
    """A label's text as spoken: without its mnemonic marker ("&Epochs", "轮次(&E)") or a closing colon."""
    return re.sub(r"\(&\w\)|&(?=\w)", "", text).strip().rstrip(":：")


def focusable_in_layout_order(root: QWidget) -> list[QWidget]:
    """The widgets of `root` that take Tab focus, in the order its layouts place them."""
    found: list[QWidget] = []

    def visit_widget(w: QWidget) -> None:
        proxy = w.focusProxy()
        target = proxy if proxy is not None else w
        if target.focusPolicy() & Qt.FocusPolicy.TabFocus and target not in found:
            found.append(target)
            return
        if w.layout() is not None:
            visit_layout(w.layout())

    def visit_layout(layout: QLayout) -> None:
        for i in range(layout.count()):
            item = layout.itemAt(i)
            if item.widget() is not None:
                visit_widget(item.widget())
            elif item.layout() is not None:
                visit_layout(item.layout())

    if root.layout() is not None:
        visit_layout(root.layout())
    return found


def order_tabs_by_layout(root: QWidget) -> list[QWidget]:
    """Make Tab follow the layout of `root` (QFormLayout: label, field, row by row); returns the order."""
    chain = focusable_in_layout_order(root)
    for first, second in zip(chain, chain[1:], strict=False):
        QWidget.setTabOrder(first, second)
    return chain
