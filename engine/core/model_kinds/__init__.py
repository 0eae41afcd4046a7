"""The kinds of model a run can train, one module each; `model_kind` picks the one a config names.

Each module (mlp, cnn, keras_application, python, saved) holds its kind's
fields, its checks and what the form shows (engine.core.model_kinds.base.ModelKind).
All of it is TensorFlow-free; the model is built by engine.train.models. A
new kind is a module here, a line in KINDS, and its builder there.
"""

from __future__ import annotations

from engine.core.messages import msg
from engine.core.model_kinds import cnn, keras_application, mlp, python, saved
from engine.core.model_kinds.base import ModelConfig, ModelKind
from engine.core.problems import Problem

KINDS: dict[str, ModelKind] = {
    kind.name: kind for kind in (mlp.KIND, cnn.KIND, keras_application.KIND, python.KIND, saved.KIND)
}
MODEL_KINDS = tuple(KINDS)


def model_kind(name: object) -> ModelKind | None:
    """The kind called `name`; None for a name that is not one."""
    return KINDS.get(name) if isinstance(name, str) else None


def validate_model(model: ModelConfig) -> list[Problem]:
    """Every problem of the model section found without building the model or running user code."""
    kind = model_kind(model.kind)
    if kind is None:
        return [
            Problem("model.kind", model.kind, msg("must be one of: {model_kinds}", model_kinds=", ".join(MODEL_KINDS)))
        ]
    return kind.check(model)
