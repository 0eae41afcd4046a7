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
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

os.environ.setdefault("TF_USE_LEGACY_KERAS", "1")
os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "1")

import tensorflow as tf  # noqa: E402
import tf_keras as keras  # noqa: E402

__all__ = ["tf", "keras", "convert_ahead", "devices_untouched", "gpu_descriptions", "inner_function", "PRIVATE_API"]


@dataclass(frozen=True)
class PrivateUse:
    """A private TensorFlow or tf-keras name the engine relies on: what it buys, and what happens without it."""

    name: str
    used_by: str
    gain: str  # measured: BENCHMARKS.md, "Private TensorFlow and Keras names"
    fallback: str
    present: Callable[[], bool]


def _has(module: str, *attributes: str) -> Callable[[], bool]:
    def present() -> bool:
        try:
            owner: Any = __import__(module, fromlist=["_"])
        except ImportError:
            return False
        return all(hasattr(owner, a) for a in attributes)

    return present


def _context_has_handle() -> bool:
    from tensorflow.python.eager import context

    return hasattr(context.context(), "_context_handle")


def _adam_has_slots() -> bool:
    adam = keras.optimizers.Adam()
    adam.build([tf.Variable([0.0])])  # the slots exist once built
    return all(hasattr(adam, a) for a in ("_index_dict", "_var_key", "_momentums", "_velocities"))


def _trace_takes_step_markers() -> bool:
    """Trace hands its keywords to the C++ TraceMe, which reads `_r` (tests/engine/train/test_profile.py finds the
    markers in the saved profile)."""
    import inspect

    return "TraceMe(name, **kwargs)" in inspect.getsource(tf.profiler.experimental.Trace.__init__)


PRIVATE_API = (
    PrivateUse(
        "tensorflow.python.autograph.impl.api._convert_actual (and converter.ProgramContext)",
        "convert_ahead: a warm trainer converts the custom loop's functions while it waits",
        "a warm start's first step sooner",
        "AutoGraph converts them at the first trace, as without a warm trainer",
        _has("tensorflow.python.autograph.impl.api", "_convert_actual"),
    ),
    PrivateUse(
        "tf_keras Adam's _index_dict, _var_key, _momentums, _velocities",
        "engine/train/models/fused_adam.py: Adam's dense step as one ResourceApplyAdam",
        "a shorter first trace (a dozen ops a variable become one)",
        "Keras's own update_step (the same math, op by op)",
        _adam_has_slots,
    ),
    PrivateUse(
        "tensorflow.python.eager.context.Context._context_handle",
        "devices_untouched: a warm trainer proves it touched no device before it takes a run",
        "the check TensorFlow itself makes before a device plan",
        "assumed untouched: a plan that cannot apply then fails with TensorFlow's own message",
        _context_has_handle,
    ),
    PrivateUse(
        "tensorflow.python.client.device_lib.list_local_devices",
        "gpu_descriptions: each GPU's PCI bus id, to match TensorFlow's GPUs to NVML's",
        "NVML's utilisation and memory shown for the right GPU (no public API gives the bus id)",
        "no descriptions: GPUs listed without NVML figures",
        _has("tensorflow.python.client.device_lib", "list_local_devices"),
    ),
    PrivateUse(
        "tf.profiler.experimental.Trace's `_r=1` (TensorFlow's profiler guide and tf-keras's fit use it)",
        "engine/train/profile.py: each compiled call of the custom loop is a step marker of its profile",
        "TensorBoard's profiler groups the trace into steps instead of 'no step marker observed'",
        "the trace is kept, its calls as plain events without step grouping",
        _trace_takes_step_markers,
    ),
    PrivateUse(
        "tf_keras Model.train_tf_function (undocumented: fit's compiled steps, before its coordinator schedules them)",
        "engine/train/ps_anatomy.py TimedFitSteps: parameter-server fit's calls timed on their workers",
        "the step anatomy of parameter-server fit (the custom loop times its own closures)",
        "parameter-server fit trains without a step anatomy",
        lambda: hasattr(keras.Model(), "train_tf_function"),
    ),
)
"""Every private name the engine uses, listed once; tests/engine/train/test_private_api.py checks that each is
present in the installed TensorFlow and that the engine still trains when it is not."""


def devices_untouched() -> bool:
    """True while a device plan can still be applied: nothing has initialised TensorFlow's context.

    Any tensor, dataset, strategy, traced function or built Keras layer initialises it, and
    then set_logical_device_configuration raises "Virtual devices cannot be modified after
    being initialized" (and a multi-worker strategy "Collective ops must be configured at
    program startup"). A private attribute, but exactly what TensorFlow itself checks.
    """
    from tensorflow.python.eager import context

    return getattr(context.context(), "_context_handle", None) is None


def gpu_descriptions() -> dict[str, str]:
    """TensorFlow's description of each GPU ("GPU:0" -> "device: 0, name: ..., pci bus id: ...").

    Only device_lib tells the PCI bus id, and it creates the devices to do so (with memory
    growth, so it takes little GPU memory): for the device probe, never inside a run.
    """
    try:
        from tensorflow.python.client import device_lib

        listed = device_lib.list_local_devices
    except (ImportError, AttributeError):
        return {}
    config = tf.compat.v1.ConfigProto()
    config.gpu_options.allow_growth = True
    out = {}
    for device in listed(config):
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
