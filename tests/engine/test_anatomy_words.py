"""The step anatomy's shares and verdicts (engine.core.anatomy): what the window and `tfdd train` say."""

from __future__ import annotations

import pytest

from engine.core.anatomy import bound_by, shares, summary_line, verdict
from engine.core.events import StepAnatomy, decode, encode


def anatomy(input_ms: float = 0.0, compute_ms: float = 0.0, sync_ms: float = 0.0, rest_ms: float = 0.0):
    step = input_ms + compute_ms + sync_ms + rest_ms
    return StepAnatomy(
        epoch=1,
        global_step=20,
        steps=20,
        step_ms=step,
        input_ms=input_ms,
        compute_ms=compute_ms,
        sync_ms=sync_ms,
        rest_ms=rest_ms,
    )


@pytest.mark.parametrize(
    ("figures", "part", "words"),
    [
        ({"input_ms": 6.1, "compute_ms": 2.9, "sync_ms": 0.5, "rest_ms": 0.5}, "input", "input-bound: 61 %"),
        ({"input_ms": 1, "compute_ms": 8, "sync_ms": 1}, "compute", "compute-bound: 80 %"),
        ({"compute_ms": 3, "sync_ms": 5, "rest_ms": 2}, "sync", "synchronisation-bound: 50 %"),
        ({"compute_ms": 1, "rest_ms": 3}, "rest", "host-bound: 75 %"),
    ],
)
def test_the_largest_part_bounds_the_step_and_the_verdict_names_its_share(figures, part, words):
    a = anatomy(**figures)
    assert bound_by(a) == part
    assert verdict(a).startswith(words)
    assert sum(shares(a).values()) == pytest.approx(1.0)


def test_nothing_measured_has_no_share_and_a_negative_part_counts_as_none():
    assert set(shares(anatomy()).values()) == {0.0}
    assert shares(anatomy(input_ms=-1.0, compute_ms=4.0))["compute"] == 1.0


def test_the_terminal_line_gives_the_step_time_every_share_and_the_verdict():
    line = summary_line(anatomy(input_ms=2, compute_ms=6, sync_ms=1, rest_ms=1))
    assert (
        line
        == "step 10.0 ms: input 20 %, compute 60 %, sync 10 %, rest 10 % (compute-bound: 60 % of each step computes)"
    )


def test_the_event_crosses_the_seam_unchanged():
    a = anatomy(input_ms=1.5, compute_ms=2.5)
    assert decode(encode(a)) == a
