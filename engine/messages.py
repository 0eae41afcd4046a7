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
