"""The window's own run: the session's launch in a TrainingRunner, and what the run reports in the views.

engine.core.session.RunSession decides what starts, where, and where the run stands; this glue gives the
launch a process (a ready warm trainer takes a run that allows one), wires the runner's signals to the
session and the Live tab, and makes the window ready again when the process is gone. Its words are the
window's, in the MainWindow translation context.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QCoreApplication, QObject
from PySide6.QtWidgets import QMessageBox

from engine.core import events as ev
from engine.core.config import RunConfig
from engine.core.logs.stall import TRAINER_TASK
from engine.core.problems import ConfigError, RunDirError
from engine.core.protocol.codes import RunStatus
from engine.core.protocol.commands import background_resume_command
from engine.core.protocol.paths import RunPaths
from engine.core.runs.history import summarize
from engine.core.session import ClusterShape, Launch, RunSession, cluster_blockers
from engine.core.tfconfig import TRAINING_JOBS
from gui import settings
from gui.announce import announce
from gui.closing import continue_in_background, not_continued
from gui.i18n import translate
from gui.live.gpu_recorder import run_gpus
from gui.live.stacks_view import StacksDialog
from gui.live.warm_trainer import TakenTrainer, WarmTrainer
from gui.runner import TrainingRunner, kill_live_processes
from gui.statuses import run_status_hint, run_status_name
from gui.window_host import WindowHost


class RunController(QObject):
    """Starts, resumes and stops the session's run in the window, one at a time."""

    def __init__(self, window: WindowHost, session: RunSession, warm_trainer: WarmTrainer | None) -> None:
        super().__init__(window)
        self.window = window
        self.session = session
        self.warm_trainer = warm_trainer
        self.runner: TrainingRunner | None = None
        self.stacks_dialog: StacksDialog | None = None

    # ---- what starts a run ----------------------------------------------------------
    def start(self) -> None:
        """Start the form's config: one trainer process, or a local cluster for a cluster strategy."""
        form = self.window.form
        config, _, problems = form.evaluate()
        if problems or self.session.active:
            return
        shape = ClusterShape(*form.local_cluster_shape())
        self._launch(lambda: self.session.start(config, shape), config)

    def start_cluster_on_machines(self) -> None:
        """The Cluster tab's tasks, each started over SSH on the machine its row names, with the form's config."""
        self.start_cluster(self.window.cluster.machine_rows())

    def start_cluster(self, machines: list[str] | None = None) -> None:
        """The Cluster tab's tasks, as its table says them (127.0.0.1, its ports), with the form's config;
        `machines`: each task's machine to start it on over SSH instead."""
        w = self.window
        config, _, problems = w.form.evaluate(workers=self.table_workers())
        if self.session.active:
            return
        if problems:
            fields = ", ".join(dict.fromkeys(p.field for p in problems))
            w.message(
                QMessageBox.Icon.Warning,
                QCoreApplication.translate("MainWindow", "Cannot start the cluster"),
                QCoreApplication.translate("MainWindow", "Fix the run form first ({fields}).").format(fields=fields),
            )
            return
        cluster = w.cluster.cluster()
        blockers = cluster_blockers(cluster, config)
        if blockers:  # e.g. an evaluator row while the form has no validation split: said before any process starts
            w.message(
                QMessageBox.Icon.Warning,
                QCoreApplication.translate("MainWindow", "Cannot start the cluster"),
                "\n".join(f"{p.location}: {translate(p.message)}" for p in blockers),
            )
            return
        w.show_live()
        self._launch(lambda: self.session.start_cluster(config, cluster, w.cluster.cluster_json(), machines), config)
        if machines and self.runner is not None:  # the launcher passes no profile request to tasks elsewhere
            w.controls.refuse_profile(
                QCoreApplication.translate(
                    "MainWindow",
                    "The tasks run on other machines, where their profiles would stay: a profile is offered for "
                    "a cluster on this machine",
                )
            )

    def table_workers(self) -> int:
        """The Cluster tab's chief and worker tasks: the replicas its cluster trains on."""
        cluster = self.window.cluster.cluster()
        return sum(len(cluster.addresses(j)) for j in TRAINING_JOBS)

    def resume(self, run_dir: Path) -> None:
        """Continue a stopped or killed run from its checkpoint, by the same path as a fresh run."""
        if not self.session.active:
            self.window.show_live()
            known = self.window.runs.summary_of(run_dir)
            self._launch(lambda: self.session.resume(run_dir, known.num_workers if known is not None else 1))

    def _launch(self, prepare: Callable[[], Launch], config: RunConfig | None = None) -> None:
        """Prepare the run with the session (saying why if it cannot be), start its process and show it.
        `config`: a fresh run's, kept as the form's last settings."""
        w = self.window
        w.watching.stop()  # one run in the Live tab: a watched one trains on without it
        try:
            launch = prepare()
        except (OSError, RunDirError) as exc:  # RunDirError: e.g. the runs folder is a file
            text = translate(exc.args[0]) if isinstance(exc, RunDirError) else str(exc)
            w.message(QMessageBox.Icon.Critical, QCoreApplication.translate("MainWindow", "Cannot start the run"), text)
            return
        if config is not None:
            settings.save_last_config(config)
        warm = self._take_warm(launch)
        self.runner = self._runner_for(launch, warm)
        self._show_launch(launch, warm)
        self.runner.start()
        announce(w, QCoreApplication.translate("MainWindow", "Run started"))

    def _take_warm(self, launch: Launch) -> TakenTrainer | None:
        """The ready warm trainer, for a run that allows one; the session learns who took the run."""
        if self.warm_trainer is None or launch.warm_args is None:
            return None
        warm = self.warm_trainer.take(dict(os.environ))
        if warm is not None:
            self.session.took_warm_trainer(warm.process.pid)
        return warm

    def _runner_for(self, launch: Launch, warm: TakenTrainer | None) -> TrainingRunner:
        w = self.window
        runner = TrainingRunner(
            launch.command,
            grace_seconds=self.session.stop_grace(),
            stderr_log=RunPaths(launch.run_dir).stderr_log,
            warm=warm,
            assignment=self.session.assignment(),
            stalls=self.session.stall_watch(),
            parent=w,
        )
        runner.process_started.connect(self._on_process_started)  # a slot of this QObject: on the GUI thread
        runner.events_ready.connect(self.on_events)
        runner.log_lines.connect(w.live.log.append_lines)
        runner.run_finished.connect(self.on_finished)
        runner.run_failed.connect(self.on_failed)
        runner.finished.connect(self._on_runner_done)
        return runner

    def _show_launch(self, launch: Launch, warm: TakenTrainer | None) -> None:
        """The Live tab and the form for a run that starts: fresh plots, its tasks, its log."""
        w = self.window
        how = ""
        if warm is not None:
            how = QCoreApplication.translate("MainWindow", " (warm trainer, pid {pid})").format(
                pid=self.session.warm_pid
            )
        elif self.warm_trainer is not None and launch.warm_args is not None:
            how = QCoreApplication.translate("MainWindow", " (a fresh trainer: {why})").format(
                why=self.warm_trainer.declined
            )
        line = QCoreApplication.translate("MainWindow", "{what} in {folder}{how}").format(
            what=translate(launch.what), folder=launch.run_dir, how=how
        )
        w.live.begin(launch.run_dir, launch.tasks, line)
        w.runs.set_active_run(launch.run_dir)
        w.gpu_recorder.start(launch.run_dir, self._gpus_of(launch.config_file, launch.tasks))
        w.first_step.run_started(warm is not None)
        w.show_running(True, one_trainer=not launch.tasks)
        w.on_form_changed()

    def _gpus_of(self, config_path: Path, workers: int) -> set[str]:
        """The GPUs the run's config trains on (none when its config cannot be read)."""
        try:
            config = RunConfig.load(config_path, check=False)
        except (ConfigError, OSError):
            return set()
        return run_gpus(config, [d.name for d in self.window.devices.gpus], max(workers, 1))

    # ---- stopping ---------------------------------------------------------------------
    def ask_stop(self) -> None:
        answer = QMessageBox.question(
            self.window,
            QCoreApplication.translate("MainWindow", "Stop the run?"),
            QCoreApplication.translate("MainWindow", "The trainer saves a checkpoint and stops. Stop now?"),
        )
        if answer == QMessageBox.StandardButton.Yes:
            self.stop()

    def stop(self, closing: bool = False) -> None:
        """Stop the window's run (or ask a watched one to stop); `closing`: the window closes once it is gone."""
        if self.runner is not None:
            self.runner.request_stop()
            self.session.request_stop(closing)
            self.window.live.controls.set_stopping()
        else:
            self.window.watching.stop_run()

    def keep_running(self) -> int | None:
        """The window is closing and the user keeps its run: stop it with its checkpoint, wait for it, and continue
        it without the window (engine.core.protocol.background), its output in RUN_DIR/launcher.log; that
        process's pid (None when nothing trains, or the run ended as it stopped)."""
        if self.runner is None or self.session.launch is None:
            return None
        run_dir = self.session.launch.run_dir
        self.shutdown()
        ended = summarize(run_dir)
        if not ended.resumable:  # completed, failed, or stopped before its first checkpoint
            if ended.status != RunStatus.COMPLETED:
                said = QCoreApplication.translate("MainWindow", "As it stopped, the run ended %1: %2.")
                said = said.replace("%1", run_status_name(ended.status)).replace("%2", run_status_hint(ended.status))
                not_continued(self.window, said, None)
            return None
        command, log = background_resume_command(run_dir), RunPaths(run_dir).launcher_log
        return continue_in_background(self.window, command, log)

    def shutdown(self) -> None:
        """End the run's process now: stopped with its grace, killed after it."""
        if self.runner is not None:
            self.runner.request_stop()
            if not self.runner.wait(int((self.runner.grace_seconds + 5) * 1000)):
                kill_live_processes()
                self.runner.wait(5000)

    def show_stacks(self) -> StacksDialog | None:
        """The running trainer's Python stacks (a local cluster's tasks have theirs in the tasks panel)."""
        if self.runner is None or self.session.pid is None:
            return None
        self.stacks_dialog = StacksDialog(TRAINER_TASK, self.session.pid, self.window)
        self.stacks_dialog.show()
        return self.stacks_dialog

    # ---- what the run reports (a watched run's too) ------------------------------------
    def _on_process_started(self, pid: int) -> None:
        self.session.process_started(pid)

    def on_events(self, events: list[ev.Event]) -> None:
        w = self.window
        if w.first_step.add_events(events) and self.warm_trainer is not None:
            self.warm_trainer.start_next()  # after the run's first step: two imports never slow a run's start
        w.live.add_events(events)
        plan = self.session.observe(events)
        if plan is not None:  # the engine's numbers replace the form's plan (in sync, all workers)
            w.show_plan(plan)

    def on_finished(self, status: str, run_dir: str) -> None:
        w = self.window
        self.session.ended(status)
        name = run_status_name(status)
        ended = QCoreApplication.translate("MainWindow", "run {status}").format(status=name)
        w.live.controls.show_end(ended + (f" — {run_dir}" if run_dir else ""))
        w.statusBar().showMessage(
            QCoreApplication.translate("MainWindow", "Run {status}. Results in {folder}").format(
                status=name, folder=run_dir or QCoreApplication.translate("MainWindow", "the run directory")
            ),
            10000,
        )
        announce(w, QCoreApplication.translate("MainWindow", "Run {status}").format(status=name))

    def on_failed(self, message: str, log_tail: str) -> None:
        w = self.window
        self.session.ended(RunStatus.FAILED)
        w.live.controls.show_end(QCoreApplication.translate("MainWindow", "run failed"))
        said = QCoreApplication.translate("MainWindow", "Run failed: {message}").format(message=translate(message))
        w.statusBar().showMessage(said, 10000)
        announce(w, said, urgent=True)
        if not self.session.closing:
            title = QCoreApplication.translate("MainWindow", "The run failed")
            w.message(QMessageBox.Icon.Critical, title, translate(message), log_tail)

    def _on_runner_done(self) -> None:
        """The thread and its process are gone: clean up and make the window ready again."""
        w = self.window
        if self.runner is not None:
            self.runner.deleteLater()
        self.runner = None
        self.session.release()
        w.first_step.run_ended()
        w.gpu_recorder.stop()
        if self.warm_trainer is not None:
            self.warm_trainer.start_next()
        w.show_running(False)
        w.runs.set_active_run(None)
        w.runs.refresh()
        w.refresh_start()  # the status bar keeps the finished run's numbers until the form changes
        if self.session.closing:
            w.close()
