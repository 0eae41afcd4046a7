"""Step anatomies put together (a run's, a scaling count's) and compared across replica counts."""

from __future__ import annotations

from engine.core import anatomy
from engine.core import events as ev


def step(input_ms: float, compute_ms: float, sync_ms: float, rest_ms: float, steps: int = 10, at: int = 10):
    total = input_ms + compute_ms + sync_ms + rest_ms
    return ev.StepAnatomy(
        epoch=1, global_step=at, steps=steps, step_ms=total, input_ms=input_ms, compute_ms=compute_ms,
        sync_ms=sync_ms, rest_ms=rest_ms,
    )  # fmt: skip


def test_combined_figures_are_means_weighted_by_the_steps_they_cover():
    both = anatomy.combine([step(10, 0, 0, 0, steps=30, at=30), step(2, 4, 0, 2, steps=10, at=40)])
    assert both is not None
    assert (both.steps, both.global_step) == (40, 40)
    assert (both.input_ms, both.compute_ms, both.rest_ms, both.step_ms) == (8.0, 1.0, 0.5, 9.5)
    assert anatomy.combine([]) is None and anatomy.combine([step(1, 1, 1, 1, steps=0)]) is None


def test_an_anatomy_carried_as_event_data_comes_back_or_is_none():
    original = step(1, 2, 3, 4)
    assert anatomy.from_plain(ev.to_dict(original)) == original
    assert anatomy.from_plain(None) is None
    assert anatomy.from_plain({"input_ms": "slow"}) is None


def test_the_scaling_sentence_says_how_computing_and_synchronising_changed():
    one, four = (1, step(1, 8, 0, 1)), (4, step(1, 2, 6, 1))
    assert anatomy.scaling_sentence([four, one]) == (
        "From 1 to 4 replicas the computing time per step fell 4.0×, synchronising grew from 0 to 60 %."
    )
    slower = (2, step(1, 12, 0, 1))
    assert anatomy.scaling_sentence([one, slower], workers=True) == (
        "From 1 to 2 workers the computing time per step rose 1.5×, synchronising stayed at 0 %."
    )
    same = (2, step(1, 8.2, 0, 0.8))
    assert "stayed about the same" in anatomy.scaling_sentence([one, same])
    assert anatomy.scaling_sentence([one]) is None
