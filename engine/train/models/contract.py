"""What a model must give back, checked on one batch before training starts.

The contract of a python (or saved) model: one output of shape (batch,
units), units = num_classes, or 1 when there are two classes (one logit,
binary cross-entropy). Logits are expected; a model whose last layer is a
softmax or sigmoid is detected (`ends_in_probabilities`) and its loss takes
probabilities instead, never applying the activation twice.
"""

from __future__ import annotations

from typing import Any

from engine.train.tf_runtime import keras
from engine.train.user_code import ModelError

PROBABILITY_ACTIVATIONS = ("softmax", "sigmoid")


def ends_in_probabilities(model: Any) -> bool:
    """The last layer applies softmax or sigmoid (a Dense with that activation, an Activation or Softmax layer)."""
    last = model.layers[-1] if getattr(model, "layers", None) else None
    if last is None:
        return False
    if isinstance(last, keras.layers.Softmax):
        return True
    activation = getattr(last, "activation", None)
    return getattr(activation, "__name__", "") in PROBABILITY_ACTIVATIONS


def check_output(model: Any, features: Any, num_classes: int, where: str) -> None:
    """Run the model on one batch; a ModelError says what was expected and what came back."""
    units = 1 if num_classes == 2 else num_classes
    expected = f"(batch, {units})" + (" (two classes: one logit, binary cross-entropy)" if units == 1 else "")
    try:
        out = model(features, training=False)
    except Exception as exc:
        first = str(exc).strip().splitlines()[0][:300] if str(exc).strip() else type(exc).__name__
        raise ModelError(
            f"{where} fails on a batch of shape {tuple(features.shape)}: {type(exc).__name__}: {first}",
            "model.path",
        ) from None
    if isinstance(out, (list, tuple, dict)):
        raise ModelError(f"{where} returns {len(out)} outputs; it must return one, of shape {expected}", "model.path")
    shape = tuple(out.shape)
    if len(shape) != 2 or shape[1] != units:
        raise ModelError(
            f"{where} outputs shape {shape} for a batch of {features.shape[0]}; expected {expected} for "
            f"{num_classes} classes: make the last layer Dense({units})",
            "model.path",
        )
    if ends_in_probabilities(model) and units == 1 and model.layers[-1].activation.__name__ == "softmax":
        raise ModelError(
            f"{where} ends in softmax over 1 unit, which is always 1; use sigmoid, or no activation (logits)",
            "model.path",
        )
