"""Shared fixtures of the cluster tests: run configs (the leak guard is suite-wide, tests/conftest.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.core.config import DataConfig, RunConfig


@pytest.fixture
def write_run_config(tmp_path):
    """Write a small multi_worker_mirrored RunConfig (overrides as keyword args); return its path."""

    def write(num_samples: int = 512, **overrides) -> Path:
        settings = {"strategy": "multi_worker_mirrored", "epochs": 2, "global_batch_size": 64, **overrides}
        config = RunConfig(data=DataConfig(num_samples=num_samples), **settings)
        path = tmp_path / f"run-{len(list(tmp_path.glob('run-*.json')))}.json"
        config.save(path)
        return path

    return write
