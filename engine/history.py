"""Run history: what the run directories under a root say about past runs.

Read-only and TensorFlow-free, so the window's runs panel and the command
line see the same history, including runs started on the command line. Every
number here comes from a run's own events.jsonl and metrics.csv.
`RunHistory` keeps each summary until the run's files change: summarizing
reads a run's whole events.jsonl, so the window's periodic refresh of
unchanged runs costs only a few stat() calls.
"""

from __future__ import annotations

import csv
import dataclasses
import shlex
from dataclasses import dataclass, field
from pathlib import Path

from engine import events as ev
from engine.config import RunConfig
from engine.gpu_log import read_gpu_log
from engine.nvml import GpuSample
from engine.problems import ConfigError
from engine.protocol.codes import RunStatus
from engine.protocol.paths import RunPaths
from engine.rundir import read_events, read_metrics

Stamp = tuple[tuple[int, int] | None, ...]


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
    status: RunStatus  # completed, stopped, failed, interrupted (killed, or still running)
    duration: float  # seconds from the first to the last event
    final: dict[str, float] = field(default_factory=dict)  # loss, accuracy, val_loss, val_accuracy
    message: str = ""
    num_workers: int = 1  # a local cluster run is resumed with as many workers

    @property
    def resumable(self) -> bool:
        return self.status in (RunStatus.STOPPED, RunStatus.INTERRUPTED) and RunPaths(self.path).has_checkpoint()


@dataclass(frozen=True)
class Curves:
    """A run's series for plotting and comparison; batch series share one index."""

    global_step: list[int]
    time: list[float]  # seconds since the run's first event
    loss: list[float]
    accuracy: list[float]
    examples_per_sec: list[float]
    epochs: list[dict[str, float]]  # metrics.csv rows as numbers
    gpu: list[GpuSample] = field(default_factory=list)  # gpus.csv, `time` in seconds since the first event


def is_run_dir(path: Path) -> bool:
    return RunPaths(path).looks_like_run()


def summarize(path: Path) -> RunSummary:
    paths = RunPaths(path)
    events = read_events(path)
    started = [e for e in events if isinstance(e, ev.RunStarted)]
    ends = [e for e in events if isinstance(e, (ev.RunFinished, ev.RunFailed))]
    rows = read_metrics(paths.metrics)
    try:
        config = RunConfig.load(paths.config, check=False)  # a run whose data file has since moved still reads
    except ConfigError:
        config = RunConfig()
    last_end = ends[-1] if ends else None
    if isinstance(last_end, ev.RunFinished) and (not started or last_end.time >= started[-1].time):
        status = RunStatus(last_end.status)
    elif isinstance(last_end, ev.RunFailed) and (not started or last_end.time >= started[-1].time):
        status = RunStatus.FAILED
    else:
        status = RunStatus.INTERRUPTED
    final = {
        k: float(v)
        for k, v in (rows[-1] if rows else {}).items()
        if k in ("loss", "accuracy", "val_loss", "val_accuracy") and v not in ("", None)
    }
    return RunSummary(
        path=path,
        name=path.name,
        started=events[0].time if events else 0.0,
        strategy=started[-1].strategy if started else config.strategy,
        replicas=started[-1].num_replicas if started else 0,
        loop=started[-1].loop if started else config.loop,
        epochs_planned=config.epochs,
        epochs_completed=len(rows),
        status=status,
        duration=(events[-1].time - events[0].time) if events else 0.0,
        final=final,
        message=last_end.message if isinstance(last_end, ev.RunFailed) else "",
        num_workers=started[-1].num_workers if started else 1,
    )


def list_runs(root: Path) -> list[RunSummary]:
    """Every run directory directly under `root`, newest first."""
    return RunHistory(root).scan()


def load_curves(path: Path) -> Curves:
    events = read_events(path)
    t0 = events[0].time if events else 0.0
    batches = [e for e in events if isinstance(e, ev.BatchEnd)]
    epochs = [
        {k: float(v) for k, v in row.items() if v not in ("", None)} for row in read_metrics(RunPaths(path).metrics)
    ]
    return Curves(
        global_step=[b.global_step for b in batches],
        time=[b.time - t0 for b in batches],
        loss=[b.loss for b in batches],
        accuracy=[b.accuracy for b in batches],
        examples_per_sec=[b.examples_per_sec for b in batches],
        epochs=epochs,
        gpu=[dataclasses.replace(s, time=s.time - t0) for s in read_gpu_log(RunPaths(path).gpu_samples)],
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


def _stamp(run_dir: Path) -> Stamp:
    """What changes when a run's history changes: its files' times and sizes."""
    out = []
    paths = RunPaths(run_dir)
    for path in (paths.events, paths.metrics, paths.config, paths.checkpoints, paths.gpu_samples):
        try:
            st = path.stat()
            out.append((st.st_mtime_ns, st.st_size))
        except OSError:
            out.append(None)
    return tuple(out)


class RunHistory:
    """Summaries and curves of the runs directly under `root`, cached per run until its files change."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self._summaries: dict[Path, tuple[Stamp, RunSummary]] = {}
        self._curves: dict[Path, tuple[Stamp, Curves]] = {}

    def scan(self) -> list[RunSummary]:
        """Every run directory directly under the root, newest first, re-reading only runs that changed."""
        seen = [p for p in self.root.iterdir() if p.is_dir() and is_run_dir(p)] if self.root.is_dir() else []
        runs = [s for s in (self._summary(p) for p in seen) if s is not None]
        for gone in set(self._summaries) - set(seen):
            del self._summaries[gone]
            self._curves.pop(gone, None)
        return sorted(runs, key=lambda r: (r.started, r.name), reverse=True)

    def curves(self, run_dir: Path) -> Curves:
        stamp = _stamp(run_dir)
        cached = self._curves.get(run_dir)
        if cached is None or cached[0] != stamp:
            cached = (stamp, load_curves(run_dir))
            self._curves[run_dir] = cached
        return cached[1]

    def _summary(self, run_dir: Path) -> RunSummary | None:
        stamp = _stamp(run_dir)
        cached = self._summaries.get(run_dir)
        if cached is not None and cached[0] == stamp:
            return cached[1]
        try:
            summary = summarize(run_dir)
        except (OSError, ValueError):  # caught mid-write (a torn metrics row): the next refresh reads it again
            return cached[1] if cached else None
        self._summaries[run_dir] = (stamp, summary)
        return summary
