"""cnn: a conv block (conv, synchronized batch norm, activation, pooling) per entry of `filters`, then
`hidden_units` Dense layers."""

from __future__ import annotations

from engine.core.messages import msg
from engine.core.model_kinds.base import ModelConfig, ModelKind, hidden_units_problems
from engine.core.problems import Problem, positive_ints


def check(model: ModelConfig) -> list[Problem]:
    p = hidden_units_problems(model)
    if not positive_ints(model.filters):
        p.append(Problem("model.filters", list(model.filters or ()), msg("filters per conv block, e.g. [32, 64]")))
    if not isinstance(model.kernel_size, int) or isinstance(model.kernel_size, bool) or model.kernel_size < 1:
        p.append(Problem("model.kernel_size", model.kernel_size, msg("must be a positive whole number, e.g. 3")))
    return p


KIND = ModelKind(
    name="cnn",
    hint=msg("conv blocks with synchronized batch norm, pooling and a Dense head; for images"),
    fields=("filters", "kernel_size", "batch_norm", "hidden_units", "activation"),
    check=check,
)
