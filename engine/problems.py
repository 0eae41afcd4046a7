"""Problems with what a person asked for, phrased so they can fix it.

A `Problem` names the field, the value given and what is allowed; a
`ConfigError` carries every problem of a config at once, so a form or a file
is fixed in one go. The window shows them under their fields, the command
line prints them and exits with code 2.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Problem:
    """One thing wrong with a config."""

    field: str
    value: Any
    message: str

    def __str__(self) -> str:
        return f"{self.field} = {_short(self.value)}: {self.message}"


class ConfigError(ValueError):
    """Raised with every problem of a config, not just the first one."""

    def __init__(self, problems: list[Problem]):
        self.problems = problems
        super().__init__("\n".join(str(p) for p in problems))


MAX_VALUE_CHARS = 80


def _short(value: Any) -> str:
    """The value as repr, cut to a readable length (a pasted 50 MB value is not echoed in full)."""
    text = repr(value)
    return text if len(text) <= MAX_VALUE_CHARS else f"{text[: MAX_VALUE_CHARS - 1]}… ({len(text):,} characters)"


class RunDirError(ValueError):
    """A run directory cannot be used as asked (not ours, already a run, in use, nothing to resume from).

    Its message is one line saying why and what to do; nothing in the folder
    was changed. Commands exit with code 2 (engine.protocol.codes.ExitCode.CONFIG).
    """
