"""Any architecture of tf_keras.applications, by name, with random or local weights: never a download.

Built without its ImageNet top (global average pooling) at the data's image shape, with a float32 Dense head
sized to the classes. `weights` is null (random) or a weights file on this machine for that architecture
without its top. Images enter as pixels in [0, 1]; weights that expect their application's own preprocessing
want a python model that applies it.
"""

from __future__ import annotations

from typing import Any

from engine.core.config import RunConfig
from engine.core.model_kinds.keras_application import KERAS_APPLICATIONS
from engine.train.tf_runtime import keras
from engine.train.user_code import ModelError


def build_application(config: RunConfig, input_shape: tuple[int, ...], num_classes: int) -> Any:
    m = config.model
    constructor = getattr(keras.applications, m.name, None) if m.name in KERAS_APPLICATIONS else None
    if constructor is None:
        raise ModelError(f"{m.name!r} is not an architecture of tf_keras.applications", "model.name", m.name)
    if len(input_shape) != 3:
        raise ModelError(
            f"{m.name} needs images (height, width, channels); data.kind {config.data.kind} gives examples of "
            f"shape {tuple(input_shape)}",
            "model.kind",
            m.kind,
        )
    try:
        base = constructor(include_top=False, weights=None, input_shape=tuple(input_shape), pooling="avg")
    except ValueError as exc:  # e.g. "Input size must be at least 32x32"
        raise ModelError(
            f"{m.name} cannot take images of shape {tuple(input_shape)}: {exc}; set data.image_size", "model.name"
        ) from None
    if m.weights:
        try:
            base.load_weights(m.weights)
        except Exception as exc:  # h5py, shape and layer-count errors all mean "not this model's weights"
            raise ModelError(
                f"weights file {m.weights} does not fit {m.name} without its top at input shape "
                f"{tuple(input_shape)} ({type(exc).__name__}: {str(exc).splitlines()[0][:200]}); use weights "
                "saved from the same application and input channels, or null for random weights",
                "model.weights",
                m.weights,
            ) from None
    outputs = keras.layers.Dense(1 if num_classes == 2 else num_classes, dtype="float32", name="logits")(base.output)
    return keras.Model(base.input, outputs, name=m.name)
