"""The one place that imports TensorFlow and tf-keras, with the environment set first.

tf-keras is the Keras that tf.distribute was built with: Keras 3 cannot run
`model.fit` under MultiWorkerMirroredStrategy ("Attempt to convert a value
(PerReplica:{...}) with an unsupported type", keras-team/keras issue 20585), so the
engine uses tf-keras everywhere. TF_USE_LEGACY_KERAS must be set before
TensorFlow is first imported for `tf.keras` to agree with it.
"""

from __future__ import annotations

import os
import types
from typing import Any

os.environ.setdefault("TF_USE_LEGACY_KERAS", "1")
os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "1")

import tensorflow as tf  # noqa: E402
import tf_keras as keras  # noqa: E402

__all__ = ["tf", "keras", "convert_ahead", "devices_untouched", "gpu_descriptions", "inner_function"]


def devices_untouched() -> bool:
    """True while a device plan can still be applied: nothing has initialised TensorFlow's context.

    Any tensor, dataset, strategy, traced function or built Keras layer initialises it, and
    then set_logical_device_configuration raises "Virtual devices cannot be modified after
    being initialized" (and a multi-worker strategy "Collective ops must be configured at
    program startup"). A private attribute, but exactly what TensorFlow itself checks.
    """
    from tensorflow.python.eager import context

    return context.context()._context_handle is None


def gpu_descriptions() -> dict[str, str]:
    """TensorFlow's description of each GPU ("GPU:0" -> "device: 0, name: ..., pci bus id: ...").

    Only device_lib tells the PCI bus id, and it creates the devices to do so (with memory
    growth, so it takes little GPU memory): for the device probe, never inside a run.
    """
    from tensorflow.python.client import device_lib

    config = tf.compat.v1.ConfigProto()
    config.gpu_options.allow_growth = True
    out = {}
    for device in device_lib.list_local_devices(config):
        if device.device_type == "GPU":
            out[device.name.rpartition("/device:")[2]] = device.physical_device_desc
    return out


def convert_ahead(functions: list[tuple[Any | None, bool]]) -> None:
    """Run AutoGraph's source conversion of `functions` now, so a later trace finds it in AutoGraph's cache.

    (function, called_from_converted_code): True for what a tf.function's converted code calls
    (strategy.run's replica function, helpers), False for a tf.function's own Python function; each is
    converted with the options that call path uses, since they are part of the cache's key (with the
    function's code object, not the function: a closure made later, over other values, finds it too).
    The conversion parses and rewrites Python source, about 0.1 s a function; it touches no device.
    Private AutoGraph API, so any failure just leaves the conversion to the trace, as before.
    """
    try:
        from tensorflow.python.autograph.core import converter
        from tensorflow.python.autograph.impl import api

        as_tf_function = converter.ConversionOptions(recursive=True, user_requested=True, optional_features=None)
        for function, nested in functions:
            if function is None:
                continue
            options = as_tf_function.call_options() if nested else as_tf_function
            api._convert_actual(function, converter.ProgramContext(options=options))
    except Exception:  # an optimisation only
        return


def inner_function(outer: Any, name: str) -> Any | None:
    """The function `outer` defines as `name` (None if it defines none), built from its code with empty
    closure cells: enough to convert it ahead (conversion reads code, not the closure's values), not to call."""
    code = next((c for c in outer.__code__.co_consts if isinstance(c, types.CodeType) and c.co_name == name), None)
    if code is None:
        return None
    cells = tuple(types.CellType() for _ in code.co_freevars)
    return types.FunctionType(code, outer.__globals__, name, None, cells)
