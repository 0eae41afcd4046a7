"""The form's config in and out of files: the File menu's dialogs, a script of it, and the last session's config.

Its words are the window's, in the MainWindow translation context (plural messages stay in MainWindow itself:
lupdate reads `%n` as a plural form only in a class's `self.tr`).
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QFileDialog, QMessageBox

from engine.core.config import RunConfig
from engine.core.exports.script import export_script, script_problems
from gui import settings
from gui.exports import save_as
from gui.i18n import translate
from gui.runner import dashboard_line
from gui.window_host import WindowHost


def open_config_dialog(window: WindowHost) -> None:
    path, _ = QFileDialog.getOpenFileName(
        window,
        QCoreApplication.translate("MainWindow", "Open run config"),
        "",
        QCoreApplication.translate("MainWindow", "Run configs (*.json);;All files (*)"),
    )
    if path:
        window.open_config(path)


def save_config_dialog(window: WindowHost) -> None:
    path, _ = QFileDialog.getSaveFileName(
        window,
        QCoreApplication.translate("MainWindow", "Save run config"),
        "run.json",
        QCoreApplication.translate("MainWindow", "Run configs (*.json)"),
    )
    if path:
        window.save_config(path)


def export_form_script(window: WindowHost) -> None:
    """The form's config as a plain TensorFlow script, for a strategy a script can run."""
    config = window.form.evaluate()[0]
    unsupported = script_problems(config)
    if unsupported:  # said before a file dialog, not after it
        window.message(
            QMessageBox.Icon.Information,
            QCoreApplication.translate("MainWindow", "No script for this strategy"),
            translate(unsupported[0].message),
        )
        return
    outcome = save_as(
        window,
        QCoreApplication.translate("MainWindow", "Export as script"),
        "train.py",
        QCoreApplication.translate("MainWindow", "Python scripts (*.py)"),
        lambda path: export_script(config, path, overwrite=True),
    )
    if outcome is not None:
        window.statusBar().showMessage(outcome[0], 10000)


def restore_last_config(window: WindowHost) -> None:
    """The last session's config in the form; the defaults, saying why, when it cannot be shown."""
    config, why = settings.load_last_config()
    if config is not None:
        try:
            window.form.set_config(config)
        except Exception as exc:  # noqa: BLE001 - whatever it is, the window must open: defaults, and say so
            why = QCoreApplication.translate("MainWindow", "the stored run config cannot be shown ({error})").format(
                error=f"{type(exc).__name__}: {exc}"
            )
            window.form.set_config(RunConfig())
    if why:
        note = QCoreApplication.translate(
            "MainWindow", "The last session's settings were not restored ({why}); the form starts from the defaults."
        ).format(why=translate(why))
        window.statusBar().showMessage(note, 30_000)
        window.log.append_lines([dashboard_line(note)])
