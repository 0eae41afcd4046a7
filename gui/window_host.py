"""What the window's helpers need of the main window, as a Protocol.

gui.main_window.MainWindow builds the menus (gui.menus), the File menu's dialogs (gui.config_files) and the
run controller (gui.run_controller) and hands itself to them; they name what they use here instead of importing
the window, so no module imports itself through the window.
"""

from __future__ import annotations

from pathlib import Path
from typing import Protocol

from PySide6.QtWidgets import QMenuBar, QMessageBox, QStatusBar, QTabWidget

from engine.core.config import RunConfig
from engine.core.session import Plan, RunSession
from gui.cluster.editor import ClusterEditor
from gui.cluster.export_dialog import ClusterExportDialog
from gui.form.devices_panel import DevicesPanel
from gui.form.run_form import RunForm
from gui.live.controls import RunControls
from gui.live.gpu_recorder import GpuRecorder
from gui.live.log_view import LogView
from gui.live.plots import TrainingPlots
from gui.live.warm_trainer import FirstStepLabel, WarmTrainer
from gui.live.watching import LiveViews, LiveWatch
from gui.runs.panel import RunsPanel
from gui.sweep.setup_dialog import SweepDialog


class RunActions(Protocol):
    """What the menus start and stop runs with (gui.run_controller.RunController)."""

    def start(self) -> None: ...
    def ask_stop(self) -> None: ...
    def show_stacks(self) -> None: ...


class WindowHost(Protocol):
    """The main window's panels and the actions its helpers call."""

    session: RunSession
    warm_trainer: WarmTrainer | None
    devices: DevicesPanel
    form: RunForm
    controls: RunControls
    plots: TrainingPlots
    log: LogView
    live: LiveViews  # the Live tab's views, which a watched run feeds too
    runs: RunsPanel
    cluster: ClusterEditor
    watching: LiveWatch
    tabs: QTabWidget
    first_step: FirstStepLabel
    gpu_recorder: GpuRecorder

    @property
    def run(self) -> RunActions: ...

    def menuBar(self) -> QMenuBar: ...  # noqa: N802 (Qt's name)
    def statusBar(self) -> QStatusBar: ...  # noqa: N802 (Qt's name)
    def close(self) -> bool: ...
    def show_about(self) -> QMessageBox: ...
    def open_scaling_study(self) -> None: ...
    def open_sweep(self) -> SweepDialog: ...
    def export_form_script(self) -> None: ...
    def export_cluster(self) -> ClusterExportDialog: ...
    def open_config(self, path: str | Path) -> bool: ...
    def save_config(self, path: str | Path) -> None: ...
    def message(self, icon: QMessageBox.Icon, title: str, text: str, details: str = "") -> None: ...
    def show_live(self) -> None: ...
    def show_running(self, running: bool, one_trainer: bool = False) -> None: ...
    def show_plan(self, plan: Plan) -> None: ...
    def on_form_changed(self) -> None: ...
    def refresh_start(self) -> tuple[RunConfig, int | None]: ...
