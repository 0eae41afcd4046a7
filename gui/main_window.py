"""The main window: assembles the panels and drives one run at a time.

Data flows one way: form → RunConfig → trainer process → events → plots,
progress, log and status bar. The window owns the lifecycle of a run
(start, stop, close during a run); the panels only show what they are given.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QAction, QCloseEvent, QGuiApplication, QKeySequence, QShowEvent
from PySide6.QtWidgets import (
    QFileDialog,
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

from engine.core import events as ev
from engine.core.config import RunConfig
from engine.core.exports.script import export_script, script_problems
from engine.core.logs.stall import STALLED, TRAINER_TASK, StallWatch
from engine.core.nvml import Nvml
from engine.core.problems import ConfigError, RunDirError
from engine.core.protocol.codes import STOP_GRACE_S, RunStatus
from engine.core.protocol.commands import (
    assignment_line,
    cluster_command,
    cluster_file_command,
    resume_command,
    trainer_command,
)
from engine.core.protocol.paths import RunPaths, runs_root
from engine.core.session import IDLE, STARTING, STOPPING, ClusterShape, Commands, Launch, Plan, RunSession
from engine.core.tfconfig import CLUSTER_STRATEGIES, TRAINING_JOBS, errors, run_problems
from gui import settings
from gui.announce import announce
from gui.cluster.editor import ClusterEditor
from gui.cluster.export_dialog import ClusterExportDialog
from gui.exports import add_export_action, save_as
from gui.form.device_probe import DeviceProbe, ProbeResult
from gui.form.devices_panel import DevicesPanel
from gui.form.run_form import RunForm
from gui.i18n import problem_text, translate
from gui.keyboard import START_KEYS, STOP_KEYS, button_action, order_tabs_by_layout, tab_actions
from gui.live.controls import RunControls
from gui.live.gpu_monitor import GpuMonitor
from gui.live.gpu_recorder import GpuRecorder, run_gpus
from gui.live.log_view import LogView
from gui.live.plots import TrainingPlots
from gui.live.spare import FirstStepLabel, WarmTrainer
from gui.live.stacks_view import StacksDialog
from gui.live.watching import LiveViews, LiveWatch
from gui.live.workers_panel import WorkersPanel
from gui.preferences import add_frame_rate_menu, add_language_menu, add_view_menu
from gui.runner import TrainingRunner, kill_live_processes, source_tag
from gui.runs.panel import RunsPanel
from gui.runs.scaling_dialog import ScalingDialog
from gui.statuses import run_status_name, worker_state_name
from gui.sweep.setup_dialog import SweepDialog

SPARE_DELAY_MS = 500  # the warm trainer starts once the window is drawn: it never delays the window


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
        spare_command: list[str] | None = None,
        gpu_reader: Nvml | None = None,
        stall_seconds: float | None = None,
    ) -> None:
        """The `*_command_for` arguments start the run's children (engine.core.session.Commands; tests pass fakes);
        `spare_command` keeps a warm trainer of that command (engine.core.protocol.commands.spare_command);
        `gpu_reader` reads NVML (default: this process's engine.core.nvml reader); `stall_seconds` is how long a
        run of one trainer may go without step progress (default: derived from its step times,
        engine.core.logs.stall)."""
        super().__init__()
        # the app's display name alone: Qt appends it to any other title ("X — TF Distributed Dashboard")
        self.setWindowTitle(QGuiApplication.applicationDisplayName())
        self._grace_seconds = grace_seconds
        self._stall_seconds = stall_seconds
        self._runs_dir = runs_dir
        self.session = RunSession(
            self._runs_root(), Commands(command_for, cluster_command_for, cluster_file_command_for, resume_command_for)
        )
        self.runner: TrainingRunner | None = None
        self._trainer_pid: int | None = None  # the running child's process id
        self.stacks_dialog: StacksDialog | None = None
        self._close_when_done = False
        self.last_dialog: QMessageBox | None = None

        self.devices = DevicesPanel()
        self.form = RunForm()
        self.controls = RunControls()
        self.plots = TrainingPlots()
        self.log = LogView()
        self.workers = WorkersPanel()
        self.runs = RunsPanel(self._runs_root())
        self.cluster = ClusterEditor()
        self.scaling_dialog: ScalingDialog | None = None
        self.sweep_dialog: SweepDialog | None = None
        self.export_dialog: ClusterExportDialog | None = None
        self.spare = WarmTrainer(spare_command, settings.load_warm_trainer(), self) if spare_command else None
        self.first_step = FirstStepLabel()
        self.watching = LiveWatch(
            LiveViews(
                self.plots,
                self.log,
                self.workers,
                self.controls,
                self._on_events,
                self._on_run_finished,
                self._on_run_failed,
                self._on_watch_left,
            ),
            self,
        )
        self._build_layout()
        self._build_menus()
        self._build_status_bar()
        order_tabs_by_layout(self.form)  # Tab follows the form top to bottom, not the order it was built in

        self.form.changed.connect(self._on_form_changed)
        self.controls.start.clicked.connect(self.start_run)
        self.controls.stop.clicked.connect(self.ask_stop)
        self.controls.profile_requested.connect(lambda steps: self.runner and self.runner.request_profile(steps))
        self.runs.reopen_requested.connect(self.reopen_config)
        self.runs.resume_requested.connect(self.resume_run)
        self.runs.watch_requested.connect(self.watch_run)
        self.runs.scaling_requested.connect(self.open_scaling_study)
        self.cluster.export_requested.connect(self.export_cluster)
        self.cluster.start_requested.connect(self.start_cluster_here)
        self.cluster.start_on_machines_requested.connect(self.start_cluster_on_machines)
        self.workers.worker_chosen.connect(lambda worker: self.log.filter.setText(source_tag(worker)))
        plots = self.plots
        for plot in (plots.loss, plots.accuracy, plots.throughput, plots.anatomy.plot, plots.gpus):
            add_export_action(plot)
        self.gpu_monitor = GpuMonitor(gpu_reader, parent=self)
        self.gpu_recorder = GpuRecorder()
        self.gpu_monitor.samples_ready.connect(self.devices.update_samples)
        self.gpu_monitor.samples_ready.connect(lambda s: self.plots.add_gpu_samples(self.gpu_recorder.take(s)))
        self.gpu_monitor.unavailable.connect(self.devices.set_nvml_unavailable)
        self.probe = DeviceProbe(parent=self)
        self.probe.probe_ready.connect(self.apply_probe)
        self.probe.probe_failed.connect(self.devices.set_probe_failed)

        self._restore()
        if start_probe:
            self.probe.start()

    # ---- assembly -------------------------------------------------------------
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

    def _build_menus(self) -> None:
        file_menu = self.menuBar().addMenu(self.tr("&File"))
        for text, shortcut, slot in (
            (self.tr("&Open config…"), QKeySequence.StandardKey.Open, self._open_config_dialog),
            (self.tr("&Save config as…"), QKeySequence.StandardKey.Save, self._save_config_dialog),
            (self.tr("&Quit"), QKeySequence.StandardKey.Quit, self.close),
        ):
            action = QAction(text, self, shortcut=shortcut)
            action.triggered.connect(slot)
            file_menu.addAction(action)
        run_menu = self.menuBar().addMenu(self.tr("&Run"))
        self.start_action = button_action(self.controls.start, self.tr("&Start"), START_KEYS, self.start_run, self)
        self.stop_action = button_action(self.controls.stop, self.tr("S&top…"), STOP_KEYS, self.ask_stop, self)
        run_menu.addActions([self.start_action, self.stop_action])
        self.stacks_action = QAction(self.tr("Show the trainer's &Python stacks…"), self, enabled=False)
        self.stacks_action.triggered.connect(self.show_trainer_stacks)
        run_menu.addAction(self.stacks_action)
        run_menu.addSeparator()
        for text, slot in (
            (self.tr("&Scaling study…"), self.open_scaling_study),
            (self.tr("S&weep…"), self.open_sweep),
            (self.tr("&Export form as script…"), self.export_form_script),
            (self.tr("Export &cluster for other machines…"), self.export_cluster),
        ):
            action = QAction(text, self)
            action.triggered.connect(slot)
            run_menu.addAction(action)
        run_menu.addSeparator()
        if self.spare is not None:
            self.warm_action = self.spare.toggle_action(self)
            self.warm_action.toggled.connect(settings.save_warm_trainer)
            run_menu.addAction(self.warm_action)
        run_menu.addAction(self.runs.refresh_action)
        self.view_menu = add_view_menu(self.menuBar())
        self.view_menu.addSeparator()
        self.frame_rate_menu = add_frame_rate_menu(self.view_menu, self.plots)
        self.tab_actions = tab_actions(self.tabs, self)
        self.language_menu = add_language_menu(self.menuBar(), self, lambda: self.runner is None)
        help_menu = self.menuBar().addMenu(self.tr("&Help"))
        about = QAction(self.tr("&About"), self)
        about.triggered.connect(self.show_about)
        help_menu.addAction(about)

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
        self.spare_label = QLabel(objectName="status_spare")
        if self.spare is not None:
            self.spare.state_changed.connect(self.spare_label.setText)
        for label in (self.spare_label, self.first_step, *self.status_labels.values()):
            self.statusBar().addPermanentWidget(label)
        self._show_state()

    def _restore(self) -> None:
        config, why = settings.load_last_config()
        if config is not None:
            try:
                self.form.set_config(config)
            except Exception as exc:  # noqa: BLE001 - whatever it is, the window must open: defaults, and say so
                why = self.tr("the stored run config cannot be shown ({error})").format(
                    error=f"{type(exc).__name__}: {exc}"
                )
                self.form.set_config(RunConfig())
        if why:
            note = self.tr(
                "The last session's settings were not restored ({why}); the form starts from the defaults."
            ).format(why=translate(why))
            self.statusBar().showMessage(note, 30_000)
            self.log.append_lines([f"[dashboard] {note}"])
        self._on_form_changed()
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

    def _on_form_changed(self) -> None:
        config, replicas = self._refresh_start()
        self.cluster.set_strategy(config.strategy)
        if self.runner is None and not self.watching.active:  # else the run's own plan stays shown
            self._show_plan(Plan.of(config.strategy, replicas, config.global_batch_size))
            self.workers.setVisible(config.strategy in CLUSTER_STRATEGIES or bool(self.workers.workers()))

    def _refresh_start(self) -> tuple[RunConfig, int | None]:
        """Show the form's problems and enable Start only when there are none (saying why not)."""
        config, replicas, problems = self.form.evaluate()
        self.form.show_problems(problems)
        self.form.show_per_replica(config, replicas)
        if self.runner is not None:
            self.controls.set_start_allowed(False)  # Stop is the action now; nothing to explain
            return config, replicas
        reason = ""
        if problems:
            fields = ", ".join(dict.fromkeys(p.field for p in problems))
            reason = self.tr("Fix %n problem(s) first ({fields}).", "", len(problems)).format(fields=fields)
        self.controls.set_start_allowed(not reason, reason)
        return config, replicas

    def _show_plan(self, plan: Plan) -> None:
        self.status_labels["strategy"].setText(self.tr("strategy: {strategy}").format(strategy=plan.strategy))
        self.status_labels["replicas"].setText(self.tr("replicas: {replicas}").format(replicas=plan.replicas or "?"))
        per = plan.per_replica if plan.per_replica is not None else "?"
        self.status_labels["per_replica"].setText(self.tr("per-replica batch: {per}").format(per=per))

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

    # ---- config files -----------------------------------------------------------
    def open_config(self, path: str | Path) -> bool:
        try:
            config = RunConfig.load(path)
        except ConfigError as exc:
            self._message(
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
        config, _, problems = self.form.evaluate()
        config.save(path)
        note = self.tr(" (it still has %n problem(s))", "", len(problems)) if problems else ""
        self.statusBar().showMessage(self.tr("Saved {path}{note}").format(path=path, note=note), 5000)

    def _open_config_dialog(self) -> None:
        path, _ = QFileDialog.getOpenFileName(
            self, self.tr("Open run config"), "", self.tr("Run configs (*.json);;All files (*)")
        )
        if path:
            self.open_config(path)

    def _save_config_dialog(self) -> None:
        path, _ = QFileDialog.getSaveFileName(
            self, self.tr("Save run config"), "run.json", self.tr("Run configs (*.json)")
        )
        if path:
            self.save_config(path)

    # ---- a run ----------------------------------------------------------------
    def start_run(self) -> None:
        """Start the form's config: one trainer process, or a local cluster for a cluster strategy."""
        config, _, problems = self.form.evaluate()
        if problems or self.runner is not None:
            return
        shape = ClusterShape(*self.form.local_cluster_shape()) if config.strategy in CLUSTER_STRATEGIES else None
        self._launch(lambda: self.session.start(config, shape), config)

    def start_cluster_on_machines(self) -> None:
        """The Cluster tab's tasks, each started over SSH on the machine its row names, with the form's config."""
        self.start_cluster_here(self.cluster.machine_rows())

    def start_cluster_here(self, machines: list[str] | None = None) -> None:
        """The Cluster tab's tasks, as its table says them (127.0.0.1, its ports), with the form's config;
        `machines`: each task's machine to start it on over SSH instead."""
        config, _, problems = self.form.evaluate(workers=self._table_workers())
        if self.runner is not None:
            return
        if problems:
            fields = ", ".join(dict.fromkeys(p.field for p in problems))
            self._message(
                QMessageBox.Icon.Warning,
                self.tr("Cannot start the cluster"),
                self.tr("Fix the run form first ({fields}).").format(fields=fields),
            )
            return
        cluster = self.cluster.cluster()
        blockers = errors(run_problems(cluster, config))
        if blockers:  # e.g. an evaluator row while the form has no validation split: said before any process starts
            self._message(
                QMessageBox.Icon.Warning,
                self.tr("Cannot start the cluster"),
                "\n".join(f"{p.location}: {translate(p.message)}" for p in blockers),
            )
            return
        self.tabs.setCurrentWidget(self.live_tab)
        self._launch(lambda: self.session.start_cluster(config, cluster, self.cluster.cluster_json(), machines), config)

    def _table_workers(self) -> int:
        cluster = self.cluster.cluster()
        return sum(len(cluster.addresses(j)) for j in TRAINING_JOBS)

    def resume_run(self, run_dir: Path) -> None:
        """Continue a stopped or killed run from its checkpoint, by the same path as a fresh run."""
        if self.runner is None:
            self.tabs.setCurrentWidget(self.live_tab)
            known = self.runs.summary_of(run_dir)
            self._launch(lambda: self.session.resume(run_dir, known.num_workers if known is not None else 1))

    def _launch(self, prepare: Callable[[], Launch], config: RunConfig | None = None) -> None:
        """Prepare the run with the session (saying why if it cannot be), start its process (a ready warm
        trainer takes a run that allows one) and wire its signals to the views. `config`: a fresh run's,
        kept as the form's last settings."""
        self.watching.stop()  # one run in the Live tab: a watched one trains on without it
        try:
            launch = prepare()
        except (OSError, RunDirError) as exc:  # RunDirError: e.g. the runs folder is a file
            text = translate(exc.args[0]) if isinstance(exc, RunDirError) else str(exc)
            self._message(QMessageBox.Icon.Critical, self.tr("Cannot start the run"), text)
            return
        if config is not None:
            settings.save_last_config(config)
        warm_args = launch.warm_args
        warm = self.spare.take(dict(os.environ)) if self.spare is not None and warm_args is not None else None
        stderr_log = RunPaths(launch.run_dir).stderr_log
        runner = TrainingRunner(
            launch.command,
            grace_seconds=launch.grace_seconds(self._grace_seconds),
            stderr_log=stderr_log,
            warm=warm,
            assignment=assignment_line(warm_args) if warm is not None and warm_args is not None else "",
            stalls=None if launch.tasks else StallWatch(self._stall_seconds),  # a launcher watches its own tasks
            parent=self,
        )
        runner.process_started.connect(self._on_process_started)
        runner.events_ready.connect(self._on_events)
        runner.log_lines.connect(self.log.append_lines)
        runner.run_finished.connect(self._on_run_finished)
        runner.run_failed.connect(self._on_run_failed)
        runner.finished.connect(self._on_runner_done)
        self.runner = runner
        self.plots.reset()
        self.workers.reset(expected=launch.tasks)
        self.workers.setVisible(bool(launch.tasks))
        if launch.tasks:
            self._fit_workers_panel(launch.tasks)
        self.runs.set_active_run(launch.run_dir)
        self.gpu_recorder.start(launch.run_dir, self._gpus_of(launch.config_file, launch.tasks))
        self.log.begin_run(stderr_log)
        how = self.tr(" (warm trainer, pid {pid})").format(pid=warm.process.pid) if warm is not None else ""
        if warm is None and self.spare is not None and warm_args is not None:
            how = self.tr(" (a fresh trainer: {why})").format(why=self.spare.declined)
        line = self.tr("{what} in {folder}{how}").format(what=translate(launch.what), folder=launch.run_dir, how=how)
        self.log.append_lines([f"[dashboard] {line}"])
        self.first_step.run_started(warm is not None)
        self.stacks_action.setEnabled(not launch.tasks)
        self.form.setEnabled(False)
        self.controls.set_running(True)
        self._show_state()
        self._on_form_changed()
        runner.start()
        announce(self, self.tr("Run started"))

    def _fit_workers_panel(self, tasks: int) -> None:
        """Give the cluster tasks panel room for every task (within reason), taken from the plots."""
        sizes = self.live_tab.sizes()
        table = self.workers.table
        wanted = min(60 + table.verticalHeader().defaultSectionSize() * (tasks + 1), sum(sizes) // 3)
        if len(sizes) == 3 and sizes[1] < wanted:
            self.live_tab.setSizes([sizes[0] - (wanted - sizes[1]), wanted, sizes[2]])

    def ask_stop(self) -> None:
        answer = QMessageBox.question(
            self, self.tr("Stop the run?"), self.tr("The trainer saves a checkpoint and stops. Stop now?")
        )
        if answer == QMessageBox.StandardButton.Yes:
            self.stop_run()

    def stop_run(self) -> None:
        if self.runner is not None:
            self.runner.request_stop()
            self.session.request_stop()
            self.controls.set_stopping()
            self._show_state()
        else:
            self.watching.stop_run()

    def watch_run(self, run_dir: Path) -> None:
        """Follow a run another process trains in the Live tab (this window's own run is there already)."""
        self.tabs.setCurrentWidget(self.live_tab)
        if self.runner is None:
            self.watching.watch(run_dir)

    def _on_watch_left(self) -> None:
        if not self.session.active:
            self.session.ended(IDLE)  # the status bar's state was the watched run's
            self._show_state()

    def _on_events(self, events: list[ev.Event]) -> None:
        if self.first_step.add_events(events) and self.spare is not None:
            self.spare.replenish()  # after the run's first step: two imports never slow a run's start
        self.plots.add_events(events)
        self.controls.add_events(events)
        self.workers.add_events(events)
        state = self.session.state
        plan = self.session.observe(events)
        if plan is not None:  # the engine's numbers replace the form's plan (in sync, all workers)
            self._show_plan(plan)
        if self.session.state != state:
            self._show_state()
        if self.session.state == STALLED and state != STALLED:
            said = self.tr("No step progress: Run › Show the trainer's Python stacks tells where it waits")
            self.statusBar().showMessage(said, 15000)

    def _on_process_started(self, pid: int) -> None:
        self._trainer_pid = pid

    def show_trainer_stacks(self) -> StacksDialog | None:
        """The running trainer's Python stacks (a local cluster's tasks have theirs in the tasks panel)."""
        if self.runner is None or self._trainer_pid is None:
            return None
        self.stacks_dialog = StacksDialog(TRAINER_TASK, self._trainer_pid, self)
        self.stacks_dialog.show()
        return self.stacks_dialog

    def _on_run_finished(self, status: str, run_dir: str) -> None:
        self.session.ended(status)
        self._show_state()
        name = run_status_name(status)
        self.controls.show_end(self.tr("run {status}").format(status=name) + (f" — {run_dir}" if run_dir else ""))
        self.statusBar().showMessage(
            self.tr("Run {status}. Results in {folder}").format(
                status=name, folder=run_dir or self.tr("the run directory")
            ),
            10000,
        )
        announce(self, self.tr("Run {status}").format(status=name))

    def _on_run_failed(self, message: str, log_tail: str) -> None:
        self.session.ended(RunStatus.FAILED)
        self._show_state()
        self.controls.show_end(self.tr("run failed"))
        message = translate(message)
        self.statusBar().showMessage(self.tr("Run failed: {message}").format(message=message), 10000)
        announce(self, self.tr("Run failed: {message}").format(message=message), urgent=True)
        if not self._close_when_done:
            self._message(QMessageBox.Icon.Critical, self.tr("The run failed"), message, log_tail)

    def _on_runner_done(self) -> None:
        """The thread and its process are gone: clean up and make the window ready again."""
        if self.runner is not None:
            self.runner.deleteLater()
        self.runner = None
        self._trainer_pid = None
        self.stacks_action.setEnabled(False)
        self.session.release()
        self.first_step.run_ended()
        self.gpu_recorder.stop()
        if self.spare is not None:
            self.spare.replenish()
        self.form.setEnabled(True)
        self.controls.set_running(False)
        self.runs.set_active_run(None)
        self.runs.refresh()
        self._refresh_start()  # the status bar keeps the finished run's numbers until the form changes
        if self._close_when_done:
            self.close()

    def _gpus_of(self, config_path: Path, workers: int) -> set[str]:
        """The GPUs the run's config trains on (none when its config cannot be read)."""
        try:
            config = RunConfig.load(config_path, check=False)
        except (ConfigError, OSError):
            return set()
        return run_gpus(config, [d.name for d in self.devices.gpus], max(workers, 1))

    # ---- runs, scaling, scripts -------------------------------------------------------
    def _runs_root(self) -> Path:
        return self._runs_dir or runs_root()

    def reopen_config(self, config: RunConfig) -> None:
        """A past run's config in the form, to run again with changes."""
        self.form.set_config(config)
        self.tabs.setCurrentWidget(self.live_tab)
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
        config, _, problems = self.form.evaluate(workers=self._table_workers())
        if self.export_dialog is not None:
            self.export_dialog.deleteLater()
        self.export_dialog = ClusterExportDialog(
            cluster, config, problems, self._runs_root().parent / "tfdd-cluster-bundle", parent=self
        )
        self.export_dialog.open()
        return self.export_dialog

    def export_form_script(self) -> None:
        config = self.form.evaluate()[0]
        unsupported = script_problems(config)
        if unsupported:  # said before a file dialog, not after it
            self._message(
                QMessageBox.Icon.Information,
                self.tr("No script for this strategy"),
                translate(unsupported[0].message),
            )
            return
        outcome = save_as(
            self,
            self.tr("Export as script"),
            "train.py",
            self.tr("Python scripts (*.py)"),
            lambda path: export_script(config, path, overwrite=True),
        )
        if outcome is not None:
            self.statusBar().showMessage(outcome[0], 10000)

    def _message(self, icon: QMessageBox.Icon, title: str, text: str, details: str = "") -> None:
        """A window-modal message that does not block the event loop (plots keep drawing)."""
        box = QMessageBox(icon, title, text, QMessageBox.StandardButton.Ok, self)
        if details:
            box.setDetailedText(details)
        box.setWindowModality(Qt.WindowModality.WindowModal)
        box.open()
        self.last_dialog = box

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        if self.spare is not None and not event.spontaneous():
            QTimer.singleShot(SPARE_DELAY_MS, self.spare.replenish)

    # ---- closing ---------------------------------------------------------------
    def closeEvent(self, event: QCloseEvent) -> None:
        if self.runner is not None:
            event.ignore()
            if self._close_when_done:
                return  # already stopping; the window closes when the trainer has gone
            answer = QMessageBox.question(
                self,
                self.tr("A run is in progress"),
                self.tr("Stop the run (it saves a checkpoint) and close the window?"),
            )
            if answer == QMessageBox.StandardButton.Yes:
                self._close_when_done = True
                self.stop_run()
            return
        self.shutdown()
        settings.save_last_config(self.form.evaluate()[0])
        settings.save_window(self.saveGeometry(), self.saveState())
        super().closeEvent(event)

    def shutdown(self) -> None:
        """End every child process and thread now; the app's last word (aboutToQuit, close)."""
        self.probe.cancel()
        self.form.model_form.summary.cancel()
        self.gpu_monitor.stop()
        self.runs.shutdown()
        if self.spare is not None:
            self.spare.shutdown()
        if self.scaling_dialog is not None:
            self.scaling_dialog.shutdown()
        self.watching.stop()
        if self.sweep_dialog is not None:
            self.sweep_dialog.shutdown()
        if self.runner is not None:
            self.runner.request_stop()
            if not self.runner.wait(int((self.runner.grace_seconds + 5) * 1000)):
                kill_live_processes()
                self.runner.wait(5000)
        self.session.close()
