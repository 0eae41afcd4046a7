"""What a step's anatomy means: each part's share of the step and a one-line verdict.

The trainer measures where a step's time goes (events.StepAnatomy); this module, free of TensorFlow, turns
the figures into words, so the window, `tfdd train` and the Runs tab say the same thing.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, Literal

from engine.core import events as ev
from engine.core.events import StepAnatomy
from engine.core.messages import Message, msg

Part = Literal["input", "compute", "sync", "rest"]
PARTS: tuple[Part, ...] = ("input", "compute", "sync", "rest")
"""The parts of a step, in the order they are stacked and listed."""
SAME_WITHIN = 0.05  # a time per step that changed by less than this share "stayed about the same"


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


def combine(anatomies: Iterable[StepAnatomy]) -> StepAnatomy | None:
    """The anatomy of all the steps `anatomies` cover: each figure their mean weighted by steps, placed at
    the latest of them (None when they cover no step)."""
    covering = [a for a in anatomies if a.steps > 0]
    if not covering:
        return None
    steps = sum(a.steps for a in covering)
    latest = max(covering, key=lambda a: a.global_step)

    def mean(figure: Callable[[StepAnatomy], float]) -> float:
        return sum(figure(a) * a.steps for a in covering) / steps

    return StepAnatomy(
        epoch=latest.epoch,
        global_step=latest.global_step,
        steps=steps,
        step_ms=mean(lambda a: a.step_ms),
        **{f"{p}_ms": mean(lambda a, p=p: part_ms(a, p)) for p in PARTS},
        time=latest.time,
    )


def from_plain(data: dict[str, Any] | None) -> StepAnatomy | None:
    """The anatomy an event carries as data (events.to_dict of a StepAnatomy, e.g. a scaling point's); None
    when there is none or it is not one."""
    if not data:
        return None
    try:
        anatomy = ev.from_dict({**data, "type": StepAnatomy.type})
    except (ev.EventDecodeError, TypeError):
        return None
    return anatomy if isinstance(anatomy, StepAnatomy) else None


def _change(before: float, after: float) -> Message:
    """How a time per step changed, as a factor: "fell 3.4×", "rose 1.5×" or "stayed about the same"."""
    if before <= 0 or after <= 0 or max(before, after) / min(before, after) < 1 + SAME_WITHIN:
        return msg("stayed about the same")
    if after < before:
        return msg("fell {factor:.1f}×", factor=before / after)
    return msg("rose {factor:.1f}×", factor=after / before)


def _share_change(before: int, after: int) -> Message:
    """How a part's share (whole percent) changed: "grew from 0 to 38 %", "fell from …" or "stayed at …"."""
    if after > before:
        return msg("grew from {before} to {after} %", before=before, after=after)
    if after < before:
        return msg("fell from {before} to {after} %", before=before, after=after)
    return msg("stayed at {before} %", before=before)


def study_sentence(points: list[ev.ScalingPoint], workers: bool = False) -> Message | None:
    """`scaling_sentence` of a scaling study's counts that were measured and report an anatomy."""
    measured = [(p.replicas, a) for p in points if not p.error and (a := from_plain(p.anatomy))]
    return scaling_sentence(measured, workers)


def scaling_sentence(counts: list[tuple[int, StepAnatomy]], workers: bool = False) -> Message | None:
    """What happened to a step between the fewest and the most replicas (or workers) measured, e.g. "From 1
    to 4 replicas the computing time per step fell 3.4×, synchronising grew from 0 to 38 %."; None with fewer
    than two counts."""
    if len(counts) < 2:
        return None
    (low, first), (high, last) = min(counts, key=lambda c: c[0]), max(counts, key=lambda c: c[0])
    compute = _change(first.compute_ms, last.compute_ms)
    sync = _share_change(round(100 * shares(first)["sync"]), round(100 * shares(last)["sync"]))
    if workers:
        return msg(
            "From {low} to {high} workers the computing time per step {compute}, synchronising {sync}.",
            low=low,
            high=high,
            compute=compute,
            sync=sync,
        )
    return msg(
        "From {low} to {high} replicas the computing time per step {compute}, synchronising {sync}.",
        low=low,
        high=high,
        compute=compute,
        sync=sync,
    )
