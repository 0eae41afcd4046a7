"""The Live tab watching a run it did not start: one follower at a time, wired to the views a run of the
window's own feeds, with a note saying whose run it is and where it trains, and Stop when it trains here."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from PySide6.QtCore import QObject

from engine.core import events as ev
from engine.core.protocol.paths import RunPaths
from engine.core.runs.follow import ask_to_stop, trains_here
from engine.core.runs.runlock import Holder
from gui.live.controls import RunControls
from gui.live.follower import RunFollower
from gui.live.log_view import LogView
from gui.live.plots import TrainingPlots
from gui.live.watch_banner import WatchBanner
from gui.live.workers_panel import WorkersPanel
from gui.runner import dashboard_line
from gui.statuses import run_status_name

FOLLOWER_WAIT_MS = 5000  # a follower ends within one read of its folder


@dataclass(frozen=True)
class LiveViews:
    """What a watched run feeds: the window's own views and its handlers of a run's events and end."""

    plots: TrainingPlots
    log: LogView
    workers: WorkersPanel
    controls: RunControls
    on_events: Callable[[list], None]
    on_finished: Callable[[str, str], None]
    on_failed: Callable[[str, str], None]
    on_left: Callable[[], None]  # the watch is over, the run's end seen or not

    def begin(self, run_dir: Path, tasks: int, line: str) -> None:
        """Fresh views for the run in `run_dir` of `tasks` cluster tasks (0: one process), its log opening with
        `line`."""
        self.plots.reset()
        self.workers.reset(expected=tasks)
        self.workers.setVisible(bool(tasks))
        if tasks:
            self.workers.make_room(tasks)
        self.log.begin_run(RunPaths(run_dir).stderr_log)
        self.log.append_lines([dashboard_line(line)])

    def add_events(self, events: list[ev.Event]) -> None:
        """The run's events in the plots, the controls and the tasks panel."""
        self.plots.add_events(events)
        self.controls.add_events(events)
        self.workers.add_events(events)


class LiveWatch(QObject):
    """Watches at most one run; watching another, or a run of the window's own starting, ends the watch."""

    def __init__(self, views: LiveViews, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.views = views
        self.banner = WatchBanner()
        self.banner.stop_watching.connect(self.stop)
        self.follower: RunFollower | None = None
        self._stopping = False  # Stop was pressed: the button stays "Stopping…"

    @property
    def active(self) -> bool:
        return self.follower is not None

    def watch(self, run_dir: Path) -> None:
        """Follow the run in `run_dir` from its folder, in the views, until it is over or `stop()`."""
        self.stop()
        v = self.views
        follower = RunFollower(run_dir, self)
        for signal, slot in (
            (follower.events_ready, v.on_events),
            (follower.events_ready, self._show_tasks),
            (follower.log_lines, v.log.append_lines),
            (follower.gpu_samples, v.plots.add_gpu_samples),
            (follower.origin_found, self._on_origin),
            (follower.holder_changed, self._on_holder),
            (follower.cut_short, self.banner.ended),
            (follower.run_finished, self._on_finished),
            (follower.run_failed, self._on_failed),
        ):  # what a follower no longer watched had queued never reaches the views
            signal.connect(lambda *args, slot=slot, f=follower: slot(*args) if self.follower is f else None)
        follower.finished.connect(follower.deleteLater)
        self.follower, self._stopping = follower, False
        v.begin(run_dir, 0, self.tr("watching the run in {folder} as it writes it").format(folder=run_dir))
        self.banner.watch(run_dir)
        v.controls.set_running(True)
        v.controls.progress_bar.setFormat(self.tr("reading the run's folder…"))
        self._on_holder(None)
        follower.start()

    def stop(self) -> None:
        """Leave the watched run to train on; the Live tab is free for the window's runs."""
        follower, self.follower = self.follower, None
        self.banner.hide()
        if follower is None:
            return
        follower.stop_following()
        follower.wait(FOLLOWER_WAIT_MS)
        said = self.tr("stopped watching {folder}; the run goes on").format(folder=follower.run_dir)
        self.views.log.append_lines([dashboard_line(said)])
        self.views.controls.set_running(False)
        self.views.on_left()

    def stop_run(self) -> None:
        """Ask the watched run to checkpoint and stop, when it trains on this machine."""
        if self.follower is None:
            return
        held = ask_to_stop(self.follower.run_dir)
        if held is None:
            said = self.tr("the run does not train on this machine (any more); nothing was stopped")
        else:
            said = self.tr("asked pid {pid} to save a checkpoint and stop").format(pid=held.pid)
            self._stopping = True
            self.views.controls.set_stopping()
            self.banner.set_state(self.tr("stopping"))
        self.views.log.append_lines([dashboard_line(said)])

    def _show_tasks(self, events: list) -> None:
        """A cluster's run: its tasks' table, once the launcher's states of them are read."""
        if any(isinstance(e, ev.WorkerState) for e in events):
            self.views.workers.setVisible(True)

    def _on_origin(self, origin: float, replaced: bool) -> None:
        """The watched run's events begin at `origin`; a replaced file (a resume rewrote it) is shown anew."""
        self.views.plots.reset(origin)
        self.banner.set_state(self.tr("following it as it grows"))
        if replaced:
            said = self.tr("the run's events.jsonl was rewritten (a resume): reading it again from its start")
            self.views.log.append_lines([dashboard_line(said)])

    def _on_holder(self, held: Holder | None) -> None:
        """Stop is offered for a run this machine trains; otherwise its tooltip says where the run trains."""
        if self.follower is None:
            return
        self.banner.set_holder(held, self.follower.watch.lock_seen)
        if trains_here(held):
            assert held is not None
            why = self.tr("Ask pid {pid} to save a checkpoint and stop (Esc)").format(pid=held.pid)
        elif held is not None:
            why = self.tr("It trains on {host} (pid {pid}): stop it there").format(host=held.host, pid=held.pid)
        else:
            why = self.tr("No process of this machine holds the run's lock: stop it where it trains")
        if not self._stopping:
            self.views.controls.set_watching(trains_here(held), why)

    def _on_finished(self, status: str, run_dir: str) -> None:
        if not self.banner.over:  # a run cut short has said why
            self.banner.ended(self.tr("run {status}").format(status=run_status_name(status)))
        self._ended()
        self.views.on_finished(status, run_dir)

    def _on_failed(self, message: str, log_tail: str) -> None:
        self.banner.ended(self.tr("run failed"))
        self._ended()
        self.views.on_failed(message, log_tail)

    def _ended(self) -> None:
        """The run is over: its plots and the note stay until the next run, watch or Close."""
        self.follower = None
        self.views.controls.set_running(False)
        self.views.on_left()
