"""The outer loop of a run, the same for both loops: epochs, resume, evaluation, checkpoints, stop, events.

Like orbit's Controller, it owns the loop over epochs and asks a `Loop` to
train one epoch in blocks of steps; after each block the loop hands the
step losses back (`block_done`), and the controller turns them into
`batch_end` events (short steps grouped, REPORT_EVERY_S) and `epoch_end`
events, checks for NaN, checkpoints on schedule and answers "go on?". So
the fit and custom loops differ only in how a block of steps runs, and the
window cannot tell them apart except by their numbers.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

import numpy as np

from engine.core import events as ev
from engine.core.protocol.channel import StopSignal
from engine.core.protocol.codes import RunStatus
from engine.train.steps_policy import StepsPerCall

REPORT_EVERY_S = 0.02
"""The least training time one batch_end event stands for. Steps shorter than this share an event (their
mean; `steps` says how many): the tutorial's MLP runs about 900 steps a second on two CPUs, and an event
per step cost the window most of its CPU (decoding, plotting) and made events.jsonl 9 times larger, for
plots that draw ten frames a second. Slower steps, as most real models have, still get an event each."""


class NonFiniteLoss(RuntimeError):
    """Training diverged; the message says where and what to try."""


class StepTimer(Protocol):
    """What the controller asks of a step anatomy's meter (engine.train.anatomy.StepMeter)."""

    def epoch_begins(self) -> None: ...

    def block_done(
        self, epoch: int, global_step: int, steps: int, epoch_over: bool, stopping: Callable[[], bool]
    ) -> None: ...

    def timed(self, call: Callable[..., Any]) -> Callable[..., Any]: ...


class StepTracer(Protocol):
    """What the controller asks of a profiler (engine.train.profile.StepProfiler)."""

    def between_calls(self) -> None: ...

    def traced(self, call: Callable[..., Any]) -> Callable[..., Any]: ...


class Loop(Protocol):
    """How one epoch's steps run (the custom loop or Keras fit)."""

    def train_epoch(self, epoch: int, first_step: int, controller: Controller) -> None:
        """Run the epoch's steps from `first_step` in blocks, calling `controller.block_done` after each,
        until it returns False."""

    def evaluate(self) -> tuple[float | None, float | None]:
        """(validation loss, validation accuracy), or (None, None) without validation data."""


@dataclass
class EpochTotals:
    """Running sums of the epoch in progress; a checkpoint carries them, so a resumed epoch's row is whole."""

    steps: int = 0
    loss_sum: float = 0.0
    accuracy_sum: float = 0.0
    started: float = 0.0  # perf_counter() when the epoch began (moved back by what a resume carries)
    train_seconds: float = 0.0

    def carried(self) -> tuple[float, float, float, float, float]:
        """What a checkpoint keeps: steps, loss sum, accuracy sum, training seconds, wall seconds so far."""
        return (
            float(self.steps),
            self.loss_sum,
            self.accuracy_sum,
            self.train_seconds,
            time.perf_counter() - self.started,
        )

    @classmethod
    def resumed(cls, carried: Sequence[float]) -> EpochTotals:
        """The totals a checkpoint carried (all zeros, or none from an older checkpoint: a fresh epoch)."""
        steps, loss_sum, accuracy_sum, train_seconds, wall = (list(carried) + [0.0] * 5)[:5]
        return cls(int(steps), loss_sum, accuracy_sum, time.perf_counter() - wall, train_seconds)

    @property
    def loss(self) -> float:
        return self.loss_sum / max(self.steps, 1)

    @property
    def accuracy(self) -> float:
        return self.accuracy_sum / max(self.steps, 1)


@dataclass
class PendingReport:
    """Steps trained but not yet reported: summed until they stand for REPORT_EVERY_S of training."""

    steps: int = 0
    loss_sum: float = 0.0
    accuracy_sum: float = 0.0
    seconds: float = 0.0
    examples_per_sec: float = 0.0

    def add(self, loss_sum: float, accuracy_sum: float, steps: int, seconds: float, examples_per_sec: float) -> None:
        """`steps` more steps: the sums of their losses and of their accuracies, and the seconds they took."""
        self.steps += steps
        self.loss_sum += loss_sum
        self.accuracy_sum += accuracy_sum
        self.seconds += seconds
        self.examples_per_sec = examples_per_sec

    @property
    def full(self) -> bool:
        return self.seconds >= REPORT_EVERY_S * (1 - 1e-9)  # ten steps of a tenth each are full


