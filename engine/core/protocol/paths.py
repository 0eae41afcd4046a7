"""The run directory's layout: one read-only path object for writers and readers alike.

    RUN_DIR/config.json      the RunConfig the run used
    RUN_DIR/events.jsonl     every event, appended (a resumed run appends)
    RUN_DIR/metrics.csv      one row per finished epoch
    RUN_DIR/tensorboard/     TensorBoard event files
    RUN_DIR/checkpoints/     tf.train.CheckpointManager files
    RUN_DIR/model.keras      the trained model
    RUN_DIR/workers/         a local cluster's per-task logs (<task id>.log)
    RUN_DIR/set-aside/       what a resume or a repair moved out of the way (torn lines,
                             unreadable checkpoints), kept for a person to look at
    RUN_DIR/.tfdd-run        the marker, written first: this folder is a run of ours
    RUN_DIR/.tfdd-lock       the run's OS file lock, held by the process training it
    RUN_DIR/.tfdd-reserve    a little disk space kept back, so a full disk can still be reported
    RUN_DIR/cluster.json     a local cluster's tasks (TF_CONFIG without a task): its shape on resume
    RUN_DIR/evaluation.csv   the evaluator task's validation of each checkpoint
    RUN_DIR/tensorboard/evaluation/   the evaluator's TensorBoard scalars
    RUN_DIR/stderr.log       the trainer's stderr as it wrote it (the window's log and `tfdd train` fold it)
    RUN_DIR/gpus.csv         per-GPU utilisation and memory, about once a second, while the run trained

Nothing here creates or opens a file: the trainer writes through
`engine.core.runs.rundir.RunDir`, the history and the window read through this.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

RUNS_DIR_ENV = "TFDD_RUNS_DIR"
CHECKPOINT_PREFIX = "ckpt"  # tf.train.CheckpointManager's default: checkpoints/ckpt-N.index
MARKER_NAME = ".tfdd-run"
LOCK_NAME = ".tfdd-lock"
RESERVE_NAME = ".tfdd-reserve"


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
    def tensorboard_evaluation(self) -> Path:
        return self.tensorboard / "evaluation"

    @property
    def evaluation(self) -> Path:
        return self.root / "evaluation.csv"

    @property
    def cluster(self) -> Path:
        return self.root / "cluster.json"

    @property
    def model(self) -> Path:
        return self.root / "model.keras"

    @property
    def workers(self) -> Path:
        return self.root / "workers"

    @property
    def set_aside(self) -> Path:
        return self.root / "set-aside"

    @property
    def marker(self) -> Path:
        return self.root / MARKER_NAME

    @property
    def lock(self) -> Path:
        return self.root / LOCK_NAME

    @property
    def reserve(self) -> Path:
        return self.root / RESERVE_NAME

    @property
    def stderr_log(self) -> Path:
        return self.root / "stderr.log"

    @property
    def launcher_log(self) -> Path:
        """What a run continued without a terminal or window prints: a detached cluster launcher (`cluster launch
        --detach`), or the `tfdd` command the window's Keep running leaves (engine.core.protocol.background)."""
        return self.root / "launcher.log"

    @property
    def gpu_samples(self) -> Path:
        return self.root / "gpus.csv"

    @property
    def worker_states(self) -> Path:
        """A cluster launcher's worker_state events, one a line: every task's state, for a window that
        watches the run from its folder (the chief's events.jsonl holds only its own)."""
        return self.workers / "states.jsonl"

    def worker_log(self, task: str) -> Path:
        """The stderr of a local cluster's task, by task id ("worker-1")."""
        return self.workers / f"{task}.log"

    def checkpoint_indexes(self) -> list[Path]:
        """The checkpoints written so far (their index files), oldest first."""
        return sorted(self.checkpoints.glob(f"{CHECKPOINT_PREFIX}-*.index"), key=self.checkpoint_number)

    @staticmethod
    def checkpoint_number(index: Path) -> int:
        """N of checkpoints/ckpt-N.index (-1 for a name that has none)."""
        tail = index.stem.rpartition("-")[2]
        return int(tail) if tail.isdigit() else -1

    def checkpoint_files(self, index: Path) -> list[Path]:
        """Every file of one checkpoint: its index and its data shards."""
        return [index, *sorted(self.checkpoints.glob(f"{index.stem}.data-*"))]

    def has_checkpoint(self) -> bool:
        return bool(self.checkpoint_indexes())

    def looks_like_run(self) -> bool:
        """A folder that holds a run's files (events or config); a claimed folder with only its marker is not yet."""
        return self.events.is_file() or self.config.is_file()

    def has_run_files(self) -> bool:
        """Something a run wrote that a fresh run would overwrite or append to."""
        return any(p.exists() for p in (self.config, self.events, self.metrics, self.model)) or self.has_checkpoint()

    def user_files(self) -> list[Path]:
        """What is in the folder besides our own lock and reserve (which say nothing about whose it is)."""
        if not self.root.is_dir():
            return []
        return [p for p in self.root.iterdir() if p.name not in (LOCK_NAME, RESERVE_NAME)]

    def is_ours(self) -> bool:
        """The marker says a run of this dashboard made this folder."""
        return self.marker.is_file()
