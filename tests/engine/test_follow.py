"""Following a run from its folder (engine.core.runs.follow): what a watcher reads as the trainer writes, and when
the run is over."""

from __future__ import annotations

import json
import os
import shutil
import socket

from engine.core import events as ev
from engine.core.protocol.paths import RunPaths
from engine.core.runs.follow import MAX_LINE_BYTES, Ending, FileTail, RunWatch, ask_to_stop, trains_here
from engine.core.runs.runlock import Holder, RunLock
from engine.core.runs.safe_files import atomic_write_bytes


def line(event: ev.Event) -> bytes:
    return (ev.encode(event) + "\n").encode()


def batch(step: int, t: float = 100.0) -> ev.BatchEnd:
    return ev.BatchEnd(epoch=1, step=step, global_step=step, loss=1.0, accuracy=0.5, examples_per_sec=9.0, time=t)


def started(t: float = 99.0) -> ev.RunStarted:
    return ev.RunStarted(
        strategy="mirrored",
        num_replicas=1,
        devices=["CPU:0"],
        global_batch_size=8,
        per_replica_batch_size=8,
        loop="custom",
        epochs=1,
        steps_per_epoch=3,
        steps_per_execution=1,
        run_dir="r",
        time=t,
    )


def append(path, data: bytes) -> None:
    with open(path, "ab") as f:
        f.write(data)


def watch(tmp_path) -> tuple[RunWatch, RunPaths]:
    paths = RunPaths(tmp_path / "run")
    paths.root.mkdir()
    return RunWatch(paths.root), paths


def read(w: RunWatch):
    w.check_lock(now=float("inf"))  # the lock as it is now, whatever LOCK_EVERY_S says
    return w.read()


def test_a_run_that_has_written_nothing_yet_is_waited_for(tmp_path):
    w, paths = watch(tmp_path)
    first = read(w)
    assert first.events == [] and first.end is None and not first.ending
    append(paths.events, line(started()))
    assert read(w).events == [started()]


def test_a_last_line_still_being_written_waits_for_its_newline(tmp_path):
    w, paths = watch(tmp_path)
    whole = line(batch(1))
    append(paths.events, line(started()) + whole[:20])
    assert read(w).events == [started()]
    append(paths.events, whole[20:-1])
    assert read(w).events == []
    append(paths.events, b"\n")
    assert read(w).events == [batch(1)]


def test_the_first_event_gives_the_time_axis_origin_once(tmp_path):
    w, paths = watch(tmp_path)
    append(paths.events, line(started(t=42.0)) + line(batch(1)))
    assert read(w).origin == 42.0
    append(paths.events, line(batch(2)))
    assert read(w).origin is None


def test_a_replaced_file_is_read_again_from_its_start(tmp_path):
    """A resume rewrites events.jsonl (engine.core.runs.rundir drops what came after the checkpoint) by renaming a
    new file over it; a file cut shorter is another file too."""
    w, paths = watch(tmp_path)
    append(paths.events, line(started(t=1.0)) + line(batch(1)) + line(batch(2)))
    assert len(read(w).events) == 3
    atomic_write_bytes(paths.events, line(started(t=1.0)) + line(batch(1)))
    again = read(w)
    assert again.replaced and again.events == [started(t=1.0), batch(1)] and again.origin == 1.0
    with open(paths.events, "r+b") as f:
        f.truncate(len(line(started(t=1.0))))
    cut = read(w)
    assert cut.replaced and cut.events == [started(t=1.0)]


def test_lines_that_are_not_events_are_named_and_the_rest_read(tmp_path):
    w, paths = watch(tmp_path)
    append(paths.events, b"not json\n" + b"x" * (MAX_LINE_BYTES + 10) + b"\n" + line(batch(1)))
    reads = [read(w) for _ in range(30)]
    assert [e for r in reads for e in r.events] == [batch(1)], "an over-long line is skipped, not waited for"
    garbage = [g for r in reads for g in r.garbage]
    assert garbage[0] == "not json" and any("longer than" in g for g in garbage)


