"""Run history: what the run directories under a root say about past runs.

Read-only and TensorFlow-free, so the Runs tab and the command line see the same history, from each run's own
events.jsonl and metrics.csv. `RunHistory` re-reads only what changed (engine.core.runs.events_file). One broken
run never hides the others: it is an "unreadable" row with the reason, a bad line is named in `problems`. A run
whose lock is held (engine.core.runs.runlock) is "running" and cannot be resumed.
"""

from __future__ import annotations

import csv
import dataclasses
import math
import os
import shlex
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from engine.core import events as ev
from engine.core.config import RunConfig
from engine.core.messages import from_plain, msg
from engine.core.nvml import GpuSample
from engine.core.problems import ConfigError
from engine.core.protocol.codes import PEER_LOST_ERRORS, RunStatus
from engine.core.protocol.paths import RunPaths
from engine.core.runs.events_file import EventsDigest, read_batch_points
from engine.core.runs.gpu_log import read_gpu_log
from engine.core.runs.rundir import read_metrics
from engine.core.runs.runlock import Holder, holder
from engine.core.sweep import SweepPaths, TrialStatus

Stamp = tuple[tuple[int, int] | None, ...]
FINAL_METRICS = ("loss", "accuracy", "val_loss", "val_accuracy")


@dataclass(frozen=True)
class RunSummary:
    """One row of the runs table."""

    path: Path
    name: str
    started: float  # epoch seconds of the first event (0 when the run never started)
    strategy: str
    replicas: int
    loop: str
    epochs_planned: int
    epochs_completed: int
    status: RunStatus  # completed, stopped, pruned (a sweep trial), failed, interrupted, running (locked), unreadable
    duration: float  # seconds of training: first to last event, less the pauses before resumes
    final: dict[str, float] = field(default_factory=dict)  # loss, accuracy, val_loss, val_accuracy
    message: str = ""  # why it failed, why its sweep pruned it, or why it cannot be read
    num_workers: int = 1  # a local cluster run is resumed with as many workers
    holder: Holder | None = None  # who trains it now (status running)
    problems: tuple[str, ...] = ()  # what could not be read, e.g. "2 lines of events.jsonl are not events"
    error_type: str = ""  # what a failed run failed with
    anatomy: ev.StepAnatomy | None = None  # where its steps' time went, over the whole run (engine.core.anatomy)

    @property
    def resumable(self) -> bool:
        """Stopped, interrupted, or failed because a task of its cluster stopped answering (a killed ps
        task): and there is a checkpoint to go on from."""
        cut_short = self.status in (RunStatus.STOPPED, RunStatus.INTERRUPTED) or (
            self.status == RunStatus.FAILED and self.error_type in PEER_LOST_ERRORS
        )
        return cut_short and RunPaths(self.path).has_checkpoint()


@dataclass(frozen=True)
class Curves:
    """A run's series for plotting and comparison; batch series share one index."""

    global_step: list[int]
    time: list[float]  # seconds since the run's first event
    loss: list[float]
    accuracy: list[float]
    examples_per_sec: list[float]
    epochs: list[dict[str, float]]  # metrics.csv rows as numbers
    problems: tuple[str, ...] = ()  # what was left out, and why
    gpu: list[GpuSample] = field(default_factory=list)  # gpus.csv, `time` in seconds since the first event
    thinned: int = 1  # one batch in this many is plotted (a long run's curve; nothing is wrong with it)


def is_run_dir(path: Path) -> bool:
    return RunPaths(path).looks_like_run()


def sweep_trials(folder: Path) -> list[Path]:
    """The trials' run directories of a sweep's folder (none for any other folder): listed with the runs,
    named after their sweep."""
    if not SweepPaths(folder).spec.is_file():
        return []
    try:
        with os.scandir(folder) as entries:
            return [Path(e.path) for e in entries if _is_dir(e) and is_run_dir(Path(e.path))]
    except OSError:
        return []


def run_name(path: Path) -> str:
    """A run's name in the table: its folder's, or "sweep folder/trial-003" for a sweep's trial."""
    return f"{path.parent.name}/{path.name}" if SweepPaths(path.parent).spec.is_file() else path.name


# ---- reading one run ---------------------------------------------------------------------


@dataclass(frozen=True)
class MetricsTable:
    rows: list[dict[str, float]]  # numeric cells only
    problems: tuple[str, ...]


def read_metrics_table(path: Path) -> MetricsTable:
    """metrics.csv as numbers; a cell that is not a number is left out and named."""
    rows, problems = [], []
    for line, row in enumerate(read_metrics(path), start=2):
        numbers = {}
        for key, value in row.items():
            if value in ("", None):
                continue
            try:
                number = float(value)
            except (TypeError, ValueError):
                problems.append(f"metrics.csv line {line}: {key} holds {str(value)[:40]!r}, not a number")
                continue
            numbers[key] = number
        if math.isfinite(numbers.get("epoch", math.nan)):
            rows.append(numbers)
        else:
            problems.append(f"metrics.csv line {line}: no epoch number; the row is left out")
    return MetricsTable(rows, tuple(problems))


