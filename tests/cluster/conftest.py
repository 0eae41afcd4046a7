"""Shared fixtures of the cluster tests: run configs, and no process left behind."""
from __future__ import annotations

import os
import sys
import time
from pathlib import Path

import pytest

from engine.config import DataConfig, RunConfig


def _live_children() -> list[str]:
    """Direct child processes of this test process that still run (Linux /proc)."""
    me, found = str(os.getpid()), []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if fields[1] == me and fields[0] != "Z":
            found.append(stat.parent.name)
    return found


@pytest.fixture(autouse=True)
def no_process_left_behind():
    """Fail a test that leaves a child process running (napari's dangling-thread idea)."""
    if not sys.platform.startswith("linux"):
        yield
        return
    before = set(_live_children())
    yield
    deadline = time.monotonic() + 5  # a killed child may take a moment to become a zombie
    while (left := set(_live_children()) - before) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not left, f"child processes left running: {sorted(left)}"


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
