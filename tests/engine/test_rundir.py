"""Run directory names and metrics bookkeeping."""

from __future__ import annotations

import errno
import os
import time

import pytest

from engine.core import events as ev
from engine.core.config import RunConfig
from engine.core.runs.rundir import RunDir, new_run_dir, read_events, read_metrics
from engine.core.runs.safe_files import DiskFull


def test_run_dir_names_are_unique_and_readable(tmp_path):
    now = time.mktime((2025, 1, 2, 3, 4, 5, 0, 0, -1))
    config = RunConfig(strategy="mirrored", loop="fit")
    first = new_run_dir(config, tmp_path, now)
    second = new_run_dir(config, tmp_path, now)
    named = new_run_dir(config.replace(name="lr-sweep"), tmp_path, now)
    assert first.name == "20250102-030405-mirrored-fit" and first.is_dir()
    assert second.name == "20250102-030405-mirrored-fit-2"
    assert named.name == "20250102-030405-lr-sweep-mirrored-fit"


def batches(run: RunDir, epoch: int, steps: int) -> None:
    for step in range(1, steps + 1):
        run(
            ev.BatchEnd(
                epoch=epoch,
                step=step,
                global_step=(epoch - 1) * 10 + step,
                loss=1.0,
                accuracy=0.5,
                examples_per_sec=1.0,
            )
        )


def epoch_end(epoch: int, loss: float = 1.0) -> ev.EpochEnd:
    return ev.EpochEnd(epoch=epoch, loss=loss, accuracy=0.5, seconds=1.0, examples_per_sec=10.0)


def test_resume_reconciles_metrics_and_events_with_the_checkpoint(tmp_path):
    """Checkpoint at epoch 2, step 5: what was recorded after it is trained again, so it is dropped."""
    run = RunDir(tmp_path / "r", validation=False)
    RunConfig(epochs=4).save(run.config_path)
    for epoch in (1, 2, 3):
        batches(run, epoch, 10)
        run(epoch_end(epoch))
        run(ev.CheckpointSaved(path="ckpt", epoch=epoch, step=0))
    batches(run, 4, 3)
    run.close()
    (tmp_path / "r" / "checkpoints" / "ckpt-3.index").write_bytes(b"")
    again = RunDir(tmp_path / "r", validation=False, resume=True)
    notes = again.reconcile(2, 5)
    again.close()
    assert [r["epoch"] for r in read_metrics(tmp_path / "r" / "metrics.csv")] == ["1", "2"]
    events = read_events(tmp_path / "r")
    assert [e.epoch for e in events if isinstance(e, ev.EpochEnd)] == [1, 2]
    assert max(e.global_step for e in events if isinstance(e, ev.BatchEnd)) == 25
    assert [(e.epoch, e.step) for e in events if isinstance(e, ev.CheckpointSaved)] == [(1, 0), (2, 0)]
    assert any("dropped 1 metrics row(s) and 10 event(s)" in n for n in notes), notes


def test_resume_rebuilds_a_lost_metrics_row_from_events_and_keeps_one_row_per_epoch(tmp_path):
    run = RunDir(tmp_path / "r", validation=False)
    RunConfig(epochs=4).save(run.config_path)
    for epoch in (1, 2):
        run(epoch_end(epoch))
    run(epoch_end(2, loss=0.25))  # an older version's resume repeated epoch 2
    run.close()
    metrics = tmp_path / "r" / "metrics.csv"
    lines = metrics.read_text().splitlines()
    metrics.write_text("\n".join([lines[0], *lines[2:]]) + "\n")  # epoch 1's row is lost
    (tmp_path / "r" / "checkpoints" / "ckpt-2.index").write_bytes(b"")
    again = RunDir(tmp_path / "r", validation=False, resume=True)
    notes = again.reconcile(2, 0)
    again.close()
    rows = read_metrics(metrics)
    assert [(r["epoch"], r["loss"]) for r in rows] == [("1", "1.0"), ("2", "0.25")]
    assert any("rebuilt" in n and "epoch(s) 1" in n for n in notes)


def test_a_torn_last_line_is_set_aside_and_the_next_event_survives(tmp_path):
    """A kill mid-write leaves half a line; the resumed run's first event must not fuse with it."""
    run = RunDir(tmp_path / "r", validation=False)
    RunConfig().save(run.config_path)
    run(ev.Log(level="info", message="before"))
    run.close()
    events = tmp_path / "r" / "events.jsonl"
    with open(events, "ab") as f:
        f.write(b'{"type":"batch_end","epoch":1,"st')
    again = RunDir(tmp_path / "r", validation=False, resume=True)
    again(ev.Log(level="info", message="after"))
    again.close()
    assert [e.message for e in read_events(tmp_path / "r") if isinstance(e, ev.Log)] == ["before", "after"]
    side = tmp_path / "r" / "set-aside" / "events.jsonl.torn"
    assert b'{"type":"batch_end","epoch":1,"st' in side.read_bytes()


