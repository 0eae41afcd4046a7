"""Writing a run directory, and how it survives being stopped, killed, refilled or full.

The layout is engine.core.protocol.paths.RunPaths; no TensorFlow here, the window creates run folders too.
`new_run_dir` writes the marker first and refuses a folder of other files or another run; RunDir holds the run's
lock (engine.core.runs.runlock) while it writes. Events and metrics rows are whole lines (safe_files.LineFile);
events.jsonl is the record, fsynced except batch events, and metrics.csv is derived from it. A resume reconciles
the files with its checkpoint (`reconcile`): what came after it is dropped and trained again.
"""

from __future__ import annotations

import contextlib
import csv
import io
import json
import os
import socket
import time
from pathlib import Path

from engine.core import events as ev
from engine.core.config import RunConfig
from engine.core.messages import msg
from engine.core.problems import ConfigError, Problem, RunDirError
from engine.core.protocol.paths import RUNS_DIR_ENV, RunPaths, runs_root
from engine.core.runs.runlock import RunLock
from engine.core.runs.safe_files import (
    DiskFull,
    LineFile,
    Reserve,
    atomic_write_bytes,
    atomic_write_text,
    set_aside_torn_tail,
)

METRIC_COLUMNS = ["epoch", "loss", "accuracy", "examples_per_sec", "seconds"]
VALIDATION_COLUMNS = ["val_loss", "val_accuracy"]
MARKER_FORMAT = 1
EVENTS_FLUSH_S = 0.1
"""Batch events are written at least this often (without fsync): a run is watched from its events.jsonl
(engine.core.runs.follow), as often as the window hands a run's events to its plots (gui.runner.EMIT_INTERVAL_S)."""


def write_marker(paths: RunPaths) -> None:
    """Say "a run of this dashboard" before anything else is written into the folder."""
    info = {"tfdd_run": MARKER_FORMAT, "created": time.time(), "host": socket.gethostname(), "pid": os.getpid()}
    atomic_write_text(paths.marker, json.dumps(info) + "\n")


def claim_new_dir(root: Path, base: str) -> Path:
    """Create `root/base`, or base-2, base-3 … if taken, with its marker. mkdir is the claim.

    RunDirError when `root` (or a folder above it) is a file, naming $TFDD_RUNS_DIR when it says so."""
    try:
        root.mkdir(parents=True, exist_ok=True)
    except (FileExistsError, NotADirectoryError):
        named = f"{RUNS_DIR_ENV} = {root}" if os.environ.get(RUNS_DIR_ENV) == str(root) else str(root)
        raise RunDirError(
            msg(
                "{root} is a file, not a folder for runs; give a folder (or a path that does not exist yet)", root=named
            )
        ) from None
    for n in range(1, 1000):
        candidate = root / (base if n == 1 else f"{base}-{n}")
        try:
            candidate.mkdir()
        except FileExistsError:
            continue
        write_marker(RunPaths(candidate))
        return candidate
    raise FileExistsError(f"no free run directory name under {root} for {base}")


def new_run_dir(config: RunConfig, root: Path | None = None, now: float | None = None) -> Path:
    """Create `root/YYYYmmdd-HHMMSS[-name]-<strategy>-<loop>`, suffixed -2, -3 … if taken.

    mkdir is the claim, so two runs started in the same second (the window
    and a terminal) cannot share a directory.
    """
    stamp = time.strftime("%Y%m%d-%H%M%S", time.localtime(now))
    return claim_new_dir(
        root or runs_root(), f"{stamp}-{config.name + '-' if config.name else ''}{config.strategy}-{config.loop}"
    )


def discard_unused(path: Path) -> bool:
    """Remove a folder we claimed for a run that never started (only our marker, lock, reserve in it)."""
    paths = RunPaths(path)
    if not paths.is_ours() or paths.has_run_files():
        return False
    leftovers = [p for p in paths.user_files() if p != paths.marker]
    if any(not (p.is_dir() and not any(p.iterdir())) for p in leftovers):
        return False
    for p in leftovers:
        p.rmdir()
    for p in (paths.marker, paths.lock, paths.reserve):
        p.unlink(missing_ok=True)
    with contextlib.suppress(OSError):
        paths.root.rmdir()
    return True


def check_fresh(paths: RunPaths) -> None:
    """A fresh run may go into a new or empty folder, or one we claimed that holds no run yet."""
    root = paths.root
    if root.exists() and not root.is_dir():
        raise RunDirError(f"{root} is a file, not a folder; give a folder for the run's files")
    if not root.is_dir() or paths.is_ours() and not paths.has_run_files():
        return
    if not paths.is_ours():
        if paths.user_files():
            raise RunDirError(
                f"{root} is not empty and is not a run folder of this dashboard (it has no {paths.marker.name}); "
                "nothing was written: give a new or empty folder for the run"
            )
        return
    raise RunDirError(
        f"{root} already holds a run; nothing was written: continue it with --resume {root}, "
        "or give a new folder for a new run"
    )


