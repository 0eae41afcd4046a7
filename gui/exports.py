"""Exports: plots to PNG or SVG, runs to CSV, JSON or a script, and the TensorBoard command.

Run-level exports wrap the engine's functions, so a file written from the window is the command line's file.
SVG goes through Qt's QSvgGenerator: pyqtgraph 0.14's SVGExporter cannot parse the closed paths Qt 6.11
writes (pyqtgraph issue 3495).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pyqtgraph as pg
import pyqtgraph.exporters  # noqa: F401 - makes pg.exporters available
from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication, QRectF
from PySide6.QtGui import QAction, QGuiApplication, QPainter
from PySide6.QtSvg import QSvgGenerator
from PySide6.QtWidgets import (
    QFileDialog,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QMainWindow,
    QMessageBox,
    QPushButton,
    QWidget,
)

from engine.core.config import RunConfig
from engine.core.problems import ConfigError
from engine.core.protocol.paths import RunPaths
from engine.core.runs.history import tensorboard_command
from gui.i18n import problem_text

PLOT_FILTERS = QT_TRANSLATE_NOOP("gui.exports", "PNG image (*.png);;SVG vector image (*.svg)")


def export_plot(plot: pg.PlotWidget, path: str | Path) -> Path:
    """Write one plot (title, axes, legend, curves) as it is shown; the suffix picks the format."""
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix not in (".png", ".svg"):
        given = suffix or QCoreApplication.translate("gui.exports", "a name without a suffix")
        raise ValueError(
            QCoreApplication.translate("gui.exports", "a plot is exported as .png or .svg, not {given}").format(
                given=given
            )
        )
    if not path.parent.is_dir():
        raise FileNotFoundError(
            QCoreApplication.translate("gui.exports", "there is no folder {folder}").format(folder=path.parent)
        )
    if suffix == ".png" and not pg.exporters.ImageExporter(plot.getPlotItem()).export(str(path)):
        raise OSError(QCoreApplication.translate("gui.exports", "could not write {path}").format(path=path))
    if suffix == ".svg":
        _write_svg(plot, path)
    return path


def _write_svg(plot: pg.PlotWidget, path: Path) -> None:
    item = plot.getPlotItem()
    source = item.sceneBoundingRect()
    target = QRectF(0, 0, source.width(), source.height())
    generator = QSvgGenerator()
    generator.setFileName(str(path))
    generator.setSize(source.size().toSize())
    generator.setViewBox(target)
    generator.setResolution(plot.logicalDpiX())  # else the axes are drawn at another scale than the curves
    generator.setTitle(_plain_title(plot))
    painter = QPainter(generator)
    try:
        painter.fillRect(target, plot.backgroundBrush())
        item.scene().render(painter, target, source)
    finally:
        painter.end()


def _plain_title(plot: pg.PlotWidget) -> str:
    """The plot's name without markup (the live plots carry their legend in the title)."""
    return getattr(plot, "plain_title", "") or plot.getPlotItem().titleLabel.text or "plot"


def add_export_action(plot: pg.PlotWidget) -> QAction:
    """Put "Export plot…" in the plot's context menu, in place of pyqtgraph's generic Export dialog."""
    action = QAction(QCoreApplication.translate("gui.exports", "Export plot…"), plot)
    action.triggered.connect(lambda: export_plot_dialog(plot))
    plot.scene().contextMenu = [action]  # the scene appends these to every context menu of the plot
    return action


def export_plot_dialog(plot: pg.PlotWidget) -> tuple[str, bool] | None:
    """Ask where, export, and say so in the window's status bar (a failure also in a message box)."""
    title = _plain_title(plot)
    outcome = save_as(
        plot,
        QCoreApplication.translate("gui.exports", "Export plot"),
        f"{_file_stem(title)}.png",
        QCoreApplication.translate("gui.exports", PLOT_FILTERS),
        lambda path: export_plot(plot, path),
    )
    if outcome is not None:
        text, ok = outcome
        window = plot.window()
        if isinstance(window, QMainWindow):
            window.statusBar().showMessage(text, 10000)
        if not ok:
            box = QMessageBox(
                QMessageBox.Icon.Warning,
                QCoreApplication.translate("gui.exports", "Export plot"),
                text,
                QMessageBox.StandardButton.Ok,
                plot,
            )
            box.open()
    return outcome


def save_as(
    parent: QWidget, title: str, suggested: str, filters: str, write: Callable[[Path], object]
) -> tuple[str, bool] | None:
    """Ask where, then write; (a sentence saying what happened, whether it worked), or None if cancelled."""
    path = ask_save_path(parent, title, suggested, filters)
    if path is None:
        return None
    try:
        write(path)
    except (OSError, ValueError) as exc:  # ConfigError is a ValueError
        message = "; ".join(problem_text(p) for p in exc.problems) if isinstance(exc, ConfigError) else str(exc)
        return QCoreApplication.translate("gui.exports", "Export failed: {error}").format(error=message), False
    return QCoreApplication.translate("gui.exports", "Wrote {path}").format(path=path), True


def ask_save_path(parent: QWidget, title: str, suggested: str, filters: str) -> Path | None:
    """A save dialog; a name typed without a suffix gets the chosen filter's suffix."""
    name, chosen = QFileDialog.getSaveFileName(parent, title, suggested, filters)
    if not name:
        return None
    path = Path(name)
    suffix = re.search(r"\*(\.\w+)", chosen or filters)
    return path.with_suffix(suffix.group(1)) if not path.suffix and suffix else path


def _file_stem(text: str) -> str:
    return re.sub(r"[^\w.-]+", "-", text).strip("-").lower() or "plot"


def load_run_config(run_dir: Path) -> RunConfig:
    """A run's config.json, leniently: a run whose CSV has since moved must still reopen.

    Raises ConfigError when the file is missing or not JSON.
    """
    return RunConfig.load(RunPaths(run_dir).config, check=False)


def export_run_config(run_dir: Path, out: str | Path) -> Path:
    """The run's config as a RunConfig file, ready for File › Open config or `train --config`."""
    load_run_config(run_dir).save(out)
    return Path(out)


class TensorBoardCommand(QWidget):
    """The shell command that opens the selected runs in TensorBoard, read-only and copyable."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.line = QLineEdit(objectName="tensorboardCommand")
        self.line.setReadOnly(True)
        self.line.setPlaceholderText(self.tr("select runs to get the command that opens them in TensorBoard"))
        self.copy = QPushButton(self.tr("Copy"), objectName="copyTensorboardButton")
        self.copy.setToolTip(self.tr("Copy the command to the clipboard; paste it into a terminal"))
        self.copy.clicked.connect(self.copy_to_clipboard)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(QLabel(self.tr("TensorBoard:")))
        layout.addWidget(self.line, 1)
        layout.addWidget(self.copy)
        self.set_runs([])

    def set_runs(self, run_dirs: list[Path]) -> None:
        self.line.setText(tensorboard_command(run_dirs) if run_dirs else "")
        self.line.setCursorPosition(0)
        self.copy.setEnabled(bool(run_dirs))

    def copy_to_clipboard(self) -> None:
        QGuiApplication.clipboard().setText(self.line.text())
