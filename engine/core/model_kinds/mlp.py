"""mlp: the tutorial's MLP, `hidden_units` Dense layers of `activation` (images are flattened)."""

from __future__ import annotations

from engine.core.messages import msg
from engine.core.model_kinds.base import ModelConfig, ModelKind, hidden_units_problems
from engine.core.problems import Problem


def check(model: ModelConfig) -> list[Problem]:
    return hidden_units_problems(model)


KIND = ModelKind(
    name="mlp",
    hint=msg("Dense layers (the tutorial's model); images are flattened"),
    fields=("hidden_units", "activation"),
    check=check,
)
