"""Run directory names and metrics bookkeeping."""

from __future__ import annotations

import time

from engine import events as ev
from engine.config import RunConfig
from engine.rundir import RunDir, new_run_dir, read_metrics


def test_run_dir_names_are_unique_and_readable(tmp_path):
    now = time.mktime((2025, 1, 2, 3, 4, 5, 0, 0, -1))
    config = RunConfig(strategy="mirrored", loop="fit")
    first = new_run_dir(config, tmp_path, now)
    second = new_run_dir(config, tmp_path, now)
    named = new_run_dir(config.replace(name="lr-sweep"), tmp_path, now)
    assert first.name == "20250102-030405-mirrored-fit" and first.is_dir()
    assert second.name == "20250102-030405-mirrored-fit-2"
    assert named.name == "20250102-030405-lr-sweep-mirrored-fit"


def test_resume_drops_rows_of_epochs_to_be_redone(tmp_path):
    run = RunDir(tmp_path / "r", validation=False)
    for epoch in (1, 2, 3):
        run(ev.EpochEnd(epoch=epoch, loss=1.0, accuracy=0.5, seconds=1.0, examples_per_sec=10.0))
    run.keep_epochs_before(3)
    run(ev.EpochEnd(epoch=3, loss=0.5, accuracy=0.7, seconds=1.0, examples_per_sec=10.0))
    run.close()
    rows = read_metrics(tmp_path / "r" / "metrics.csv")
    assert [(r["epoch"], r["loss"]) for r in rows] == [("1", "1.0"), ("2", "1.0"), ("3", "0.5")]
