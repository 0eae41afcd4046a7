"""A small convolutional network for images, built from the data's image shape.

Per entry of `model.filters`: Conv2D, batch normalisation, the activation, 2x2 max pooling (while the image is
at least 2 pixels); then global average pooling, `hidden_units` Dense layers and float32 logits. Batch
normalisation is synchronized: its statistics are the global batch's, so 1 and N replicas train the same model.
"""

from __future__ import annotations

from typing import Any

from engine.core.config import RunConfig
from engine.train.tf_runtime import keras
from engine.train.user_code import ModelError

# The moving statistics that validation uses follow the batches at 0.9 (Keras's default 0.99 needs hundreds of
# steps to forget its initial values, and small runs then validate with statistics of almost nothing)
BN_MOMENTUM = 0.9


def build_cnn(config: RunConfig, input_shape: tuple[int, ...], num_classes: int) -> Any:
    m = config.model
    if len(input_shape) != 3:
        raise ModelError(
            f"the cnn model needs images (height, width, channels); data.kind {config.data.kind} gives examples "
            f"of shape {tuple(input_shape)}: use the mlp model, or image data",
            "model.kind",
            "cnn",
        )
    inputs = keras.Input(shape=input_shape, name="image")
    x = inputs
    height, width = input_shape[0], input_shape[1]
    for i, filters in enumerate(m.filters):
        x = keras.layers.Conv2D(filters, m.kernel_size, padding="same", use_bias=not m.batch_norm, name=f"conv_{i}")(x)
        if m.batch_norm:
            x = keras.layers.BatchNormalization(synchronized=True, momentum=BN_MOMENTUM, name=f"sync_bn_{i}")(x)
        x = keras.layers.Activation(m.activation, name=f"{m.activation}_{i}")(x)
        if min(height, width) >= 2:
            x = keras.layers.MaxPooling2D(2, name=f"pool_{i}")(x)
            height, width = height // 2, width // 2
    x = keras.layers.GlobalAveragePooling2D(name="global_pool")(x)
    for i, units in enumerate(m.hidden_units):
        x = keras.layers.Dense(units, activation=m.activation, name=f"dense_{i}")(x)
    outputs = keras.layers.Dense(1 if num_classes == 2 else num_classes, dtype="float32", name="logits")(x)
    return keras.Model(inputs, outputs, name="cnn")
