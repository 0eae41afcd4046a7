"""Writing a run directory, and how it survives being stopped or killed.

The layout is engine.protocol.paths.RunPaths; this module creates the
folders and writes the files: events appended and fsynced (batch events are
not fsynced one by one), one metrics row per finished epoch, flushed and
fsynced. No TensorFlow here: the window creates run directories too.
"""

from __future__ import annotations

import csv
import os
import time
from pathlib import Path
from typing import IO

from engine import events as ev
from engine.config import RunConfig
from engine.problems import ConfigError, Problem
from engine.protocol.paths import RunPaths, runs_root

METRIC_COLUMNS = ["epoch", "loss", "accuracy", "examples_per_sec", "seconds"]
VALIDATION_COLUMNS = ["val_loss", "val_accuracy"]
EVALUATION_COLUMNS = [
    "epoch",
    "step",
    "global_step",
    "val_loss",
    "val_accuracy",
    "examples",
    "seconds",
    "cpu_seconds",
    "checkpoint",
]


def new_run_dir(config: RunConfig, root: Path | None = None, now: float | None = None) -> Path:
    """Create `root/YYYYmmdd-HHMMSS[-name]-<strategy>-<loop>`, suffixed -2, -3 … if taken.

    mkdir is the claim, so two runs started in the same second (the window
    and a terminal) cannot share a directory.
    """
    root = root or runs_root()
    root.mkdir(parents=True, exist_ok=True)
    stamp = time.strftime("%Y%m%d-%H%M%S", time.localtime(now))
    base = f"{stamp}-{config.name + '-' if config.name else ''}{config.strategy}-{config.loop}"
    for n in range(1, 1000):
        candidate = root / (base if n == 1 else f"{base}-{n}")
        try:
            candidate.mkdir()
            return candidate
        except FileExistsError:
            continue
    raise FileExistsError(f"no free run directory name under {root} for {base}")


class RunDir:
    """Writes a run directory's files; also an event sink (call it with events)."""

    def __init__(self, path: Path, validation: bool):
        self.paths = RunPaths(Path(path))
        self.path = self.paths.root
        self.path.mkdir(parents=True, exist_ok=True)
        self.checkpoints.mkdir(exist_ok=True)
        self.columns = METRIC_COLUMNS + (VALIDATION_COLUMNS if validation else [])
        self._events: IO[str] = open(self.events_path, "a", encoding="utf-8")  # noqa: SIM115 - open for the run

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
        config.save(self.config_path)

    def keep_epochs_before(self, epoch: int) -> None:
        """On resume: drop metric rows of epochs that will be trained again.

        A row is written before its epoch's checkpoint, so a kill between the
        two leaves a row the checkpoint does not cover; that epoch is redone
        and must appear once.
        """
        rows = read_metrics(self.metrics_path)
        kept = [r for r in rows if int(float(r["epoch"])) < epoch]
        with open(self.metrics_path, "w", newline="", encoding="utf-8") as f:
            writer = csv.DictWriter(f, fieldnames=self.columns, extrasaction="ignore")
            writer.writeheader()
            writer.writerows(kept)
            _sync(f)

    def __call__(self, event: ev.Event) -> None:
        self._events.write(ev.encode(event) + "\n")
        if isinstance(event, ev.EpochEnd):
            self._append_metrics(event)
        if not isinstance(event, ev.BatchEnd):
            _sync(self._events)

    def _append_metrics(self, e: ev.EpochEnd) -> None:
        new = not self.metrics_path.exists() or self.metrics_path.stat().st_size == 0
        with open(self.metrics_path, "a", newline="", encoding="utf-8") as f:
            writer = csv.DictWriter(f, fieldnames=self.columns, extrasaction="ignore")
            if new:
                writer.writeheader()
            writer.writerow({k: ("" if v is None else v) for k, v in ev.to_dict(e).items()})
            _sync(f)

    def close(self) -> None:
        if not self._events.closed:
            _sync(self._events)
            self._events.close()


class EvaluationLog:
    """RUN_DIR/evaluation.csv, the evaluator task's file (the chief owns metrics.csv); an event sink.

    One row per evaluated checkpoint, appended and fsynced, so an evaluator
    started again (a resumed run) skips what it has already validated.
    """

    def __init__(self, run_dir: Path):
        self.path = RunPaths(Path(run_dir)).evaluation

    def checkpoints(self) -> set[str]:
        """Names of the checkpoints validated so far, e.g. {"ckpt-1", "ckpt-2"}."""
        return {Path(r["checkpoint"]).name for r in read_metrics(self.path) if r.get("checkpoint")}

    def __call__(self, event: ev.Event) -> None:
        if not isinstance(event, ev.Evaluation):
            return
        new = not self.path.exists() or self.path.stat().st_size == 0
        with open(self.path, "a", newline="", encoding="utf-8") as f:
            writer = csv.DictWriter(f, fieldnames=EVALUATION_COLUMNS, extrasaction="ignore")
            if new:
                writer.writeheader()
            writer.writerow(ev.to_dict(event))
            _sync(f)


def _sync(f: IO[str]) -> None:
    f.flush()
    os.fsync(f.fileno())


def read_metrics(path: Path) -> list[dict[str, str]]:
    if not Path(path).exists():
        return []
    with open(path, newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))


def read_events(path: Path) -> list[ev.Event]:
    """Events of a run directory (or of an events file); a torn last line (killed mid-write) is skipped."""
    out = []
    events_path = RunPaths(Path(path)).events if Path(path).is_dir() else Path(path)
    if not events_path.exists():
        return out
    for line in events_path.read_text(encoding="utf-8").splitlines():
        try:
            out.append(ev.decode(line))
        except ev.EventDecodeError:
            continue
    return out


def open_run(config_path: str | None, run_dir: str | None, resume_dir: str | None) -> tuple[RunConfig, Path, bool]:
    """(config, run directory, resume?) for the `train` command and the worker.

    Raises ConfigError with every problem of the config file.
    """
    if resume_dir:
        paths = RunPaths(Path(resume_dir))
        if not paths.config.is_file():
            raise ConfigError([Problem("--resume", resume_dir, "not a run directory (it has no config.json)")])
        return RunConfig.load(paths.config), paths.root, True
    config = RunConfig.load(str(config_path))
    return config, Path(run_dir) if run_dir else new_run_dir(config), False
