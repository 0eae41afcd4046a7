"""The fused Adam step against tf-keras's own: the same numbers, checkpoints and saved model."""

from __future__ import annotations

import numpy as np
import pytest

pytestmark = pytest.mark.slow


def twin_models(seed: int = 3):
    from engine.train.tf_runtime import keras

    def model():
        keras.utils.set_random_seed(seed)
        return keras.Sequential([keras.Input((4,)), keras.layers.Dense(8, activation="relu"), keras.layers.Dense(1)])

    return model(), model()


def train(model, optimizer, steps: int = 20) -> set[str]:
    """Steps of real gradients inside a tf.function, as the custom loop takes them; the step's op types."""
    from engine.train.tf_runtime import keras, tf

    rng = np.random.default_rng(0)
    x = tf.constant(rng.normal(size=(32, 4)), tf.float32)
    y = tf.constant(rng.integers(0, 2, size=(32, 1)), tf.float32)
    loss = keras.losses.BinaryCrossentropy(from_logits=True)

    @tf.function
    def step():
        with tf.GradientTape() as tape:
            value = loss(y, model(x, training=True))
        grads = tape.gradient(value, model.trainable_variables)
        optimizer.apply_gradients(zip(grads, model.trainable_variables))  # noqa: B905 - AutoGraph rejects strict=

    for _ in range(steps):
        step()
    return {op.type for op in step.get_concrete_function().graph.get_operations()}


@pytest.mark.parametrize("options", [{}, {"amsgrad": True}], ids=["dense", "amsgrad-falls-back"])
def test_fused_steps_match_keras_adam(options):
    """To float32 rounding after a step (the kernel contracts multiply-adds differently); after twenty,
    rounding grown by training itself, as any reordering of the math grows it."""
    from engine.train.models.fused_adam import fuse_updates
    from engine.train.tf_runtime import keras

    for steps, tolerance in ((1, 1e-6), (20, 1e-4)):
        plain_model, fused_model = twin_models()
        plain = keras.optimizers.Adam(learning_rate=0.05, **options)
        fused = fuse_updates(keras.optimizers.Adam(learning_rate=0.05, **options))
        assert "ResourceApplyAdam" not in train(plain_model, plain, steps)
        fused_ops = train(fused_model, fused, steps)
        assert ("ResourceApplyAdam" in fused_ops) == (not options), "fused where Keras's step is dense Adam"
        assert int(fused.iterations) == steps
        pairs = zip(plain_model.weights + plain.variables(), fused_model.weights + fused.variables(), strict=True)
        for a, b in pairs:
            np.testing.assert_allclose(a.numpy(), b.numpy(), rtol=tolerance, atol=tolerance)
        assert not np.allclose(plain_model.weights[0].numpy(), twin_models()[0].weights[0].numpy()), "it trained"


def test_a_checkpoint_of_fused_adam_restores_into_keras_adam_and_back(tmp_path):
    """Runs stopped before the fused step resume after it, and the other way round: one layout."""
    from engine.train.models.fused_adam import fuse_updates
    from engine.train.tf_runtime import keras, tf

    model, again = twin_models()
    fused = fuse_updates(keras.optimizers.Adam(learning_rate=0.05))
    train(model, fused, steps=5)
    path = tf.train.Checkpoint(model=model, optimizer=fused).save(str(tmp_path / "ckpt"))
    plain = keras.optimizers.Adam(learning_rate=0.05)
    plain.build(again.trainable_variables)
    tf.train.Checkpoint(model=again, optimizer=plain).restore(path).assert_consumed()
    assert int(plain.iterations) == 5
    for a, b in zip(fused.variables(), plain.variables(), strict=True):
        np.testing.assert_array_equal(a.numpy(), b.numpy())


def test_a_model_compiled_with_fused_adam_saves_plain_keras_adam(tmp_path):
    from engine.train.models.fused_adam import fuse_updates
    from engine.train.tf_runtime import keras

    model, _ = twin_models()
    model.compile(optimizer=fuse_updates(keras.optimizers.Adam(learning_rate=0.05)), loss="mse")
    model.fit(np.ones((16, 4)), np.ones((16, 1)), epochs=1, verbose=0)
    model.save(str(tmp_path / "m.keras"))
    loaded = keras.models.load_model(str(tmp_path / "m.keras"))  # tf-keras alone, nothing of ours registered
    assert type(loaded.optimizer) is keras.optimizers.Adam
    assert int(loaded.optimizer.iterations) == 1
