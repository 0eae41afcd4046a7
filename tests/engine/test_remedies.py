"""What a verdict offers to change (engine.core.remedies): only changes valid for the config and the machine."""

from __future__ import annotations

import dataclasses

import pytest

from engine.core import events as ev
from engine.core.config import RunConfig, validate
from engine.core.plan import choice_problems, cpu_info, plan_notes, precision_features
from engine.core.remedies import (
    CHANGED,
    CURRENT,
    Machine,
    machine_of,
    parse_change,
    remedies,
    speedup,
)
from engine.core.resources import resource_path
from engine.core.sweep.space import apply

BF16_CPU = ("avx512_bf16",)  # precision features of a CPU that computes in bfloat16
LINUX_CPU = Machine(gpus=0, system="Linux", cpu_features=())
STARTED = ev.RunStarted(
    strategy="mirrored",
    num_replicas=1,
    devices=["CPU:0"],
    global_batch_size=64,
    per_replica_batch_size=64,
    loop="custom",
    epochs=2,
    steps_per_epoch=10,
    steps_per_execution=0,
    run_dir="",
)


def bound(part: str) -> ev.StepAnatomy:
    """An anatomy whose steps are 80 % `part`."""
    ms = {"input_ms": 1.0, "compute_ms": 1.0, "sync_ms": 1.0, "rest_ms": 1.0, f"{part}_ms": 12.0}
    return ev.StepAnatomy(epoch=2, global_step=40, steps=20, step_ms=15.0, **ms)


def changes(config: RunConfig, part: str, machine: Machine = LINUX_CPU, replicas: int = 1) -> list[dict]:
    return [r.changes for r in remedies(config, bound(part), replicas, machine)]


def test_every_change_offered_is_a_valid_config():
    configs = [
        RunConfig(virtual_devices=2, global_batch_size=64, steps_per_execution=1),
        RunConfig(strategy="multi_worker_mirrored", loop="fit"),
        RunConfig(mixed_precision="off", devices=("GPU:0", "GPU:1")),
    ]
    machines = [LINUX_CPU, Machine(gpus=2, system="Linux"), Machine(gpus=2, system="Windows", cpu_features=BF16_CPU)]
    for config in configs:
        for machine in machines:
            for part in ("input", "compute", "sync", "rest"):
                for change in changes(config, part, machine, replicas=2):
                    assert not validate(apply(config, change), replicas=2), (config, part, change)


def test_compute_bound_offers_xla_and_mixed_precision_only_where_it_helps():
    config = RunConfig(strategy="one_device")  # mirrored on the CPU cannot compile with XLA (the plan refuses it)
    assert changes(config, "compute") == [{"jit_compile": True}], "a CPU without bfloat16 emulates it: slower"
    assert {"mixed_precision": "bfloat16"} in changes(config, "compute", Machine(cpu_features=BF16_CPU))
    assert {"mixed_precision": "float16"} in changes(config, "compute", Machine(gpus=1))
    assert changes(RunConfig(jit_compile=True, mixed_precision="float16"), "compute", Machine(gpus=1)) == [{}]
    one_step_a_call = RunConfig(jit_compile=True, steps_per_execution=1)
    assert changes(one_step_a_call, "compute") == [{"steps_per_execution": "auto"}], "a tiny step is mostly its call"


def test_sync_bound_offers_a_larger_batch_divisible_by_the_replicas_and_only_all_reduces_that_run():
    config = RunConfig(virtual_devices=3, global_batch_size=96, data=RunConfig().data)
    offered = changes(config, "sync", replicas=3)
    assert {"global_batch_size": 192} in offered
    assert not any("all_reduce" in c for c in offered), "virtual CPU devices reduce on one device: no choice"
    gpus = changes(RunConfig(devices=("GPU:0", "GPU:1")), "sync", Machine(gpus=2, system="Linux"), replicas=2)
    assert {"all_reduce": "hierarchical_copy"} in gpus and {"all_reduce": "nccl"} not in gpus, "nccl is the auto"
    windows = changes(RunConfig(devices=("GPU:0", "GPU:1")), "sync", Machine(gpus=2, system="Windows"), replicas=2)
    assert {"all_reduce": "nccl"} not in windows, "Windows has no NCCL"
    workers = changes(RunConfig(strategy="multi_worker_mirrored"), "sync", replicas=2)
    assert {"bytes_per_pack": 32 * 2**20} in workers


