"""saved: the .keras model at `path` (e.g. an earlier run's model.keras), trained further."""

from __future__ import annotations

from engine.core.messages import msg
from engine.core.model_kinds.base import ModelConfig, ModelKind
from engine.core.problems import Problem
from engine.core.user_code import file_problem


def check(model: ModelConfig) -> list[Problem]:
    if problem := file_problem("model.path", model.path, msg("a .keras model file, e.g. an earlier run's model.keras")):
        return [problem]
    if not str(model.path).endswith(".keras"):
        return [Problem("model.path", model.path, msg("must be a .keras file (tf-keras's model.save format)"))]
    return []


KIND = ModelKind(
    name="saved",
    hint=msg("a .keras model (e.g. an earlier run's model.keras), trained further"),
    fields=("path",),
    check=check,
    file_filter=msg("Keras models (*.keras)"),
    shared=("path",),
)
