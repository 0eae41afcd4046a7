"""Screenshot of the Runs tab comparing real runs (not a timing benchmark).

    Xvfb :97 -screen 0 1600x1000x24 &  DISPLAY=:97 openbox &
    for c in mirrored-2-virtual-cpus one_device_fit; do
        TFDD_RUNS_DIR=/tmp/shot-runs tfdd train --config resources/examples/$c.json; done
    DISPLAY=:97 TFDD_RUNS_DIR=/tmp/shot-runs python bench/bench_gui_screenshot_runs.py resources/screenshot-runs.png

Opens the window on the runs folder ($TFDD_RUNS_DIR), shows the Runs tab,
selects every run in it (a few real runs trained with `tfdd train`), and
saves the window once their curves are drawn and the devices are listed.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from PySide6.QtCore import Qt, QTimer  # noqa: E402

from gui.app import create_application  # noqa: E402
from gui.main_window import MainWindow  # noqa: E402


def main(out: str) -> int:
    app = create_application([])
    window = MainWindow()
    window.resize(1400, 880)
    window.show()
    window.tabs.setCurrentWidget(window.runs)

    def select_all() -> None:
        window.runs.compare.drawn.connect(lambda: QTimer.singleShot(500, shoot))
        window.runs.select_paths([r.path for r in window.runs.model.runs])

    def shoot() -> None:
        if window.probe.is_running():  # the form's device list, once TensorFlow has listed the devices
            QTimer.singleShot(250, shoot)
            return
        window.grab().save(out)
        print(f"saved {out}: {len(window.runs.compare.runs)} runs compared")
        app.quit()

    window.runs.runs_loaded.connect(select_all, type=Qt.ConnectionType.SingleShotConnection)
    code = app.exec()
    window.shutdown()
    return code


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else "screenshot-runs.png"))
