"""Run history: what the run directories under a root say about past runs.

Read-only and TensorFlow-free, so the window's runs panel and the command
line see the same history, including runs started on the command line. Every
number here comes from a run's own events.jsonl and metrics.csv.
"""
from __future__ import annotations

import csv
import shlex
from dataclasses import dataclass, field
from pathlib import Path

from engine import events as ev
from engine.config import ConfigError, RunConfig
from engine.rundir import read_events, read_metrics


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
    status: str  # completed, stopped, failed, interrupted (killed, or still running)
    duration: float  # seconds from the first to the last event
    final: dict[str, float] = field(default_factory=dict)  # loss, accuracy, val_loss, val_accuracy
    message: str = ""

    @property
    def resumable(self) -> bool:
        return self.status in ("stopped", "interrupted") and any((self.path / "checkpoints").glob("ckpt-*.index"))


@dataclass(frozen=True)
class Curves:
    """A run's series for plotting and comparison; batch series share one index."""

    global_step: list[int]
    time: list[float]  # seconds since the run's first event
    loss: list[float]
    accuracy: list[float]
    examples_per_sec: list[float]
    epochs: list[dict[str, float]]  # metrics.csv rows as numbers


def is_run_dir(path: Path) -> bool:
    return (path / "events.jsonl").is_file() or (path / "config.json").is_file()


def summarize(path: Path) -> RunSummary:
    events = read_events(path)
    started = [e for e in events if isinstance(e, ev.RunStarted)]
    ends = [e for e in events if isinstance(e, (ev.RunFinished, ev.RunFailed))]
    rows = read_metrics(path / "metrics.csv")
    try:
        config = RunConfig.load(path / "config.json")
    except ConfigError:
        config = RunConfig()
    last_end = ends[-1] if ends else None
    if isinstance(last_end, ev.RunFinished) and (not started or last_end.time >= started[-1].time):
        status = last_end.status
    elif isinstance(last_end, ev.RunFailed) and (not started or last_end.time >= started[-1].time):
        status = "failed"
    else:
        status = "interrupted"
    final = {k: float(v) for k, v in (rows[-1] if rows else {}).items()
             if k in ("loss", "accuracy", "val_loss", "val_accuracy") and v not in ("", None)}
    return RunSummary(
        path=path, name=path.name, started=events[0].time if events else 0.0,
        strategy=started[-1].strategy if started else config.strategy,
        replicas=started[-1].num_replicas if started else 0,
        loop=started[-1].loop if started else config.loop,
        epochs_planned=config.epochs, epochs_completed=len(rows), status=status,
        duration=(events[-1].time - events[0].time) if events else 0.0, final=final,
        message=last_end.message if isinstance(last_end, ev.RunFailed) else "",
    )


def list_runs(root: Path) -> list[RunSummary]:
    """Every run directory directly under `root`, newest first."""
    if not root.is_dir():
        return []
    runs = [summarize(p) for p in root.iterdir() if p.is_dir() and is_run_dir(p)]
    return sorted(runs, key=lambda r: (r.started, r.name), reverse=True)


def load_curves(path: Path) -> Curves:
    events = read_events(path)
    t0 = events[0].time if events else 0.0
    batches = [e for e in events if isinstance(e, ev.BatchEnd)]
    epochs = [{k: float(v) for k, v in row.items() if v not in ("", None)} for row in read_metrics(path / "metrics.csv")]
    return Curves(
        global_step=[b.global_step for b in batches], time=[b.time - t0 for b in batches],
        loss=[b.loss for b in batches], accuracy=[b.accuracy for b in batches],
        examples_per_sec=[b.examples_per_sec for b in batches], epochs=epochs,
    )


def export_metrics(run_dirs: list[Path], out: Path) -> Path:
    """The per-epoch metrics of several runs in one CSV, with a `run` column first."""
    tables = [(p.name, read_metrics(p / "metrics.csv")) for p in run_dirs]
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
        return f"tensorboard --logdir {shlex.quote(str(run_dirs[0] / 'tensorboard'))}"
    spec = ",".join(f"{p.name}:{p / 'tensorboard'}" for p in run_dirs)
    return f"tensorboard --logdir_spec {shlex.quote(spec)}"
