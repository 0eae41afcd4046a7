"""Adam's step as one fused kernel per variable, in the optimizer Keras builds.

tf-keras's Adam builds a dense update from a dozen small ops per variable
and replica (two assign_adds, square, sqrt, divide ...). Building them is
Python work in the first trace of every run: about 0.3 s of a warm start's
1.6-2.1 s on two virtual CPUs with the tutorial's MLP, for the same math
TensorFlow has as one kernel, `ResourceApplyAdam`:
    m += (g - m)(1 - beta_1);  v += (g² - v)(1 - beta_2)
    var -= lr·sqrt(1 - beta_2^t)/(1 - beta_1^t) · m / (sqrt(v) + epsilon)
which is tf-keras's dense update, term for term.

It reads tf-keras's private slot attributes (engine.train.tf_runtime.PRIVATE_API); where they are
missing, Keras's own step runs. Only the instance's `update_step` is replaced: the optimizer stays Keras's
Adam, so its slot variables, its checkpoints (a run stopped before this
change resumes after it) and the optimizer saved in model.keras are exactly
Keras's. Sparse gradients, amsgrad and adaptive epsilon keep Keras's own step.

An exported standalone script gets this module's functions copied in by
engine.core.exports.script (its losses must equal the engine's to the last bit),
so they use only `tf`, `keras` and the standard library.
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
