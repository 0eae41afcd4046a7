"""Engine messages a window can translate without the engine importing Qt.

`msg("must be at most {high:,}", high=n)` returns a `Message`: the English
text the command line prints (it *is* a str, so every caller that stores,
compares or prints messages is unchanged) that also remembers its template
and parameters. The window looks the template up in its translations and
formats the same parameters into the translated template.

Qt's `pyside6-lupdate` extracts the templates from the source: the
translations tool (gui/translations.py) runs it with
`-tr-function-alias QT_TR_NOOP+=msg`, so every `msg("literal", ...)` call is
a translatable string in the context `CONTEXT`. The template must therefore
be a string literal at the call site, never a variable or an f-string.
"""

from __future__ import annotations

from typing import Any

CONTEXT = ""  # lupdate puts QT_TR_NOOP-style strings of Python sources in the unnamed context


class Message(str):
    """English text formatted from `template` with `params`, both kept for translation."""

    template: str
    params: dict[str, Any]

    def __new__(cls, template: str, params: dict[str, Any] | None = None) -> Message:
        params = dict(params or {})
        self = super().__new__(cls, template.format(**params) if params else template)
        self.template = template
        self.params = params
        return self

    def __getnewargs__(self) -> tuple[str, dict[str, Any]]:  # pickles (and copies) keep template and params
        return self.template, self.params


def msg(template: str, /, **params: Any) -> Message:
    """A translatable engine message; `template` is a literal str.format template (see the module doc)."""
    return Message(template, params)


def to_plain(message: str) -> dict[str, Any]:
    """A Message as JSON-safe data, for an event crossing to the window ({} for other text).

    Parameters that are Messages nest; numbers and text stay; anything else becomes its str."""
    if not isinstance(message, Message):
        return {}

    def plain(value: Any) -> Any:
        if isinstance(value, Message):
            return to_plain(value)
        return value if isinstance(value, int | float | str) or value is None else str(value)

    return {"template": message.template, "params": {k: plain(v) for k, v in message.params.items()}}


def from_plain(data: dict[str, Any]) -> Message | None:
    """The Message `to_plain` gave; None when `data` is not one (an older trainer, a damaged line)."""
    template, params = data.get("template"), data.get("params", {})
    if not isinstance(template, str) or not isinstance(params, dict):
        return None
    values = {k: (from_plain(v) or str(v)) if isinstance(v, dict) else v for k, v in params.items()}
    try:
        return Message(template, values)
    except (KeyError, IndexError, ValueError):  # a template its parameters do not fill
        return None
