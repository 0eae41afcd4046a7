"""Device probe parsing, the device panel and the NVML monitor, with injected hardware."""

from __future__ import annotations

import json
import sys
from types import SimpleNamespace

import pytest

from gui.form.device_probe import DeviceProbe, ProbeError, parse_probe_output
from gui.form.devices_panel import DevicesPanel
from gui.live.gpu_monitor import GpuMonitor, GpuSample, read_samples

CPU = {"name": "CPU:0", "type": "CPU", "model": "Intel Xeon", "cores": 2, "memory_mb": 24000}
A100 = {
    "name": "GPU:0",
    "type": "GPU",
    "model": "NVIDIA A100",
    "compute_capability": "8.0",
    "memory_mb": 40960,
    "nvml_index": 0,
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
    assert result.cpus[0].cores == 2
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
    assert panel.nvml_indices() == [], "no polling without NVML"


def test_panel_explains_strategies_without_a_gpu(qtbot):
    panel = DevicesPanel()
    qtbot.addWidget(panel)
    panel.set_probe(parse_probe_output(probe_json([CPU])))
    assert not panel.explanation.isHidden()
    assert "Virtual devices" in panel.explanation.text()
    assert "no GPU" in panel.status.text()


def test_panel_shows_live_gpu_figures(qtbot):
    panel = DevicesPanel()
    qtbot.addWidget(panel)
    panel.set_probe(parse_probe_output(probe_json([A100, CPU], nvml=True)))
    assert panel.nvml_indices() == [0]
    panel.update_samples([GpuSample(0, 37, 12 * 1024, 40 * 1024)])
    assert "busy 37% · memory used 12.0 / 40.0 GiB" in panel.list.item(0).text()


class FakeNvml:
    """The few pynvml calls the monitor uses."""

    def nvmlDeviceGetHandleByIndex(self, i):
        return i

    def nvmlDeviceGetUtilizationRates(self, handle):
        return SimpleNamespace(gpu=50 + handle)

    def nvmlDeviceGetMemoryInfo(self, handle):
        return SimpleNamespace(used=2 * 2**30, total=16 * 2**30)


def test_read_samples_with_a_fake_nvml():
    assert read_samples(FakeNvml(), [0, 1]) == [GpuSample(0, 50, 2048, 16384), GpuSample(1, 51, 2048, 16384)]


def test_monitor_polls_and_reports_unavailability(qtbot):
    monitor = GpuMonitor(nvml_loader=lambda: (FakeNvml(), ""))
    with qtbot.waitSignal(monitor.samples_ready, timeout=5000) as blocker:
        monitor.watch([0])
    assert blocker.args[0][0].utilisation_percent == 50
    monitor.stop()
    missing = GpuMonitor(nvml_loader=lambda: (None, "NVML library not found"))
    with qtbot.waitSignal(missing.unavailable, timeout=5000) as blocker:
        missing.watch([0])
    assert blocker.args == ["NVML library not found"]


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
