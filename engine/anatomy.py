"""What a step's anatomy means: each part's share of the step and a one-line verdict.

The trainer measures where a step's time goes (events.StepAnatomy); this module, free of TensorFlow, turns
the figures into words, so the window, `tfdd train` and the Runs tab say the same thing.
"""

from __future__ import annotations

from typing import Literal

from engine.events import StepAnatomy
from engine.messages import Message, msg

Part = Literal["input", "compute", "sync", "rest"]
PARTS: tuple[Part, ...] = ("input", "compute", "sync", "rest")
"""The parts of a step, in the order they are stacked and listed."""


def part_ms(anatomy: StepAnatomy, part: Part) -> float:
    """Milliseconds per step spent in `part`."""
    return {
        "input": anatomy.input_ms,
        "compute": anatomy.compute_ms,
        "sync": anatomy.sync_ms,
        "rest": anatomy.rest_ms,
    }[part]


def shares(anatomy: StepAnatomy) -> dict[Part, float]:
    """Each part's fraction of the parts' sum (0 for every part when nothing was measured)."""
    total = sum(max(0.0, part_ms(anatomy, p)) for p in PARTS)
    return {p: (max(0.0, part_ms(anatomy, p)) / total if total > 0 else 0.0) for p in PARTS}


def bound_by(anatomy: StepAnatomy) -> Part:
    """The part that takes the largest share of a step: what limits the speed."""
    parts = shares(anatomy)
    return max(PARTS, key=lambda p: parts[p])


def verdict(anatomy: StepAnatomy) -> Message:
    """One line naming what bounds the step and its share, e.g. "input-bound: 61 % of each step waits for data"."""
    part = bound_by(anatomy)
    percent = round(100 * shares(anatomy)[part])
    if part == "input":
        return msg("input-bound: {percent} % of each step waits for data", percent=percent)
    if part == "sync":
        return msg("synchronisation-bound: {percent} % of each step synchronises replicas", percent=percent)
    if part == "rest":
        return msg("host-bound: {percent} % of each step is Python, callbacks and events", percent=percent)
    return msg("compute-bound: {percent} % of each step computes", percent=percent)


def summary_line(anatomy: StepAnatomy) -> Message:
    """The anatomy in one line for a terminal: the step time, each part's share, the verdict."""
    parts = shares(anatomy)
    return msg(
        "step {step_ms:.1f} ms: input {input} %, compute {compute} %, sync {sync} %, rest {rest} % ({verdict})",
        step_ms=anatomy.step_ms,
        input=round(100 * parts["input"]),
        compute=round(100 * parts["compute"]),
        sync=round(100 * parts["sync"]),
        rest=round(100 * parts["rest"]),
        verdict=verdict(anatomy),
    )
