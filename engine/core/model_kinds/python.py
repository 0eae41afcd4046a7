"""python: `function(input_shape, num_classes)` in the user's file `path` returns an uncompiled tf_keras model.

The file is only read here (it parses, it defines the function); the
trainer runs it (engine.train.models.user).
"""

from __future__ import annotations

from engine.core.messages import msg
from engine.core.model_kinds.base import ModelConfig, ModelKind
from engine.core.problems import Problem
from engine.core.user_code import file_problem, function_problem


def check(model: ModelConfig) -> list[Problem]:
    if problem := file_problem("model.path", model.path, msg("a Python file defining the model")):
        return [problem]
    return [fp] if (fp := function_problem("model", model.path, model.function)) else []


KIND = ModelKind(
    name="python",
    hint=msg("build_model(input_shape, num_classes) in your file returns an uncompiled tf_keras model"),
    fields=("path", "function"),
    check=check,
    file_filter=msg("Python files (*.py)"),
    user_code=True,
)
