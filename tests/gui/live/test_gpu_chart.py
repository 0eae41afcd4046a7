"""The live GPU chart: the run's own GPUs (matched by PCI bus id), once a second, kept in the run directory
and shown again in the Runs tab. NVML is tests/fake_nvml.py: a 4-GPU server where TensorFlow sees two."""

from __future__ import annotations

from engine.core.config import RunConfig
from engine.core.nvml import GpuSample, Nvml
from engine.core.runs.gpu_log import GpuLog, read_gpu_log
from gui.form.device_probe import DeviceInfo, ProbeResult
from tests.fake_nvml import four_gpus
from tests.gui.history_runs import make_runs
from tests.gui.runs.panel_helpers import refresh, select

# CUDA_VISIBLE_DEVICES=3,2: TensorFlow's GPU:0 is NVML's device 3, GPU:1 is device 2
PROBE = ProbeResult(
    tensorflow="2.21.0",
    devices=(
        DeviceInfo("CPU:0", "CPU", cores=2),
        DeviceInfo("GPU:0", "GPU", "NVIDIA H200", 143_771, nvml_index=3, pci_bus_id="0000:af:00.0"),
        DeviceInfo("GPU:1", "GPU", "NVIDIA H200", 143_771, nvml_index=2, pci_bus_id="0000:86:00.0"),
    ),
    nvml_available=True,
)


def test_the_run_gpus_are_charted_recorded_and_shown_again_later(qtbot, make_window, tmp_path):
    window = make_window("normal", "--epochs", "2", "--steps", "150", "--delay", "0.01", gpu_reader=Nvml(four_gpus()))
    window.apply_probe(PROBE)
    window.form.set_config(RunConfig(strategy="one_device", devices=("GPU:1",)))
    assert "busy 30%" in window.devices.list.item(1).text(), "GPU:1 shows NVML device 2's figures"
    window.start_run()
    qtbot.waitUntil(lambda: window.runner is None, timeout=30_000)
    plots = window.plots
    assert not plots.gpus.isHidden()
    assert set(plots.gpus.traces) == {"GPU:1 busy", "GPU:1 memory"}, "only the GPU the run trains on"
    busy = plots.gpus.traces["GPU:1 busy"].y.values
    assert len(busy) >= 2 and set(busy) == {30.0}
    (run_dir,) = (tmp_path / "runs").iterdir()
    recorded = read_gpu_log(run_dir / "gpus.csv")
    assert len(recorded) == len(busy) and {s.tf_name for s in recorded} == {"GPU:1"}


def test_the_runs_tab_shows_a_past_runs_gpu_figures(qtbot, make_window, tmp_path):
    runs = make_runs(tmp_path / "runs")
    log = GpuLog(runs["done"] / "gpus.csv")
    log.append([GpuSample("GPU:0", 1000.0 + t, 50 + t, 1024, 4096) for t in range(5)])
    log.close()
    window = make_window()
    refresh(qtbot, window.runs)
    compare = window.runs.compare
    select(qtbot, window.runs, [runs["stopped"]])
    assert compare.gpu_plot.isHidden(), "a run without GPU figures has no GPU chart"
    select(qtbot, window.runs, [runs["done"]])
    assert not compare.gpu_plot.isHidden()
    busy = next(iter(compare.gpu_plot.curves.values()))
    assert list(busy.y) == [50, 51, 52, 53, 54]


def test_a_cpu_run_has_no_gpu_chart(qtbot, make_window, tmp_path):
    window = make_window("normal", "--epochs", "1", "--steps", "120", "--delay", "0.01", gpu_reader=Nvml(four_gpus()))
    window.apply_probe(PROBE)
    window.form.set_config(RunConfig(strategy="one_device", devices=("CPU:0",)))
    window.start_run()
    qtbot.waitUntil(lambda: window.runner is None, timeout=30_000)
    assert window.plots.gpus.isHidden()
    (run_dir,) = (tmp_path / "runs").iterdir()
    assert not (run_dir / "gpus.csv").exists()