def test_config_is_replaced_whole(tmp_path, monkeypatch):
    """A crash while writing config.json leaves the old file, not half of the new one."""
    run = RunDir(tmp_path / "r", validation=False)
    run.write_config(RunConfig(epochs=3))
    real_write = os.write

    def crash(fd, data):
        real_write(fd, bytes(data)[:10])
        raise KeyboardInterrupt  # the process dies mid-write

    monkeypatch.setattr("engine.core.runs.safe_files.os.write", crash)
    with pytest.raises(KeyboardInterrupt):
        run.write_config(RunConfig(epochs=9))
    monkeypatch.undo()
    run.close()
    assert RunConfig.load(tmp_path / "r" / "config.json").epochs == 3


def test_a_full_disk_leaves_no_torn_line_and_names_the_disk(tmp_path, monkeypatch):
    run = RunDir(tmp_path / "r", validation=False)
    run(ev.Log(level="info", message="fine"))
    real_write = os.write

    def full(fd, data):
        real_write(fd, bytes(data)[:7])  # a short write, then nothing fits
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr("engine.core.runs.safe_files.os.write", full)
    with pytest.raises(DiskFull, match="disk is full"):
        run(ev.Log(level="info", message="x" * 100))
    monkeypatch.undo()
    run.close()
    assert (tmp_path / "r" / "events.jsonl").read_bytes().endswith(b"\n")
    assert [e.message for e in read_events(tmp_path / "r")] == ["fine"]


def test_batch_events_reach_the_file_while_the_run_goes(tmp_path):
    """A run is watched from its events.jsonl (engine.core.runs.follow): batch events are written at least every
    EVENTS_FLUSH_S, not held until 64 KB of them have gathered."""
    from engine.core.runs.rundir import EVENTS_FLUSH_S

    run = RunDir(tmp_path / "r", validation=False)
    try:
        batches(run, 1, 1)
        time.sleep(EVENTS_FLUSH_S * 1.5)
        batches(run, 1, 1)
        assert len(read_events(tmp_path / "r")) == 2
    finally:
        run.close()


@pytest.mark.skipif(not os.path.isdir("/proc/self/fd"), reason="names a descriptor's file through /proc")
def test_an_epoch_end_syncs_the_events_file_alone_and_its_metrics_row_is_readable_at_once(tmp_path, monkeypatch):
    """events.jsonl is the run's record: its epoch_end is fsynced before the run goes on. metrics.csv is derived
    from it (a resume rebuilds a lost row from the epoch_end event), so its row is written, readable at once,
    and synced when the run directory closes, not at every epoch."""
    run = RunDir(tmp_path / "r", validation=False)
    synced: list[str] = []
    real_fsync = os.fsync

    def fsync(fd: int) -> None:
        synced.append(os.path.basename(os.readlink(f"/proc/self/fd/{fd}")))
        real_fsync(fd)

    monkeypatch.setattr("engine.core.runs.safe_files.os.fsync", fsync)
    run(epoch_end(1))
    run(epoch_end(2))
    assert [r["epoch"] for r in read_metrics(tmp_path / "r" / "metrics.csv")] == ["1", "2"]
    run.synced()
    assert set(synced) == {"events.jsonl"}
    run.close()
    assert "metrics.csv" in synced


def test_an_events_fsync_runs_beside_the_run_and_a_checkpoint_waits_for_it(tmp_path, monkeypatch):
    """Syncing the record takes a disk's time (6-120 ms measured), which training need not wait for: the event
    is written at once (readers see it), the fsync runs on a thread of its own, and `synced()`, which the
    trainer calls before each checkpoint, returns only once it is on disk, so no checkpoint covers an epoch
    whose epoch_end a power cut could lose."""
    import threading

    run = RunDir(tmp_path / "r", validation=False)
    disk = threading.Event()
    real_fsync = os.fsync

    def slow_fsync(fd: int) -> None:
        disk.wait(30)  # a slow disk, until the test lets it finish
        real_fsync(fd)

    monkeypatch.setattr("engine.core.runs.safe_files.os.fsync", slow_fsync)
    try:
        run(epoch_end(1))  # returns while the fsync waits
        assert [e.epoch for e in read_events(tmp_path / "r") if isinstance(e, ev.EpochEnd)] == [1]
        waiting = threading.Thread(target=run.synced)
        waiting.start()
        waiting.join(0.3)
        assert waiting.is_alive()  # not on disk yet: a checkpoint would wait
    finally:
        disk.set()
    waiting.join(30)
    assert not waiting.is_alive()
    run.close()


def test_the_batch_events_a_checkpoint_covers_are_in_the_file_before_it_is_saved(tmp_path):
    """The trainer calls `synced()` before each checkpoint. Batch events still queued then (they are written every
    EVENTS_FLUSH_S) would be lost by a kill -9 after the checkpoint is saved: the resume continues after them, so
    their steps are neither trained again nor recorded."""
    run = RunDir(tmp_path / "r", validation=False)
    try:
        batches(run, 1, 5)  # the first is written at once, the rest wait for EVENTS_FLUSH_S
        run.synced()
        assert [e.step for e in read_events(tmp_path / "r")] == [1, 2, 3, 4, 5]
    finally:
        run.close()
