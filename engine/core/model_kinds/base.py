"""What every model kind shares: the `model` section, and what a kind declares.

A kind's module (engine.core.model_kinds.<kind>) fills in one `ModelKind`: the
fields it reads, its checks (nothing is built and no user code runs: the
form runs them on every keystroke) and what the form needs to show its
fields. engine.core.model_kinds picks a kind by name; the model itself is built
by engine.train.models.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from engine.core.messages import Message, msg
from engine.core.problems import Problem, positive_ints


@dataclass(frozen=True, kw_only=True)
class ModelConfig:
    """Which model trains: the `model` section of a run config.

    One record holds every kind's fields; each kind reads some of them (its
    module's `KIND.fields`; README "Your model" has one section per kind).
    """

    kind: str = "mlp"
    hidden_units: tuple[int, ...] = (16, 8)
    activation: str = "relu"
    filters: tuple[int, ...] = (32, 64)
    kernel_size: int = 3
    batch_norm: bool = True
    name: str = "MobileNetV2"
    weights: str | None = None
    path: str | None = None
    function: str = "build_model"
    kwargs: dict[str, Any] = field(default_factory=dict)  # python: keyword arguments of `function`


@dataclass(frozen=True)
class ModelKind:
    """One kind of model, as everything without TensorFlow sees it."""

    name: str
    hint: Message  # one line under the kind menu
    fields: tuple[str, ...]  # ModelConfig fields it reads besides kind: the form shows their rows
    check: Callable[[ModelConfig], list[Problem]]  # no model built, no user code run
    file_filter: Message | None = None  # the Browse dialog's file types for `path`
    shared: tuple[str, ...] = ()  # fields naming files every task reads from its own disk (an export lists them)
    user_code: bool = False  # `path` is the user's Python file (an export copies it)


def hidden_units_problems(model: ModelConfig) -> list[Problem]:
    """The Dense layers of the engine's own models."""
    if positive_ints(model.hidden_units):
        return []
    return [
        Problem(
            "model.hidden_units",
            list(model.hidden_units or ()),
            msg("must be a non-empty list of positive layer sizes, e.g. [16, 8]"),
        )
    ]
