"""Adam's step as one fused kernel per variable (`ResourceApplyAdam`), in the optimizer Keras builds.

tf-keras builds Adam's dense update from a dozen small ops per variable and replica, Python work in every run's
first trace, for the math TensorFlow has as one kernel, term for term. Only the instance's `update_step` is
replaced, so slots, checkpoints and the saved optimizer stay Keras's; sparse gradients, amsgrad and missing
private attributes (engine.train.tf_runtime.PRIVATE_API) keep Keras's own step. engine.core.exports.script copies
these functions into exported scripts (their losses must equal the engine's), so they use only tf, keras and
the standard library.
"""

from __future__ import annotations

import types
from typing import Any

from engine.train.tf_runtime import keras, tf


def fused_update_step(self: Any, gradient: Any, variable: Any) -> Any:
    """tf-keras Adam.update_step's dense path, as one ResourceApplyAdam."""
    slots = ("_index_dict", "_var_key", "_momentums", "_velocities")  # tf-keras's private names
    if (
        isinstance(gradient, tf.IndexedSlices)
        or self.amsgrad
        or self.adaptive_epsilon
        or not all(hasattr(self, a) for a in slots)
    ):
        return type(self).update_step(self, gradient, variable)
    dtype = variable.dtype
    index = self._index_dict[self._var_key(variable)]
    step = tf.cast(self.iterations + 1, dtype)
    beta_1, beta_2 = tf.cast(self.beta_1, dtype), tf.cast(self.beta_2, dtype)
    return tf.raw_ops.ResourceApplyAdam(
        var=variable.handle,
        m=self._momentums[index].handle,
        v=self._velocities[index].handle,
        beta1_power=tf.pow(beta_1, step),
        beta2_power=tf.pow(beta_2, step),
        lr=tf.cast(self.learning_rate, dtype),
        beta1=beta_1,
        beta2=beta_2,
        epsilon=tf.cast(self.epsilon, dtype),
        grad=gradient,
        use_locking=False,
    )


def fuse_updates(optimizer: Any) -> Any:
    """`optimizer`, its dense Adam steps fused when it is a Keras Adam (other optimizers as they are)."""
    if isinstance(optimizer, keras.optimizers.Adam):
        optimizer.update_step = types.MethodType(fused_update_step, optimizer)
    return optimizer
