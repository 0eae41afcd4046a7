"""Run by tests/test_install.py with an installed package's interpreter: Start one run from the window.

Prints `WINDOW_RUN <status> <run dir>` and exits 0 once the window's run has ended.
"""

from __future__ import annotations

import sys
from pathlib import Path

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication

from engine.core.config import DataConfig, RunConfig
from gui.main_window import MainWindow

TIMEOUT_MS = 240_000


def main() -> int:
    app = QApplication([])
    window = MainWindow(start_probe=False, runs_dir=Path(sys.argv[1]))
    window.form.set_config(
        RunConfig(strategy="one_device", epochs=1, global_batch_size=32, data=DataConfig(num_samples=256))
    )
    outcome: list[str] = []
    window.runs.refresh()

    def finished(status: str, run_dir: str) -> None:
        outcome.append(f"{status} {run_dir}")
        QTimer.singleShot(0, app.quit)  # the outcome is known (QThread.finished alone once lost a race)

    def failed(message: str, tail: str) -> None:
        outcome.append(f"failed {message}\n{tail}")
        QTimer.singleShot(0, app.quit)

    def start() -> None:
        window.start_run()
        assert window.runner is not None, window.controls.reason.text()
        window.runner.run_finished.connect(finished)
        window.runner.run_failed.connect(failed)
        window.runner.finished.connect(app.quit)

    QTimer.singleShot(0, start)
    QTimer.singleShot(TIMEOUT_MS, app.quit)
    app.exec()
    window.shutdown()
    print(f"WINDOW_RUN {outcome[0] if outcome else 'timeout'}", flush=True)
    return 0 if outcome and outcome[0].startswith("completed") else 1


if __name__ == "__main__":
    sys.exit(main())
