"""The model a run trains, by `model.kind`: one module per kind, one contract for all.

Every model maps (batch, *input_shape) features to (batch, units) outputs, units = 1 for two classes and
num_classes otherwise. The engine's models output float32 logits (stable losses; a float16 softmax is the
classic source of NaN losses under mixed precision); a user's model ending in softmax or sigmoid is detected by
`check_output`, and the loss then takes probabilities, so the activation is never applied twice.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.core.config import RunConfig
from engine.train.models.contract import check_output, ends_in_probabilities
from engine.train.models.fused_adam import fuse_updates
from engine.train.tf_runtime import keras

OPTIMIZERS = {
    "adam": keras.optimizers.Adam,
    "sgd": keras.optimizers.SGD,
    "rmsprop": keras.optimizers.RMSprop,
    "adagrad": keras.optimizers.Adagrad,
}


@dataclass(frozen=True)
class BuiltModel:
    model: Any
    from_logits: bool  # False when the model ends in softmax/sigmoid
    where: str  # the model as a person names it: "cnn", "MobileNetV2", "my_model.py:build_model"
    # only a user's model can break the output contract: the engine's own are (batch, units) logits by
    # construction, and a trial batch through one was 0.05-0.1 s of every warm start
    needs_output_check: bool = False
    warning: str = ""  # something of the user's model the run does not use, said in the log


def build_model(config: RunConfig, input_shape: tuple[int, ...], num_classes: int) -> BuiltModel:
    """Create the model; call inside `strategy.scope()` so variables are mirrored.

    Keras fit's metric results are already the same on every replica and worker (its metrics reduce
    themselves); its default "auto" reduction sums them once more across MultiWorkerMirrored's workers (two
    workers: twice the loss, an accuracy above 1). "first" takes the value every replica holds.
    """
    built = _build(config, input_shape, num_classes)
    built.model.distribute_reduction_method = "first"
    return built


def _build(config: RunConfig, input_shape: tuple[int, ...], num_classes: int) -> BuiltModel:
    kind = config.model.kind
    if kind == "mlp":
        from engine.train.models.mlp import build_mlp

        return BuiltModel(build_mlp(config, input_shape, num_classes), True, "mlp")
    if kind == "cnn":
        from engine.train.models.cnn import build_cnn

        return BuiltModel(build_cnn(config, input_shape, num_classes), True, "cnn")
    if kind == "keras_application":
        from engine.train.models.applications import build_application

        return BuiltModel(build_application(config, input_shape, num_classes), True, config.model.name)
    from engine.train.models.user import build_user_model, compile_note

    model, where = build_user_model(config, input_shape, num_classes)
    warning = compile_note(model, where, config)
    return BuiltModel(model, not ends_in_probabilities(model), where, needs_output_check=True, warning=warning)


def output_units(num_classes: int) -> int:
    return 1 if num_classes == 2 else num_classes


def build_optimizer(config: RunConfig) -> Any:
    return fuse_updates(OPTIMIZERS[config.optimizer](learning_rate=config.learning_rate))


def build_loss_and_metric(num_classes: int, reduction: Any = None, from_logits: bool = True) -> tuple[Any, Any]:
    """Loss and accuracy metric follow the label type (binary or multi-class) and the model's output."""
    kwargs = {"reduction": reduction} if reduction is not None else {}
    if num_classes == 2:
        return (
            keras.losses.BinaryCrossentropy(from_logits=from_logits, **kwargs),
            keras.metrics.BinaryAccuracy(name="accuracy", threshold=0.0 if from_logits else 0.5),
        )
    return (
        keras.losses.SparseCategoricalCrossentropy(from_logits=from_logits, **kwargs),
        keras.metrics.SparseCategoricalAccuracy(name="accuracy"),
    )


__all__ = ["BuiltModel", "build_loss_and_metric", "build_model", "build_optimizer", "check_output", "output_units"]
