"""Asking a trainer for a TensorFlow profile: a window of global steps, or the next N steps while it runs.

`tfdd train --profile-steps A-B` (engine.core.arguments) gives the window before the run starts; the window's "Capture a
profile" sends the line "profile N" on the trainer's stdin (the worker protocol's control channel,
beside "stop"). Steps are numbered as events.jsonl's global_step: from 1 since the run began. The
trainer (engine.train.profile) starts and stops TensorFlow's profiler at call boundaries and reports
what it wrote as a profile_saved event.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass

PROFILE_WORD = "profile"
"""The first word of a stdin line that asks a running trainer for a profile: "profile N"."""
MAX_PROFILE_STEPS = 100_000
"""The most steps one capture may ask for: a profile holds every op of every step in memory."""


@dataclass(frozen=True)
class StepRange:
    """Global steps `first` to `last`, both included, numbered from 1."""

    first: int
    last: int

    def __str__(self) -> str:
        return f"{self.first}-{self.last}"


def profile_line(steps: int) -> str:
    """The stdin line that asks a running trainer for a profile of its next `steps` steps."""
    return f"{PROFILE_WORD} {steps}\n"


def parse_profile_line(line: str) -> int | None:
    """N of a "profile N" line (1 <= N <= MAX_PROFILE_STEPS); None for any other line."""
    word, _, rest = line.strip().lower().partition(" ")
    if word != PROFILE_WORD or not rest.strip().isdigit():
        return None
    steps = int(rest)
    return steps if 1 <= steps <= MAX_PROFILE_STEPS else None


class ProfileRequests:
    """What a trainer is asked to profile: `steps` (--profile-steps) before it starts, and `ask(n)` (from the
    stdin thread) while it trains; the training loop `take`s the asks at its next call boundary."""

    def __init__(self, steps: StepRange | None = None) -> None:
        self.steps = steps
        self._asked: list[int] = []
        self._lock = threading.Lock()

    def ask(self, steps: int) -> None:
        with self._lock:
            self._asked.append(steps)

    def take(self) -> list[int]:
        """The asks since the last call (step counts, oldest first)."""
        with self._lock:
            asked, self._asked = self._asked, []
        return asked
