"""TensorFlow's GPUs matched to NVML's by PCI bus id: reordered, a subset, MIG, a GPU that vanishes.

TensorFlow's lists are built as CUDA would number the GPUs; the NVML side is
tests/fake_nvml.py, in NVML's (PCI) order.
"""

from __future__ import annotations

from engine.core.nvml import Nvml, TfGpu, match_gpus, normalise_bus_id, parse_device_description
from tests.fake_nvml import FakeGpu, FakeMig, FakeNvml, four_gpus

TF_DESC = "device: 0, name: NVIDIA H200, pci bus id: 0000:3b:00.0, compute capability: 9.0"


def tf_gpus(*bus_ids: str) -> list[TfGpu]:
    """TensorFlow's GPUs in CUDA's numbering: GPU:0 is the first bus id given."""
    return [TfGpu(f"GPU:{i}", normalise_bus_id(b), "NVIDIA H200") for i, b in enumerate(bus_ids)]


def matched(tf: list[TfGpu], fake: FakeNvml, visible: str | None = None) -> dict[str, int | None]:
    return {m.tf_name: m.nvml_index for m in match_gpus(tf, Nvml(fake).gpus(), visible)}


def test_bus_ids_are_spelled_one_way():
    assert normalise_bus_id("00000000:3B:00.0") == normalise_bus_id("0000:3b:00.0") == "0000:3b:00.0"
    assert normalise_bus_id(b"00000001:06:00.1") == "0001:06:00.1"
    assert normalise_bus_id("06:00.0") == "0000:06:00.0"
    assert normalise_bus_id("not a bus") == ""


def test_tensorflow_description_gives_name_and_bus():
    gpu = parse_device_description("GPU:0", TF_DESC)
    assert gpu == TfGpu("GPU:0", "0000:3b:00.0", "NVIDIA H200") and not gpu.is_mig
    assert parse_device_description("GPU:1", "").pci_bus_id == ""


def test_same_order_matches_position_by_coincidence():
    fake = four_gpus()
    tf = tf_gpus("0000:18:00.0", "0000:3b:00.0", "0000:86:00.0", "0000:af:00.0")
    assert matched(tf, fake) == {"GPU:0": 0, "GPU:1": 1, "GPU:2": 2, "GPU:3": 3}


def test_cuda_fastest_first_order_is_matched_by_bus_not_position():
    """CUDA_DEVICE_ORDER=FASTEST_FIRST (the default) may put NVML's device 3 first."""
    tf = tf_gpus("0000:af:00.0", "0000:18:00.0", "0000:86:00.0", "0000:3b:00.0")
    assert matched(tf, four_gpus()) == {"GPU:0": 3, "GPU:1": 0, "GPU:2": 2, "GPU:3": 1}


def test_a_visible_subset_is_renumbered_by_cuda_but_not_by_nvml():
    """CUDA_VISIBLE_DEVICES=2,3: TensorFlow's GPU:0 is NVML's device 2."""
    tf = tf_gpus("0000:86:00.0", "0000:af:00.0")
    assert matched(tf, four_gpus(), visible="2,3") == {"GPU:0": 2, "GPU:1": 3}


def test_samples_come_from_the_matched_device():
    fake = four_gpus()
    reader = Nvml(fake)
    matches = match_gpus(tf_gpus("0000:86:00.0", "0000:af:00.0"), reader.gpus())
    samples = reader.sample(matches)
    assert [(s.tf_name, s.utilisation_percent, s.memory_used_mb) for s in samples] == [
        ("GPU:0", 30, 3000),
        ("GPU:1", 40, 4000),
    ]
    assert fake.inits == 1, "NVML is initialised once per reader"


def test_mig_instances_share_the_parent_bus_and_are_told_apart_by_uuid():
    parent = FakeGpu(
        "00000000:3B:00.0",
        name="NVIDIA A100-SXM4-40GB",
        uuid="GPU-mig-parent",
        migs=[FakeMig("MIG-1111", 4864, used_mb=100), FakeMig("MIG-2222", 9856, used_mb=900)],
    )
    fake = FakeNvml([FakeGpu("00000000:18:00.0", uuid="GPU-plain"), parent])
    reader = Nvml(fake)
    instance = [TfGpu("GPU:0", "0000:3b:00.0", "NVIDIA A100-SXM4-40GB MIG 2g.10gb")]
    (match,) = match_gpus(instance, reader.gpus(), "MIG-2222")
    assert (match.nvml_index, match.mig, match.mig_uuid) == (1, True, "MIG-2222")
    (sample,) = reader.sample([match])
    assert sample.utilisation_percent is None, "NVML has no utilisation for a MIG instance"
    assert (sample.memory_used_mb, sample.memory_total_mb) == (900, 9856), "the instance's memory, not the GPU's"
    (unknown,) = match_gpus(instance, reader.gpus(), None)
    assert unknown.mig and unknown.mig_uuid == "" and "unknown" in unknown.note


def test_a_gpu_missing_from_nvml_is_unmatched_with_a_reason():
    tf = tf_gpus("0000:18:00.0", "0000:d8:00.0")
    matches = match_gpus(tf, Nvml(four_gpus()).gpus())
    assert matches[0].matched and not matches[1].matched
    assert "no GPU at PCI bus 0000:d8:00.0" in matches[1].note
    (no_bus,) = match_gpus([TfGpu("GPU:0")], Nvml(four_gpus()).gpus())
    assert not no_bus.matched and "no PCI bus id" in no_bus.note


def test_a_gpu_that_falls_off_the_bus_mid_run_is_reported_and_the_others_go_on():
    fake = four_gpus()
    reader = Nvml(fake)
    matches = match_gpus(tf_gpus("0000:18:00.0", "0000:3b:00.0"), reader.gpus())
    fake.gpus[0].lost = True
    lost, alive = reader.sample(matches)
    assert lost.error == "GPU is lost" and lost.utilisation_percent is None and lost.memory_used_mb is None
    assert alive.error == "" and alive.utilisation_percent == 20


def test_without_a_driver_nvml_says_why():
    reader = Nvml(FakeNvml([], fail_init="NVML Shared Library Not Found"))
    status = reader.status()
    assert not status["available"] and "NVML Shared Library Not Found" in status["reason"]
    assert reader.gpus() == []
