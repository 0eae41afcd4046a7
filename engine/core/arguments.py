"""Command-line argument types that refuse what cannot work, with a line saying what would.

argparse turns the ArgumentTypeError into "argument --join-timeout: must be …" and exit code 2,
before anything starts.
"""

from __future__ import annotations

import argparse
import math
from collections.abc import Callable

from engine.core.problems import ConfigError, Problem
from engine.core.protocol.profile import MAX_PROFILE_STEPS, StepRange


def _whole_number(text: str, lowest: int) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number >= {lowest}") from None
    if value < lowest:
        raise argparse.ArgumentTypeError(f"{value} is not a whole number >= {lowest}")
    return value


def positive_int(text: str) -> int:
    """A count of workers or replicas: 1, 2, 3 …"""
    return _whole_number(text, 1)


def count(text: str) -> int:
    """A count that may be none: parameter servers, restarts, GPUs per node (0, 1, 2 …)."""
    return _whole_number(text, 0)


def port(text: str) -> int:
    """A TCP port a task listens on (1 … 65535)."""
    value = _whole_number(text, 1)
    if value > 65535:
        raise argparse.ArgumentTypeError(f"{value} is not a port (1 … 65535)")
    return value


def positive_seconds(text: str) -> float:
    """A timeout: a finite number of seconds above 0 ("nan", "inf", 0 and negatives are refused)."""
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not math.isfinite(value) or value <= 0:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds above 0, e.g. 120")
    return value


def parse_step_range(text: str) -> StepRange:
    """ "A-B" (1 <= A <= B) as a StepRange; argparse.ArgumentTypeError saying what would do otherwise."""
    first, dash, last = text.strip().partition("-")
    try:
        steps = StepRange(int(first), int(last if dash else first))
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"{text!r} is not a range of steps: write A-B with whole numbers, e.g. 2-3 (global steps, from 1)"
        ) from None
    if steps.first < 1:
        raise argparse.ArgumentTypeError(f"{text!r}: steps are numbered from 1; write e.g. 1-{max(steps.last, 1)}")
    if steps.first > steps.last:
        raise argparse.ArgumentTypeError(
            f"{text!r}: the first step comes after the last; write {steps.last}-{steps.first}"
        )
    if steps.last - steps.first + 1 > MAX_PROFILE_STEPS:
        raise argparse.ArgumentTypeError(f"{text!r}: at most {MAX_PROFILE_STEPS:,} steps in one profile")
    return steps


def add_profile_steps(parser: argparse.ArgumentParser) -> None:
    """The --profile-steps option of the commands that start a trainer (`tfdd train`, the trainer process)."""
    parser.add_argument(
        "--profile-steps",
        type=parse_step_range,
        metavar="A-B",
        help="write a TensorFlow profile of global steps A to B (from 1) into the run's tensorboard/ folder; "
        "view it with TensorBoard's profile plugin (pip install tensorboard-plugin-profile)",
    )


def profiled_command(
    command_for: Callable[..., list[str]], steps: StepRange | None, remote: bool
) -> Callable[..., list[str]]:
    """A cluster's task command that also profiles `steps` (`tfdd cluster launch --profile-steps`); ConfigError
    for tasks on other machines (--hosts), whose commands are made there."""
    if steps is None:
        return command_for
    if remote:
        raise ConfigError(
            [
                Problem(
                    "--profile-steps", str(steps), "not available with --hosts yet: give it to each task's tfdd train"
                )
            ]
        )
    return lambda *args: [*command_for(*args), "--profile-steps", str(steps)]
