"""The Runs tab's reader process: reads run directories outside the window's process, and answers compactly.

A window thread parsing history holds the interpreter lock, and busy cores may suspend it lock and all; so this
process reads (RunHistory) and smooths. Pickled requests on stdin, answers on stdout (8-byte length, then pickle):

    ("scan",)                                 -> None: a new scan starts (one in progress is dropped)
    ("step", seconds, rows)                   -> (summaries, done, problem)
    ("curves", run_dirs, smoothing, metrics)  -> [(run dir, Curves or None if unchanged, {metric: series})]
"""

from __future__ import annotations

import os
import pickle
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import BinaryIO

import numpy as np

from engine.core.runs.history import Curves, RunHistory, RunSummary
from gui.live.traces import Ema

LENGTH_BYTES = 8
NICENESS = 10  # on a busy machine the window's own threads get the cores first: reading can wait


def smooth_per_step(curves: Curves, metric: str, smoothing: float) -> np.ndarray:
    """A batch metric smoothed with the live plots' EMA, per step (`smoothing`: the past's weight per step)."""
    steps = np.diff(np.asarray(curves.global_step, dtype=np.int64), prepend=curves.global_step[:1] or [0])
    return Ema(alpha_per_step=1.0 - smoothing).smooth(getattr(curves, metric), np.maximum(steps, 1).tolist())


class Server:
    """Answers the window's requests from one RunHistory, which re-reads only what changed."""

    def __init__(self, root: Path) -> None:
        self.history = RunHistory(root)
        self._scan: Iterator[RunSummary] | None = None
        self._sent: dict[Path, Curves] = {}  # the curves last sent for each run: unchanged ones are not sent again

    def answer(self, request: tuple) -> object:
        kind, *args = request
        if kind == "scan":
            self._scan = self.history.iter_scan()
            return None
        if kind == "step":
            return self._step(*args)
        if kind == "curves":
            return self._curves(*args)
        raise ValueError(f"unknown request {kind!r}")

    def _step(self, seconds: float, rows: int) -> tuple[list[RunSummary], bool, str]:
        found: list[RunSummary] = []
        deadline = time.monotonic() + seconds
        while self._scan is not None and len(found) < rows and time.monotonic() < deadline:
            summary = next(self._scan, None)
            if summary is None:
                self._scan = None
            else:
                found.append(summary)
        return found, self._scan is None, self.history.problem

    def _curves(self, run_dirs: list[Path], smoothing: float, metrics: tuple[str, ...]) -> list[tuple]:
        out, sent = [], {}
        for path in run_dirs:
            curves = sent[path] = self.history.curves(path)
            smoothed = {metric: smooth_per_step(curves, metric, smoothing) for metric in metrics}
            out.append((path, None if self._sent.get(path) is curves else curves, smoothed))
        self._sent = sent  # the window keeps the last answer's curves only
        return out


def serve(root: Path, requests: BinaryIO, answers: BinaryIO) -> None:
    """Answer requests until the window closes the pipe."""
    server = Server(root)
    while True:
        try:
            request = pickle.load(requests)
        except EOFError:
            return
        data = pickle.dumps(server.answer(request), protocol=pickle.HIGHEST_PROTOCOL)
        answers.write(len(data).to_bytes(LENGTH_BYTES, "little") + data)
        answers.flush()


def read_answer(answers: BinaryIO) -> object:
    """One answer from the process's output (EOFError when it has ended): read whole, then unpickled."""
    size = int.from_bytes(_read_exactly(answers, LENGTH_BYTES), "little")
    return pickle.loads(_read_exactly(answers, size))


def _read_exactly(stream: BinaryIO, size: int) -> bytes:
    data = stream.read(size)
    if len(data) < size:
        raise EOFError("the history reader process ended")
    return data


if __name__ == "__main__":
    if hasattr(os, "nice"):
        os.nice(NICENESS)
    serve(Path(sys.argv[1]), sys.stdin.buffer, sys.stdout.buffer)
