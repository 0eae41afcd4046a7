"""The user's own model: a function in a Python file, or a .keras file trained further.

python: `build_model(input_shape, num_classes, **model.kwargs)` is called inside
`strategy.scope()` and returns an uncompiled tf_keras model (the engine
compiles it or writes the custom loop); README ("Your model", `python`) has the
contract. saved: `tf_keras.models.load_model(path, compile=False)`, e.g.
the model.keras of an earlier run, checked against the data's shape.
"""

from __future__ import annotations

from typing import Any

from engine.core.config import RunConfig
from engine.core.messages import msg
from engine.train.tf_runtime import keras
from engine.train.user_code import ModelError, call_user, load_function


def build_user_model(config: RunConfig, input_shape: tuple[int, ...], num_classes: int) -> tuple[Any, str]:
    m = config.model
    if m.kind == "saved":
        return _load_saved(str(m.path), input_shape), str(m.path)
    where = f"{m.path}:{m.function}"
    function = load_function(str(m.path), m.function, "model")
    model = call_user(function, (tuple(input_shape), num_classes), where, "model", kwargs=dict(m.kwargs))
    if not isinstance(model, keras.Model):
        hint = (
            " (a Keras 3 model: import tf_keras, or tensorflow with TF_USE_LEGACY_KERAS=1, which the engine sets)"
            if type(model).__module__.startswith("keras")
            else ""
        )
        raise ModelError(
            f"{where} returned {type(model).__module__}.{type(model).__name__}, not a tf_keras model{hint}; "
            "return an uncompiled tf_keras.Model",
            "model.function",
            m.function,
        )
    return model, where


def compile_note(model: Any, where: str, config: RunConfig) -> str:
    """A warning when the user's model comes compiled: the engine compiles it anew (or writes the custom
    loop), so its own optimizer, loss and metrics are not used; "" when it is not compiled."""
    if not getattr(model, "_is_compiled", False):
        return ""
    return msg(
        "{where} returned a compiled model: its compile() settings (optimizer {theirs}, loss {loss}) are not "
        "used; the run trains with the config's optimizer ({optimizer}, learning rate {lr:g}) and a loss that "
        "follows the labels. Set them in the run config, and return the model uncompiled.",
        where=where,
        theirs=type(model.optimizer).__name__,
        loss=str(model.loss),
        optimizer=config.optimizer,
        lr=config.learning_rate,
    )


def _load_saved(path: str, input_shape: tuple[int, ...]) -> Any:
    try:
        model = keras.models.load_model(path, compile=False)
    except Exception as exc:
        first = str(exc).strip().splitlines()[0][:300] if str(exc).strip() else type(exc).__name__
        raise ModelError(f"{path} cannot be loaded as a tf-keras model ({type(exc).__name__}: {first})") from None
    wanted = tuple(model.input_shape[1:]) if not isinstance(model.input_shape, list) else None
    if (
        wanted is None
        or len(wanted) != len(input_shape)
        or any(w is not None and w != d for w, d in zip(wanted, input_shape, strict=True))
    ):
        raise ModelError(
            f"{path} takes inputs of shape {model.input_shape}, but the data gives examples of shape "
            f"{tuple(input_shape)}; train it on data of the shape it was built for",
        )
    return model
