"""The window from the keyboard and for screen readers: shortcuts, mnemonics and buddies, focus order,
accessible names, and run status changes announced through the accessibility layer."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QAccessible, QKeySequence
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractItemView,
    QAbstractSpinBox,
    QApplication,
    QComboBox,
    QFormLayout,
    QLabel,
    QLineEdit,
    QMessageBox,
    QSlider,
    QWidget,
)

from gui import keyboard
from gui.form.device_probe import DeviceInfo, ProbeResult
from tests.gui.test_main_window import answer, wait_idle

CPU_ONLY = ProbeResult(tensorflow="2.21.0", devices=(DeviceInfo("CPU:0", "CPU", "Xeon", 24000, 2),))
LONG_RUN = ("normal", "--epochs", "1000", "--steps", "100", "--delay", "0.01")


def press(qtbot, window, sequence: str) -> None:
    """Type a key sequence into the window as a user would (through Qt's shortcut map)."""
    key = QKeySequence(sequence)[0]
    window.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is window, timeout=5000)
    target = QApplication.focusWidget() or window
    qtbot.keyClick(target, key.key(), key.keyboardModifiers())


@pytest.fixture
def shown(make_window, qtbot):
    def make(*mode: str):
        window = make_window(*(mode or ("normal",)))
        window.apply_probe(CPU_ONLY)
        window.show()
        qtbot.waitExposed(window)
        return window

    return make


def test_ctrl_return_starts_a_run_from_any_tab(shown, qtbot) -> None:
    window = shown("normal", "--epochs", "1", "--steps", "3", "--delay", "0")
    window.tabs.setCurrentIndex(1)  # the Runs tab: Start is not even visible
    assert window.menus.start_action.isEnabled()
    press(qtbot, window, "Ctrl+Return")
    assert window.runner is not None
    wait_idle(qtbot, window)


def test_ctrl_return_does_nothing_while_the_form_has_problems(shown, qtbot) -> None:
    window = shown()
    window.form.strategy.setCurrentText("mirrored")
    window.form.virtual.setValue(2)
    window.form.batch_size.setValue(7)  # not divisible by the 2 replicas
    assert not window.controls.start.isEnabled() and not window.menus.start_action.isEnabled()
    press(qtbot, window, "Ctrl+Return")
    assert window.runner is None


def test_esc_asks_before_stopping_and_no_means_no(shown, qtbot, monkeypatch) -> None:
    asked = answer(monkeypatch, QMessageBox.StandardButton.No)
    window = shown(*LONG_RUN)
    assert not window.menus.stop_action.isEnabled()  # nothing to stop yet
    window.start_run()
    assert window.menus.stop_action.isEnabled()
    press(qtbot, window, "Esc")
    assert asked == ["Stop the run?"] and window.runner is not None
    answer(monkeypatch, QMessageBox.StandardButton.Yes)
    press(qtbot, window, "Esc")
    wait_idle(qtbot, window)
    assert "stopped" in window.status_labels["state"].text()


def test_ctrl_number_shows_that_tab(shown, qtbot) -> None:
    window = shown()
    for index in reversed(range(window.tabs.count())):
        press(qtbot, window, f"Ctrl+{index + 1}")
        assert window.tabs.currentIndex() == index


def form_fields(window) -> list[QWidget]:
    """Every control of the run form a user edits (the rows shown now)."""
    kinds = (QAbstractSpinBox, QComboBox, QLineEdit, QAbstractButton, QSlider)
    return [
        w
        for w in window.form.findChildren(QWidget)
        if isinstance(w, kinds) and w.isVisibleTo(window.form) and not isinstance(w.parent(), QAbstractSpinBox)
    ]


def test_every_form_control_has_an_accessible_name(shown) -> None:
    window = shown()
    unnamed = [f"{type(w).__name__}({w.objectName()})" for w in form_fields(window) if not _spoken_name(w)]
    assert unnamed == []


def _spoken_name(w: QWidget) -> str:
    """What a screen reader says for `w`: its accessible name, else its own text (buttons, check boxes)."""
    return w.accessibleName() or (w.text() if isinstance(w, QAbstractButton) else "")


