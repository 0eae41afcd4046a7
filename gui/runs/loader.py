"""Reading run history outside the window: the Runs tab asks, a reader process reads, the answers come back.

A QThread of the window passes requests to the reader process (gui.runs.history_process, why there) and waits
on its pipe, which needs no lock. A scan goes in steps (PROGRESS_S or PROGRESS_ROWS), so a request for curves
never waits for a whole scan and rows appear as they are read. Answers carry their request's number (the
panel keeps the latest); a dead reader is started again at the next request; `stop()` ends both.
"""

from __future__ import annotations

import contextlib
import pickle
import subprocess
import sys
from pathlib import Path

import shiboken6
from PySide6.QtCore import QObject, QThread, QTimer, Signal, Slot

from engine.core.messages import msg
from engine.core.runs.history import Curves, RunSummary, sort_runs
from gui.runs.compare_plots import BATCH_METRICS, keep_smoothed
from gui.runs.history_process import read_answer

PROGRESS_S = 0.15  # a scan step reads for at most this long, then its rows are sent
PROGRESS_ROWS = 20  # or this many rows: inserting and painting them costs the GUI thread ~1 ms each
STOP_WAIT_MS = 5000
READER_MODULE = "gui.runs.history_process"


class _Reader(QObject):
    """Talks to the reader process; its slots run on the loader's thread."""

    runs_read = Signal(int, list, bool)
    """(request, summaries so far, newest first, whether the scan is complete)."""
    curves_read = Signal(int, list)
    """(request, [(run dir, Curves)]) in the order asked."""

    def __init__(self, root: Path) -> None:
        super().__init__()
        self.root = root
        self.problem = ""  # why the runs folder cannot be listed, as of the last scan step
        self.process: subprocess.Popen | None = None
        self._scanning = False
        self._scan_request = 0
        self._found: list[RunSummary] = []
        self._kept: dict[Path, Curves] = {}  # the curves last received: the process sends only changed ones
        self._timer: QTimer | None = None

    def _ask(self, request: tuple) -> object:
        """The reader process's answer to `request` (the process is started if it is not running); waiting
        on the pipe leaves the interpreter to the window. Raises OSError when the process cannot answer."""
        try:
            if self.process is None or self.process.poll() is not None:
                self.process = subprocess.Popen(
                    [sys.executable, "-m", READER_MODULE, str(self.root)],
                    stdin=subprocess.PIPE,
                    stdout=subprocess.PIPE,
                )
                self._kept = {}
            pickle.dump(request, self.process.stdin, protocol=pickle.HIGHEST_PROTOCOL)
            self.process.stdin.flush()
            return read_answer(self.process.stdout)
        except (OSError, EOFError, pickle.UnpicklingError) as exc:
            process = self.process
            self.close()
            code = "" if process is None or process.returncode is None else f" (exit code {process.returncode})"
            raise OSError(f"the history reader process stopped{code}: {exc}") from exc

    @Slot(int)
    def scan(self, request: int) -> None:
        """Start a scan (a scan in progress is restarted: the newest request wins)."""
        self._scan_request, self._found = request, []
        try:
            self._ask(("scan",))
        except OSError as exc:
            self._fail_scan(exc)
            return
        self._scanning = True
        if self._timer is None:
            self._timer = QTimer(self)
            self._timer.setSingleShot(True)
            self._timer.setInterval(0)
            self._timer.timeout.connect(self._step)
        self._timer.start()

    @Slot()
    def _step(self) -> None:
        """One step of the scan; then back to the event loop, which may hold a curves request."""
        if not self._scanning:
            return
        try:
            found, done, self.problem = self._ask(("step", PROGRESS_S, PROGRESS_ROWS))
        except OSError as exc:
            self._fail_scan(exc)
            return
        self._found += found
        self._scanning = not done
        self.runs_read.emit(self._scan_request, sort_runs(self._found), done)
        if self._scanning and self._timer is not None:
            self._timer.start()

    def _fail_scan(self, exc: OSError) -> None:
        self._scanning = False
        self.problem = msg("cannot list {folder}: {reason}", folder=str(self.root), reason=str(exc))
        self.runs_read.emit(self._scan_request, sort_runs(self._found), True)

    @Slot(int, list, float)
    def curves(self, request: int, run_dirs: list, smoothing: float) -> None:
        """The runs' curves, with their batch metrics already smoothed at `smoothing` (the plots' weight)."""
        try:
            answer = self._ask(("curves", run_dirs, smoothing, BATCH_METRICS))
        except OSError as exc:
            broken = Curves([], [], [], [], [], [], (f"cannot read the run: {exc}",))
            self.curves_read.emit(request, [(path, broken) for path in run_dirs])
            return
        loaded, kept = [], {}
        for path, sent, smoothed in answer:
            curves = kept[path] = self._kept[path] if sent is None else sent
            for metric, values in smoothed.items():
                keep_smoothed(curves, metric, smoothing, values)
            loaded.append((path, curves))
        self._kept = kept
        self.curves_read.emit(request, loaded)

    def close(self) -> None:
        """End the reader process: it stops at the end of its input; killed if it does not."""
        process, self.process = self.process, None
        if process is None:
            return
        for pipe in (process.stdin, process.stdout):
            with contextlib.suppress(OSError):
                pipe.close()
        try:
            process.wait(STOP_WAIT_MS / 1000)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()

    @Slot()
    def finish(self) -> None:
        """Stop any scan, the timer (Qt stops a timer only on its own thread) and the process, then end the
        thread's event loop."""
        self._scanning = False
        if self._timer is not None:
            self._timer.stop()
        self.close()
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
        # a panel dropped without shutdown() (its window gone) must not destroy a running QThread (Qt aborts),
        # nor leave the reader process behind
        thread, reader = self._thread, self._reader
        self.destroyed.connect(lambda *_: _end(thread, reader))

    @property
    def problem(self) -> str:
        """Why the runs folder cannot be listed ('' when it can); read after a scan."""
        return self._reader.problem

    @property
    def reader_pid(self) -> int | None:
        """The reader process's id (None before the first request)."""
        process = self._reader.process
        return None if process is None else process.pid

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
                _end(self._thread, self._reader)

    def _on_runs(self, request: int, runs: list, done: bool) -> None:
        if request == self._scans:
            self.scanning = not done
            self.runs_ready.emit(runs, done)

    def _on_curves(self, request: int, curves: list) -> None:
        if request == self._curve_requests:
            self.curves_ready.emit(curves)


def _end(thread: QThread, reader: _Reader) -> None:
    if shiboken6.isValid(thread) and thread.isRunning():
        thread.quit()
        thread.wait(STOP_WAIT_MS)
    reader.close()
