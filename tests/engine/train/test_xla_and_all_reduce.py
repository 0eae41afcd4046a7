"""jit_compile, all_reduce and bytes_per_pack reach TensorFlow: real strategies and real training on the CPU.

GPU-only choices (NCCL, XLA under mirrored) are decided by the device plan and tested there with injected
device lists (tests/engine/test_plan.py)."""

from __future__ import annotations

import json
import math

import pytest

from engine.core import events as ev
from tests.engine.train.worker_process import base_config, run_python, train

# TensorFlow logs this (at INFO, once per process) when XLA compiled a cluster of the step
XLA_COMPILED = "Compiled cluster using XLA"

STRATEGIES_SEEN = """
import json
from engine.core.config import RunConfig
from engine.core.plan import plan_devices
from engine.train.devices import apply_plan
from engine.train.strategies import make_strategy

seen = {}
mirrored = RunConfig(virtual_devices=2, all_reduce="hierarchical_copy")
plan = plan_devices(mirrored, [])
apply_plan(plan)
seen["mirrored"] = type(make_strategy(mirrored, plan).extended._cross_device_ops).__name__
multi = RunConfig(strategy="multi_worker_mirrored", all_reduce="ring", bytes_per_pack=4 << 20)
options = make_strategy(multi, plan_devices(multi, [])).extended._communication_options
seen["multi_worker_mirrored"] = [options.implementation.name, options.bytes_per_pack]
print(json.dumps(seen))
"""


@pytest.mark.slow
def test_the_chosen_all_reduce_and_pack_size_are_the_strategys():
    out = run_python("-c", STRATEGIES_SEEN)
    assert out.returncode == 0, out.stderr[-2000:]
    seen = json.loads(out.stdout.strip().splitlines()[-1])
    assert seen == {"mirrored": "HierarchicalCopyAllReduce", "multi_worker_mirrored": ["RING", 4 << 20]}


@pytest.mark.slow
@pytest.mark.parametrize(
    "overrides", [{"strategy": "one_device"}, {"strategy": "default", "loop": "fit"}], ids=["custom", "fit"]
)
def test_jit_compile_trains_with_xla_to_the_same_losses(tmp_path, overrides):
    """XLA fuses the step's ops, so its sums round differently: measured 7e-8 relative after 2 epochs."""
    verbose = {"TF_CPP_MIN_LOG_LEVEL": "0"}
    plain = train(tmp_path, base_config(**overrides), "plain", extra_env=verbose)
    compiled = train(tmp_path, base_config(**overrides, jit_compile=True), "xla", extra_env=verbose)
    for run in (plain, compiled):
        assert run.returncode == 0, run.stderr[-3000:]
    assert XLA_COMPILED in compiled.stderr and XLA_COMPILED not in plain.stderr
    losses = [e.loss for e in compiled.of(ev.EpochEnd)]
    assert len(losses) == 2 and all(math.isfinite(v) for v in losses)
    assert losses == pytest.approx([e.loss for e in plain.of(ev.EpochEnd)], rel=1e-4)
