"""The user's files (data, weights, models, Python code): found and checked without running them.

The window and the validator may not run user code: it could import
TensorFlow into the window, take minutes, or have side effects. So they
read the file's syntax tree only: it parses, and it defines the function at
top level. Running the file is the trainer's job (engine.train.user_code).
"""

from __future__ import annotations

import ast
import glob
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from engine.core.messages import Message, msg
from engine.core.problems import Problem

CONTRACTS = {
    "model": "build_model(input_shape, num_classes) -> an uncompiled tf_keras model",
    "data": "make_dataset(input_context) -> a tf.data.Dataset of (features, label) examples",
}


@dataclass(frozen=True)
class Signature:
    """What a top-level function's definition says it takes by name, read from its syntax tree."""

    by_position: tuple[str, ...]  # parameters given by position or by name, in order
    by_name: tuple[str, ...]  # keyword-only parameters
    any_name: bool  # it has **kwargs (or a decorator may change what it takes): any name is taken

    def accepted(self, passed: int) -> tuple[str, ...]:
        """The names a caller that passes `passed` arguments by position may still give by keyword."""
        return self.by_position[passed:] + self.by_name


def _signature(node: ast.FunctionDef | ast.AsyncFunctionDef) -> Signature:
    args = node.args
    return Signature(
        tuple(a.arg for a in args.args),
        tuple(a.arg for a in args.kwonlyargs),
        args.kwarg is not None or bool(node.decorator_list),
    )


@lru_cache(maxsize=64)
def _top_level_functions(path: str, mtime_ns: int, size: int) -> tuple[dict[str, Signature | None], str]:
    """(functions defined at top level -> their signature, None when only a name is bound; syntax error or "");
    cached by the file's stat."""
    try:
        tree = ast.parse(Path(path).read_bytes(), filename=path)
    except SyntaxError as exc:
        return {}, f"has a syntax error at line {exc.lineno}: {exc.msg}"
    except (OSError, ValueError) as exc:
        return {}, f"cannot be read: {exc}"
    found: dict[str, Signature | None] = {
        n.name: _signature(n) for n in tree.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))
    }
    for n in tree.body:
        if isinstance(n, ast.Assign):
            for t in n.targets:
                if isinstance(t, ast.Name):  # build_model = make_cnn: what it takes is known when it runs
                    found[t.id] = None
    return found, ""


def _read(path: str | None) -> tuple[Path, dict[str, Signature | None], str] | None:
    """The file, its top-level functions and its syntax error; None when it cannot be found."""
    p = Path(str(path)).expanduser()
    try:
        stat = p.stat()
    except OSError:
        return None
    return (p, *_top_level_functions(str(p), stat.st_mtime_ns, stat.st_size))


def unknown_kwargs_message(file: str, function: str, name: str, accepted: Sequence[str]) -> Message:
    """Why a keyword argument of the config cannot reach the user's function: the one rule, for the config
    check (read from the file) and the trainer (from the imported function)."""
    return msg(
        "{file}: {function}() takes no keyword argument {name!r}; it takes {accepted} (or add **kwargs to it)",
        file=file,
        function=function,
        name=name,
        accepted=", ".join(accepted) or msg("none"),
    )


def unknown_kwargs(section: str, path: str | None, function: str | None, kwargs: dict, passed: int) -> list[Problem]:
    """A problem for each keyword argument that `function` in `path` does not take, given that the engine passes
    it `passed` arguments by position; none when its definition cannot say (a bound name, **kwargs, a decorator)."""
    read = _read(path)
    signature = read[1].get(str(function)) if read is not None else None
    if read is None or signature is None or signature.any_name:
        return []
    accepted = signature.accepted(passed)
    return [
        Problem(
            f"{section}.kwargs.{name}",
            kwargs[name],
            unknown_kwargs_message(read[0].name, str(function), name, accepted),
        )
        for name in kwargs
        if name not in accepted
    ]


def function_problem(section: str, path: str | None, function: str | None) -> Problem | None:
    """Why `function` cannot be found in the Python file `path` (None when it is there)."""
    field = f"{section}.function"
    if not function or not str(function).isidentifier():
        return Problem(
            field, function, msg("a function name, e.g. {example}", example=CONTRACTS[section].split("(")[0])
        )
    read = _read(path)
    if read is None:
        return Problem(f"{section}.path", path, msg("no such file"))
    p, names, error = read
    if error:
        return Problem(f"{section}.path", path, msg("{name} {error}", name=p.name, error=error))
    if function not in names:
        defined = ", ".join(names) or msg("none")
        return Problem(
            field,
            function,
            msg(
                "{name} defines no function {function!r} at top level (it defines: {defined}); expected {contracts}",
                name=p.name,
                function=function,
                defined=defined,
                contracts=CONTRACTS[section],
            ),
        )
    return None


def file_problem(field: str, path: str | None, what: str) -> Problem | None:
    """A missing path, or a path that is not a file."""
    if not path:
        return Problem(field, path, msg("give the path of {what}", what=what))
    if Path(path).expanduser().is_dir():
        return Problem(field, path, msg("is a folder, not a file ({what})", what=what))
    if not Path(path).expanduser().is_file():
        return Problem(field, path, msg("no such file ({what})", what=what))
    return None


def matching_files(pattern: str) -> list[str]:
    """Files a path or glob names, sorted (the order every worker agrees on)."""
    expanded = str(Path(pattern).expanduser())
    if glob.has_magic(expanded):
        return sorted(p for p in glob.glob(expanded, recursive=True) if Path(p).is_file())
    return [expanded] if Path(expanded).is_file() else []


def anchor_user_files(raw: Any, folder: Path) -> Any:
    """A config file's relative paths (data, a model or weights file, a python model or dataset) that are
    not found from the working directory are found beside the file: an example or an exported task folder
    carries its files with its config."""
    if not isinstance(raw, dict):
        return raw
    for section, key in (("data", "path"), ("model", "path"), ("model", "weights")):
        part = raw.get(section)
        if not isinstance(part, dict) or not isinstance(part.get(key), str) or not part[key]:
            continue
        path = Path(part[key])
        if path.is_absolute() or path.exists() or matching_files(str(path)):
            continue
        beside = folder / path
        if beside.exists() or matching_files(str(beside)):
            raw[section] = {**part, key: str(beside)}
    return raw
