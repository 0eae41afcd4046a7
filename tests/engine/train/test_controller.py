"""The controller drives both loops the same way: epochs, resume, stop, checkpoints, NaN, events.

A scripted loop stands in for TensorFlow, so these run in milliseconds.
"""

from __future__ import annotations

import math
import time

import pytest

from engine.core import events as ev
from engine.core.protocol.channel import StopSignal
from engine.core.protocol.codes import RunStatus
from engine.train.controller import REPORT_EVERY_S, Controller, NonFiniteLoss, Schedule
from engine.train.steps_policy import StepsPerCall


class ScriptedLoop:
    """Trains every step with loss 1/(global step), in blocks the controller sizes; stops on request."""

    def __init__(self, stop_after_steps: int | None = None, nan_at: int | None = None, seconds_per_step: float = 0.1):
        self.epochs: list[tuple[int, int]] = []
        self.seconds_per_step = seconds_per_step  # slower than REPORT_EVERY_S: every step its own event
        self.stop_after_steps = stop_after_steps
        self.nan_at = nan_at
        self.stop: StopSignal | None = None

    def train_epoch(self, epoch: int, first_step: int, controller: Controller) -> None:
        self.epochs.append((epoch, first_step))
        going = True
        while going:
            n = controller.block_size()
            start = controller.global_step
            losses = [math.nan if start + i + 1 == self.nan_at else 1.0 / (start + i + 1) for i in range(n)]
            if self.stop_after_steps is not None and start + n >= self.stop_after_steps and self.stop:
                self.stop.request("test")
            going = controller.block_done(losses, [0.5] * n, seconds=n * self.seconds_per_step)

    def evaluate(self) -> tuple[float | None, float | None]:
        return 0.25, 0.75


def make(schedule: Schedule, policy: StepsPerCall | None = None):
    events: list[ev.Event] = []
    saved: list[tuple[int, int]] = []
    carried: list[tuple[float, ...]] = []
    stop = StopSignal()
    controller = Controller(
        schedule=schedule,
        policy=policy or StepsPerCall(3),
        emit=events.append,
        stop=stop,
        checkpoint=lambda e, s, totals: (saved.append((e, s)), carried.append(tuple(totals))),
        learning_rate=0.01,
    )
    controller.carried = carried  # what each checkpoint carried of the epoch in progress
    return controller, events, saved, stop


def test_every_step_is_reported_and_every_epoch_closed_and_checkpointed():
    controller, events, saved, _ = make(Schedule(epochs=2, steps_per_epoch=7, global_batch_size=8))
    assert controller.run(ScriptedLoop()) == RunStatus.COMPLETED
    batches = [e for e in events if isinstance(e, ev.BatchEnd)]
    assert [b.global_step for b in batches] == list(range(1, 15))
    assert [(b.epoch, b.step) for b in batches][6:8] == [(1, 7), (2, 1)]
    epochs = [e for e in events if isinstance(e, ev.EpochEnd)]
    assert [e.epoch for e in epochs] == [1, 2] and epochs[0].val_loss == 0.25
    assert epochs[0].loss == pytest.approx(sum(1 / s for s in range(1, 8)) / 7)
    assert saved == [(1, 0), (2, 0)] and controller.epochs_completed == 2


def test_fast_steps_are_reported_in_groups_that_cover_every_step_once():
    """A thousand steps a second, one event each, cost the window more than drawing does: steps shorter
    than REPORT_EVERY_S share an event (their mean, `steps` says how many), every step counted once."""
    controller, events, saved, _ = make(
        Schedule(epochs=2, steps_per_epoch=100, global_batch_size=8, checkpoint_every_steps=30),
        StepsPerCall(40),
    )
    fast = REPORT_EVERY_S / 10
    controller.run(ScriptedLoop(seconds_per_step=fast))
    batches = [e for e in events if isinstance(e, ev.BatchEnd)]
    covered = [s for b in batches for s in range(b.global_step - b.steps + 1, b.global_step + 1)]
    assert covered == list(range(1, 201))
    assert len(batches) < 200 / 5 and max(b.steps for b in batches) == 10
    first = batches[0]
    assert first.loss == pytest.approx(sum(1 / s for s in range(1, 11)) / 10)
    assert (batches[9].epoch, batches[9].step) == (1, 100) and (batches[10].epoch, batches[10].step) == (2, 10)
    ends = [i for i, e in enumerate(events) if isinstance(e, ev.EpochEnd)]
    assert all(isinstance(events[i - 1], ev.BatchEnd) and events[i - 1].step == 100 for i in ends)
    epoch = [e for e in events if isinstance(e, ev.EpochEnd)][0]
    assert epoch.loss == pytest.approx(sum(b.loss * b.steps for b in batches[:10]) / 100)
    assert saved[0] == (0, 40)  # the first block past 30 steps


