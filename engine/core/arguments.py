"""Command-line argument types that refuse what cannot work, with a line saying what would.

argparse turns the ArgumentTypeError into "argument --join-timeout: must be …" and exit code 2,
before anything starts.
"""

from __future__ import annotations

import argparse
import math


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
