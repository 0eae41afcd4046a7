"""A declared Python type as a person writing JSON knows it, for the config's "wrong type" problems."""

from __future__ import annotations

import types
import typing
from typing import Any

from engine.core.messages import Message, msg

_JSON_WORDS = {
    int: msg("a whole number"),
    float: msg("a number"),
    str: msg("text in quotes"),
    bool: msg("true or false"),
    dict: msg("a JSON object"),
}
_JSON_LIST_WORDS = {
    int: msg("a list of whole numbers"),
    float: msg("a list of numbers"),
    str: msg("a list of texts"),
}


def json_words(declared: Any) -> Message:
    """A declared type as a person writing JSON knows it: tuple[str, ...] | None is "a list of texts or null"."""
    args = typing.get_args(declared)
    if isinstance(declared, types.UnionType) or typing.get_origin(declared) is typing.Union:
        kinds = [json_words(a) for a in args if a is not type(None)]
        words = kinds[0] if len(kinds) == 1 else msg("{first} or {second}", first=kinds[0], second=kinds[1])
        return msg("{kind} or null", kind=words) if type(None) in args else words
    origin = typing.get_origin(declared) or declared
    if origin is tuple and args and args[0] in _JSON_LIST_WORDS:
        return _JSON_LIST_WORDS[args[0]]
    return _JSON_WORDS.get(origin, Message(str(declared)))