def test_steps_left_over_at_a_blocks_end_wait_no_longer_than_a_report_interval():
    """One step per call, each a tenth of the interval: a block's end reports what waits once the
    interval has passed since the last event, so the plots move at the same pace."""
    controller, events, _, _ = make(Schedule(epochs=1, steps_per_epoch=50, global_batch_size=8), StepsPerCall(1))

    class Sleepy(ScriptedLoop):
        def train_epoch(self, epoch, first_step, controller):
            going = True
            while going:
                time.sleep(REPORT_EVERY_S / 10)
                start = controller.global_step
                going = controller.block_done([1.0 / (start + 1)], [0.5], seconds=REPORT_EVERY_S / 10)

    controller.run(Sleepy())
    batches = [e for e in events if isinstance(e, ev.BatchEnd)]
    assert sum(b.steps for b in batches) == 50 and 2 <= len(batches) < 50
    assert all(b.steps <= 11 for b in batches[:-1])


def test_a_resumed_run_starts_mid_epoch_and_repeats_no_step():
    controller, events, _, _ = make(
        Schedule(epochs=3, steps_per_epoch=5, global_batch_size=8, start_epoch=1, start_step=3)
    )
    loop = ScriptedLoop()
    controller.run(loop)
    assert loop.epochs == [(1, 3), (2, 0)]
    assert [e.global_step for e in events if isinstance(e, ev.BatchEnd)] == list(range(9, 16))


def test_a_stop_between_blocks_checkpoints_where_training_stands():
    controller, events, saved, stop = make(Schedule(epochs=3, steps_per_epoch=10, global_batch_size=8))
    loop = ScriptedLoop(stop_after_steps=14)
    loop.stop = stop
    assert controller.run(loop) == RunStatus.STOPPED
    assert saved == [(1, 0), (1, 6)]  # epoch 2 (0-based 1), 6 steps in: the block in flight finished first
    assert [e.epoch for e in events if isinstance(e, ev.EpochEnd)] == [1]


def test_checkpoints_every_n_steps_within_an_epoch():
    controller, _, saved, _ = make(
        Schedule(
            epochs=1, steps_per_epoch=10, global_batch_size=8, checkpoint_every_steps=4, checkpoint_every_epoch=False
        )
    )
    controller.run(ScriptedLoop())
    assert saved == [(0, 6), (0, 9)]  # the first block past each multiple of 4 (blocks of 3)


def test_a_nan_loss_names_where_it_happened():
    controller, _, saved, _ = make(Schedule(epochs=2, steps_per_epoch=6, global_batch_size=8))
    with pytest.raises(NonFiniteLoss, match="epoch 2, step 2"):
        controller.run(ScriptedLoop(nan_at=8))
    assert saved == [(1, 0)] and controller.epochs_completed == 1


def test_an_interrupted_epochs_row_covers_the_whole_epoch():
    """Stopped 6 steps into epoch 2 and resumed: epoch 2's row is the mean over all 10 steps."""
    first, events, saved, stop = make(Schedule(epochs=2, steps_per_epoch=10, global_batch_size=8))
    loop = ScriptedLoop(stop_after_steps=14)
    loop.stop = stop
    assert first.run(loop) == RunStatus.STOPPED
    assert saved[-1] == (1, 6) and first.carried[-1][0] == 6
    resumed, more, _, _ = make(
        Schedule(
            epochs=2,
            steps_per_epoch=10,
            global_batch_size=8,
            start_epoch=1,
            start_step=6,
            start_totals=first.carried[-1],
        )
    )
    assert resumed.run(ScriptedLoop()) == RunStatus.COMPLETED
    row = [e for e in more if isinstance(e, ev.EpochEnd)][0]
    assert row.epoch == 2 and row.loss == pytest.approx(sum(1 / s for s in range(11, 21)) / 10)
    assert row.seconds > 0 and row.examples_per_sec > 0
