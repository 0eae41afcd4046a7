"""The one place that imports TensorFlow and tf-keras, with the environment set first.

tf-keras is the Keras that tf.distribute was built with: Keras 3 cannot run
`model.fit` under MultiWorkerMirroredStrategy ("Attempt to convert a value
(PerReplica:{...}) with an unsupported type", keras-team/keras issue 20585), so the
engine uses tf-keras everywhere. TF_USE_LEGACY_KERAS must be set before
TensorFlow is first imported for `tf.keras` to agree with it.
"""

from __future__ import annotations

import os

os.environ.setdefault("TF_USE_LEGACY_KERAS", "1")
os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "1")

import tensorflow as tf  # noqa: E402
import tf_keras as keras  # noqa: E402

__all__ = ["tf", "keras", "devices_untouched", "gpu_descriptions"]


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
