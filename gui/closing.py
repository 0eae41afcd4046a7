"""Closing the window while its run or a sweep trains: ask whether to keep them running without the window.

The window's children cannot outlive the window (they stop when the window's pipe closes); keeping one running
stops it (it saves a checkpoint) and continues it at once in a process of its own (engine.core.protocol.
background): a run with `tfdd train --resume` (a local cluster with `tfdd cluster launch --resume`), a sweep with
`tfdd sweep --resume`. A window opened later follows either from its folder. Either way nothing finished is lost:
a run's epochs are in its folder, a sweep's trials in its study.
"""

from __future__ import annotations

import html
import sys
from collections.abc import Sequence
from enum import Enum
from pathlib import Path

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QMessageBox, QWidget

from engine.core.protocol.background import start_in_background
from engine.core.protocol.commands import as_typed


class Closing(Enum):
    """What the user chose for the work that trains."""

    KEEP = "keep"
    STOP = "stop"
    CANCEL = "cancel"


def _informative(run: bool, sweeps: bool) -> str:
    """What each choice does, for the run and for the sweeps that train."""
    lines = []
    if run:
        lines.append(
            QCoreApplication.translate(
                "Closing",
                "Keep running: the run saves a checkpoint and goes on without the window (<code>tfdd train "
                "--resume</code>), printing to launcher.log in its folder. Watch it live or stop it from its row "
                "in the Runs tab.<br>Stop: the run saves a checkpoint; Resume in the Runs tab continues it later."
                "<br>Finished epochs are kept either way.",
            )
        )
    if sweeps:
        lines.append(
            QCoreApplication.translate(
                "Closing",
                "Keep running: the training trials save a checkpoint and the sweep goes on without the window, "
                "printing to sweep.log in its folder. Open it again from its row in the Runs tab (or Run › Sweep › "
                "Open a sweep…), or see it with <code>tfdd sweep --status FOLDER</code>.<br>"
                "Stop: the training trials save a checkpoint; Continue in the sweep's view resumes it later.<br>"
                "Finished trials are kept either way.",
            )
        )
    return "<br><br>".join(lines)


def ask_about_closing(parent: QWidget, run: Path | None, sweeps: Sequence[Path]) -> Closing:
    """Keep the window's run (its folder, if one trains) and the running sweeps (theirs) going without the window,
    stop them, or do not close."""
    box = QMessageBox(parent)
    box.setObjectName("closingBox")
    box.setIcon(QMessageBox.Icon.Question)
    box.setWindowTitle(
        QCoreApplication.translate("Closing", "A run is in progress")
        if run is not None
        else QCoreApplication.translate("Closing", "A sweep is running")
    )
    folders = "".join(f"<br><code>{html.escape(str(f))}</code>" for f in ([run] if run else []) + list(sweeps))
    box.setText(QCoreApplication.translate("Closing", "Training now, in:") + folders)
    box.setInformativeText(_informative(run is not None, bool(sweeps)))
    keep = box.addButton(QCoreApplication.translate("Closing", "Keep running"), QMessageBox.ButtonRole.AcceptRole)
    keep.setObjectName("keepRunningButton")
    stop_text = (
        QCoreApplication.translate("Closing", "Stop the sweep")
        if run is None
        else QCoreApplication.translate("Closing", "Stop the run")
        if not sweeps
        else QCoreApplication.translate("Closing", "Stop them")
    )
    stop = box.addButton(stop_text, QMessageBox.ButtonRole.DestructiveRole)
    stop.setObjectName("stopOnCloseButton")
    cancel = box.addButton(QMessageBox.StandardButton.Cancel)
    box.setDefaultButton(keep)
    box.setEscapeButton(cancel)
    box.exec()
    clicked = box.clickedButton()
    return Closing.KEEP if clicked is keep else Closing.STOP if clicked is stop else Closing.CANCEL


def continue_in_background(parent: QWidget, command: list[str], log: Path) -> int | None:
    """Start `command` (the `tfdd` command that continues a run or a sweep) detached, printing to `log`; its pid.
    When it cannot start, None, and the user is told so, with that command to type later."""
    try:
        return start_in_background(command, log)
    except OSError as exc:
        reason = QCoreApplication.translate("Closing", "It could not start: %1").replace("%1", str(exc))
        not_continued(parent, reason, as_typed(command))
        return None


def not_continued(parent: QWidget, reason: str, by_hand: str | None) -> None:
    """Say, before the window goes, that the work it was asked to keep running stopped instead: why, and the command
    that continues it (`by_hand`; None when it cannot continue). Said on stderr too, for the terminal, if any."""
    text = QCoreApplication.translate("Closing", "It stopped and was not continued in the background.")
    lines = [reason, QCoreApplication.translate("Closing", "Nothing finished is lost.")]
    if by_hand is not None:
        lines.append(QCoreApplication.translate("Closing", "Continue it from a terminal with:"))
        lines.append(f"<code>{html.escape(by_hand, quote=False)}</code>")
    print(f"{text} {reason} {by_hand or ''}".rstrip(), file=sys.stderr)
    box = QMessageBox(
        QMessageBox.Icon.Warning,
        QCoreApplication.translate("Closing", "Not kept running"),
        text,
        QMessageBox.StandardButton.Ok,
        parent,
    )
    box.setObjectName("notContinuedBox")
    box.setInformativeText("<br>".join(lines))
    box.exec()
