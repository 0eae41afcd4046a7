"""GUI test setup: offscreen Qt, settings in a temp folder, no leaked threads or processes."""
from __future__ import annotations

import os

os.environ["QT_QPA_PLATFORM"] = "offscreen"  # before any QApplication exists

import sys
import time
from pathlib import Path

import pytest
import shiboken6
from PySide6.QtCore import QSettings, QThread

FAKE_TRAINER = Path(__file__).with_name("fake_trainer.py")


def child_pids() -> list[int]:
    """Live (non-zombie) child processes of this test process, from /proc."""
    me, found = os.getpid(), []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        fields = stat[stat.rindex(")") + 2:].split()
        if fields[0] != "Z" and int(fields[1]) == me:
            found.append(int(entry.name))
    return found


@pytest.fixture(autouse=True)
def isolated_settings(tmp_path: Path) -> None:
    """Keep the user's real settings out of every test."""
    QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope, str(tmp_path / "settings"))


@pytest.fixture(autouse=True)
def no_dangling_threads_or_processes(monkeypatch: pytest.MonkeyPatch):
    """Fail a test that leaves a QThread or a child process running (cf. napari's _dangling_qthreads)."""
    started: list[QThread] = []
    original_start = QThread.start

    def tracking_start(self: QThread, *args) -> None:
        started.append(self)
        original_start(self, *args)

    monkeypatch.setattr(QThread, "start", tracking_start)
    before = set(child_pids())
    yield

    def still_running() -> list[QThread]:
        return [t for t in started if shiboken6.isValid(t) and t.isRunning()]

    deadline = time.monotonic() + 5
    while time.monotonic() < deadline and (still_running() or set(child_pids()) - before):
        time.sleep(0.05)
    running = still_running()
    leaked = set(child_pids()) - before
    for pid in leaked:
        os.kill(pid, 9)
    for thread in running:
        thread.wait(10_000)
    assert not running, f"test left QThreads running: {running}"
    assert not leaked, f"test left child processes running: {sorted(leaked)}"


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
        window = MainWindow(start_probe=False, grace_seconds=grace_seconds, runs_dir=tmp_path / "runs",
                            command_for=lambda config, run_dir: fake_trainer_command(mode, "--run-dir",
                                                                                     str(run_dir), *extra),
                            **kwargs)
        qtbot.addWidget(window)
        windows.append(window)
        return window

    yield make
    for window in windows:
        window.shutdown()