def check_resumable(paths: RunPaths) -> None:
    """Refuse a resume that could only lose or repeat finished epochs (before TensorFlow starts).

    Without a checkpoint a resume starts over, which is right when none was
    ever written (a run cut short in its first epoch, or before its first
    checkpoint on a full disk: its rows are not covered by any checkpoint and
    are trained again). When checkpoints were written and are gone, the
    finished epochs would be repeated: refused.
    """
    if not paths.config.is_file():
        raise RunDirError(f"{paths.root} is not a run folder (it has no config.json); nothing to resume")
    if paths.has_checkpoint():
        return
    saved, ended = _recorded(paths.events)
    rows = {int(r["epoch"]) for r in _metric_rows(paths.metrics)}
    if saved or (rows and not paths.events.is_file()):
        finished = len(rows | ended)
        raise RunDirError(
            f"{paths.root} cannot be resumed: {paths.checkpoints.name}/ holds no checkpoint, yet "
            f"{saved or 'some'} were written and {finished} epoch(s) were finished; starting over would "
            f"repeat them, so nothing was changed. Start a new run with its config: --config {paths.config}"
        )


def claim(path: Path, *, resume: bool, command: str) -> RunLock:
    """Take a run folder for the process that trains it: checked, marked, locked (RunDirError, RunLocked).

    A fresh run goes into a new or empty folder, or a claimed one without a
    run; a resume into a run that can be resumed. The checks that can refuse
    a folder that is not ours come before the lock file is made in it.
    """
    paths = RunPaths(path)
    if not resume:
        check_fresh(paths)
    elif not paths.root.is_dir():
        raise RunDirError(f"{paths.root} does not exist; nothing to resume")
    paths.root.mkdir(parents=True, exist_ok=True)
    lock = RunLock.acquire(paths, command)  # RunLocked: "in use by pid … on …"
    try:
        if resume:
            check_resumable(paths)
        else:
            check_fresh(paths)  # again, under the lock
            if not paths.is_ours():
                write_marker(paths)
    except BaseException:
        lock.release()
        raise
    return lock