def test_a_batch_the_data_cannot_hold_twice_is_not_offered():
    small = RunConfig(global_batch_size=600, data=RunConfig().data.__class__(num_samples=1000))
    assert not any("global_batch_size" in c for c in changes(small, "sync"))


def test_host_bound_offers_more_steps_per_call_unless_the_run_tunes_them():
    assert changes(RunConfig(steps_per_execution=1), "rest") == [{"steps_per_execution": "auto"}]
    assert changes(RunConfig(steps_per_execution="auto"), "rest") == [{}], "the custom loop tunes them itself"
    assert changes(RunConfig(loop="fit", steps_per_execution="auto"), "rest") == [{"steps_per_execution": 128}]


def test_input_bound_offers_the_cache_to_a_run_of_one_process_and_advice_for_the_source():
    for kind in ("python", "csv", "image_folder", "tfrecord"):
        config = RunConfig(data=RunConfig().data.__class__(kind=kind, path="x"))
        offered = remedies(config, bound("input"), 1, LINUX_CPU)
        assert [r.changes for r in offered] == [{"data.cache": True}, {}] and offered[1].why, kind
        workers = config.replace(strategy="multi_worker_mirrored")
        assert [r.changes for r in remedies(workers, bound("input"), 2, LINUX_CPU)] == [{}], "one process only"
    in_memory = remedies(RunConfig(), bound("input"), 1, LINUX_CPU)
    assert [r.changes for r in in_memory] == [{}] and "in memory already" in in_memory[0].why


def test_the_machine_of_a_run_counts_its_gpus(tmp_path):
    started = ev.RunStarted(
        strategy="mirrored",
        num_replicas=2,
        devices=["/job:localhost/replica:0/task:0/device:GPU:0", "/gpu:1"],
        global_batch_size=64,
        per_replica_batch_size=32,
        loop="custom",
        epochs=2,
        steps_per_epoch=10,
        steps_per_execution=0,
        run_dir="",
    )
    assert machine_of(started).gpus == 2


def cpu_features_of(tmp_path, flags: str) -> list[str] | None:
    """What a trainer on a CPU with `flags` reports in run_started (engine.core.plan reads its /proc/cpuinfo)."""
    info = tmp_path / "cpuinfo"
    info.write_text(f"processor\t: 0\nflags\t\t: {flags}\n\n", encoding="utf-8")
    return precision_features(cpu_info(info))


def test_the_cpu_that_trained_the_run_decides_the_bfloat16_offer_not_the_cpu_of_this_machine(tmp_path):
    """A run on SSH hosts trains on their CPUs: run_started says what the trainer's CPU computes natively."""
    with_bf16 = cpu_features_of(tmp_path, "fpu sse avx512f avx512_bf16")
    without = cpu_features_of(tmp_path, "fpu sse avx2")
    here = precision_features(cpu_info())  # whatever this machine has, one case contradicts it
    for there, offered in ((with_bf16, True), (without, False)):
        machine = machine_of(dataclasses.replace(STARTED, cpu_features=there))
        assert machine.cpu_features == tuple(there), (there, here)  # the event's, kept as it said them
        assert ({"mixed_precision": "bfloat16"} in changes(RunConfig(), "compute", machine)) is offered


def test_a_run_that_did_not_say_its_cpu_is_offered_no_bfloat16():
    """Its events predate the field, or its system does not say (no /proc/cpuinfo): which CPU trained it is
    unknown, and this machine's may not be it."""
    line = ev.encode(STARTED).replace(',"cpu_features":null', "")
    assert "cpu_features" not in line
    old = ev.decode(line)
    assert isinstance(old, ev.RunStarted) and old.cpu_features is None
    assert machine_of(old).cpu_features is None
    assert {"mixed_precision": "bfloat16"} not in changes(RunConfig(), "compute", machine_of(old))
    nothing = remedies(RunConfig(strategy="one_device", jit_compile=True), bound("compute"), 1, machine_of(old))
    assert [r.changes for r in nothing] == [{}] and "this CPU lacks" not in nothing[0].why, "unknown, not lacking"


def test_a_change_is_read_as_json_or_else_as_text():
    assert parse_change("jit_compile=true") == ("jit_compile", True)
    assert parse_change("model.hidden_units=[64, 32]") == ("model.hidden_units", [64, 32])
    assert parse_change("all_reduce=ring") == ("all_reduce", "ring")
    assert parse_change("jit_compile") is None and parse_change("=1") is None


