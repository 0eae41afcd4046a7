"""A run's GPU figures in its directory: written as they come, read back by the Runs tab."""

from __future__ import annotations

from engine.core.nvml import GpuSample
from engine.core.runs.gpu_log import GpuLog, read_gpu_log


def test_samples_round_trip_with_gaps_kept(tmp_path):
    path = tmp_path / "run" / "gpus.csv"
    samples = [
        GpuSample("GPU:0", 100.0, 80, 4096, 16384),
        GpuSample("GPU:1", 100.0, None, 900, 9856),  # a MIG instance: no utilisation
        GpuSample("GPU:0", 101.0, None, None, None, error="GPU is lost"),
    ]
    log = GpuLog(path)
    log.append(samples[:2])
    log.close()
    again = GpuLog(path)  # a resumed run appends
    again.append(samples[2:])
    again.close()
    assert read_gpu_log(path) == samples
    assert path.read_text().count("time,gpu") == 1


def test_a_torn_last_row_and_a_missing_file_are_harmless(tmp_path):
    path = tmp_path / "gpus.csv"
    assert read_gpu_log(path) == []
    log = GpuLog(path)
    log.append([GpuSample("GPU:0", 1.0, 50, 1, 2)])
    log.close()
    with open(path, "a") as f:
        f.write("2.0,GPU:0,5")  # killed mid-write
    assert read_gpu_log(path) == [GpuSample("GPU:0", 1.0, 50, 1, 2)]
