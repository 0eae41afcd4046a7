"""The progress watchdog, driven by a hand-moved clock."""

from __future__ import annotations

import pytest

from engine.core.logs.stall import FIRST_STEP_STALL_S, MIN_STALL_S, STALL_STEP_FACTOR, ProgressWatchdog, stall_line


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def stepping(watchdog: ProgressWatchdog, clock: Clock, task: str, steps: int, step_s: float) -> None:
    for _ in range(steps):
        clock.now += step_s
        watchdog.step(task)


def test_a_task_that_stops_stepping_is_named_once_with_its_step_time() -> None:
    clock = Clock()
    watchdog = ProgressWatchdog(clock=clock)
    watchdog.watch("worker-0")
    watchdog.watch("worker-1")
    stepping(watchdog, clock, "worker-1", 10, 0.3)
    clock.now += MIN_STALL_S - 1
    watchdog.step("worker-0")  # worker-0 keeps going
    assert watchdog.check() == []
    clock.now += 13
    [stall] = watchdog.check()
    assert stall.task == "worker-1" and stall.step_s == pytest.approx(0.3)
    assert stall_line(stall.task, stall.idle_s, stall.step_s) == "worker-1: no step for 42 s (its steps took 0.3 s)"
    clock.now += 100
    assert [s.task for s in watchdog.check()] == ["worker-0"]  # worker-1 was said already
    assert watchdog.step("worker-1") is True  # its stall is over
    assert watchdog.step("worker-1") is False


def test_the_derived_threshold_follows_slow_steps_and_a_given_one_wins() -> None:
    clock = Clock()
    watchdog = ProgressWatchdog(clock=clock)
    watchdog.watch("chief-0")
    assert watchdog.threshold("chief-0") == FIRST_STEP_STALL_S  # start-up and the first trace are slow
    stepping(watchdog, clock, "chief-0", 5, 4.0)
    assert watchdog.threshold("chief-0") == pytest.approx(STALL_STEP_FACTOR * 4.0)
    clock.now += STALL_STEP_FACTOR * 4.0 - 1
    assert watchdog.check() == []
    fixed = ProgressWatchdog(stall_s=2.0, clock=clock)
    fixed.watch("chief-0")
    clock.now += 2.5
    [stall] = fixed.check()
    assert stall.threshold_s == 2.0 and stall.step_s is None
    assert stall_line(stall.task, stall.idle_s, stall.step_s) == "chief-0: no step for 2 s (no step time measured yet)"


def test_averaged_step_events_an_epoch_end_and_a_forgotten_task() -> None:
    clock = Clock()
    watchdog = ProgressWatchdog(stall_s=10.0, clock=clock)
    watchdog.watch("worker-0")
    watchdog.step("worker-0", steps=5)
    clock.now += 1.0
    watchdog.step("worker-0", steps=5)  # one event for five steps of 0.2 s
    assert watchdog.step_time("worker-0") == pytest.approx(0.2)
    clock.now += 9
    watchdog.alive("worker-0")  # a validation pass or a checkpoint is progress too
    clock.now += 9
    assert watchdog.check() == []
    watchdog.forget("worker-0")
    clock.now += 100
    assert watchdog.check() == []
    assert watchdog.step("worker-0") is False  # not watched: nothing to say


def test_a_threshold_that_is_not_positive_is_refused() -> None:
    with pytest.raises(ValueError, match="positive seconds"):
        ProgressWatchdog(stall_s=0)