def test_every_form_label_is_its_fields_buddy_with_a_mnemonic_in_the_main_rows(shown) -> None:
    window = shown()
    labels = [
        label
        for layout in window.form.findChildren(QFormLayout)
        for row in range(layout.rowCount())
        if (item := layout.itemAt(row, QFormLayout.ItemRole.LabelRole)) is not None
        and isinstance(label := item.widget(), QLabel)
        and label.text()
        and label.isVisibleTo(window.form)
    ]
    assert len(labels) >= 10
    without_buddy = [label.text() for label in labels if label.buddy() is None]
    assert without_buddy == []
    for label in labels:  # the buddy is the control itself (or what its row focuses)
        buddy = label.buddy().focusProxy() or label.buddy()
        assert buddy.focusPolicy() & Qt.FocusPolicy.TabFocus, label.text()
    mnemonics = [label.text() for label in labels if "&" in label.text()]
    for text in ("&Epochs", "Global &batch", "&Loop", "&Strategy", "&Validation split"):
        assert text in mnemonics


def test_a_mnemonic_moves_the_focus_to_its_field(shown, qtbot) -> None:
    window = shown()
    press(qtbot, window, "Alt+E")
    assert QApplication.focusWidget() is window.form.epochs
    press(qtbot, window, "Alt+B")
    assert QApplication.focusWidget() is window.form.batch_size


def test_tab_follows_the_form_top_to_bottom(shown) -> None:
    window = shown()
    chain = keyboard.focusable_in_layout_order(window.form)
    visible = [w for w in chain if w.isVisibleTo(window.form) and w.isEnabled()]
    assert visible[:3] == [window.form.epochs, window.form.batch_size, window.form.loop]
    ys = [w.mapTo(window.form, w.rect().topLeft()).y() for w in visible]
    assert ys == sorted(ys), "Tab must move down the form, never back up"
    for first, second in zip(visible, visible[1:], strict=False):  # Qt's own chain agrees
        nxt = first.nextInFocusChain()
        while nxt is not second and not _tab_stop(nxt, window.form):
            nxt = nxt.nextInFocusChain()
        assert nxt is second, (first.objectName(), second.objectName(), nxt.objectName())


def test_plots_and_tables_have_accessible_names(shown) -> None:
    window = shown()
    views = [*window.findChildren(QAbstractItemView)]
    plots = [window.plots.loss, window.plots.accuracy, window.plots.throughput, *window.runs.compare.plots.values()]
    unnamed = [f"{type(w).__name__}({w.objectName()})" for w in plots if not w.accessibleName()]
    assert unnamed == []
    assert all(p.accessibleDescription() for p in plots)
    for name in ("logView", "workersTable"):
        assert window.findChild(QWidget, name).accessibleName(), name
    assert views


def _tab_stop(w: QWidget, form: QWidget) -> bool:
    """A widget Tab stops at (not a spin box's or combo box's own line edit, which is part of it)."""
    inner = isinstance(w.parent(), QAbstractSpinBox | QComboBox)
    return not inner and w.isVisibleTo(form) and w.isEnabled() and bool(w.focusPolicy() & Qt.FocusPolicy.TabFocus)


@pytest.fixture
def announcements(monkeypatch) -> list[tuple[str, QAccessible.AnnouncementPoliteness]]:
    """What the window asked the accessibility layer to say (the event Qt hands to AT-SPI / UIA)."""
    said: list[tuple[str, QAccessible.AnnouncementPoliteness]] = []

    def record(event) -> None:
        if event.type() == QAccessible.Event.Announcement:
            said.append((event.message(), event.politeness()))

    monkeypatch.setattr(QAccessible, "updateAccessibility", staticmethod(record))
    return said


def test_a_run_start_and_end_are_announced(shown, qtbot, announcements) -> None:
    window = shown("normal", "--epochs", "1", "--steps", "3", "--delay", "0")
    window.start_run()
    assert announcements[:1] == [("Run started", QAccessible.AnnouncementPoliteness.Polite)]
    wait_idle(qtbot, window)
    assert ("Run completed", QAccessible.AnnouncementPoliteness.Polite) in announcements


def test_a_failed_run_is_announced_at_once(shown, qtbot, announcements) -> None:
    window = shown("fail")
    window.start_run()
    wait_idle(qtbot, window)
    failed = [(m, p) for m, p in announcements if m.startswith("Run failed")]
    assert failed and failed[0][1] == QAccessible.AnnouncementPoliteness.Assertive
    assert "lower the batch size" in failed[0][0]
    window.last_dialog.close()