class RunDir:
    """Writes a run directory's files; also an event sink (call it with events).

    Opening claims the folder: it refuses a folder that is not ours or, for a
    fresh run, one that already holds a run (RunDirError), and takes the run's
    lock (RunLocked names the holder). `close()` releases it.
    """

    def __init__(self, path: Path, validation: bool, *, resume: bool = False, command: str = "tfdd train"):
        self.paths = RunPaths(Path(path))
        self.path = self.paths.root
        self.columns = METRIC_COLUMNS + (VALIDATION_COLUMNS if validation else [])
        self.lock = claim(self.path, resume=resume, command=command)
        try:
            self.checkpoints.mkdir(exist_ok=True)
            self._reserve = Reserve(self.paths.reserve)
        except BaseException:
            self.lock.release()
            raise
        self._events: LineFile | None = None  # opened on the first event: a refused resume changes nothing
        self._events_written_at = 0.0  # time.monotonic() of the last write to events.jsonl
        self._metrics: LineFile | None = None

    # the layout's paths, under the names the trainer uses
    @property
    def config_path(self) -> Path:
        return self.paths.config

    @property
    def events_path(self) -> Path:
        return self.paths.events

    @property
    def metrics_path(self) -> Path:
        return self.paths.metrics

    @property
    def checkpoints(self) -> Path:
        return self.paths.checkpoints

    @property
    def tensorboard(self) -> Path:
        return self.paths.tensorboard

    @property
    def model_path(self) -> Path:
        return self.paths.model

    def write_config(self, config: RunConfig) -> None:
        atomic_write_text(self.config_path, config.to_json() + "\n")

    def accept(self) -> None:
        """The run goes ahead (trains, or records its failure): see RunLock.accept."""
        self.lock.accept()

    # ---- resume ----------------------------------------------------------------------
    def reconcile(self, epoch: int, step: int) -> list[str]:
        """Make events and metrics agree with the checkpoint a resume continues from.

        `epoch` epochs are finished and `step` steps of the next are done.
        Work recorded after that point is trained again, so its events and
        metrics rows are dropped; each finished epoch keeps exactly one row,
        rebuilt from its epoch_end event if metrics.csv lost it. Returns what
        was done, as sentences for the log.
        """
        notes: list[str] = []
        if not self.paths.is_ours():
            write_marker(self.paths)
        torn = set_aside_torn_tail(self.events_path, self.paths.set_aside)
        torn += set_aside_torn_tail(self.metrics_path, self.paths.set_aside)
        if torn:
            notes.append(f"set aside an unterminated last line ({torn} bytes) in {self.paths.set_aside.name}/")
        dropped, ends = self._rewrite_events(epoch, step)
        rows = self._rewrite_metrics(epoch, ends, notes)
        if dropped or rows:
            notes.append(
                f"dropped {rows} metrics row(s) and {dropped} event(s) recorded after the checkpoint; "
                "that work is trained again"
            )
        return notes

    def _rewrite_events(self, epoch: int, step: int) -> tuple[int, dict[int, ev.EpochEnd]]:
        """Drop events after (epoch, step); the epoch_end events kept, by epoch."""
        ends: dict[int, ev.EpochEnd] = {}
        if not self.events_path.is_file():
            return 0, ends
        kept = io.BytesIO()
        dropped = 0
        with open(self.events_path, "rb") as f:
            for raw in f:
                try:
                    event = ev.decode(raw.decode("utf-8"))
                except (ev.EventDecodeError, UnicodeDecodeError):
                    kept.write(raw)  # not ours to judge: kept as it was
                    continue
                if _after(event, epoch, step):
                    dropped += 1
                    continue
                if isinstance(event, ev.EpochEnd):
                    ends[event.epoch] = event
                kept.write(raw)
        if dropped:
            atomic_write_bytes(self.events_path, kept.getvalue())
        return dropped, ends

    def _rewrite_metrics(self, epoch: int, ends: dict[int, ev.EpochEnd], notes: list[str]) -> int:
        """One row per finished epoch 1..epoch; the number of rows dropped."""
        rows = _metric_rows(self.metrics_path)
        by_epoch: dict[int, dict[str, str]] = {}
        for row in rows:
            by_epoch[int(row["epoch"])] = row  # a repeated epoch (an older bug's resume): the last row
        wanted = range(1, epoch + 1)
        rebuilt = [e for e in wanted if e not in by_epoch and e in ends]
        for e in rebuilt:
            by_epoch[e] = {k: ("" if v is None else str(v)) for k, v in ev.to_dict(ends[e]).items()}
        lost = [e for e in wanted if e not in by_epoch]
        final = [by_epoch[e] for e in wanted if e in by_epoch]
        dropped = len(rows) - (len(final) - len(rebuilt))
        if rebuilt:
            notes.append(f"rebuilt the metrics row(s) of epoch(s) {_epochs(rebuilt)} from events.jsonl")
        if lost:
            notes.append(f"the metrics of epoch(s) {_epochs(lost)} are lost (in neither metrics.csv nor events.jsonl)")
        if dropped or rebuilt or (rows and final != rows):
            out = io.StringIO()
            writer = csv.DictWriter(out, fieldnames=self.columns, extrasaction="ignore", lineterminator="\n")
            writer.writeheader()
            writer.writerows(final)
            atomic_write_text(self.metrics_path, out.getvalue())
        return dropped

    # ---- the sink ----------------------------------------------------------------------
    def __call__(self, event: ev.Event) -> None:
        final = isinstance(event, (ev.RunFinished, ev.RunFailed))
        try:
            self._write(event)
        except DiskFull:
            if not final:
                raise
            # the run's last word must reach the history: give back the reserve and try once more
            if self._reserve.release():
                with contextlib.suppress(OSError):
                    self._write(event)

    def _write(self, event: ev.Event) -> None:
        if self._events is None:
            self._events = LineFile(self.events_path, self.paths.set_aside)
        frequent = isinstance(event, (ev.BatchEnd, ev.StepAnatomy))  # measurements: not synced one by one
        now = time.monotonic()
        flush = not frequent or now - self._events_written_at >= EVENTS_FLUSH_S
        self._events.append(ev.encode(event), flush=flush)
        if not frequent:
            self._events.sync_later()  # the record: on disk soon, training does not wait for it (synced())
        if flush:
            self._events_written_at = now
        if isinstance(event, ev.EpochEnd):
            self._append_metrics(event)

    def _append_metrics(self, e: ev.EpochEnd) -> None:
        if self._metrics is None:
            self._metrics = LineFile(self.metrics_path, self.paths.set_aside)
            if self.metrics_path.stat().st_size == 0:
                self._metrics.append(",".join(self.columns), flush=False)
        self._metrics.append(csv_line(self.columns, ev.to_dict(e)))  # derived from events.jsonl: not synced

    def synced(self) -> None:
        """Before a checkpoint: the queued batch events are written (a kill -9 after the checkpoint loses none of
        the steps it covers), and every event but the frequent ones is on disk (no checkpoint covers an epoch
        whose epoch_end a power cut could still lose)."""
        if self._events is not None:
            self._events.flush()
            self._events.synced()

    def close(self) -> None:
        """Flush and sync what is written, give back the reserve, release the lock; safe twice."""
        try:
            for f in (self._events, self._metrics):
                if f is not None and not f.closed:
                    with contextlib.suppress(OSError):
                        f.close()
        finally:
            self._reserve.release()
            self.lock.release()


