"""Running the user's Python files (a model or a dataset): only here, in the trainer process.

A file is imported under a private module name, so two runs' files never
clash and nothing of the engine is shadowed. Every failure (the import
raises, the function is missing or raises) becomes one line that names the
file, the line in it and what to change: a ModelError or DataError, both
ConfigErrors, so the command line exits with code 2.
"""

from __future__ import annotations

import hashlib
import importlib.util
import inspect
import sys
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import Any

from engine.core.problems import ConfigError, DataError, Problem
from engine.core.user_code import CONTRACTS, unknown_kwargs_message


class ModelError(ConfigError):
    """The model cannot train as configured; the message names the file or model and what to change."""

    def __init__(self, message: str, field: str = "model.path", value: object = None):
        super().__init__([Problem(field, value, message)])
        self.message = message

    def __str__(self) -> str:
        return self.message


def _error(section: str, message: str, field: str) -> ConfigError:
    return ModelError(message, field) if section == "model" else DataError(message, field)


def _where_in(path: Path, exc: BaseException) -> str:
    """ ", line N" of the deepest frame inside the user's file, if any."""
    frames = [f for f in traceback.extract_tb(exc.__traceback__) if Path(f.filename).resolve() == path.resolve()]
    return f", line {frames[-1].lineno}" if frames else ""


def load_function(path: str, name: str, section: str) -> Callable[..., Any]:
    """Import the file and return its function; a clear ModelError/DataError otherwise."""
    file = Path(path).expanduser()
    if not file.is_file():
        state = "is a folder, not a file" if file.is_dir() else "does not exist"
        raise _error(section, f"{path} {state}; check {section}.path", f"{section}.path")
    module_name = "tfdd_user_" + hashlib.sha1(str(file.resolve()).encode()).hexdigest()[:12]
    module = sys.modules.get(module_name)
    if module is None:
        spec = importlib.util.spec_from_file_location(module_name, file)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        try:
            spec.loader.exec_module(module)
        except (Exception, SystemExit) as exc:
            raise _error(
                section,
                f"{path} raised on import{_where_in(file, exc)}: {type(exc).__name__}: {exc}",
                f"{section}.path",
            ) from None
        sys.modules[module_name] = module
    function = getattr(module, name, None)
    if not callable(function):
        raise _error(
            section,
            f"{path} has no function {name!r}; expected {CONTRACTS[section]}",
            f"{section}.function",
        )
    return function


def _check_kwargs(function: Callable[..., Any], passed: int, kwargs: dict, where: str, section: str) -> None:
    """Refuse, before the call, a keyword argument the function's signature does not take: named with the names
    it does take (a misspelt name would otherwise be a TypeError from inside the call, or from deep in it)."""
    try:
        parameters = list(inspect.signature(function).parameters.values())
    except (TypeError, ValueError):  # a builtin or a callable without a signature: the call itself says
        return
    if any(p.kind == p.VAR_KEYWORD for p in parameters):
        return
    by_name = (inspect.Parameter.POSITIONAL_OR_KEYWORD, inspect.Parameter.KEYWORD_ONLY)
    accepted = [p.name for p in parameters[passed:] if p.kind in by_name]
    for name in kwargs:
        if name not in accepted:
            file, _, function_name = where.rpartition(":")
            message = unknown_kwargs_message(Path(file).name, function_name, name, accepted)
            raise _error(section, message, f"{section}.kwargs.{name}")


_running: list[str] = []  # "file:function" of the user functions being called, innermost last


def running_user_code() -> str:
    """The user function being called now ("" when none): what a stop that is overdue waits for."""
    return _running[-1] if _running else ""


def call_user(
    function: Callable[..., Any], args: tuple, where: str, section: str = "data", kwargs: dict | None = None
) -> Any:
    """Call a user function (with `kwargs`: a python model's keyword arguments); an exception, or sys.exit,
    becomes one line naming where it was raised."""
    code = getattr(function, "__code__", None)
    file = Path(code.co_filename) if code else Path(where)
    if kwargs:
        _check_kwargs(function, len(args), kwargs, where, section)
    _running.append(where)
    try:
        return function(*args, **(kwargs or {}))
    except ConfigError:
        raise
    except SystemExit as exc:  # would end the process with a code that reads as a finished run
        raise _error(
            section,
            f"{where} ended the process with sys.exit({exc.code!r}){_where_in(file, exc)}; "
            f"it must return instead ({CONTRACTS[section]})",
            f"{section}.function",
        ) from None
    except Exception as exc:
        raise _error(
            section, f"{where} raised{_where_in(file, exc)}: {type(exc).__name__}: {exc}", f"{section}.function"
        ) from None
    finally:
        _running.pop()
