"""Device plans for machines we do not have: injected fake GPU lists."""

from __future__ import annotations

import pytest

from engine.core.config import RunConfig
from engine.core.plan import DeviceError, choose_all_reduce, plan_devices, plan_notes, plan_problems, replica_count


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


# ---- the all-reduce, packing and mixed precision: errors where they cannot run, notes where they cannot help ----


def test_the_configs_all_reduce_is_the_plans_where_its_strategy_takes_it():
    two_gpus = gpus(2)
    assert plan_devices(RunConfig(all_reduce="hierarchical_copy"), two_gpus, system="Linux").all_reduce == (
        "hierarchical_copy"
    )
    cpu = RunConfig(virtual_devices=2, all_reduce="hierarchical_copy")
    assert plan_devices(cpu, [], system="Linux").all_reduce == "hierarchical_copy"
    assert plan_devices(RunConfig(strategy=MULTI, all_reduce="ring"), two_gpus, system="Linux").all_reduce == "ring"
    assert plan_devices(RunConfig(strategy=MULTI, all_reduce="nccl"), two_gpus, system="Linux").all_reduce == "nccl"
    auto = plan_devices(RunConfig(all_reduce="auto"), two_gpus, system="Windows")
    assert auto.all_reduce == choose_all_reduce("mirrored", 2, "Windows") == "hierarchical_copy"


@pytest.mark.parametrize(
    "strategy, choice, machine, system, words",
    [
        ("mirrored", "nccl", 2, "Windows", "NCCL does not exist on Windows"),
        ("multi_worker_mirrored", "nccl", 2, "Darwin", "NCCL does not exist on Darwin"),
        ("mirrored", "nccl", 0, "Linux", "this run is on the CPU"),
        ("multi_worker_mirrored", "nccl", 0, "Linux", "this run is on the CPU"),
        ("mirrored", "ring", 2, "Linux", "mirrored all-reduces with nccl, hierarchical_copy"),
        ("multi_worker_mirrored", "hierarchical_copy", 2, "Linux", "multi_worker_mirrored all-reduces with nccl, ring"),
        ("multi_worker_mirrored", "reduction_to_one_device", 0, "Linux", "belongs to another strategy"),
    ],
)
def test_an_all_reduce_that_cannot_run_is_refused_by_the_plan(strategy, choice, machine, system, words):
    config = RunConfig(strategy=strategy, all_reduce=choice, virtual_devices=2)
    with pytest.raises(DeviceError, match=words) as caught:
        plan_devices(config, gpus(machine), system=system)
    assert [p.field for p in caught.value.problems] == ["all_reduce"]
    assert [p.field for p in plan_problems(config, gpus(machine), system)] == ["all_reduce"]
    assert replica_count(config, gpus(machine), workers=2) is not None, "the replicas are still known"


def test_choices_that_cannot_help_are_notes_not_problems():
    one = RunConfig(strategy="one_device", all_reduce="nccl", bytes_per_pack=1 << 20)
    assert plan_problems(one, gpus(0), "Windows") == []
    notes = {p.field: p.message for p in plan_notes(one, gpus(0))}
    assert "one_device all-reduces no gradients" in notes["all_reduce"]
    assert "only multi_worker_mirrored packs" in notes["bytes_per_pack"]
    mirrored_one = RunConfig(all_reduce="reduction_to_one_device", devices=("GPU:0",))
    assert "one replica" in plan_notes(mirrored_one, gpus(1))[0].message
    packed = RunConfig(strategy=MULTI, all_reduce="ring", bytes_per_pack=4 << 20)
    assert plan_notes(packed, gpus(0)) == [] and plan_problems(packed, gpus(0)) == []
    assert plan_notes(RunConfig(), gpus(0)) == []


def test_mixed_precision_on_hardware_that_does_not_compute_it_faster_is_a_note():
    cpu = RunConfig(mixed_precision="bfloat16", virtual_devices=2)
    note = plan_notes(cpu, gpus(0), cpu_features=["avx2"])
    assert [p.field for p in note] == ["mixed_precision"] and "avx512_bf16" in note[0].message
    assert plan_notes(cpu, gpus(0), cpu_features=["amx_bf16"]) == []
    assert plan_notes(cpu, gpus(0), cpu_features=None) == [], "features unknown: no note"
    float16 = cpu.replace(mixed_precision="float16")
    assert "avx512_fp16" in plan_notes(float16, gpus(0), cpu_features=["avx512_bf16"])[0].message
    assert plan_notes(cpu.replace(mixed_precision="off"), gpus(0), cpu_features=[]) == []
    on_gpus = RunConfig(mixed_precision="bfloat16")
    old = {"GPU:0": "7.5", "GPU:1": "8.6"}
    assert "GPU:0 (7.5)" in plan_notes(on_gpus, gpus(2), cpu_features=[], compute_capabilities=old)[0].message
    assert plan_notes(on_gpus.replace(mixed_precision="float16"), gpus(2), compute_capabilities=old) == []
    assert plan_notes(on_gpus, gpus(2), cpu_features=[]) == [], "a GPU run's CPU does not matter"


@pytest.mark.parametrize(
    "strategy, machine, refused",
    [
        ("mirrored", 0, "compiles its step with XLA only on GPUs"),
        ("multi_worker_mirrored", 0, "compiles its step with XLA only on GPUs"),
        ("parameter_server", 0, "keeps them on the ps tasks"),
        ("mirrored", 2, None),
        ("multi_worker_mirrored", 2, None),
        ("one_device", 0, None),
        ("default", 0, None),
    ],
)
def test_xla_is_refused_where_tensorflow_cannot_compile_the_step(strategy, machine, refused):
    """Measured with TensorFlow 2.21 on CPU: a mirrored step under jit_compile fails (merge_call inside XLA,
    or variables on other logical CPUs), and so does a parameter_server step ("Trying to access resource ...
    located in device /job:ps"); one_device and default train (tests/engine/train/test_xla_and_all_reduce.py)."""
    config = RunConfig(strategy=strategy, jit_compile=True, virtual_devices=2)
    problems = plan_problems(config, gpus(machine), "Linux")
    if refused is None:
        assert problems == []
        plan_devices(config, gpus(machine), system="Linux")
    else:
        assert [p.field for p in problems] == ["jit_compile"] and refused in problems[0].message


def test_under_xla_mirrored_gpus_ignore_the_chosen_all_reduce():
    config = RunConfig(jit_compile=True, all_reduce="hierarchical_copy")
    assert "collectives" in plan_notes(config, gpus(2))[0].message
    assert plan_notes(config.replace(jit_compile=False), gpus(2)) == []
