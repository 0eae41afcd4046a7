"""GUI test setup: settings in a temp folder, the fake trainer, windows that close after the test.

Offscreen Qt and the leak guard (no thread, QThread or process outlives a test) are suite-wide:
tests/conftest.py."""

from __future__ import annotations

import gc
import sys
from pathlib import Path

import pytest
from PySide6.QtCore import QSettings

FAKE_TRAINER = Path(__file__).with_name("fake_trainer.py")


@pytest.fixture(autouse=True, scope="session")
def english(qapp) -> None:
    """The window as an English user sees it: the English catalogue gives "1 run", "2 runs" for "%n run(s)"."""
    from gui import i18n

    i18n.install(qapp, i18n.ENGLISH)


@pytest.fixture(autouse=True, scope="session")
def collected_on_the_gui_thread(qapp):
    """As in the app: Python's cycle collector runs only on the GUI thread's timer, never on a runner's
    thread (gui.app.collect_garbage_on_gui_thread); the rest of the suite gets the usual collector back."""
    from gui.app import collect_garbage_on_gui_thread

    collector = collect_garbage_on_gui_thread()
    yield
    collector.timer.stop()
    gc.enable()


@pytest.fixture(autouse=True)
def isolated_settings(tmp_path: Path) -> None:
    """Keep the user's real settings out of every test."""
    QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope, str(tmp_path / "settings"))


@pytest.fixture
def fake_trainer_command():
    """Build the command line of the fake trainer in a given mode."""

    def command(mode: str, *extra: str) -> list[str]:
        return [sys.executable, str(FAKE_TRAINER), mode, *extra]

    return command


@pytest.fixture
def make_window(qtbot, tmp_path: Path, fake_trainer_command):
    """A MainWindow that runs the fake trainer in `mode` (no device probe); closed after the test."""
    from gui.main_window import MainWindow

    windows = []

    def make(mode: str = "normal", *extra: str, grace_seconds: float = 10.0, **kwargs) -> MainWindow:
        window = MainWindow(
            start_probe=False,
            grace_seconds=grace_seconds,
            runs_dir=tmp_path / "runs",
            command_for=lambda config, run_dir: fake_trainer_command(mode, "--run-dir", str(run_dir), *extra),
            **kwargs,
        )
        qtbot.addWidget(window)
        window.show()  # the plots draw only while shown, as in the app
        windows.append(window)
        return window

    yield make
    for window in windows:
        window.shutdown()


@pytest.fixture
def chinese(qapp):
    """The window's language is Simplified Chinese for the test, English again after it."""
    from gui import i18n

    i18n.install(qapp, "zh_CN")
    yield
    i18n.install(qapp, "en")
