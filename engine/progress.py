"""What both loops share once a step has run: events, NaN checks, checkpoints, stop.

The fit loop and the custom loop differ only in how they run steps; after
each call they hand the step losses to `Progress`, which turns them into
`batch_end`/`epoch_end` events, checkpoints on schedule and answers "should
I stop?". So the GUI cannot tell the loops apart except by their numbers.
"""
from __future__ import annotations

import math
import threading
import time
from dataclasses import dataclass
from typing import Callable, Sequence

from engine import events as ev


class StopSignal:
    """A stop request from a Stop button, Ctrl-C or the stdin channel; thread-safe.

    Until training is reached the trainer may be blocked inside TensorFlow (a
    multi-worker strategy waits for its peers) and has nothing to save, so an
    early request goes to `on_early_stop`, which ends the process at once.
    """

    def __init__(self, on_early_stop: Callable[[str], None] | None = None) -> None:
        self._event = threading.Event()
        self._reached = threading.Event()
        self._on_early_stop = on_early_stop
        self.reason = ""

    def training_reached(self) -> None:
        """From here on a stop is honoured between steps, with a checkpoint."""
        self._reached.set()

    def request(self, reason: str = "stop requested") -> None:
        if not self._event.is_set():
            self.reason = reason
        self._event.set()
        if self._on_early_stop and not self._reached.is_set():
            self._on_early_stop(reason)

    @property
    def requested(self) -> bool:
        return self._event.is_set()


class NonFiniteLoss(RuntimeError):
    """Training diverged; the message says where and what to try."""


@dataclass
class EpochTotals:
    steps: int = 0
    loss_sum: float = 0.0
    accuracy_sum: float = 0.0
    started: float = 0.0
    train_seconds: float = 0.0

    @property
    def loss(self) -> float:
        return self.loss_sum / max(self.steps, 1)

    @property
    def accuracy(self) -> float:
        return self.accuracy_sum / max(self.steps, 1)


class Progress:
    """Bookkeeping between step calls; `emit` is the reporter."""

    def __init__(self, *, emit: Callable[[ev.Event], None], stop: StopSignal, global_batch_size: int,
                 steps_per_epoch: int, checkpoint: Callable[[int, int], None], checkpoint_every_steps: int,
                 checkpoint_every_epoch: bool, learning_rate: float, stop_agreed: Callable[[bool], bool] | None = None):
        self.emit = emit
        self.stop = stop
        self.global_batch_size = global_batch_size
        self.steps_per_epoch = steps_per_epoch
        self._checkpoint = checkpoint
        self._every_steps = checkpoint_every_steps
        self._every_epoch = checkpoint_every_epoch
        self._lr = learning_rate
        self._stop_agreed = stop_agreed or (lambda local: local)
        self.epoch = 0  # 0-based epoch in progress
        self.step = 0  # steps finished in this epoch
        self.totals = EpochTotals()
        self.epochs_completed = 0

    @property
    def global_step(self) -> int:
        return self.epoch * self.steps_per_epoch + self.step

    def begin_epoch(self, epoch: int, start_step: int = 0) -> None:
        self.epoch, self.step = epoch, start_step
        self.totals = EpochTotals(started=time.perf_counter())

    def after_steps(self, losses: Sequence[float], accuracies: Sequence[float], seconds: float,
                    steps_each: int = 1) -> None:
        """Report one call's steps; raise NonFiniteLoss on NaN/inf."""
        total_steps = len(losses) * steps_each
        rate = self.global_batch_size * total_steps / seconds if seconds > 0 else 0.0
        self.totals.train_seconds += seconds
        for loss, acc in zip(losses, accuracies):
            loss, acc = float(loss), float(acc)
            self.step += steps_each
            if not math.isfinite(loss):
                raise NonFiniteLoss(
                    f"The loss became {loss} at epoch {self.epoch + 1}, step {self.step}. Training diverged: "
                    f"lower learning_rate (now {self._lr:g}), check the data for extreme values, or turn "
                    f"mixed precision off. Finished epochs are kept in metrics.csv and the last good "
                    f"checkpoint is untouched."
                )
            self.totals.steps += steps_each
            self.totals.loss_sum += loss * steps_each
            self.totals.accuracy_sum += acc * steps_each
            self.emit(ev.BatchEnd(epoch=self.epoch + 1, step=self.step, global_step=self.global_step,
                                  loss=loss, accuracy=acc, examples_per_sec=rate, steps=steps_each))
        previous = self.global_step - total_steps
        if self._every_steps and self.step < self.steps_per_epoch and (
                self.global_step // self._every_steps > previous // self._every_steps):
            self._checkpoint(self.epoch, self.step)

    def should_stop(self) -> bool:
        """Local request, agreed across workers when there are several."""
        return self._stop_agreed(self.stop.requested)

    def end_epoch(self, *, loss: float | None = None, accuracy: float | None = None,
                  val_loss: float | None = None, val_accuracy: float | None = None) -> None:
        """Close a finished epoch: metrics row first, then its checkpoint (see RunDir.keep_epochs_before)."""
        t = self.totals
        self.emit(ev.EpochEnd(
            epoch=self.epoch + 1,
            loss=t.loss if loss is None else float(loss),
            accuracy=t.accuracy if accuracy is None else float(accuracy),
            seconds=time.perf_counter() - t.started,
            examples_per_sec=self.global_batch_size * t.steps / t.train_seconds if t.train_seconds else 0.0,
            val_loss=None if val_loss is None else float(val_loss),
            val_accuracy=None if val_accuracy is None else float(val_accuracy),
        ))
        self.epochs_completed = self.epoch + 1
        if self._every_epoch:
            self._checkpoint(self.epoch + 1, 0)
