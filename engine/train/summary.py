"""A model's summary before Start: its layers, parameters and a per-replica memory estimate.

Run in a child process (`tfdd model-summary --config C --json`), never in the window: building a model needs
TensorFlow, and a python model is user code. Nothing is trained. The memory estimate counts float32 weights,
gradients and optimizer slots plus every layer's output for one per-replica batch; it leaves out TensorFlow's
workspace and allocator slack, so read it as a lower bound.
"""

from __future__ import annotations

import math
from typing import Any

from engine.core.config import RunConfig
from engine.core.plan import replica_count
from engine.core.sources import inspect

OPTIMIZER_SLOTS = {"adam": 2, "rmsprop": 1, "adagrad": 1, "sgd": 0}


def _shape(layer: Any) -> list[Any]:
    try:
        shape = layer.output_shape
    except (AttributeError, RuntimeError):
        return []
    if isinstance(shape, list):
        shape = shape[0]
    return list(shape)


def summarize(config: RunConfig, replicas: int | None = None) -> dict[str, Any]:
    """The summary as a JSON-ready dict; ConfigError (DataError, ModelError) when it cannot be built."""
    from engine.train.models import build_model, output_units
    from engine.train.tf_runtime import keras

    info = inspect(config, quick=True)
    input_shape = info.input_shape
    if input_shape is None:  # a python dataset: its function says
        from engine.train.datasets import make_source

        input_shape = make_source(config, info, "off", 1).input_shape()
    if config.mixed_precision != "off":
        keras.mixed_precision.set_global_policy(f"mixed_{config.mixed_precision}")
    built = build_model(config, tuple(input_shape), info.num_classes)
    model = built.model
    replicas = replicas or replica_count(config, None, 1) or 1
    per_replica = max(config.global_batch_size // replicas, 1)
    layers = [
        {
            "name": layer.name,
            "type": type(layer).__name__,
            "output_shape": _shape(layer),
            "params": layer.count_params(),
        }
        for layer in model.layers
    ]
    trainable = sum(int(math.prod(w.shape)) for w in model.trainable_weights)
    total = model.count_params()
    activation_bytes = 2 if config.mixed_precision != "off" else 4
    activations = sum(math.prod(d for d in layer["output_shape"][1:] if d) for layer in layers if layer["output_shape"])
    memory = {
        "weights": total * 4,
        "gradients": trainable * 4,
        "optimizer": trainable * 4 * OPTIMIZER_SLOTS.get(config.optimizer, 2),
        "activations": activations * per_replica * activation_bytes,
    }
    memory["total"] = sum(memory.values())
    return {
        "model": built.where,
        "kind": config.model.kind,
        "input_shape": list(input_shape),
        "num_classes": info.num_classes,
        "output_units": output_units(info.num_classes),
        "from_logits": built.from_logits,
        "layers": layers,
        "total_params": total,
        "trainable_params": trainable,
        "replicas": replicas,
        "per_replica_batch": per_replica,
        "memory_bytes": memory,
    }
