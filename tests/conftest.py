"""Suite-wide settings and the one leak guard: no window system, no writes to the user's home,
and no test leaves a thread, a QThread or a child process running."""

from __future__ import annotations

import os
import sys
import threading
import time
from pathlib import Path

import pytest

from tests.repo import REPO

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")  # before any QApplication exists
os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
# every child process a test starts (trainers, launchers, fakes) imports this checkout, wherever the
# package is installed
os.environ["PYTHONPATH"] = os.pathsep.join([str(REPO), *filter(None, [os.environ.get("PYTHONPATH")])])
LEAK_GRACE_S = 5.0  # a killed child may take a moment to become a zombie, a reader thread to see EOF


def pytest_configure(config) -> None:  # noqa: ANN001 - pytest hook signature
    import tempfile

    os.environ.setdefault("TFDD_RUNS_DIR", tempfile.mkdtemp(prefix="tfdd-test-runs-"))


def child_pids() -> set[int]:
    """Live (non-zombie) child processes of this test process (Linux /proc; empty elsewhere)."""
    me, found = os.getpid(), set()
    if not sys.platform.startswith("linux"):
        return found
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            text = stat.read_text()
        except OSError:
            continue
        fields = text[text.rindex(")") + 2 :].split()
        if fields[0] != "Z" and int(fields[1]) == me:
            found.add(int(stat.parent.name))
    return found


@pytest.fixture(autouse=True)
def no_leaks(monkeypatch: pytest.MonkeyPatch):
    """Fail a test that leaves a thread, a QThread or a child process running (cf. napari's
    _dangling_qthreads); leaked processes are killed so the next test starts clean."""
    import shiboken6
    from PySide6.QtCore import QThread

    started: list[QThread] = []
    original_start = QThread.start

    def tracking_start(self: QThread, *args) -> None:
        started.append(self)
        original_start(self, *args)

    monkeypatch.setattr(QThread, "start", tracking_start)
    threads_before = set(threading.enumerate())
    children_before = child_pids()
    yield

    def qthreads() -> list[QThread]:
        return [t for t in started if shiboken6.isValid(t) and t.isRunning()]

    def threads() -> list[threading.Thread]:
        return [t for t in threading.enumerate() if t not in threads_before and t.is_alive()]

    deadline = time.monotonic() + LEAK_GRACE_S
    while time.monotonic() < deadline and (qthreads() or threads() or child_pids() - children_before):
        time.sleep(0.05)
    running, leaked_threads, leaked = qthreads(), threads(), child_pids() - children_before
    for pid in leaked:
        os.kill(pid, 9)
    for thread in running:
        thread.wait(10_000)
    assert not running, f"test left QThreads running: {running}"
    assert not leaked, f"test left child processes running: {sorted(leaked)}"
    assert not leaked_threads, f"test left threads running: {[t.name for t in leaked_threads]}"