def arm(which: str, rate: float, error: str = "") -> ev.TrialArm:
    return ev.TrialArm(arm=which, round=1, examples_per_sec=rate, run_dir="", error=error)


def test_the_speedup_pairs_each_changed_run_with_its_neighbours():
    result = speedup([arm(CURRENT, 100), arm(CHANGED, 150), arm(CURRENT, 120), arm(CHANGED, 240)])
    assert result is not None and result.pairs == 3
    assert (result.low, result.factor, result.high) == pytest.approx((1.25, 1.5, 2.0))
    assert speedup([arm(CURRENT, 100)]) is None
    assert speedup([arm(CURRENT, 100), arm(CHANGED, 0, error="failed")]) is None


def test_what_the_device_plan_refuses_is_never_offered():
    """XLA under mirrored on CPU replicas is refused by the plan (TensorFlow cannot all-reduce inside XLA there),
    so a compute-bound mirrored run on the CPU is not offered jit_compile; one_device on the CPU is."""
    mirrored = RunConfig(strategy="mirrored", virtual_devices=2)
    assert {"jit_compile": True} not in changes(mirrored, "compute", replicas=2)
    assert {"jit_compile": True} in changes(RunConfig(strategy="one_device"), "compute")


def tutorial(**changes) -> RunConfig:
    """The tutorial's example config (mirrored over 2 logical CPU devices), with `changes`."""
    return RunConfig.load(resource_path("examples", "mirrored-2-virtual-cpus.json")).replace(**changes)


def test_replicas_that_are_logical_devices_of_one_cpu_are_offered_one_replica():
    """Logical CPU devices share the same cores: a compute-bound run gains nothing from them, a sync-bound one
    all-reduces between copies on one CPU, and an input-bound one with its examples in memory splits each batch
    among them. One replica keeps the global batch and uses every core."""
    config = tutorial()
    for part in ("compute", "sync"):
        offered = remedies(config, bound(part), 2, LINUX_CPU)
        assert offered[0].changes == {"virtual_devices": 1}, part
        assert "share" in offered[0].why and "cores" in offered[0].why
    assert {"virtual_devices": 1} in changes(tutorial(virtual_devices=4), "compute", replicas=4)
    in_memory = remedies(config, bound("input"), 2, LINUX_CPU)
    assert in_memory[0].changes == {"virtual_devices": 1} and "splitting each batch" in in_memory[0].why
    streamed = config.replace(data=config.data.__class__(kind="csv", path="x"))
    assert {"virtual_devices": 1} not in changes(streamed, "input", replicas=2), "reading the source is the cost"
    assert {"virtual_devices": 1} not in changes(config, "rest", replicas=2)
    assert not any("virtual_devices" in c for c in changes(tutorial(virtual_devices=1), "compute")), "one already"
    gpus = RunConfig(devices=("GPU:0", "GPU:1"))
    assert not any("virtual_devices" in c for c in changes(gpus, "compute", Machine(gpus=2), replicas=2))


def test_when_no_change_applies_the_one_line_says_why_from_the_rules_that_refused_each():
    """Mirrored on one logical CPU device, compute-bound, on a CPU without bfloat16: XLA is refused by the device
    plan and bfloat16 cannot help; the line quotes those rules' own messages."""
    config = tutorial(virtual_devices=1)
    (only,) = remedies(config, bound("compute"), 1, LINUX_CPU)
    assert only.changes == {} and only.why.startswith("no change on offer: ")
    (xla,) = choice_problems(config.replace(jit_compile=True), False, "Linux")
    (bf16,) = plan_notes(config.replace(mixed_precision="bfloat16"), [], cpu_features=[])
    assert bf16.message in only.why and "mirrored compiles its step with XLA only on GPUs" in xla.message, only.why
    reason = xla.message.split("; on the CPU use")[0]  # the form's message goes on to advise what to do instead
    assert only.why.endswith(f"jit_compile=true: {reason}"), only.why
    assert "turn jit_compile off" in xla.message and "turn jit_compile off" not in only.why, "no advice to undo it"
    assert "jit_compile=true" in only.why and 'mixed_precision="bfloat16"' in only.why
    assert "\n" not in only.why
    nothing_left = remedies(
        config.replace(mixed_precision="float16", jit_compile=True), bound("compute"), 1, Machine(gpus=1)
    )
    assert [r.changes for r in nothing_left] == [{}] and nothing_left[0].why.startswith("no change on offer: ")
