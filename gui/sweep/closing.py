"""Closing the window while a sweep runs: ask whether to keep it running without the window or to stop it.

The window's sweep process cannot outlive the window (it stops when the window's pipe closes); keeping it
running stops it (its training trials save a checkpoint) and continues it at once in a background sweep process
(engine.core.sweep.background), which a window opened later follows from the sweep's folder. Either way no
finished trial is lost: they are in the sweep's study.
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from enum import Enum

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QMessageBox, QWidget

from gui.sweep.view import SweepView


class Closing(Enum):
    """What the user chose for the running sweeps."""

    KEEP = "keep"
    STOP = "stop"
    CANCEL = "cancel"


def ask_about_sweeps(parent: QWidget, views: Sequence[SweepView]) -> Closing:
    """Keep the running sweeps going without the window, stop them, or do not close."""
    box = QMessageBox(parent)
    box.setObjectName("sweepClosingBox")
    box.setIcon(QMessageBox.Icon.Question)
    box.setWindowTitle(QCoreApplication.translate("SweepClosing", "A sweep is running"))
    folders = "".join(f"<br><code>{html.escape(str(v.sweep_dir))}</code>" for v in views)
    box.setText(QCoreApplication.translate("SweepClosing", "Training now, in:") + folders)
    box.setInformativeText(
        QCoreApplication.translate(
            "SweepClosing",
            "Keep running: the training trials save a checkpoint and the sweep goes on without the window, "
            "printing to sweep.log in its folder. Open it again from its row in the Runs tab (or Run › Sweep › "
            "Open a sweep…), or see it with <code>tfdd sweep --status FOLDER</code>.<br>"
            "Stop: the training trials save a checkpoint; Continue in the sweep's view resumes it later.<br>"
            "Finished trials are kept either way.",
        )
    )
    keep = box.addButton(QCoreApplication.translate("SweepClosing", "Keep running"), QMessageBox.ButtonRole.AcceptRole)
    keep.setObjectName("keepSweepButton")
    stop = box.addButton(
        QCoreApplication.translate("SweepClosing", "Stop the sweep"), QMessageBox.ButtonRole.DestructiveRole
    )
    stop.setObjectName("stopSweepOnCloseButton")
    cancel = box.addButton(QMessageBox.StandardButton.Cancel)
    box.setDefaultButton(keep)
    box.setEscapeButton(cancel)
    box.exec()
    clicked = box.clickedButton()
    return Closing.KEEP if clicked is keep else Closing.STOP if clicked is stop else Closing.CANCEL