def _load_config(paths: RunPaths) -> tuple[RunConfig, str]:
    try:
        return RunConfig.load(paths.config, check=False), ""  # a run whose data file has since moved still reads
    except ConfigError as exc:
        return RunConfig(), f"config.json: {exc.problems[0].message if exc.problems else exc}"


def _summary(
    paths: RunPaths, digest: EventsDigest, metrics: MetricsTable, config: RunConfig, config_problem: str
) -> RunSummary:
    started, end = digest.started, digest.end
    if isinstance(end, ev.RunFinished):
        try:
            status = RunStatus(end.status)
        except ValueError:
            status = RunStatus.INTERRUPTED
    elif isinstance(end, ev.RunFailed):
        status = RunStatus.FAILED
    else:
        status = RunStatus.INTERRUPTED
    why = ""
    if status == RunStatus.STOPPED and (trial_end := digest.trial_end) and trial_end.state == TrialStatus.PRUNED:
        status = RunStatus.PRUNED
        why = from_plain(trial_end.message_template) or trial_end.message
    last = metrics.rows[-1] if metrics.rows else {}
    problems = list(metrics.problems)
    if config_problem:
        problems.append(config_problem)
    if digest.bad_lines:
        problems.append(f"{digest.bad_lines} line(s) of events.jsonl are not events and were left out")
    if digest.skipped_bytes:
        problems.append(f"events.jsonl is large: its middle ({digest.skipped_bytes / 2**20:,.0f} MB) was not read")
    first = digest.first_time
    return RunSummary(
        path=paths.root,
        name=run_name(paths.root),
        started=first or 0.0,
        strategy=started.strategy if started else config.strategy,
        replicas=started.num_replicas if started else 0,
        loop=started.loop if started else config.loop,
        epochs_planned=config.epochs,
        epochs_completed=len({int(r["epoch"]) for r in metrics.rows}),
        status=status,
        duration=digest.active_seconds,
        final={k: v for k, v in last.items() if k in FINAL_METRICS},
        message=end.message if isinstance(end, ev.RunFailed) else why,
        num_workers=started.num_workers if started else 1,
        problems=tuple(problems),
        error_type=end.error_type if isinstance(end, ev.RunFailed) else "",
        anatomy=digest.anatomy,
    )


def unreadable(path: Path, reason: str) -> RunSummary:
    """The row of a run that cannot be read at all: shown, with the reason, never hiding the others."""
    return RunSummary(
        path=path,
        name=run_name(path),
        started=0.0,
        strategy="",
        replicas=0,
        loop="",
        epochs_planned=0,
        epochs_completed=0,
        status=RunStatus.UNREADABLE,
        duration=0.0,
        message=reason,
    )


def _with_lock(summary: RunSummary) -> RunSummary:
    """A run whose lock a live process holds is running, whatever its files say."""
    try:
        held = holder(RunPaths(summary.path))
    except OSError:
        held = None
    if held is None:
        return summary if summary.holder is None else dataclasses.replace(summary, holder=None)
    return dataclasses.replace(summary, status=RunStatus.RUNNING, holder=held)


def summarize(path: Path) -> RunSummary:
    """One run's row, read afresh."""
    return RunHistory(Path(path).parent).summary(Path(path))


def list_runs(root: Path) -> list[RunSummary]:
    """Every run directory under `root` (and the trials of its sweeps), newest first."""
    return RunHistory(root).scan()


def load_curves(path: Path) -> Curves:
    """A run's batch series (thinned for a long run) and its epoch rows."""
    paths = RunPaths(path)
    points = read_batch_points(paths.events)
    metrics = read_metrics_table(paths.metrics)
    problems = list(metrics.problems)
    if points.bad_lines:
        problems.append(f"{points.bad_lines} line(s) of events.jsonl are not events and were left out")
    return Curves(
        global_step=points.global_step,
        time=points.time,
        loss=points.loss,
        accuracy=points.accuracy,
        examples_per_sec=points.examples_per_sec,
        epochs=metrics.rows,
        problems=tuple(problems),
        gpu=[dataclasses.replace(s, time=s.time - (points.t0 or 0.0)) for s in read_gpu_log(paths.gpu_samples)],
        thinned=points.thinned,
    )


def export_metrics(run_dirs: list[Path], out: Path) -> Path:
    """The per-epoch metrics of several runs in one CSV, with a `run` column first."""
    tables = [(p.name, read_metrics(RunPaths(p).metrics)) for p in run_dirs]
    columns: list[str] = []
    for _, rows in tables:
        for row in rows:
            columns += [c for c in row if c not in columns]
    with open(out, "w", newline="", encoding="utf-8") as f:
        writer = csv.DictWriter(f, fieldnames=["run", *columns], restval="")
        writer.writeheader()
        for name, rows in tables:
            writer.writerows({"run": name, **row} for row in rows)
    return out


