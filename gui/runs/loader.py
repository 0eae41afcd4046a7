"""Reading run history off the GUI thread: the Runs tab asks, this thread reads, the answers come back.

engine.history.RunHistory lives on its own QThread. It re-reads only what
changed and caps what it reads of a huge events file, but a first look at
hundreds of runs, or one 200 MB events file, still takes a second or more of
disk and parsing: done on the GUI thread, that froze the window. Here a scan
runs in short slices (SLICE_S each) between which the thread's event loop
takes the next request, so a request for curves never waits for a whole
scan, and the rows found so far are sent every PROGRESS_S, so the table
fills while the rest is read.

The reading is Python, and Python runs one thread at a time (the GIL): on
a loaded machine the OS may suspend the reader while it holds the GIL, and
the window waits until the reader runs again. So the reader works in slices
of SLICE_S and pauses PAUSE_MS between them, during which the window runs at
once; a scan takes about twice as long and the window never waits long.

Requests are queued signals into the thread; answers are queued signals
back, delivered on the GUI thread. Every answer carries the request's
number, so the panel keeps only the latest. `stop()` ends the thread (the
window's last word), waiting at most a few seconds.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import shiboken6
from PySide6.QtCore import QObject, QThread, QTimer, Signal, Slot

from engine.history import RunHistory, RunSummary, sort_runs
from gui.runs.compare_plots import BATCH_METRICS, smoothed

SLICE_S = 0.005  # work done between two looks at the thread's queue
PAUSE_MS = 5  # then the thread lets go of the interpreter this long (see the module's note on the GIL)
PROGRESS_S = 0.15  # how often the rows found so far are sent during a scan
PROGRESS_ROWS = 20  # or after this many new rows: inserting and painting them costs the GUI thread ~1 ms each
STOP_WAIT_MS = 5000


class _Reader(QObject):
    """Owns the RunHistory; its slots run on the loader's thread."""

    runs_read = Signal(int, list, bool)
    """(request, summaries so far, newest first, whether the scan is complete)."""
    curves_read = Signal(int, list)
    """(request, [(run dir, Curves)]) in the order asked."""

    def __init__(self, root: Path) -> None:
        super().__init__()
        self.history = RunHistory(root)
        self._scan: Iterator[RunSummary] | None = None
        self._scan_request = 0
        self._found: list[RunSummary] = []
        self._last_progress = 0.0
        self._unsent = 0
        self._timer: QTimer | None = None

    @Slot(int)
    def scan(self, request: int) -> None:
        """Start a scan (a scan in progress is restarted: the newest request wins)."""
        self._scan_request = request
        self._scan = self.history.iter_scan()
        self._found = []
        self._last_progress = time.monotonic()
        self._unsent = 0
        if self._timer is None:
            self._timer = QTimer(self)
            self._timer.setSingleShot(True)
            self._timer.setInterval(PAUSE_MS)
            self._timer.timeout.connect(self._step)
        self._timer.start()

    @Slot()
    def _step(self) -> None:
        """One slice of the scan; then back to the event loop, which may hold a curves request."""
        if self._scan is None:
            return
        deadline = time.monotonic() + SLICE_S
        done = False
        new = 0
        while time.monotonic() < deadline and new < PROGRESS_ROWS:
            summary = next(self._scan, None)
            if summary is None:
                done = True
                break
            self._found.append(summary)
            new += 1
            time.sleep(0)  # hand the interpreter to the window if it is waiting for it
        now = time.monotonic()
        self._unsent += new
        if done or now - self._last_progress >= PROGRESS_S or self._unsent >= PROGRESS_ROWS:
            self._last_progress, self._unsent = now, 0
            self.runs_read.emit(self._scan_request, sort_runs(self._found), done)
        if done:
            self._scan = None
        elif self._timer is not None:
            self._timer.start()

    @Slot(int, list, float)
    def curves(self, request: int, run_dirs: list, smoothing: float) -> None:
        """The runs' curves, with their batch metrics already smoothed at `smoothing` (the plots' weight)."""
        loaded = [(path, self.history.curves(path)) for path in run_dirs]
        for _, curves in loaded:
            for metric in BATCH_METRICS:
                smoothed(curves, metric, smoothing)
        self.curves_read.emit(request, loaded)

    @Slot()
    def finish(self) -> None:
        """Stop any scan and the timer here, on this thread (Qt stops a timer only on its own thread), then
        end the thread's event loop."""
        self._scan = None
        if self._timer is not None:
            self._timer.stop()
        QThread.currentThread().quit()


class HistoryLoader(QObject):
    """The Runs tab's side: ask for a scan or for curves, receive them as signals on the GUI thread."""

    runs_ready = Signal(list, bool)
    """Summaries read so far (newest first) and whether the scan is complete; only the latest scan's."""
    curves_ready = Signal(list)
    """[(run dir, Curves)] of the latest curves request."""
    _scan = Signal(int)
    _curves = Signal(int, list, float)
    _finish = Signal()

    def __init__(self, root: Path, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.root = root
        self._thread = QThread()
        self._thread.setObjectName("run-history")
        self._reader = _Reader(root)
        self._reader.moveToThread(self._thread)
        self._scan.connect(self._reader.scan)
        self._curves.connect(self._reader.curves)
        self._finish.connect(self._reader.finish)
        self._reader.runs_read.connect(self._on_runs)
        self._reader.curves_read.connect(self._on_curves)
        self._scans = self._curve_requests = 0
        self.scanning = False
        self._thread.start()
        # a panel dropped without shutdown() (its window gone) must not destroy a running QThread: Qt aborts
        thread = self._thread
        self.destroyed.connect(lambda *_: _end(thread))

    @property
    def problem(self) -> str:
        """Why the runs folder cannot be listed ('' when it can); read after a scan."""
        return self._reader.history.problem

    def request_scan(self) -> None:
        self._scans += 1
        self.scanning = True
        self._scan.emit(self._scans)

    def request_curves(self, run_dirs: list[Path], smoothing: float) -> None:
        self._curve_requests += 1
        self._curves.emit(self._curve_requests, list(run_dirs), smoothing)

    def stop(self) -> None:
        """End the thread; safe twice."""
        if self._thread.isRunning():
            self._finish.emit()  # the reader stops its timer and ends its thread's loop
            if not self._thread.wait(STOP_WAIT_MS):
                _end(self._thread)

    def _on_runs(self, request: int, runs: list, done: bool) -> None:
        if request == self._scans:
            self.scanning = not done
            self.runs_ready.emit(runs, done)

    def _on_curves(self, request: int, curves: list) -> None:
        if request == self._curve_requests:
            self.curves_ready.emit(curves)


def _end(thread: QThread) -> None:
    if shiboken6.isValid(thread) and thread.isRunning():
        thread.quit()
        thread.wait(STOP_WAIT_MS)
