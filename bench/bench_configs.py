"""Runs several benchmarks share, in a module without Qt (a trainer process imports it too)."""

from __future__ import annotations

from engine.core.config import DataConfig, RunConfig

FIRST_POINT_RUN = RunConfig(  # Start → first point: Mirrored on 2 virtual CPUs, custom loop, a short epoch
    strategy="mirrored",
    devices=("CPU:0",),
    virtual_devices=2,
    epochs=1,
    global_batch_size=64,
    data=DataConfig(num_samples=20_000),
)
