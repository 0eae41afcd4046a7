"""Model, optimizer and position (epoch, step) in one atomic tf.train checkpoint.

tf.train.CheckpointManager writes its index file atomically, so a process
killed mid-save leaves the previous checkpoint readable.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from engine import events as ev
from engine.protocol.paths import CHECKPOINT_PREFIX
from engine.train.tf_runtime import tf


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
        emit: Callable[[ev.Event], None],
        restore_from: Path | None = None,
    ):
        self._restore_from = restore_from or directory
        self._position = _position_variable()
        self._checkpoint = tf.train.Checkpoint(model=model, optimizer=optimizer, position=self._position)
        self._manager = tf.train.CheckpointManager(
            self._checkpoint, str(directory), max_to_keep=keep, checkpoint_name=CHECKPOINT_PREFIX
        )
        self._emit = emit
        self.last_saved: tuple[int, int] | None = None

    def restore(self) -> tuple[int, int] | None:
        """(epoch, step) to continue from, or None when there is no checkpoint."""
        path = tf.train.latest_checkpoint(str(self._restore_from))
        if not path:
            return None
        self._checkpoint.restore(path).expect_partial()
        epoch, step = (int(v) for v in self._position.numpy())
        self.last_saved = (epoch, step)
        return epoch, step

    def save(self, epoch: int, step: int) -> None:
        if self.last_saved == (epoch, step):
            return
        self._position.assign([epoch, step])
        path = self._manager.save()
        self.last_saved = (epoch, step)
        self._emit(ev.CheckpointSaved(path=path, epoch=epoch, step=step))
