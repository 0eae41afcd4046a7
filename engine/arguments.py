"""Command-line argument types that refuse what cannot work, with a line saying what would.

argparse turns the ArgumentTypeError into "argument --join-timeout: must be …" and exit code 2,
before anything starts.
"""

from __future__ import annotations

import argparse
import math


def positive_int(text: str) -> int:
    """A count of workers or replicas: 1, 2, 3 …"""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number >= 1") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"{value} is not a whole number >= 1")
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