def _after(event: ev.Event, epoch: int, step: int) -> bool:
    """Recorded after the position (epoch finished epochs, step steps into the next)?"""
    if isinstance(event, ev.BatchEnd):
        return (event.epoch - 1, event.step) > (epoch, step)
    if isinstance(event, ev.EpochEnd):
        return event.epoch > epoch
    if isinstance(event, ev.CheckpointSaved):
        return (event.epoch, event.step) > (epoch, step)
    return False


def _epochs(numbers: list[int]) -> str:
    return ", ".join(str(n) for n in numbers)


def _metric_rows(path: Path) -> list[dict[str, str]]:
    """metrics.csv rows whose epoch is a number (others cannot be placed and are left out)."""
    out = []
    for row in read_metrics(path):
        with contextlib.suppress(TypeError, ValueError):
            row["epoch"] = str(int(float(row.get("epoch") or "")))
            out.append(row)
    return out


def _recorded(path: Path) -> tuple[int, set[int]]:
    """(checkpoint_saved events, epochs with an epoch_end event) in an events file."""
    saved, ended = 0, set()
    if not path.is_file():
        return saved, ended
    with open(path, "rb") as f:
        for raw in f:
            if b"checkpoint_saved" not in raw and b"epoch_end" not in raw:
                continue
            with contextlib.suppress(ev.EventDecodeError, UnicodeDecodeError):
                event = ev.decode(raw.decode("utf-8"))
                if isinstance(event, ev.CheckpointSaved):
                    saved += 1
                elif isinstance(event, ev.EpochEnd):
                    ended.add(event.epoch)
    return saved, ended


def csv_line(columns: list[str], row: dict[str, object]) -> str:
    """One CSV line (no newline) of `row` in `columns` order; None is an empty cell."""
    out = io.StringIO()
    csv.DictWriter(out, fieldnames=columns, extrasaction="ignore", lineterminator="\n").writerow(
        {k: ("" if v is None else v) for k, v in row.items()}
    )
    return out.getvalue().rstrip("\n")


def read_metrics(path: Path) -> list[dict[str, str]]:
    """metrics.csv as rows of text; bytes that are not UTF-8 become U+FFFD, a mangled row ends the reading."""
    if not Path(path).is_file():
        return []
    rows: list[dict[str, str]] = []
    with open(path, newline="", encoding="utf-8", errors="replace") as f, contextlib.suppress(csv.Error):
        for row in csv.DictReader(line.replace("\0", "") for line in f):
            rows.append({k: v for k, v in row.items() if isinstance(k, str)})
    return rows


def read_events(path: Path) -> list[ev.Event]:
    """Events of a run directory (or of an events file); a torn last line (killed mid-write) is skipped."""
    out = []
    events_path = RunPaths(Path(path)).events if Path(path).is_dir() else Path(path)
    if not events_path.exists():
        return out
    for line in events_path.read_text(encoding="utf-8", errors="replace").splitlines():
        try:
            out.append(ev.decode(line))
        except ev.EventDecodeError:
            continue
    return out


def open_run(
    config_path: str | None, run_dir: str | None, resume_dir: str | None, continue_existing: bool = False
) -> tuple[RunConfig, Path, bool]:
    """(config, run directory, resume?) for the `train` command and the worker.

    `continue_existing` (train --continue): when `run_dir` already holds a run
    of the same config, resume it instead of refusing; how a restarted pod or
    start script picks up where it stopped. Raises ConfigError with every
    problem of the config file, RunDirError when the folder cannot be used.
    """
    if resume_dir:
        paths = RunPaths(Path(resume_dir))
        if not paths.config.is_file():
            raise ConfigError([Problem("--resume", resume_dir, "not a run directory (it has no config.json)")])
        return RunConfig.load(paths.config), paths.root, True
    config = RunConfig.load(str(config_path))
    if not run_dir:
        return config, new_run_dir(config), False
    paths = RunPaths(Path(run_dir))
    if continue_existing and paths.is_ours() and paths.config.is_file():
        stored = RunConfig.load(paths.config, check=False)
        if stored != config:
            raise RunDirError(
                f"{paths.root} holds a run of a different config; nothing was written: give a new folder, "
                f"or continue that run with --resume {paths.root}"
            )
        return stored, paths.root, True
    return config, paths.root, False
