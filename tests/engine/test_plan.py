"""Device plans for machines we do not have: injected fake GPU lists."""

from __future__ import annotations

import pytest

from engine.core.config import RunConfig
from engine.core.plan import DeviceError, choose_all_reduce, plan_devices, replica_count


def test_no_gpu_mirrored_splits_the_cpu():
    plan = plan_devices(RunConfig(strategy="mirrored", virtual_devices=4), [])
    assert plan.strategy_devices == ("/cpu:0", "/cpu:1", "/cpu:2", "/cpu:3")
    assert plan.gpu_indices == () and plan.all_reduce == "reduction_to_one_device"


def test_all_gpus_by_default_with_nccl_on_linux_and_memory_growth():
    plan = plan_devices(RunConfig(strategy="mirrored"), ["GPU:0", "GPU:1", "GPU:2"], system="Linux")
    assert plan.strategy_devices == ("/gpu:0", "/gpu:1", "/gpu:2")
    assert plan.all_reduce == "nccl" and plan.memory_growth


def test_gpu_subset_is_renumbered_and_windows_has_no_nccl():
    plan = plan_devices(
        RunConfig(strategy="mirrored", devices=("GPU:1", "GPU:3")),
        ["GPU:0", "GPU:1", "GPU:2", "GPU:3"],
        system="Windows",
    )
    assert plan.gpu_indices == (1, 3)
    assert plan.strategy_devices == ("/gpu:0", "/gpu:1")
    assert plan.all_reduce == "hierarchical_copy"


def test_splitting_a_gpu_uses_memory_limits_not_growth():
    plan = plan_devices(
        RunConfig(strategy="mirrored", virtual_devices=2, virtual_gpu_memory_mb=2048), ["GPU:0"], system="Linux"
    )
    assert plan.strategy_devices == ("/gpu:0", "/gpu:1")
    assert plan.gpu_memory_mb == 2048 and not plan.memory_growth


def test_one_device_takes_the_first_gpu_and_ignores_split():
    plan = plan_devices(RunConfig(strategy="one_device", virtual_devices=4), ["GPU:0", "GPU:1"])
    assert plan.strategy_devices == ("/gpu:0",) and plan.gpu_indices == (0,)


def test_multi_worker_uses_ring_on_cpu_and_nccl_on_linux_gpus():
    assert plan_devices(RunConfig(strategy="multi_worker_mirrored", virtual_devices=2), []).all_reduce == "ring"
    assert choose_all_reduce("multi_worker_mirrored", 2, "Linux") == "nccl"
    assert choose_all_reduce("multi_worker_mirrored", 2, "Windows") == "ring"


@pytest.mark.parametrize(
    "devices, words",
    [
        (("GPU:5",), "not on this machine"),
        (("GPU:0", "CPU:0"), "mix of CPU and GPU"),
        (("CPU:1",), "the CPU is one device"),
    ],
)
def test_impossible_device_requests(devices, words):
    with pytest.raises(DeviceError, match=words):
        plan_devices(RunConfig(strategy="mirrored", devices=devices), ["GPU:0"])


# ---- one rule for the replica count: the trainer and the window ask plan_devices --------------

MULTI = "multi_worker_mirrored"


def gpus(n: int | None) -> list[str] | None:
    """The machine's GPU names as the device probe lists them; None while they are not known yet."""
    return None if n is None else [f"GPU:{i}" for i in range(n)]


def test_replica_count_follows_strategy_devices_and_split():
    assert replica_count(RunConfig(strategy="one_device"), gpus(None)) == 1
    assert replica_count(RunConfig(strategy="mirrored", virtual_devices=4), gpus(None)) is None  # GPUs unknown
    assert replica_count(RunConfig(strategy="mirrored", virtual_devices=4), gpus(0)) == 4
    assert replica_count(RunConfig(strategy="mirrored", devices=("GPU:0", "GPU:1")), gpus(2)) == 2
    assert replica_count(RunConfig(strategy="multi_worker_mirrored"), gpus(2)) is None


def test_replica_count_rules():
    assert replica_count(RunConfig(strategy="default"), gpus(4)) == 1
    assert replica_count(RunConfig(strategy="mirrored", devices=("CPU:0",), virtual_devices=4), gpus(0)) == 4
    assert replica_count(RunConfig(strategy="mirrored", devices=None), gpus(2)) == 2
    assert replica_count(RunConfig(strategy="multi_worker_mirrored", devices=None), gpus(2)) is None


def test_replicas_are_workers_times_devices_per_worker():
    cpu = RunConfig(strategy=MULTI, devices=("CPU:0",), virtual_devices=4)
    assert replica_count(cpu, gpus(0), workers=3) == 3, "the engine ignores the virtual split under multi-worker"
    assert replica_count(RunConfig(strategy=MULTI, devices=("GPU:0", "GPU:1")), gpus(2), workers=2) == 4
    assert replica_count(RunConfig(strategy=MULTI, devices=None), gpus(0), workers=2) == 2
    assert replica_count(RunConfig(strategy=MULTI, devices=None), gpus(None), workers=2) is None
    assert replica_count(cpu, gpus(0)) is None, "unknown without a worker count"


def test_the_trainers_plan_and_the_windows_count_agree():
    """One function: the replicas the trainer will divide the batch by are the ones the window shows."""
    for config, machine, workers in [
        (RunConfig(strategy="mirrored", virtual_devices=3), gpus(0), 1),
        (RunConfig(strategy="mirrored", devices=("GPU:1", "GPU:2"), virtual_devices=2), gpus(4), 1),
        (RunConfig(strategy=MULTI, devices=("GPU:0",)), gpus(2), 3),
        (RunConfig(strategy="one_device", virtual_devices=4), gpus(2), 1),
    ]:
        assert replica_count(config, machine, workers) == plan_devices(config, machine, workers=workers).replicas