def tensorboard_command(run_dirs: list[Path]) -> str:
    """The shell command that opens these runs in TensorBoard, quoted for copy and paste."""
    if len(run_dirs) == 1:
        return f"tensorboard --logdir {shlex.quote(str(RunPaths(run_dirs[0]).tensorboard))}"
    spec = ",".join(f"{p.name}:{RunPaths(p).tensorboard}" for p in run_dirs)
    return f"tensorboard --logdir_spec {shlex.quote(spec)}"


def _stamp(path: Path) -> tuple[int, int] | None:
    try:
        st = os.stat(path)
    except OSError:
        return None
    return (st.st_mtime_ns, st.st_size)


@dataclass
class _Cached:
    digest: EventsDigest = field(default_factory=EventsDigest)
    metrics_stamp: tuple[int, int] | None = None
    metrics: MetricsTable = field(default_factory=lambda: MetricsTable([], ()))
    config_stamp: tuple[int, int] | None = None
    config: tuple[RunConfig, str] = (RunConfig(), "")
    summary: RunSummary | None = None
    curves_stamp: Stamp = ()
    curves: Curves | None = None


class RunHistory:
    """Summaries and curves of the runs under `root` (and the trials of its sweeps), re-reading only what changed.

    Not thread-safe: one thread (the Runs tab's reader process, gui.runs.history_process) uses it.
    """

    def __init__(self, root: Path) -> None:
        self.root = Path(root)
        self._runs: dict[Path, _Cached] = {}
        self.problem = ""  # why the root itself cannot be listed

    def run_dirs(self) -> list[Path]:
        """The run directories under the root (a quick listing: names and the marker's presence)."""
        try:
            with os.scandir(self.root) as entries:
                folders = [Path(e.path) for e in entries if _is_dir(e)]
            found = [f for f in folders if is_run_dir(f)]
            found += [trial for f in folders if not is_run_dir(f) for trial in sweep_trials(f)]
        except OSError as exc:
            self.problem = (
                ""
                if isinstance(exc, FileNotFoundError)
                else msg("cannot list {folder}: {reason}", folder=str(self.root), reason=exc.strerror)
            )
            found = []
        else:
            self.problem = ""
        for gone in set(self._runs) - set(found):
            del self._runs[gone]
        return found

    def scan(self) -> list[RunSummary]:
        """Every run directory under the root (and the trials of its sweeps), newest first."""
        return sort_runs(list(self.iter_scan()))

    def iter_scan(self, should_continue: Callable[[], bool] = lambda: True) -> Iterator[RunSummary]:
        """The runs' summaries one by one (so a window can show rows as they come), until told to stop."""
        for run_dir in self.run_dirs():
            if not should_continue():
                return
            yield self.summary(run_dir)

    def summary(self, run_dir: Path) -> RunSummary:
        """One run's row: files that changed are read again (a grown events file from where it stopped)."""
        cached = self._runs.setdefault(run_dir, _Cached())
        try:
            cached.summary = self._read(run_dir, cached)
        except (OSError, ValueError, RecursionError, MemoryError) as exc:
            self._runs.pop(run_dir, None)
            return unreadable(run_dir, _reason(exc))
        return _with_lock(cached.summary)

    def curves(self, run_dir: Path) -> Curves:
        """A run's curves, kept until its events or metrics change."""
        cached = self._runs.setdefault(run_dir, _Cached())
        paths = RunPaths(run_dir)
        stamp = (_stamp(paths.events), _stamp(paths.metrics), _stamp(paths.gpu_samples))
        if cached.curves is None or cached.curves_stamp != stamp:
            try:
                cached.curves = load_curves(run_dir)
            except (OSError, ValueError, RecursionError, MemoryError) as exc:
                cached.curves = Curves([], [], [], [], [], [], (f"cannot read the run: {_reason(exc)}",))
            cached.curves_stamp = stamp
        return cached.curves

    def _read(self, run_dir: Path, cached: _Cached) -> RunSummary:
        paths = RunPaths(run_dir)
        changed = cached.digest.update(paths.events) or cached.summary is None
        metrics_stamp, config_stamp = _stamp(paths.metrics), _stamp(paths.config)
        if metrics_stamp != cached.metrics_stamp:
            cached.metrics, cached.metrics_stamp, changed = read_metrics_table(paths.metrics), metrics_stamp, True
        if config_stamp != cached.config_stamp:
            cached.config, cached.config_stamp, changed = _load_config(paths), config_stamp, True
        if not changed and cached.summary is not None:
            return cached.summary
        return _summary(paths, cached.digest, cached.metrics, *cached.config)


def sort_runs(runs: list[RunSummary]) -> list[RunSummary]:
    """Newest first; runs that never started (or cannot be read) by name."""
    return sorted(runs, key=lambda r: (r.started, r.name), reverse=True)


def _is_dir(entry: os.DirEntry) -> bool:
    try:
        return entry.is_dir()
    except OSError:
        return False


def _reason(exc: BaseException) -> str:
    if isinstance(exc, OSError) and exc.strerror:
        return f"{exc.strerror}: {exc.filename}" if exc.filename else exc.strerror
    if isinstance(exc, RecursionError):
        return "a file is nested too deeply to read"
    return f"{type(exc).__name__}: {str(exc)[:200]}"
