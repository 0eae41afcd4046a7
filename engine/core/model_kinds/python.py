"""python: `function(input_shape, num_classes, **kwargs)` in the user's file `path` returns an uncompiled tf_keras
model; `kwargs` (a JSON object of numbers, text, true/false or lists of those) are its keyword arguments, so a
sweep can vary them (`model.kwargs.width`).

The file is only read here (it parses, it defines the function); the
trainer runs it (engine.train.models.user).
"""

from __future__ import annotations

import math
from typing import Any

from engine.core.messages import msg
from engine.core.model_kinds.base import ModelConfig, ModelKind
from engine.core.problems import Problem
from engine.core.user_code import file_problem, function_problem, unknown_kwargs

PASSED_BY_THE_ENGINE = ("input_shape", "num_classes")


def kwarg_name_problem(field: str, name: Any) -> Problem | None:
    """Why `name` cannot be a keyword argument of the user's function (None when it can)."""
    if not isinstance(name, str) or not name.isidentifier():
        return Problem(field, name, msg("a keyword argument's name must be a Python identifier"))
    if name in PASSED_BY_THE_ENGINE:
        return Problem(field, name, msg("the engine passes it: use another name"))
    return None


def kwarg_value_ok(value: Any) -> bool:
    """A number, text, true/false, or a list of those: what JSON, the sweep and TensorBoard's HParams carry."""
    if isinstance(value, list | tuple):
        return all(kwarg_value_ok(v) and not isinstance(v, list | tuple) for v in value)
    if isinstance(value, float):
        return math.isfinite(value)
    return isinstance(value, bool | int | str)


def kwargs_problems(kwargs: dict[str, Any]) -> list[Problem]:
    problems = []
    for name, value in kwargs.items():
        field = f"model.kwargs.{name}"
        if problem := kwarg_name_problem(field, name):
            problems.append(problem)
        elif not kwarg_value_ok(value):
            problems.append(
                Problem(field, value, msg("a keyword argument must be a number, text, true/false or a list of those"))
            )
    return problems


def check(model: ModelConfig) -> list[Problem]:
    kwargs = kwargs_problems(model.kwargs) if isinstance(model.kwargs, dict) else []
    if problem := file_problem("model.path", model.path, msg("a Python file defining the model")):
        return [problem, *kwargs]
    if problem := function_problem("model", model.path, model.function):
        return [problem, *kwargs]
    if kwargs or not isinstance(model.kwargs, dict):
        return kwargs
    return unknown_kwargs("model", model.path, model.function, model.kwargs, len(PASSED_BY_THE_ENGINE))


KIND = ModelKind(
    name="python",
    hint=msg("build_model(input_shape, num_classes) in your file returns an uncompiled tf_keras model"),
    fields=("path", "function", "kwargs"),
    check=check,
    file_filter=msg("Python files (*.py)"),
    user_code=True,
)
