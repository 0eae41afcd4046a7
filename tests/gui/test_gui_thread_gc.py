"""Python's cycle collector must not destroy Qt objects on the runner's or the history loader's thread.

The collector runs in whichever thread happens to allocate when a generation fills up. The runner
thread decodes thousands of events a second, so a window part dropped in a reference cycle (a closed
dialog, an old panel) was destroyed there, off the GUI thread: Qt then warns "Timers cannot be
started from another thread" (one CI run failed on exactly that) or crashes. The dashboard collects
on a timer in the GUI thread instead."""

from __future__ import annotations

import gc
import threading

from PySide6.QtCore import QObject, Qt, QThread

from gui.app import collect_garbage_on_gui_thread


def test_a_qt_object_in_a_cycle_is_destroyed_on_the_gui_thread(qtbot):
    collector = collect_garbage_on_gui_thread()  # what gui.app.create_application does first
    destroyed_on: list[str] = []

    def drop_in_a_cycle() -> None:
        obj = QObject()
        obj.cycle = obj  # only the cycle collector can free it
        obj.destroyed.connect(
            lambda *_: destroyed_on.append(threading.current_thread().name), Qt.ConnectionType.DirectConnection
        )

    def allocate_like_a_decoder() -> None:
        kept = [[i] for i in range(300_000)]  # enough new containers to fill every generation
        assert len(kept) == 300_000

    drop_in_a_cycle()
    worker = threading.Thread(target=allocate_like_a_decoder, name="runner")
    worker.start()
    worker.join()
    assert destroyed_on == [], "nothing was collected on the runner's thread"
    assert not gc.isenabled(), "automatic collection is off"
    assert collector.timer.isActive() and collector.timer.thread() is QThread.currentThread()
    gc.collect()  # what the GUI thread's timer does once a generation is over its threshold
    assert destroyed_on == ["MainThread"]
