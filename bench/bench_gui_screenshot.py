"""Screenshot of the dashboard mid-run on the real engine (not a timing benchmark).

    Xvfb :99 -screen 0 1400x900x24 &
    DISPLAY=:99 python bench/bench_gui_screenshot.py resources/screenshot.png
    DISPLAY=:99 TFDD_LANG=zh_CN python bench/bench_gui_screenshot.py resources/screenshot-zh.png
    DISPLAY=:99 TFDD_COLOR_SCHEME=dark python bench/bench_gui_screenshot.py resources/screenshot-dark.png

Runs resources/examples/mirrored_large_synthetic.json (Mirrored on 2 virtual
CPU devices, 20 epochs, 100000 synthetic samples) on the warm trainer, once
it is ready; grabs the window once a few epochs are plotted, with the log's
"No CUDA driver" line expanded to the raw lines it folds, then stops the
run cleanly.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench_gui_helpers import shoot_mid_run  # noqa: E402
from PySide6.QtCore import QTimer  # noqa: E402

from engine.core.config import RunConfig  # noqa: E402
from engine.core.protocol.commands import warm_trainer_command  # noqa: E402
from gui.app import create_application  # noqa: E402
from gui.live.warm_trainer import WarmState  # noqa: E402
from gui.main_window import MainWindow  # noqa: E402

EXAMPLE = Path(__file__).resolve().parents[1] / "resources" / "examples" / "mirrored_large_synthetic.json"


def main(out: str, epochs_before_shot: int = 4) -> int:
    app = create_application([])
    window = MainWindow(
        runs_dir=Path(tempfile.mkdtemp(prefix="tfdd-shot-")), warm_trainer_command=warm_trainer_command()
    )
    window.form.set_config(RunConfig.load(EXAMPLE))
    window.show()
    window.live_tab.setSizes([520, 0, 330])  # room for the log's folded lines and the epochs

    def start_when_probed() -> None:
        if window.probe.is_running() or window.warm_trainer.state != WarmState.READY:
            QTimer.singleShot(200, start_when_probed)
            return
        window.start_run()
        shoot_mid_run(app, window, out, epochs_before_shot, expand_the_folded_gpu_line)

    def expand_the_folded_gpu_line() -> None:
        entries = window.log.model.visible
        folded = next(i for i, e in enumerate(entries) if e.topic == "no_gpu")
        index = window.log.model.index(folded, 0)
        window.log.tree.expand(index)
        window.log.tree.scrollTo(index, window.log.tree.ScrollHint.PositionAtTop)

    QTimer.singleShot(100, start_when_probed)
    code = app.exec()
    window.shutdown()
    return code


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else "screenshot.png"))