def test_a_backlog_is_read_a_chunk_at_a_time(tmp_path):
    w, paths = watch(tmp_path)
    append(paths.events, b"".join(line(batch(i)) for i in range(1, 2001)))
    first = w.read(max_bytes=4096)
    assert first.more and 0 < len(first.events) < 2000
    while w.read(max_bytes=4096).more:
        pass
    assert w.events.offset == paths.events.stat().st_size


def test_stderr_and_gpu_rows_come_with_the_events(tmp_path):
    w, paths = watch(tmp_path)
    paths.stderr_log.write_text("I0000 tensorflow says hello\nfake trainer: starting\n", encoding="utf-8")
    paths.gpu_samples.write_text(
        "time,gpu,utilisation_percent,memory_used_mb,memory_total_mb,error\n101.5,GPU:0,87,1000,8000,\n101.9,GPU:0,8",
        encoding="utf-8",
    )
    got = read(w)
    assert got.log == ["I0000 tensorflow says hello", "fake trainer: starting"]
    assert [(s.tf_name, s.time, s.utilisation_percent) for s in got.gpu] == [("GPU:0", 101.5, 87)]
    append(paths.gpu_samples, b"8,1000,8000,\n")
    assert [s.utilisation_percent for s in read(w).gpu] == [88], "a torn row waits for its end"


def test_a_recorded_end_ends_the_watch_once_the_lock_is_let_go(tmp_path):
    w, paths = watch(tmp_path)
    lock = RunLock.acquire(paths, "tfdd train")
    append(paths.events, line(started()) + line(batch(1)))
    assert read(w).end is None and w.holder is not None and w.holder.pid == os.getpid()
    finished = ev.RunFinished(status="completed", epochs_completed=1, run_dir=str(paths.root))
    append(paths.events, line(finished))
    assert read(w).end is None, "the trainer still holds its lock: it may have more to say"
    lock.release()
    assert read(w).end == finished


def test_a_lock_let_go_without_an_end_is_a_run_cut_short(tmp_path):
    w, paths = watch(tmp_path)
    lock = RunLock.acquire(paths, "tfdd train")
    append(paths.events, line(started()) + line(batch(1)))
    assert not read(w).ending
    lock.release()  # as the kernel does for a process killed with -9
    assert read(w).ending == Ending.LET_GO


def test_a_lock_never_seen_is_no_end(tmp_path):
    """A run on another machine whose lock this one cannot see (a file system without shared locks) is followed
    for as long as it is watched."""
    w, paths = watch(tmp_path)
    append(paths.events, line(started()) + line(batch(1)))
    assert not read(w).ending and read(w).end is None


def test_a_run_folder_that_vanishes_ends_the_watch(tmp_path):
    w, paths = watch(tmp_path)
    append(paths.events, line(started()))
    read(w)
    shutil.rmtree(paths.root)
    assert read(w).ending == Ending.GONE


def test_stop_is_for_a_run_this_machine_trains(tmp_path):
    here = socket.gethostname()
    assert trains_here(Holder(pid=4242, host=here))
    assert not trains_here(Holder(pid=4242, host=f"{here}-elsewhere"))
    assert not trains_here(Holder(pid=None, host=here)) and not trains_here(None)
    paths = RunPaths(tmp_path / "run")
    paths.root.mkdir()
    assert ask_to_stop(paths.root) is None, "no lock: nothing trains it"
    lock = RunLock.acquire(paths, "tfdd train")
    try:
        os.ftruncate(lock.fd, 0)
        os.pwrite(lock.fd, json.dumps({"pid": 1, "host": f"{here}-elsewhere"}).encode(), 0)
        assert ask_to_stop(paths.root) is None, "a lock held on another machine is never signalled from here"
    finally:
        lock.release()


def test_file_tail_of_a_missing_file_reads_nothing(tmp_path):
    tail = FileTail(tmp_path / "nope.jsonl")
    assert tail.read().lines == [] and tail.identity is None


def test_a_torn_last_line_of_a_killed_run_does_not_hold_up_its_end(tmp_path):
    w, paths = watch(tmp_path)
    lock = RunLock.acquire(paths, "tfdd train")
    append(paths.events, line(started()) + line(batch(1))[:30])
    read(w)
    lock.release()
    assert read(w).ending == Ending.LET_GO
