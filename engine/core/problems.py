"""Problems with what a person asked for, phrased so they can fix it.

A `Problem` names the field, the value given and what is allowed; a
`ConfigError` carries every problem of a config at once, so a form or a file
is fixed in one go. The window shows them under their fields, the command
line prints them and exits with code 2.
"""

from __future__ import annotations

import reprlib
import unicodedata
from dataclasses import dataclass
from typing import Any

from engine.core.messages import msg


@dataclass(frozen=True)
class Problem:
    """One thing wrong with a config."""

    field: str
    value: Any
    message: str

    def __str__(self) -> str:
        return self.render(self.message)

    def render(self, message: str) -> str:
        """`field = value: message` with another wording of the message (the window's translation)."""
        return f"{printable(self.field, MAX_VALUE_CHARS)} = {short_value(self.value)}: {message}"


def positive_ints(value: Any, count: int | None = None) -> bool:
    """A non-empty list of positive whole numbers (of `count` items when given): layer sizes, a shape."""
    items = value if isinstance(value, (list, tuple)) else None
    return (
        items is not None
        and len(items) > 0
        and (count is None or len(items) == count)
        and all(isinstance(v, int) and not isinstance(v, bool) and v >= 1 for v in items)
    )


class ConfigError(ValueError):
    """Raised with every problem of a config, not just the first one."""

    def __init__(self, problems: list[Problem]):
        self.problems = problems
        super().__init__("\n".join(str(p) for p in problems))


MAX_VALUE_CHARS = 80


_REPR = reprlib.Repr()
_REPR.maxstring = _REPR.maxother = _REPR.maxlong = MAX_VALUE_CHARS
_REPR.maxlist = _REPR.maxdict = _REPR.maxtuple = _REPR.maxset = 8
_REPR.maxlevel = 3


def short_value(value: Any) -> str:
    """The value as repr, cut to a readable length (a pasted 50 MB value is not echoed in full, nor
    repr'd in full first: reprlib stops early, also for a deeply nested one)."""
    size = f" ({len(value):,} characters)" if isinstance(value, str) and len(value) > MAX_VALUE_CHARS else ""
    return printable(_REPR.repr(value), MAX_VALUE_CHARS) + size


def printable(text: str, limit: int | None = None) -> str:
    """Text safe to print on a terminal: control and format characters (escape sequences, bidi overrides,
    NUL, newlines) are shown escaped, e.g. \\x1b; `limit` cuts it to that many characters."""
    if limit is not None and len(text) > limit:
        text = f"{text[: limit - 1]}…"
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() else _escape(c) for c in text)


MAX_MESSAGE_LINES = 8
MAX_MESSAGE_CHARS = 1500


def capped(text: str) -> str:
    """An error message of a few lines at most, cut with "…" and its full length (a CSV header of a million
    columns must not make a message of megabytes); a message within bounds is returned as it is."""
    if len(text) <= MAX_MESSAGE_CHARS and text.count("\n") < MAX_MESSAGE_LINES:
        return text
    cut = "\n".join(text[: MAX_MESSAGE_CHARS * 2].splitlines()[:MAX_MESSAGE_LINES])[: MAX_MESSAGE_CHARS - 30]
    return f"{cut}… ({len(text):,} characters)"


def _escape(c: str) -> str:
    if unicodedata.category(c) == "Zs":  # a space of another width: harmless
        return c
    code = ord(c)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"


class DataError(ConfigError):
    """The data cannot train as configured; the message names the file and what to change."""

    def __init__(self, message: str, field: str = "data.path", value: object = None):
        super().__init__([Problem(field, value, message)])
        self.message = message

    def __str__(self) -> str:
        return self.message


def failure_message(exc: ConfigError) -> str:
    """What a run_failed event says for `exc`: its one message as a translatable Message where it has one
    (a data error; a config with one problem), else the whole English text."""
    message = getattr(exc, "message", None)  # a data or model error: one message, the field is in its words
    if isinstance(message, str):
        return message
    if len(exc.problems) == 1:
        p = exc.problems[0]
        return msg(
            "{field} = {value}: {message}",
            field=printable(p.field, MAX_VALUE_CHARS),
            value=short_value(p.value),
            message=p.message,
        )
    return str(exc)


class RunDirError(ValueError):
    """A run directory cannot be used as asked (not ours, already a run, in use, nothing to resume from).

    Its message is one line saying why and what to do; nothing in the folder
    was changed. Commands exit with code 2 (engine.core.protocol.codes.ExitCode.CONFIG).
    """


class OutputExists(ValueError):
    """Writing would replace files that are not the writer's own (a user's README, another script).

    Its message is one line saying what is in the way; nothing was written.
    """
