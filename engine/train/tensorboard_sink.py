"""Writes the event stream as TensorBoard scalars under RUN_DIR/tensorboard/.

A sink like any other, so both loops get the same output. Batch scalars are thinned to one every
BATCH_INTERVAL_S (each write is an eager op), and all are written on a thread of their own, so training only
queues events; the run's last event waits until everything queued is written. The evaluator writes its
`evaluation` events through one too, into a TensorBoard run of its own.
"""

from __future__ import annotations

import queue
import threading
from pathlib import Path
from typing import Any

from engine.core import events as ev
from engine.train.tf_runtime import tf

BATCH_INTERVAL_S = 0.25


class TensorBoardSink:
    def __init__(self, directory: Path):
        self._directory = directory
        self._writer: Any = None
        self._last_time = 0.0
        self._queue: queue.SimpleQueue[ev.Event] = queue.SimpleQueue()
        self._failed: BaseException | None = None
        self._thread = threading.Thread(target=self._drain, name="tensorboard-writer", daemon=True)
        self._thread.start()

    def __call__(self, event: ev.Event) -> None:
        """Queue `event` for the writer; raises what the writer met (a full disk) at the next event."""
        if self._failed is not None:
            failed, self._failed = self._failed, None
            raise failed
        if isinstance(event, ev.BatchEnd):  # thinned here, so the queue never holds more than a few
            if event.time - self._last_time < BATCH_INTERVAL_S:
                return
            self._last_time = event.time
        self._queue.put(event)
        if isinstance(event, (ev.RunFinished, ev.RunFailed)):
            self._thread.join()

    def _drain(self) -> None:
        while True:
            event = self._queue.get()
            try:
                self._write(event)
            except Exception as exc:  # handed to the training thread at its next event
                self._failed = exc
            if isinstance(event, (ev.RunFinished, ev.RunFailed)):
                return

    def _write(self, event: ev.Event) -> None:
        if isinstance(event, (ev.RunStarted, ev.Evaluation)):
            self._writer = self._writer or tf.summary.create_file_writer(str(self._directory))
        if self._writer is None:
            return
        if isinstance(event, ev.BatchEnd):
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
