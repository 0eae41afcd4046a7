"""Model, optimizer, position (epoch, step) and the epoch's running totals in one tf.train checkpoint.

A restore reads every tensor of the newest checkpoint first (each is CRC-checked) and falls back to the next
older one when that fails, saying so and moving the damaged ones to RUN_DIR/set-aside/; when none can be read
the run is refused (RunDirError) before the folder changes. The running totals of the epoch in progress are
saved too, so an epoch interrupted and resumed still gets a metrics row over the whole epoch.
"""

from __future__ import annotations

import shutil
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from engine.core import events as ev
from engine.core.problems import RunDirError
from engine.core.protocol.paths import CHECKPOINT_PREFIX, RunPaths
from engine.train.tf_runtime import tf

TOTALS = 5  # engine.train.controller.EpochTotals.carried(): steps, loss sum, accuracy sum, train s, wall s


@dataclass(frozen=True)
class Restored:
    """Where a resume continues: `epoch` epochs finished, `step` steps of the next done."""

    epoch: int
    step: int
    totals: tuple[float, ...]  # the interrupted epoch's running totals (zeros at an epoch's end)
    path: str
    skipped: tuple[str, ...] = ()  # "ckpt-7: why it could not be read", newest first


def _position_variable() -> Any:
    return tf.Variable([0, 0], dtype=tf.int64, trainable=False, name="position")


class WeightReader:
    """Reads a model's weights and the position from checkpoints, again and again (the evaluator task).

    Nothing else is read (the evaluator has no optimizer). A parameter-server run's sharded variables are
    saved whole, so they restore into a plain model. One tf.train.Checkpoint serves every read.
    """

    def __init__(self, model: Any):
        self._position = _position_variable()
        self._checkpoint = tf.train.Checkpoint(model=model, position=self._position)

    def read(self, path: str) -> tuple[int, int]:
        """The checkpoint's (epoch, step); raises what TensorFlow raises for a missing or foreign checkpoint."""
        self._checkpoint.restore(path).expect_partial().assert_existing_objects_matched()
        epoch, step = (int(v) for v in self._position.numpy())
        return epoch, step


class Checkpointer:
    """Saves to `directory`; restores from `restore_from` (default the same).

    In a cluster every worker restores the chief's checkpoint, while
    non-chief workers save to scratch folders (a collective save needs every
    worker to take part, but only the chief's copy is kept).
    """

    def __init__(
        self,
        model: Any,
        optimizer: Any,
        directory: Path,
        keep: int,
        emit: ev.Sink,
        restore_from: Path | None = None,
    ):
        self._directory = Path(directory)
        self._restore_from = Path(restore_from or directory)
        self._position = _position_variable()
        self._totals = tf.Variable([0.0] * TOTALS, dtype=tf.float64, trainable=False, name="epoch_totals")
        self._checkpoint = tf.train.Checkpoint(
            model=model, optimizer=optimizer, position=self._position, epoch_totals=self._totals
        )
        self._keep = keep
        self._manager: Any = None  # made at the first save, after a restore has set aside what it could not read
        self._emit = emit
        self.last_saved: tuple[int, int] | None = None

    def restore(self) -> Restored | None:
        """The newest readable checkpoint, or None when there is none; RunDirError when none can be read."""
        paths = RunPaths(self._restore_from.parent)
        candidates = list(reversed(paths.checkpoint_indexes()))
        if not candidates:
            return None
        skipped: list[tuple[Path, str]] = []
        for index in candidates:
            prefix = str(index.with_suffix(""))
            problem = unreadable(prefix)
            if problem is None:
                try:
                    self._totals.assign([0.0] * TOTALS)  # an older checkpoint has none: the epoch starts afresh
                    self._checkpoint.restore(prefix).expect_partial()
                except Exception as exc:  # noqa: BLE001 - whatever it is, this checkpoint cannot be used
                    problem = _first_line(exc)
            if problem is None:
                epoch, step = (int(v) for v in self._position.numpy())
                self.last_saved = (epoch, step)
                if self._restore_from == self._directory:  # the chief's own folder: only it moves files
                    self._set_aside(paths, [i for i, _ in skipped])
                return Restored(
                    epoch,
                    step,
                    tuple(float(v) for v in self._totals.numpy()),
                    prefix,
                    tuple(f"{i.stem}: {why}" for i, why in skipped),
                )
            skipped.append((index, problem))
        reasons = "; ".join(f"{i.stem}: {why}" for i, why in skipped)
        raise RunDirError(
            f"no checkpoint in {self._restore_from} can be read ({reasons}); nothing was changed. "
            f"Start a new run with its config: --config {paths.config}"
        )

    def save(self, epoch: int, step: int, totals: Sequence[float] = ()) -> None:
        if self.last_saved == (epoch, step):
            return
        if self._manager is None:
            self._manager = tf.train.CheckpointManager(
                self._checkpoint, str(self._directory), max_to_keep=self._keep, checkpoint_name=CHECKPOINT_PREFIX
            )
        self._position.assign([epoch, step])
        self._totals.assign(list(totals) if totals else [0.0] * TOTALS)
        path = self._manager.save()
        self.last_saved = (epoch, step)
        self._emit(ev.CheckpointSaved(path=path, epoch=epoch, step=step))

    def _set_aside(self, paths: RunPaths, indexes: list[Path]) -> None:
        """Move unreadable checkpoints out of the manager's way, into set-aside/checkpoints/."""
        if not indexes:
            return
        target = paths.set_aside / "checkpoints"
        target.mkdir(parents=True, exist_ok=True)
        for index in indexes:
            for f in paths.checkpoint_files(index):
                shutil.move(str(f), str(target / f.name))
        state = self._restore_from / "checkpoint"  # the manager's list; it rewrites it at the next save
        if state.is_file():
            shutil.move(str(state), str(target / "checkpoint"))


def unreadable(prefix: str) -> str | None:
    """Why the checkpoint at `prefix` cannot be read, or None: every tensor is read and checked."""
    try:
        reader = tf.train.load_checkpoint(prefix)
        for name in reader.get_variable_to_shape_map():
            reader.get_tensor(name)
    except Exception as exc:  # noqa: BLE001 - the reader raises OpError, IndexError, ValueError …: all mean "cannot"
        return _first_line(exc)
    return None


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return f"{type(exc).__name__}: {text[0][:200]}" if text else type(exc).__name__
