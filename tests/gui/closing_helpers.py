"""Answering the window's closing question (gui.closing) from a test, once it shows."""

from __future__ import annotations

import time
from pathlib import Path

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication, QMessageBox, QPushButton

from engine.core.protocol.paths import RunPaths
from engine.core.runs.runlock import Holder, holder


def answer_closing(button: str, said: list[str], tries: int = 400) -> None:
    """Click `button` of the closing question once it shows ("" for Cancel: Escape); what it said goes to `said`."""
    box = QApplication.activeModalWidget()
    if isinstance(box, QMessageBox) and box.objectName() != "closingBox":
        box.reject()  # another question than the closing one: answered No, so the test fails instead of hanging
        return
    if box is None or box.objectName() != "closingBox":
        if tries:
            QTimer.singleShot(25, lambda: answer_closing(button, said, tries - 1))
        return
    said.append(f"{box.text()}\n{box.informativeText()}")
    if button:
        box.findChild(QPushButton, button).click()
    else:
        box.reject()


def read_not_continued(shown: list[str]) -> None:
    """Once the window says work was not kept running (gui.closing.not_continued), put what it said in `shown`
    and close it."""
    box = QApplication.activeModalWidget()
    if not isinstance(box, QMessageBox) or box.objectName() != "notContinuedBox":
        QTimer.singleShot(20, lambda: read_not_continued(shown))
        return
    shown.append(f"{box.windowTitle()}\n{box.text()}\n{box.informativeText()}")
    box.accept()


def wait_for_holder(run_dir: Path, seconds: float = 60) -> Holder | None:
    """The process that holds the run's lock, once one does (None after `seconds`)."""
    deadline = time.monotonic() + seconds
    held = holder(RunPaths(run_dir))
    while held is None and time.monotonic() < deadline:
        time.sleep(0.2)
        held = holder(RunPaths(run_dir))
    return held
