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

__all__ = ["tf", "keras", "devices_untouched"]


def devices_untouched() -> bool:
    """True while a device plan can still be applied: nothing has initialised TensorFlow's context.

    Any tensor, dataset, strategy, traced function or built Keras layer initialises it, and
    then set_logical_device_configuration raises "Virtual devices cannot be modified after
    being initialized" (and a multi-worker strategy "Collective ops must be configured at
    program startup"). A private attribute, but exactly what TensorFlow itself checks.
    """
    from tensorflow.python.eager import context

    return context.context()._context_handle is None
