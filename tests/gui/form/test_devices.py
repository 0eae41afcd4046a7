"""Device probe parsing, the device panel and the NVML monitor, with injected hardware."""

from __future__ import annotations

import json
import sys

import pytest

from engine.core.nvml import GpuSample, Nvml
from gui.form.device_probe import DeviceProbe, ProbeError, parse_probe_output
from gui.form.devices_panel import DevicesPanel
from gui.live.gpu_monitor import GpuMonitor
from tests.fake_nvml import FakeNvml, four_gpus

CPU = {"name": "CPU:0", "type": "CPU", "model": "Intel Xeon", "cores": 2, "memory_mb": 24000}
A100 = {
    "name": "GPU:0",
    "type": "GPU",
    "model": "NVIDIA A100",
    "compute_capability": "8.0",
    "memory_mb": 40960,
    "nvml_index": 0,
    "pci_bus_id": "0000:18:00.0",
}


def probe_json(devices: list[dict], nvml: bool = False) -> str:
    return json.dumps(
        {
            "tensorflow": "2.21.0",
            "devices": devices,
            "nvml": {"available": nvml, "reason": "" if nvml else "NVML library not found"},
        }
    )


def test_parse_probe_output_reads_gpus_and_cpu():
    result = parse_probe_output("some stray line\n" + probe_json([CPU, A100]))
    assert result.tensorflow == "2.21.0"
    assert [d.name for d in result.gpus] == ["GPU:0"]
    gpu = result.gpus[0]
    assert (gpu.model, gpu.compute_capability, gpu.memory_mb, gpu.nvml_index) == ("NVIDIA A100", "8.0", 40960, 0)
    assert gpu.gpu_match().pci_bus_id == "0000:18:00.0"
    assert result.cpus[0].cores == 2
    assert result.cpus[0].features is None, "an older probe says nothing of the CPU's features"
    with_features = parse_probe_output(probe_json([{**CPU, "features": ["amx_bf16"]}]))
    assert with_features.cpus[0].features == ("amx_bf16",)
    assert not result.nvml_available and "not found" in result.nvml_reason


@pytest.mark.parametrize("text", ["", "not json", '{"devices": 3}', '{"devices": [{"type": "GPU"}]}'])
def test_parse_probe_output_rejects_nonsense(text):
    with pytest.raises(ProbeError):
        parse_probe_output(text)


def test_panel_shows_gpu_details_and_says_when_nvml_is_missing(qtbot):
    panel = DevicesPanel()
    qtbot.addWidget(panel)
    panel.set_probe(parse_probe_output(probe_json([A100, CPU])))
    first = panel.list.item(0).text()
    assert "NVIDIA A100" in first and "compute capability 8.0" in first and "40.0 GiB" in first
    assert "No live GPU figures: NVML library not found" in panel.status.text()
    assert panel.explanation.isHidden()
    assert panel.gpu_matches() == [], "no polling without NVML"


def test_panel_explains_strategies_without_a_gpu(qtbot):
    panel = DevicesPanel()
    qtbot.addWidget(panel)
    panel.set_probe(parse_probe_output(probe_json([CPU])))
    assert not panel.explanation.isHidden()
    assert "Virtual devices" in panel.explanation.text()
    assert "sees 0 GPUs and 1 CPU" in panel.status.text()


def test_panel_shows_live_gpu_figures(qtbot):
    panel = DevicesPanel()
    qtbot.addWidget(panel)
    panel.set_probe(parse_probe_output(probe_json([A100, CPU], nvml=True)))
    assert [m.tf_name for m in panel.gpu_matches()] == ["GPU:0"]
    panel.update_samples([GpuSample("GPU:0", 0.0, 37, 12 * 1024, 40 * 1024)])
    assert "busy 37% · memory used 12.0 / 40.0 GiB" in panel.list.item(0).text()
    panel.update_samples([GpuSample("GPU:0", 1.0, None, None, None, error="GPU is lost")])
    assert "stopped answering (GPU is lost)" in panel.list.item(0).text()


def test_panel_says_why_a_gpu_has_no_live_figures(qtbot):
    panel = DevicesPanel()
    qtbot.addWidget(panel)
    unmatched = {**A100, "nvml_index": None, "nvml_note": "no live figures: NVML lists no GPU at PCI bus 0000:d8:00.0"}
    panel.set_probe(parse_probe_output(probe_json([unmatched, CPU], nvml=True)))
    assert panel.gpu_matches() == []
    assert "NVML lists no GPU at PCI bus 0000:d8:00.0" in panel.list.item(0).text()


def test_monitor_polls_the_matched_gpu_and_reports_unavailability(qtbot):
    """TensorFlow's only GPU is NVML's device 2 (CUDA_VISIBLE_DEVICES=2): its figures, not device 0's."""
    gpu = parse_probe_output(probe_json([{**A100, "nvml_index": 2, "pci_bus_id": "0000:86:00.0"}], nvml=True)).gpus[0]
    monitor = GpuMonitor(Nvml(four_gpus()))
    with qtbot.waitSignal(monitor.samples_ready, timeout=5000) as blocker:
        monitor.watch([gpu.gpu_match()])
    (sample,) = blocker.args[0]
    assert (sample.tf_name, sample.utilisation_percent, sample.memory_used_mb) == ("GPU:0", 30, 3000)
    monitor.stop()
    missing = GpuMonitor(Nvml(FakeNvml([], fail_init="NVML library not found")))
    with qtbot.waitSignal(missing.unavailable, timeout=5000) as blocker:
        missing.watch([gpu.gpu_match()])
    assert "NVML library not found" in blocker.args[0]


def test_probe_process_success_and_failure(qtbot):
    good = DeviceProbe([sys.executable, "-c", f"print({probe_json([CPU])!r})"])
    with qtbot.waitSignal(good.probe_ready, timeout=30_000) as blocker:
        good.start()
    assert blocker.args[0].cpus[0].name == "CPU:0"
    bad = DeviceProbe([sys.executable, "-c", "import sys; sys.stderr.write('no TensorFlow here'); sys.exit(3)"])
    with qtbot.waitSignal(bad.probe_failed, timeout=30_000) as blocker:
        bad.start()
    assert "code 3" in blocker.args[0] and "no TensorFlow here" in blocker.args[0]


def test_probe_cancel_leaves_no_process(qtbot):
    probe = DeviceProbe([sys.executable, "-c", "import time; time.sleep(30)"])
    probe.start()
    qtbot.waitUntil(probe.is_running)
    probe.cancel()
    assert not probe.is_running()
