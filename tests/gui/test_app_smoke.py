"""The real entry point: `python main.py` draws its window, never imports TensorFlow, and quits."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from tests.repo import REPO


def test_main_py_shows_the_window_and_quits(tmp_path: Path):
    env = dict(
        os.environ,
        QT_QPA_PLATFORM="offscreen",
        TFDD_SMOKE_QUIT_MS="1500",
        TFDD_SCREENSHOT=str(tmp_path / "shot.png"),
        XDG_CONFIG_HOME=str(tmp_path),
        HOME=str(tmp_path),
    )
    done = subprocess.run([sys.executable, "main.py"], cwd=REPO, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "TFDD_WINDOW_SHOWN" in done.stdout
    assert (tmp_path / "shot.png").stat().st_size > 10_000


def test_the_gui_never_imports_tensorflow(tmp_path: Path):
    code = (
        "import sys; from PySide6.QtWidgets import QApplication; app = QApplication([]); "
        "from gui.main_window import MainWindow; w = MainWindow(start_probe=False); "
        "bad = [m for m in ('tensorflow', 'tf_keras', 'keras') if m in sys.modules]; "
        "print(bad); w.shutdown()"
    )
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", XDG_CONFIG_HOME=str(tmp_path), HOME=str(tmp_path))
    done = subprocess.run([sys.executable, "-c", code], cwd=REPO, env=env, capture_output=True, text=True, timeout=120)
    assert done.stdout.strip().splitlines()[-1] == "[]", done.stderr
