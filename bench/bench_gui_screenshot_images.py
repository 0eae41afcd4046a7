"""Screenshot of an image-folder run with its data preview and model summary (not a timing benchmark).

    Xvfb :99 -screen 0 1400x900x24 &  openbox &
    DISPLAY=:99 python bench/bench_gui_screenshot_images.py resources/screenshot-images.png

Generates a folder of 32x32 PNGs (4 classes), fills the form with a CNN on
it (Mirrored, 2 virtual CPUs), summarizes the model in its child process,
starts the run and grabs the window once a few epochs are plotted, with the
form scrolled to the data preview and the summary; then stops the run.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench_gui_helpers import shoot_mid_run  # noqa: E402
from PySide6.QtCore import QTimer  # noqa: E402
from PySide6.QtWidgets import QScrollArea  # noqa: E402

from engine.core.config import DataConfig, ModelConfig, RunConfig  # noqa: E402
from gui.app import create_application  # noqa: E402
from gui.main_window import MainWindow  # noqa: E402
from tests.data_factory import write_image_folder  # noqa: E402


def main(out: str, epochs_before_shot: int = 3) -> int:
    app = create_application([])
    root = Path(tempfile.mkdtemp(prefix="tfdd-shot-"))
    images = write_image_folder(root / "shapes", classes=4, per_class=400, size=(32, 32))
    window = MainWindow(runs_dir=root / "runs")
    window.form.set_config(
        RunConfig(
            name="cnn-images",
            virtual_devices=2,
            epochs=12,
            global_batch_size=64,
            learning_rate=0.003,
            validation_split=0.2,
            data=DataConfig(kind="image_folder", path=str(images)),
            model=ModelConfig(kind="cnn", filters=(16, 32), hidden_units=(32,)),
        )
    )
    window.resize(1500, 1000)
    window.show()
    summary = window.form.model_form.summary

    def summarize_when_probed() -> None:
        if window.probe.is_running():
            QTimer.singleShot(200, summarize_when_probed)
            return
        summary.summary_ready.connect(lambda _: QTimer.singleShot(100, start))
        window.form.request_summary()

    def start() -> None:
        window.start_run()
        shoot_mid_run(app, window, out, epochs_before_shot, show_the_preview_and_summary)

    def show_the_preview_and_summary() -> None:
        scroll = window.findChild(QScrollArea)
        scroll.ensureWidgetVisible(window.form.data_source.preview, 0, 0)
        scroll.ensureWidgetVisible(summary.table, 0, 10)

    QTimer.singleShot(100, summarize_when_probed)
    code = app.exec()
    window.shutdown()
    return code


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else "screenshot-images.png"))
