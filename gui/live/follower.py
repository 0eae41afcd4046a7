"""RunFollower: a run another process trains, followed from its folder and relayed as a runner's signals.

The Live tab shows a run it did not start (a terminal's `tfdd train`, another window's run, a detached
cluster, a Slurm job on shared storage) exactly as it shows its own: the same event objects reach the same
views in batches handed over every EMIT_INTERVAL_S, with the same decode budget per interval
(gui.runner.EventRelay). The run's folder is read by engine.core.runs.follow.RunWatch; the thread only paces it.
"""

from __future__ import annotations

import threading
import time
from pathlib import Path

from PySide6.QtCore import QObject, Signal

from engine.core import events as ev
from engine.core.protocol.codes import RunStatus
from engine.core.runs.follow import RunWatch, ending_message
from gui.i18n import event_message, translate
from gui.runner import DECODE_BUDGET_S, EMIT_INTERVAL_S, EventRelay, dashboard_line


class RunFollower(EventRelay):
    """Follows one run folder until the run is over, its folder is gone, or `stop_following()`."""

    gpu_samples = Signal(list)
    """New rows of the run's gpus.csv (engine.core.nvml.GpuSample), when the run records them."""
    origin_found = Signal(float, bool)
    """The time of the events file's first event (the time axis's zero), and whether the file replaced one read
    before (a resume rewrote it): what was shown is read again from its start."""
    holder_changed = Signal(object)
    """Who trains the run now (engine.core.runs.runlock.Holder), or None."""
    cut_short = Signal(str)
    """Why the run is over when it recorded no end (its folder is gone, its lock let go); run_finished follows."""

    def __init__(self, run_dir: Path, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.run_dir = Path(run_dir)
        self.watch = RunWatch(self.run_dir)
        self._stop = threading.Event()

    def stop_following(self) -> None:
        """Stop reading the folder (the run goes on); safe to call from any thread."""
        self._stop.set()

    def run(self) -> None:
        events: list[ev.Event] = []
        logs: list[str] = []
        last: dict[str, ev.Event] = {}
        while not self._stop.is_set():
            interval_start = time.monotonic()
            if self.watch.check_lock(interval_start):
                self.holder_changed.emit(self.watch.holder)
            budget_end = interval_start + DECODE_BUDGET_S
            while True:
                read = self.watch.read()
                if read.origin is not None:
                    self._hand_over(events, logs)  # what came before belongs to the file read before
                    self.origin_found.emit(read.origin, read.replaced)
                logs += read.log
                for event in read.events:
                    self._take_event(event, events, logs, last)
                for line in read.garbage:
                    said = self.tr("a line of events.jsonl that is not an event was left out: {line}")
                    logs.append(dashboard_line(said.format(line=line)))
                if read.gpu:
                    self.gpu_samples.emit(read.gpu)
                if read.end is not None or read.ending or not read.more or time.monotonic() >= budget_end:
                    break
            self._hand_over(events, logs)
            if read.end is not None or read.ending:
                self._report_end(read.end, read.ending)
                return
            self._stop.wait(max(0.0, interval_start + EMIT_INTERVAL_S - time.monotonic()))

    def _report_end(self, end: ev.RunFinished | ev.RunFailed | None, ending: str) -> None:
        if isinstance(end, ev.RunFinished):
            self.run_finished.emit(end.status, str(self.run_dir))
        elif isinstance(end, ev.RunFailed):
            self.run_failed.emit(event_message(end.message, end.message_template), self._log_tail())
        else:
            said = translate(ending_message(ending, self.run_dir))
            self.log_lines.emit([dashboard_line(said)])
            self.cut_short.emit(said)
            self.run_finished.emit(RunStatus.INTERRUPTED, str(self.run_dir))
