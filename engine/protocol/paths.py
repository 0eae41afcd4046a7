"""The run directory's layout: one read-only path object for writers and readers alike.

    RUN_DIR/config.json      the RunConfig the run used
    RUN_DIR/events.jsonl     every event, appended (a resumed run appends)
    RUN_DIR/metrics.csv      one row per finished epoch
    RUN_DIR/tensorboard/     TensorBoard event files
    RUN_DIR/checkpoints/     tf.train.CheckpointManager files
    RUN_DIR/model.keras      the trained model
    RUN_DIR/workers/         a local cluster's per-task logs (<task id>.log)
    RUN_DIR/stderr.log       the trainer's stderr as it wrote it (the window's log and `tfdd train` fold it)
    RUN_DIR/gpus.csv         per-GPU utilisation and memory, about once a second, while the run trained

Nothing here creates or opens a file: the trainer writes through
`engine.rundir.RunDir`, the history and the window read through this.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

RUNS_DIR_ENV = "TFDD_RUNS_DIR"
CHECKPOINT_PREFIX = "ckpt"  # tf.train.CheckpointManager's default: checkpoints/ckpt-N.index


def runs_root() -> Path:
    """Where runs go unless told otherwise: $TFDD_RUNS_DIR, else ~/tfdd-runs."""
    return Path(os.environ.get(RUNS_DIR_ENV) or Path.home() / "tfdd-runs")


@dataclass(frozen=True)
class RunPaths:
    """Where each file of one run directory lives."""

    root: Path

    def __post_init__(self) -> None:
        object.__setattr__(self, "root", Path(self.root))

    @property
    def config(self) -> Path:
        return self.root / "config.json"

    @property
    def events(self) -> Path:
        return self.root / "events.jsonl"

    @property
    def metrics(self) -> Path:
        return self.root / "metrics.csv"

    @property
    def checkpoints(self) -> Path:
        return self.root / "checkpoints"

    @property
    def tensorboard(self) -> Path:
        return self.root / "tensorboard"

    @property
    def model(self) -> Path:
        return self.root / "model.keras"

    @property
    def workers(self) -> Path:
        return self.root / "workers"

    @property
    def stderr_log(self) -> Path:
        return self.root / "stderr.log"

    @property
    def gpu_samples(self) -> Path:
        return self.root / "gpus.csv"

    def worker_log(self, task: str) -> Path:
        """The stderr of a local cluster's task, by task id ("worker-1")."""
        return self.workers / f"{task}.log"

    def checkpoint_indexes(self) -> list[Path]:
        """The checkpoints written so far (their index files), oldest first."""
        return sorted(
            self.checkpoints.glob(f"{CHECKPOINT_PREFIX}-*.index"),
            key=lambda p: int(p.stem.rpartition("-")[2]) if p.stem.rpartition("-")[2].isdigit() else -1,
        )

    def has_checkpoint(self) -> bool:
        return bool(self.checkpoint_indexes())

    def looks_like_run(self) -> bool:
        """A folder that holds a run's files (events or config)."""
        return self.events.is_file() or self.config.is_file()
