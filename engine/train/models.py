"""The tutorial's MLP (Dense 16 relu, Dense 8 relu, output layer), configurable.

The output layer gives logits (no sigmoid/softmax) and stays float32 under
mixed precision: losses from logits are numerically stable, and a float16
softmax/sigmoid output is the classic source of NaN losses.
"""

from __future__ import annotations

from typing import Any

from engine.config import RunConfig
from engine.train.tf_runtime import keras

OPTIMIZERS = {
    "adam": keras.optimizers.Adam,
    "sgd": keras.optimizers.SGD,
    "rmsprop": keras.optimizers.RMSprop,
    "adagrad": keras.optimizers.Adagrad,
}


def build_model(config: RunConfig, num_features: int, num_classes: int) -> Any:
    """Create the model; call inside `strategy.scope()` so variables are mirrored."""
    layers = [keras.Input(shape=(num_features,), name="features")]
    for i, units in enumerate(config.model.hidden_units):
        layers.append(keras.layers.Dense(units, activation=config.model.activation, name=f"dense_{i}"))
    outputs = 1 if num_classes == 2 else num_classes
    layers.append(keras.layers.Dense(outputs, dtype="float32", name="logits"))
    return keras.Sequential(layers, name="mlp")


def build_optimizer(config: RunConfig) -> Any:
    return OPTIMIZERS[config.optimizer](learning_rate=config.learning_rate)


def build_loss_and_metric(num_classes: int, reduction: Any = None) -> tuple[Any, Any]:
    """Loss and accuracy metric follow the label type (binary or multi-class)."""
    kwargs = {"reduction": reduction} if reduction is not None else {}
    if num_classes == 2:
        return (
            keras.losses.BinaryCrossentropy(from_logits=True, **kwargs),
            keras.metrics.BinaryAccuracy(name="accuracy", threshold=0.0),
        )
    return (
        keras.losses.SparseCategoricalCrossentropy(from_logits=True, **kwargs),
        keras.metrics.SparseCategoricalAccuracy(name="accuracy"),
    )
