"""`tfdd-gui` (or `python main.py`) lands here: a QApplication, the style sheet and the main window.

Nothing imported here imports TensorFlow, so the window shows at once; a child process probes the devices.
TFDD_SMOKE_QUIT_MS=<ms> prints `TFDD_WINDOW_SHOWN <ms since start>` once the window is drawn and quits after
<ms> (the smoke test, the startup benchmark); TFDD_SCREENSHOT=<png> saves the window just before.
"""

from __future__ import annotations

import os
import sys
import time

from pyqtgraph.util.garbage_collector import GarbageCollector
from PySide6.QtCore import QTimer
from PySide6.QtGui import QIcon
from PySide6.QtWidgets import QApplication

from engine.core.protocol.commands import warm_trainer_command
from engine.core.resources import resource_path
from gui import i18n, settings, theme
from gui.main_window import MainWindow
from gui.runner import kill_live_processes

GIL_SWITCH_INTERVAL_S = 0.001
GC_INTERVAL_S = 1.0
_T0 = time.perf_counter()
_collector: GarbageCollector | None = None


def collect_garbage_on_gui_thread() -> GarbageCollector:
    """Python's cycle collector runs in whichever thread allocates when a generation fills: often
    the runner's, which decodes thousands of events a second. A window part left in a reference
    cycle (a closed dialog, an old panel) was then destroyed off the GUI thread, where Qt warns or
    crashes. pyqtgraph's collector turns automatic collection off and collects every GC_INTERVAL_S
    on a timer of the GUI thread, with the usual generation thresholds. Once per process."""
    global _collector
    if _collector is None:
        _collector = GarbageCollector(interval=GC_INTERVAL_S)
    return _collector


def create_application(argv: list[str]) -> QApplication:
    """The one QApplication, styled; reused if one exists (tests, scripts)."""
    # Qt calls into Python (pyqtgraph paints) many times per frame, and each call
    # retakes the GIL; while the runner thread decodes events, every retake can
    # wait a whole switch interval (5 ms by default). 1 ms cut the worst
    # event-loop stall during a full-speed event stream by about 2x (bench_gui_stream).
    sys.setswitchinterval(GIL_SWITCH_INTERVAL_S)
    app = QApplication.instance() or QApplication([sys.argv[0], *argv])
    collect_garbage_on_gui_thread()
    app.setOrganizationName(settings.ORGANIZATION)
    app.setApplicationName(settings.APPLICATION)
    i18n.install(app)  # before any text is made: the window is built in the language it will speak
    app.setWindowIcon(QIcon(str(resource_path("icons", "app.svg"))))
    theme.manager().apply()
    return app


def _arm_smoke_quit(app: QApplication, window: MainWindow, quit_ms: int) -> None:
    """Report when the window is drawn, then quit (and optionally save a screenshot)."""

    def shown() -> None:
        app.processEvents()
        print(f"TFDD_WINDOW_SHOWN {1000 * (time.perf_counter() - _T0):.0f}", flush=True)
        QTimer.singleShot(quit_ms, finish)

    def finish() -> None:
        shot = os.environ.get("TFDD_SCREENSHOT")
        if shot:
            window.grab().save(shot)
        window.close()
        app.quit()

    QTimer.singleShot(0, shown)


def main(argv: list[str] | None = None) -> int:
    app = create_application(list(sys.argv[1:] if argv is None else argv))
    window = MainWindow(warm_trainer_command=warm_trainer_command())
    app.aboutToQuit.connect(window.shutdown)
    app.aboutToQuit.connect(kill_live_processes)
    window.show()
    quit_ms = os.environ.get("TFDD_SMOKE_QUIT_MS")
    if quit_ms:
        _arm_smoke_quit(app, window, int(quit_ms))
    return app.exec()


if __name__ == "__main__":  # `python -m gui.app`: how the Language menu restarts the dashboard
    sys.exit(main())
