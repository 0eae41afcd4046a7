"""The main window: assembles the panels and menus, and shows the run its session describes.

Data flows one way: form → RunConfig → trainer process → events → plots, progress, log and status bar.
engine.core.session.RunSession holds the run's state (start, resume, stop, the warm trainer taking a run) without
Qt, gui.run_controller gives it a process, and the window shows each change of state the session reports.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QCloseEvent, QGuiApplication, QShowEvent
from PySide6.QtWidgets import (
    QGroupBox,
    QLabel,
    QMainWindow,
    QMessageBox,
    QScrollArea,
    QSplitter,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from engine.core.config import RunConfig
from engine.core.logs.stall import STALLED
from engine.core.logs.tf_log import source_tag
from engine.core.nvml import Nvml
from engine.core.problems import ConfigError
from engine.core.protocol.codes import STOP_GRACE_S
from engine.core.protocol.commands import cluster_command, cluster_file_command, resume_command, trainer_command
from engine.core.protocol.paths import runs_root
from engine.core.session import IDLE, STARTING, STOPPING, Commands, Plan, RunSession
from engine.core.tfconfig import CLUSTER_STRATEGIES
from gui import config_files, settings
from gui.closing import Closing, ask_about_closing
from gui.cluster.editor import ClusterEditor
from gui.cluster.export_dialog import ClusterExportDialog
from gui.exports import add_export_action
from gui.form.device_probe import DeviceProbe, ProbeResult
from gui.form.devices_panel import DevicesPanel
from gui.form.run_form import RunForm
from gui.i18n import problem_text
from gui.keyboard import order_tabs_by_layout
from gui.live.controls import RunControls
from gui.live.gpu_monitor import GpuMonitor
from gui.live.gpu_recorder import GpuRecorder
from gui.live.log_view import LogView
from gui.live.plots import TrainingPlots
from gui.live.stacks_view import StacksDialog
from gui.live.warm_trainer import FirstStepLabel, WarmTrainer
from gui.live.watching import LiveViews, LiveWatch
from gui.live.workers_panel import WorkersPanel
from gui.menus import build_menus
from gui.run_controller import RunController
from gui.runner import TrainingRunner
from gui.runs.panel import RunsPanel
from gui.runs.scaling_dialog import ScalingDialog
from gui.statuses import run_status_name, worker_state_name
from gui.sweep.setup_dialog import SweepDialog

WARM_TRAINER_DELAY_MS = 500  # the warm trainer starts once the window is drawn: it never delays the window


class MainWindow(QMainWindow):
    """Devices and run form on the left; tabs on the right: the live run (controls, plots, workers, log),
    past runs, and the cluster editor."""

    def __init__(
        self,
        *,
        start_probe: bool = True,
        command_for: Callable[[Path, Path], list[str]] = trainer_command,
        cluster_command_for: Callable[..., list[str]] = cluster_command,
        cluster_file_command_for: Callable[[Path, Path, Path], list[str]] = cluster_file_command,
        resume_command_for: Callable[[Path, int], list[str]] = resume_command,
        grace_seconds: float = STOP_GRACE_S,
        runs_dir: Path | None = None,
        warm_trainer_command: list[str] | None = None,
        gpu_reader: Nvml | None = None,
        stall_seconds: float | None = None,
    ) -> None:
        """The `*_command_for` arguments start the run's children (engine.core.session.Commands; tests pass fakes);
        `warm_trainer_command` keeps a warm trainer of that command
        (engine.core.protocol.commands.warm_trainer_command);
        `gpu_reader` reads NVML (default: this process's engine.core.nvml reader); `stall_seconds` is how long a
        run of one trainer may go without step progress (default: derived from its step times,
        engine.core.logs.stall)."""
        super().__init__()
        # the app's display name alone: Qt appends it to any other title ("X — TF Distributed Dashboard")
        self.setWindowTitle(QGuiApplication.applicationDisplayName())
        self._runs_dir = runs_dir
        commands = Commands(command_for, cluster_command_for, cluster_file_command_for, resume_command_for)
        self.session = RunSession(self._runs_root(), commands, grace_seconds, stall_seconds)
        self.last_dialog: QMessageBox | None = None
        self.scaling_dialog: ScalingDialog | None = None
        self.sweep_dialog: SweepDialog | None = None
        self.export_dialog: ClusterExportDialog | None = None
        self.warm_trainer = (
            WarmTrainer(warm_trainer_command, settings.load_warm_trainer(), self) if warm_trainer_command else None
        )
        self.run = RunController(self, self.session, self.warm_trainer)
        self._build_panels(gpu_reader)
        self._build_layout()
        self.menus = build_menus(self)
        self._build_status_bar()
        order_tabs_by_layout(self.form)  # Tab follows the form top to bottom, not the order it was built in
        self._connect()
        self._restore()
        if start_probe:
            self.probe.start()

    # ---- assembly -------------------------------------------------------------
    def _build_panels(self, gpu_reader: Nvml | None) -> None:
        self.devices = DevicesPanel()
        self.form = RunForm()
        self.controls = RunControls()
        self.plots = TrainingPlots()
        self.log = LogView()
        self.workers = WorkersPanel()
        self.runs = RunsPanel(self._runs_root())
        self.cluster = ClusterEditor()
        self.first_step = FirstStepLabel()
        self.live = LiveViews(
            self.plots,
            self.log,
            self.workers,
            self.controls,
            self.run.on_events,
            self.run.on_finished,
            self.run.on_failed,
            self.session.watch_over,
        )
        self.watching = LiveWatch(self.live, self)
        self.gpu_monitor = GpuMonitor(gpu_reader, parent=self)
        self.gpu_recorder = GpuRecorder()
        self.probe = DeviceProbe(parent=self)

    def _connect(self) -> None:
        """What each panel's signals do: the run's are the controller's, the rest the window's."""
        self.session.listeners.append(self._on_state)
        self.form.changed.connect(self.on_form_changed)
        self.controls.start.clicked.connect(self.run.start)
        self.controls.stop.clicked.connect(self.run.ask_stop)
        self.controls.profile_requested.connect(lambda steps: self.runner and self.runner.request_profile(steps))
        self.runs.reopen_requested.connect(self.reopen_config)
        self.runs.resume_requested.connect(self.run.resume)
        self.runs.watch_requested.connect(self.watch_run)
        self.runs.scaling_requested.connect(self.open_scaling_study)
        self.runs.sweep_requested.connect(lambda folder: self.open_sweep().open_sweep(folder))
        self.cluster.export_requested.connect(self.export_cluster)
        self.cluster.start_requested.connect(self.run.start_cluster)
        self.cluster.start_on_machines_requested.connect(self.run.start_cluster_on_machines)
        self.workers.worker_chosen.connect(lambda worker: self.log.filter.setText(source_tag(worker)))
        self.plots.anatomy.remedies.apply_requested.connect(  # Apply: a change the verdict offered, into the form
            lambda changes: self.form.set_config(self.plots.anatomy.remedies.applied(self.form.evaluate()[0], changes))
        )
        plots = self.plots
        for plot in (plots.loss, plots.accuracy, plots.throughput, plots.anatomy.plot, plots.gpus):
            add_export_action(plot)
        self.gpu_monitor.samples_ready.connect(self.devices.update_samples)
        self.gpu_monitor.samples_ready.connect(lambda s: self.plots.add_gpu_samples(self.gpu_recorder.take(s)))
        self.gpu_monitor.unavailable.connect(self.devices.set_nvml_unavailable)
        self.probe.probe_ready.connect(self.apply_probe)
        self.probe.probe_failed.connect(self.devices.set_probe_failed)

    def _build_layout(self) -> None:
        devices_box = QGroupBox(self.tr("Devices"))
        QVBoxLayout(devices_box).addWidget(self.devices)
        left = QWidget()
        left_layout = QVBoxLayout(left)
        left_layout.addWidget(devices_box)
        left_layout.addWidget(self.form, 1)
        scroll = QScrollArea()
        scroll.setWidget(left)
        scroll.setWidgetResizable(True)
        scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        scroll.setMinimumWidth(380)
        top = QWidget()
        top_layout = QVBoxLayout(top)
        top_layout.setContentsMargins(0, 0, 6, 0)
        top_layout.addWidget(self.watching.banner)
        top_layout.addWidget(self.controls)
        top_layout.addWidget(self.plots, 1)
        right = QSplitter(Qt.Orientation.Vertical)
        right.addWidget(top)
        right.addWidget(self.workers)
        right.addWidget(self.log)
        right.setSizes([560, 130, 200])
        self.tabs = QTabWidget(objectName="mainTabs")
        self.live_tab = right
        self.tabs.addTab(right, self.tr("Live"))
        self.tabs.addTab(self.runs, self.tr("Runs"))
        self.tabs.addTab(self.cluster, self.tr("Cluster"))
        self.splitter = QSplitter(Qt.Orientation.Horizontal, objectName="mainSplitter")
        self.splitter.addWidget(scroll)
        self.splitter.addWidget(self.tabs)
        self.splitter.setStretchFactor(1, 1)
        self.splitter.setSizes([440, 960])
        self.setCentralWidget(self.splitter)
        self.resize(1400, 900)

    def show_about(self) -> QMessageBox:
        """What the dashboard is, and the keys that drive it."""
        box = QMessageBox(QMessageBox.Icon.Information, self.tr("About"), self.about_text(), parent=self)
        box.open()
        self.last_dialog = box
        return box

    def about_text(self) -> str:
        return self.tr(
            "TF Distributed Dashboard: configure, run and compare tf.distribute training.\n\n"
            "Keys: Ctrl+Return starts a run, Esc stops it (after asking), Ctrl+1 … Ctrl+{tabs} show the tabs, "
            "Alt with an underlined letter moves to that field."
        ).format(tabs=self.tabs.count())

    def _build_status_bar(self) -> None:
        self.status_labels = {
            key: QLabel(objectName=f"status_{key}") for key in ("strategy", "replicas", "per_replica", "state")
        }
        self.warm_label = QLabel(objectName="status_warm")
        if self.warm_trainer is not None:
            self.warm_trainer.state_changed.connect(self.warm_label.setText)
        for label in (self.warm_label, self.first_step, *self.status_labels.values()):
            self.statusBar().addPermanentWidget(label)
        self._show_state()

    def _restore(self) -> None:
        config_files.restore_last_config(self)
        self.on_form_changed()
        geometry, state = settings.load_window()
        if geometry is not None:
            self.restoreGeometry(geometry)
        if state is not None:
            self.restoreState(state)

    # ---- form and devices -----------------------------------------------------------
    def apply_probe(self, result: ProbeResult) -> None:
        """Show probed devices, offer them in the form and watch GPUs with NVML."""
        self.devices.set_probe(result)
        self.form.set_probe(result)
        if self.devices.gpu_matches():
            self.gpu_monitor.watch(self.devices.gpu_matches())

    def on_form_changed(self) -> None:
        config, replicas = self.refresh_start()
        self.cluster.set_strategy(config.strategy)
        if not self.session.active and not self.watching.active:  # else the run's own plan stays shown
            self.show_plan(Plan.of(config.strategy, replicas, config.global_batch_size))
            self.workers.setVisible(config.strategy in CLUSTER_STRATEGIES or bool(self.workers.workers()))

    def refresh_start(self) -> tuple[RunConfig, int | None]:
        """Show the form's problems and enable Start only when there are none (saying why not)."""
        config, replicas, problems = self.form.evaluate()
        self.form.show_problems(problems)
        self.form.show_per_replica(config, replicas)
        if self.session.active:
            self.controls.set_start_allowed(False)  # Stop is the action now; nothing to explain
            return config, replicas
        reason = ""
        if problems:
            fields = ", ".join(dict.fromkeys(p.field for p in problems))
            reason = self.tr("Fix %n problem(s) first ({fields}).", "", len(problems)).format(fields=fields)
        self.controls.set_start_allowed(not reason, reason)
        return config, replicas

    def show_plan(self, plan: Plan) -> None:
        self.status_labels["strategy"].setText(self.tr("strategy: {strategy}").format(strategy=plan.strategy))
        self.status_labels["replicas"].setText(self.tr("replicas: {replicas}").format(replicas=plan.replicas or "?"))
        per = plan.per_replica if plan.per_replica is not None else "?"
        self.status_labels["per_replica"].setText(self.tr("per-replica batch: {per}").format(per=per))

    def show_running(self, running: bool, one_trainer: bool = False) -> None:
        """While the window's own run trains: the form locked, Stop offered, and the trainer's stacks at hand for a
        run of one trainer."""
        self.menus.stacks_action.setEnabled(running and one_trainer)
        self.form.setEnabled(not running)
        self.controls.set_running(running)

    def _on_state(self, before: str, now: str) -> None:
        """The session's state changed: the status bar shows it, and says where a stalled run waits."""
        self._show_state()
        if now == STALLED:
            said = self.tr("No step progress: Run › Show the trainer's Python stacks tells where it waits")
            self.statusBar().showMessage(said, 15000)

    def _show_state(self) -> None:
        state = self.session.state
        names = {
            IDLE: self.tr("idle"),
            STARTING: self.tr("starting"),
            STOPPING: self.tr("stopping"),
            STALLED: worker_state_name(STALLED),
        }
        name = names.get(state) or run_status_name(state)
        self.status_labels["state"].setText(self.tr("state: {state}").format(state=name))

    # ---- config files (their dialogs: gui.config_files) ----------------------------------------------
    def open_config(self, path: str | Path) -> bool:
        """The config in `path` in the form; False, saying every problem of it, when it cannot be used."""
        try:
            config = RunConfig.load(path)
        except ConfigError as exc:
            self.message(
                QMessageBox.Icon.Warning,
                self.tr("Cannot open config"),
                self.tr("{path} has %n problem(s):", "", len(exc.problems)).format(path=path),
                "\n".join(f"• {problem_text(p)}" for p in exc.problems),
            )
            return False
        self.form.set_config(config)
        self.statusBar().showMessage(self.tr("Opened {path}").format(path=path), 5000)
        return True

    def save_config(self, path: str | Path) -> None:
        """The form's config in `path`, problems and all (the status bar says how many it still has)."""
        config, _, problems = self.form.evaluate()
        config.save(path)
        note = self.tr(" (it still has %n problem(s))", "", len(problems)) if problems else ""
        self.statusBar().showMessage(self.tr("Saved {path}{note}").format(path=path, note=note), 5000)

    def export_form_script(self) -> None:
        config_files.export_form_script(self)

    # ---- the run (gui.run_controller) ----------------------------------------------
    @property
    def runner(self) -> TrainingRunner | None:
        return self.run.runner

    def start_run(self) -> None:
        self.run.start()

    def ask_stop(self) -> None:
        self.run.ask_stop()

    def stop_run(self) -> None:
        self.run.stop()

    def show_trainer_stacks(self) -> StacksDialog | None:
        return self.run.show_stacks()

    def show_live(self) -> None:
        self.tabs.setCurrentWidget(self.live_tab)

    def watch_run(self, run_dir: Path) -> None:
        """Follow a run another process trains in the Live tab (this window's own run is there already)."""
        self.show_live()
        if not self.session.active:
            self.watching.watch(run_dir)

    # ---- runs, scaling, scripts -------------------------------------------------------
    def _runs_root(self) -> Path:
        return self._runs_dir or runs_root()

    def reopen_config(self, config: RunConfig) -> None:
        """A past run's config in the form, to run again with changes."""
        self.form.set_config(config)
        self.show_live()
        self.statusBar().showMessage(self.tr("Loaded the run's config into the form"), 5000)

    def open_scaling_study(self) -> None:
        if self.scaling_dialog is None:
            self.scaling_dialog = ScalingDialog(self._runs_root(), parent=self)
        self.scaling_dialog.set_config(self.form.evaluate()[0])
        self.scaling_dialog.show()
        self.scaling_dialog.activateWindow()

    def open_sweep(self) -> SweepDialog:
        """The Sweep dialog for the form's config, on the GPUs the device probe found."""
        if self.sweep_dialog is None:
            self.sweep_dialog = SweepDialog(self._runs_root(), parent=self)
            self.sweep_dialog.config_chosen.connect(self.reopen_config)
        self.sweep_dialog.set_config(self.form.evaluate()[0], [d.name for d in self.devices.gpus])
        self.sweep_dialog.show()
        self.sweep_dialog.activateWindow()
        return self.sweep_dialog

    def export_cluster(self) -> ClusterExportDialog:
        """The Cluster tab's cluster with the form's config, as a bundle for other machines."""
        cluster = self.cluster.cluster()
        config, _, problems = self.form.evaluate(workers=self.run.table_workers())
        if self.export_dialog is not None:
            self.export_dialog.deleteLater()
        self.export_dialog = ClusterExportDialog(
            cluster, config, problems, self._runs_root().parent / "tfdd-cluster-bundle", parent=self
        )
        self.export_dialog.open()
        return self.export_dialog

    def message(self, icon: QMessageBox.Icon, title: str, text: str, details: str = "") -> None:
        """A window-modal message that does not block the event loop (plots keep drawing)."""
        box = QMessageBox(icon, title, text, QMessageBox.StandardButton.Ok, self)
        if details:
            box.setDetailedText(details)
        box.setWindowModality(Qt.WindowModality.WindowModal)
        box.open()
        self.last_dialog = box

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        if self.warm_trainer is not None and not event.spontaneous():
            QTimer.singleShot(WARM_TRAINER_DELAY_MS, self.warm_trainer.start_next)

    # ---- closing ---------------------------------------------------------------
    def closeEvent(self, event: QCloseEvent) -> None:
        if not self.session.closing:  # else Stop was chosen: the window closes when the trainer has gone
            choice = self._ask_closing()
            if choice == Closing.CANCEL:
                event.ignore()
                return
            if choice == Closing.KEEP:
                self.run.keep_running()  # before shutdown() stops them for good
                if self.sweep_dialog is not None:
                    self.sweep_dialog.shutdown(keep_running=True)
            elif self.session.active:
                self.run.stop(closing=True)
        if self.session.active and self.session.closing:
            event.ignore()
            return
        self.shutdown()
        settings.save_last_config(self.form.evaluate()[0])
        settings.save_window(self.saveGeometry(), self.saveState())
        super().closeEvent(event)

    def _ask_closing(self) -> Closing:
        """Keep what trains going without the window, stop it, or stay open; nothing trains: stop (close). A run
        the user has asked to stop is not offered: keeping it would start it again."""
        stopping = self.session.launch is None or self.session.state == STOPPING
        run = None if stopping else self.session.launch.run_dir
        sweeps = [v.sweep_dir for v in self.sweep_dialog.training_views()] if self.sweep_dialog is not None else []
        return ask_about_closing(self, run, sweeps) if run is not None or sweeps else Closing.STOP

    def shutdown(self) -> None:
        """End every child process and thread now; the app's last word (aboutToQuit, close)."""
        self.probe.cancel()
        self.form.model_form.summary.cancel()
        self.gpu_monitor.stop()
        self.runs.shutdown()
        if self.warm_trainer is not None:
            self.warm_trainer.shutdown()
        if self.scaling_dialog is not None:
            self.scaling_dialog.shutdown()
        self.plots.anatomy.remedies.shutdown()
        self.watching.stop()
        if self.sweep_dialog is not None:
            self.sweep_dialog.shutdown()
        self.run.shutdown()
        self.session.close()
