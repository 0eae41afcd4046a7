"""The tutorial's MLP (Dense 16 relu, Dense 8 relu, output layer), configurable."""

from __future__ import annotations

from typing import Any

from engine.core.config import RunConfig
from engine.train.tf_runtime import keras


def build_mlp(config: RunConfig, input_shape: tuple[int, ...], num_classes: int) -> Any:
    layers: list[Any] = [keras.Input(shape=input_shape, name="features")]
    if len(input_shape) > 1:  # images: one long vector per example
        layers.append(keras.layers.Flatten(name="flatten"))
    for i, units in enumerate(config.model.hidden_units):
        layers.append(keras.layers.Dense(units, activation=config.model.activation, name=f"dense_{i}"))
    layers.append(keras.layers.Dense(1 if num_classes == 2 else num_classes, dtype="float32", name="logits"))
    return keras.Sequential(layers, name="mlp")
