"""engine.train.loops.FitBridge: what fit's blocks hand the controller, and which seconds they count."""

from __future__ import annotations

import time

import pytest

from engine.train.loops import FitBridge


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


class Recorder:
    """The controller's side: what each block reported."""

    def __init__(self) -> None:
        self.blocks: list[tuple[list[float], list[float], float, int]] = []

    def block_done(self, losses, accuracies, seconds, steps_each=1) -> bool:
        self.blocks.append((losses, accuracies, seconds, steps_each))
        return True


def test_fits_set_up_before_the_epoch_is_not_counted_as_training_time(monkeypatch):
    """The custom loop times its calls after its iterator exists; fit's block times start at the same
    point (on_epoch_begin), not when the callback was made before fit distributed the data."""
    clock = Clock()
    monkeypatch.setattr(time, "perf_counter", clock)
    controller = Recorder()
    bridge = FitBridge(controller)
    clock.now += 0.4  # fit distributes the dataset and makes its iterator
    bridge.on_epoch_begin(0)
    clock.now += 0.1  # the first block of 8 steps
    bridge.on_train_batch_end(7, {"loss": 0.5, "accuracy": 0.25})
    clock.now += 0.2
    bridge.on_train_batch_end(15, {"loss": 0.4, "accuracy": 0.5})
    (l1, a1, s1, k1), (l2, a2, s2, k2) = controller.blocks
    assert (s1, s2) == (pytest.approx(0.1), pytest.approx(0.2))
    assert (k1, k2) == (8, 8)
    # the running means 0.5 then 0.4 over 16 steps: the second block's own mean is 0.3
    assert (l1[0], l2[0]) == (pytest.approx(0.5), pytest.approx(0.3))
    assert (a1[0], a2[0]) == (pytest.approx(0.25), pytest.approx(0.75))