@dataclass(frozen=True, kw_only=True)
class Schedule:
    """Where a run starts and ends, and when it checkpoints."""

    epochs: int
    steps_per_epoch: int
    global_batch_size: int
    start_epoch: int = 0
    start_step: int = 0
    start_totals: tuple[float, ...] = ()  # the interrupted epoch's totals, from the checkpoint resumed
    checkpoint_every_steps: int = 0
    checkpoint_every_epoch: bool = True
    validate: bool = True  # False when a cluster's evaluator task validates the checkpoints instead


Checkpoint = Callable[[int, int, tuple[float, ...]], None]
"""Saves (epoch, step, the epoch's carried totals): epoch epochs finished, step steps of the next done."""


class Controller:
    """Drives a Loop through the schedule; `emit` is the reporter, `checkpoint(epoch, step, totals)` saves."""

    def __init__(
        self,
        *,
        schedule: Schedule,
        policy: StepsPerCall,
        emit: ev.Sink,
        stop: StopSignal,
        checkpoint: Checkpoint,
        learning_rate: float,
        stop_agreed: Callable[[bool], bool] | None = None,
    ):
        self.schedule = schedule
        self.policy = policy
        self.emit = emit
        self.stop = stop
        self._checkpoint = checkpoint
        self._lr = learning_rate
        self._stop_agreed = stop_agreed or (lambda local: local)
        self.epoch = schedule.start_epoch  # 0-based epoch in progress
        self.step = schedule.start_step  # steps finished in this epoch
        self.totals = EpochTotals()
        self.epochs_completed = schedule.start_epoch
        self._pending = PendingReport()
        self._reported_at = time.perf_counter()
        self.anatomy: StepTimer | None = None  # measures where the step time goes (engine.train.anatomy)
        self.profiler: StepTracer | None = None  # captures TensorFlow profiles of chosen steps (engine.train.profile)

    @property
    def steps_per_epoch(self) -> int:
        return self.schedule.steps_per_epoch

    @property
    def global_step(self) -> int:
        return self.epoch * self.steps_per_epoch + self.step

    # ---- the outer loop ------------------------------------------------------------
    def run(self, loop: Loop) -> RunStatus:
        """Train the remaining epochs; COMPLETED, or STOPPED (a checkpoint of the position is written)."""
        s = self.schedule
        for epoch in range(s.start_epoch, s.epochs):
            first = s.start_step if epoch == s.start_epoch else 0
            self.epoch, self.step = epoch, first
            resumed = epoch == s.start_epoch and first > 0
            self.totals = EpochTotals.resumed(s.start_totals) if resumed else EpochTotals(started=time.perf_counter())
            if self.should_stop():
                return self._stopped()
            if self.anatomy:
                self.anatomy.epoch_begins()
            if self.profiler:
                self.profiler.between_calls()
            loop.train_epoch(epoch, first, self)
            if self.step < self.steps_per_epoch:
                return self._stopped()
            self._end_epoch(*(loop.evaluate() if s.validate else (None, None)))
        return RunStatus.COMPLETED

    def block_size(self, scheduled_ahead: int = 0) -> int:
        """Steps the next call should run (never past the end of the epoch); `scheduled_ahead`: steps
        already handed out but not yet reported (parameter_server keeps several calls in flight)."""
        return self.policy.next(self.steps_per_epoch - self.step - scheduled_ahead)

    def block_done(
        self,
        losses: Sequence[float],
        accuracies: Sequence[float],
        seconds: float,
        steps_each: int = 1,
        steps_per_sec: float | None = None,
    ) -> bool:
        """Report one call's steps (one loss per `steps_each` steps); False when the loop should end the epoch.

        `seconds` the steps took count towards the epoch's throughput; `steps_per_sec`, when given, is the
        rate to show for them instead of steps / seconds (parameter_server measures it over a window,
        since its results arrive in bursts). Raises NonFiniteLoss on NaN or inf.
        """
        losses, accuracies = np.asarray(losses, np.float64), np.asarray(accuracies, np.float64)
        total_steps = len(losses) * steps_each
        self.policy.observe(total_steps, seconds)
        per_sec = steps_per_sec if steps_per_sec is not None else total_steps / seconds if seconds > 0 else 0.0
        rate = self.schedule.global_batch_size * per_sec
        self.totals.train_seconds += seconds
        seconds_each = seconds / max(len(losses), 1)
        finite = np.isfinite(losses)
        good = len(losses) if finite.all() else int(np.argmin(finite))
        self._count(losses[:good], accuracies[:good], steps_each, seconds_each, rate)
        if good < len(losses):
            self._report()  # the plots keep the steps before it
            at = self.step + steps_each
            raise NonFiniteLoss(
                f"The loss became {losses[good]} at epoch {self.epoch + 1}, step {at}. Training diverged: "
                f"lower learning_rate (now {self._lr:g}), check the data for extreme values, or turn "
                f"mixed precision off. Finished epochs are kept in metrics.csv and the last good "
                f"checkpoint is untouched."
            )
        if self.anatomy:
            with self.stop.held():  # a probe cannot stop half-way; one is not started once a stop is agreed
                over = self.step >= self.steps_per_epoch
                self.anatomy.block_done(self.epoch + 1, self.global_step, total_steps, over, self.should_stop)
        if self.profiler and self.step < self.steps_per_epoch:
            self.profiler.between_calls()
        if time.perf_counter() - self._reported_at >= REPORT_EVERY_S:
            self._report()  # one step per call: what waits goes out at the pace of full groups
        every = self.schedule.checkpoint_every_steps
        previous = self.global_step - total_steps
        if self.step >= self.steps_per_epoch:
            self._report()
            return False
        if every and self.global_step // every > previous // every:
            self._report()
            self._checkpoint(self.epoch, self.step, self.totals.carried())
        going = not self.should_stop()
        if not going:
            self._report()
        return going

    def timed(self, call: Callable[..., Any]) -> Callable[..., Any]:
        """The loop's compiled call of steps, timed for the step anatomy when it is measured, and profiled
        when asked (outside the timing: starting and stopping the profiler is no step's time)."""
        call = self.anatomy.timed(call) if self.anatomy else call
        return self.profiler.traced(call) if self.profiler else call

    def should_stop(self) -> bool:
        """The local request, agreed across workers when there are several (a collective: every
        worker asks the same number of times)."""
        return self._stop_agreed(self.stop.requested)

    # ---- inside ------------------------------------------------------------------------
    def _count(
        self, losses: np.ndarray, accuracies: np.ndarray, steps_each: int, seconds_each: float, rate: float
    ) -> None:
        """Add finite results of `steps_each` steps each to the epoch and the report waiting, a group at a
        time (the entries that fill the report, summed by NumPy), reporting each group that is full."""
        at = 0
        while at < len(losses):
            room = REPORT_EVERY_S * (1 - 1e-9) - self._pending.seconds
            fill = math.ceil(room / seconds_each) if seconds_each > 0 else len(losses)
            end = min(len(losses), at + max(fill, 1))
            steps = (end - at) * steps_each
            loss_sum = float(losses[at:end].sum()) * steps_each
            accuracy_sum = float(accuracies[at:end].sum()) * steps_each
            self.step += steps
            self.totals.steps += steps
            self.totals.loss_sum += loss_sum
            self.totals.accuracy_sum += accuracy_sum
            self._pending.add(loss_sum, accuracy_sum, steps, (end - at) * seconds_each, rate)
            if self._pending.full:
                self._report()
            at = end

    def _report(self) -> None:
        """One batch_end for the steps waiting: the mean of their losses and accuracies, at the last one."""
        p = self._pending
        if not p.steps:
            return
        self.emit(
            ev.BatchEnd(
                epoch=self.epoch + 1,
                step=self.step,
                global_step=self.global_step,
                loss=p.loss_sum / p.steps,
                accuracy=p.accuracy_sum / p.steps,
                examples_per_sec=p.examples_per_sec,
                steps=p.steps,
            )
        )
        self._pending = PendingReport()
        self._reported_at = time.perf_counter()

    def _end_epoch(self, val_loss: float | None, val_accuracy: float | None) -> None:
        """Close a finished epoch: metrics row first, then its checkpoint (a kill between the two leaves a row
        the checkpoint does not cover: RunDir.reconcile drops it on resume, and the epoch is trained again)."""
        self._report()
        t = self.totals
        self.emit(
            ev.EpochEnd(
                epoch=self.epoch + 1,
                loss=t.loss,
                accuracy=t.accuracy,
                seconds=time.perf_counter() - t.started,
                examples_per_sec=self.schedule.global_batch_size * t.steps / t.train_seconds
                if t.train_seconds
                else 0.0,
                val_loss=None if val_loss is None else float(val_loss),
                val_accuracy=None if val_accuracy is None else float(val_accuracy),
            )
        )
        self.epochs_completed = self.epoch + 1
        if self.schedule.checkpoint_every_epoch:
            self._checkpoint(self.epoch + 1, 0, ())

    def _stopped(self) -> RunStatus:
        """Checkpoint where training stands, so a resume repeats no step."""
        self.stop.honour()
        self._report()
        done = self.step >= self.steps_per_epoch
        if done:
            self._checkpoint(self.epoch + 1, 0, ())
        else:
            self._checkpoint(self.epoch, self.step, self.totals.carried())
        return RunStatus.STOPPED
