"""Writes the event stream as TensorBoard scalars under RUN_DIR/tensorboard/.

A sink like any other, so both loops get the same TensorBoard output. Batch
scalars are thinned to one every BATCH_INTERVAL_S: each write is an eager op,
and per step they would cost more than a small model's step. The evaluator
task writes its `evaluation` events through one too, into a folder of its own
(a second TensorBoard run beside the training one): `evaluation/*` at the
checkpoint's global step, and `epoch/val_*` at an epoch's end, as the trainer's
own validation would.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from engine import events as ev
from engine.train.tf_runtime import tf

BATCH_INTERVAL_S = 0.25


class TensorBoardSink:
    def __init__(self, directory: Path):
        self._directory = directory
        self._writer: Any = None
        self._last_time = 0.0

    def __call__(self, event: ev.Event) -> None:
        if isinstance(event, (ev.RunStarted, ev.Evaluation)):
            self._writer = self._writer or tf.summary.create_file_writer(str(self._directory))
        if self._writer is None:
            return
        if isinstance(event, ev.BatchEnd) and event.time - self._last_time >= BATCH_INTERVAL_S:
            self._last_time = event.time
            self._scalars(
                "batch",
                event.global_step,
                loss=event.loss,
                accuracy=event.accuracy,
                examples_per_sec=event.examples_per_sec,
            )
        elif isinstance(event, ev.EpochEnd):
            self._scalars(
                "epoch",
                event.epoch,
                loss=event.loss,
                accuracy=event.accuracy,
                val_loss=event.val_loss,
                val_accuracy=event.val_accuracy,
                examples_per_sec=event.examples_per_sec,
            )
            self._writer.flush()
        elif isinstance(event, ev.Evaluation):
            values = {"val_loss": event.val_loss, "val_accuracy": event.val_accuracy}
            self._scalars("evaluation", event.global_step, **values)
            if event.step == 0:
                self._scalars("epoch", event.epoch, **values)
            self._writer.flush()
        elif isinstance(event, (ev.RunFinished, ev.RunFailed)):
            self._writer.close()

    def _scalars(self, prefix: str, step: int, **values: float | None) -> None:
        with self._writer.as_default(step=step):
            for name, value in values.items():
                if value is not None:
                    tf.summary.scalar(f"{prefix}/{name}", value)
