"""The private TensorFlow and tf-keras names the engine relies on: each is present in the installed versions,
and the engine does without each of them (engine.train.tf_runtime.PRIVATE_API lists them)."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.slow


def test_every_listed_private_name_is_in_the_installed_tensorflow():
    from engine.train.tf_runtime import PRIVATE_API

    missing = [use.name for use in PRIVATE_API if not use.present()]
    assert not missing, f"gone after an upgrade; the engine falls back ({missing}): update PRIVATE_API"


def test_without_autographs_private_api_the_conversion_is_left_to_the_trace(monkeypatch):
    from tensorflow.python.autograph.impl import api

    from engine.train.tf_runtime import PRIVATE_API, convert_ahead, tf

    def double(x):
        return x * 2 if x > 0 else -x

    monkeypatch.delattr(api, "_convert_actual")  # a TensorFlow that renamed it
    assert not PRIVATE_API[0].present()
    convert_ahead([(double, False)])  # no error: an optimisation only
    monkeypatch.undo()  # AutoGraph's trace needs its own function back
    assert float(tf.function(double)(tf.constant(3.0))) == 6.0


def test_without_the_context_handle_devices_count_as_untouched(monkeypatch):
    from tensorflow.python.eager import context

    from engine.train.tf_runtime import devices_untouched

    monkeypatch.setattr(context, "context", lambda: object())
    assert devices_untouched()


def test_without_device_lib_gpus_have_no_descriptions(monkeypatch):
    from tensorflow.python.client import device_lib

    from engine.train.tf_runtime import gpu_descriptions

    monkeypatch.delattr(device_lib, "list_local_devices")
    assert gpu_descriptions() == {}


def test_an_adam_without_kerass_private_slots_takes_kerass_own_step():
    from engine.train.models.fused_adam import fused_update_step
    from engine.train.tf_runtime import tf

    class RenamedSlots:
        """An Adam of a tf-keras that keeps its slots under other names."""

        amsgrad = adaptive_epsilon = False
        own_steps: list[str] = []

        def update_step(self, gradient, variable):
            self.own_steps.append(variable.name)

    variable = tf.Variable([1.0], name="w")
    fused_update_step(RenamedSlots(), tf.constant([0.5]), variable)
    assert RenamedSlots.own_steps == [variable.name]


def test_whether_fits_steps_take_the_steps_per_call_is_read_from_their_public_signature():
    """tf-keras's steps under a coordinator take (iterator, steps_per_execution) unless one step a call; the count
    comes from the callable's signature (inspect follows a tf.function to its Python function), no private name."""
    from engine.train.ps_anatomy import steps_take_count
    from engine.train.tf_runtime import tf

    def one(iterator):
        return iterator

    def several(iterator, steps_per_execution):
        return iterator

    assert steps_take_count(tf.function(several)) and not steps_take_count(tf.function(one))
    assert steps_take_count(several) and not steps_take_count(one), "a plain function, as when run eagerly"
