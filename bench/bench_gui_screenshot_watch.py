"""Screenshot of the Live tab watching a run `tfdd train` trains in a terminal (not a timing benchmark).

    Xvfb :94 -screen 0 1600x1000x24 &  DISPLAY=:94 openbox &
    TFDD_RUNS_DIR=/tmp/shot-runs tfdd train --config resources/examples/mirrored-2-virtual-cpus.json &
    DISPLAY=:94 TFDD_RUNS_DIR=/tmp/shot-runs python bench/bench_gui_screenshot_watch.py shot.png
    (TFDD_COLOR_SCHEME=dark, TFDD_LANG=zh_CN for the other looks)

Opens the window on the runs folder, waits until the Runs tab lists a run as training, watches it live
(as the Watch live button does) and saves the window once it has followed the run past AFTER_EPOCHS
epochs; the run trains on.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from PySide6.QtCore import QTimer  # noqa: E402

from engine.core.protocol.codes import RunStatus  # noqa: E402
from gui.app import create_application  # noqa: E402
from gui.main_window import MainWindow  # noqa: E402

AFTER_EPOCHS = 1


def main(out: str) -> int:
    app = create_application([])
    window = MainWindow()
    window.resize(1400, 880)
    window.show()
    window.tabs.setCurrentWidget(window.runs)

    def pick() -> None:
        running = [r for r in window.runs.model.runs if r.status == RunStatus.RUNNING]
        if not running:
            window.runs.refresh()
            QTimer.singleShot(500, pick)
            return
        window.runs.select_paths([running[0].path])
        window.runs.watch_selected()
        QTimer.singleShot(500, shoot)

    def shoot() -> None:
        if window.probe.is_running() or window.controls.progress.epoch <= AFTER_EPOCHS:
            QTimer.singleShot(250, shoot)
            return
        window.grab().save(out)
        print(f"saved {out} at {window.controls.progress.text()}")
        app.quit()

    QTimer.singleShot(1000, pick)
    code = app.exec()
    window.shutdown()
    return code


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else "screenshot-watch.png"))
