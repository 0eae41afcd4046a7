"""The README's promise, after every kind of interruption: resuming loses and repeats no finished epoch.

Each test interrupts a real `tfdd train` (Ctrl-C, SIGTERM, kill -9, a full disk, a deleted or
corrupt checkpoint, a second resume at the same time), resumes it, and checks the run's files:
every epoch exactly once in metrics.csv and in events.jsonl, no batch step recorded twice, and
the interrupted epoch's row averaging the whole epoch.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from engine.core import events as ev
from engine.core.runs.rundir import read_events, read_metrics
from tests.engine.train.worker_process import REPO, base_config, env, write_config

pytestmark = pytest.mark.slow

EPOCHS = 3
STEPS_PER_EPOCH = 300  # 9600 examples / 32
# a step checkpoint every 100 steps: epochs long enough to interrupt mid-epoch
CONFIG = base_config(
    epochs=EPOCHS,
    global_batch_size=32,
    steps_per_execution=5,
    data={"num_samples": 9600},
    checkpoint={"every_steps": 100, "keep": 3},
)


def train(*args: str) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "main.py", "train", *args],
        cwd=REPO,
        env=env(),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )


def finish(proc: subprocess.Popen, timeout: float = 300) -> tuple[int, str]:
    try:
        _, err = proc.communicate(timeout=timeout)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(timeout=30)
    return proc.returncode, err


def start(tmp_path: Path, config: dict | None = None) -> tuple[Path, subprocess.Popen]:
    run_dir = tmp_path / "run"
    return run_dir, train("--config", str(write_config(tmp_path, config or CONFIG)), "--run-dir", str(run_dir))


def wait_for(run_dir: Path, proc: subprocess.Popen, predicate, timeout: float = 240) -> ev.Event:
    deadline = time.monotonic() + timeout
    while True:
        for event in read_events(run_dir):
            if predicate(event):
                return event
        assert proc.poll() is None, f"the trainer ended first: {proc.stderr.read()[-2000:] if proc.stderr else ''}"
        assert time.monotonic() < deadline, "the trainer never got there"
        time.sleep(0.1)


def mid_epoch_two(event: ev.Event) -> bool:
    return isinstance(event, ev.CheckpointSaved) and event.epoch == 1 and event.step >= 100


def resume(run_dir: Path) -> tuple[int, str]:
    return finish(train("--resume", str(run_dir)))


def stopped_by(tmp_path: Path, how: signal.Signals, code: int) -> Path:
    """A run stopped by the signal `how` mid-way through epoch 2, which exited with `code` and no traceback."""
    run_dir, proc = start(tmp_path)
    wait_for(run_dir, proc, mid_epoch_two)
    proc.send_signal(how)
    rc, err = finish(proc)
    assert rc == code, err[-2000:]
    assert "Traceback" not in err  # a graceful stop, not an interrupted program
    return run_dir


@pytest.fixture(scope="module")
def ctrl_c_run(tmp_path_factory) -> Path:
    """One run stopped with Ctrl-C mid-way through epoch 2, made once: each test below checks, damages or
    resumes a copy of it (`interrupted`)."""
    return stopped_by(tmp_path_factory.mktemp("ctrl-c"), signal.SIGINT, 130)


@pytest.fixture
def interrupted(ctrl_c_run: Path, tmp_path: Path) -> Path:
    """A copy of the run Ctrl-C stopped mid-way through epoch 2, for this test alone."""
    return Path(shutil.copytree(ctrl_c_run, tmp_path / "run"))


def assert_every_epoch_once(run_dir: Path, epochs: int = EPOCHS) -> None:
    """The promise: epochs 1..N once each, in metrics and events, and no batch step twice."""
    assert [int(r["epoch"]) for r in read_metrics(run_dir / "metrics.csv")] == list(range(1, epochs + 1))
    events = read_events(run_dir)
    assert [e.epoch for e in events if isinstance(e, ev.EpochEnd)] == list(range(1, epochs + 1))
    steps = [e.global_step for e in events if isinstance(e, ev.BatchEnd)]
    assert steps == sorted(set(steps)), "a batch step is recorded twice"
    assert isinstance(events[-1], ev.RunFinished) and events[-1].status == "completed"


def assert_rows_cover_whole_epochs(run_dir: Path, steps_per_epoch: int = STEPS_PER_EPOCH) -> None:
    """Each epoch's row is the step-weighted mean of all its batch events, before and after a resume."""
    events = read_events(run_dir)
    for row in read_metrics(run_dir / "metrics.csv"):
        epoch = int(row["epoch"])
        batches = [e for e in events if isinstance(e, ev.BatchEnd) and e.epoch == epoch]
        steps = sum(b.steps for b in batches)
        assert steps == steps_per_epoch, f"epoch {epoch} has {steps} recorded steps"
        mean = sum(b.loss * b.steps for b in batches) / steps
        assert float(row["loss"]) == pytest.approx(mean, rel=1e-4), f"epoch {epoch}'s row"


def assert_stopped_where_training_stood(run_dir: Path) -> None:
    """A run a signal stopped mid-way through epoch 2: its last checkpoint is where training stood."""
    events = read_events(run_dir)
    assert isinstance(events[-1], ev.RunFinished) and events[-1].status == "stopped", events[-3:]
    stop = [e for e in events if isinstance(e, ev.CheckpointSaved)][-1]
    last = [e for e in events if isinstance(e, ev.BatchEnd)][-1]
    # a checkpoint where training stood, not only the last step one (they are the same when the signal
    # came before the step after that checkpoint); at an epoch's end when the signal came as it ended (a
    # loaded host reads the events and sends it late: the full suite once saw (2, 0) after step 300 of epoch 2)
    stood = (last.epoch, 0) if last.step == STEPS_PER_EPOCH else (last.epoch - 1, last.step)
    assert (stop.epoch, stop.step) == stood and stood >= (1, 100)


def test_sigterm_stops_with_a_checkpoint_and_the_resume_repeats_nothing(tmp_path):
    """SIGTERM is how Kubernetes and process managers stop a job: the same checkpoint as Ctrl-C (exit code 143
    for SIGTERM, 130 for Ctrl-C: `stopped_by` checks it)."""
    run_dir = stopped_by(tmp_path, signal.SIGTERM, 143)
    assert_stopped_where_training_stood(run_dir)
    rc, err = resume(run_dir)
    assert rc == 0, err[-2000:]
    assert_every_epoch_once(run_dir)
    assert_rows_cover_whole_epochs(run_dir)


def test_ctrl_c_stops_with_a_checkpoint_and_of_two_resumes_at_once_one_trains_and_repeats_nothing(interrupted):
    """The Ctrl-C run's checkpoint is where training stood; resumed twice at the same time, one resume is
    refused (the run is in use) and the other trains the rest once."""
    run_dir = interrupted
    assert_stopped_where_training_stood(run_dir)
    first, second = train("--resume", str(run_dir)), train("--resume", str(run_dir))
    (rc1, err1), (rc2, err2) = finish(first), finish(second)
    assert sorted([rc1, rc2]) == [0, 2], (err1[-1000:], err2[-1000:])
    refused = err1 if rc1 == 2 else err2
    assert "is in use by pid" in refused
    assert_every_epoch_once(run_dir)
    assert_rows_cover_whole_epochs(run_dir)
    assert len([e for e in read_events(run_dir) if isinstance(e, ev.RunFinished)]) == 2  # stopped, completed


@pytest.mark.skipif(os.name != "posix", reason="kill -9")
def test_kill_9_then_resume_repeats_nothing_and_the_interrupted_epochs_row_is_whole(tmp_path):
    # 1200 steps per epoch; two epochs: the epochs after a resumed one are the signal tests' to check
    run_dir, proc = start(tmp_path, {**CONFIG, "epochs": 2, "data": {"num_samples": 4 * 9600}})
    wait_for(run_dir, proc, mid_epoch_two)  # batch events past the checkpoint follow: a resume must drop them
    proc.send_signal(signal.SIGKILL)
    finish(proc)
    rc, err = resume(run_dir)
    assert rc == 0, err[-2000:]
    assert "Resuming at epoch 2" in err, err[-3000:]
    events = read_events(run_dir)
    resumed = [e for e in events if isinstance(e, ev.RunStarted)][-1]
    kept = [e for e in events[: events.index(resumed)] if isinstance(e, ev.CheckpointSaved)][-1]
    # from the newest step checkpoint, mid-epoch (one whose event the kill cut off may be newer still)
    assert resumed.start_epoch == 1 and resumed.start_step >= kept.step > 0, (resumed, kept)
    assert_every_epoch_once(run_dir, epochs=2)
    assert_rows_cover_whole_epochs(run_dir, steps_per_epoch=1200)


def test_deleted_checkpoints_refuse_a_resume_and_change_nothing(interrupted):
    run_dir = interrupted
    shutil.rmtree(run_dir / "checkpoints")
    before = {p.name: p.read_bytes() for p in run_dir.iterdir() if p.is_file() and p.name != ".tfdd-lock"}
    rc, err = resume(run_dir)
    assert rc == 2
    lines = [line for line in err.splitlines() if line.startswith("error:")]
    assert (
        len(lines) == 1
        and "holds no checkpoint" in lines[0]
        and "1 epoch(s) were finished" in lines[0]
        and "were written" in lines[0]
    ), err
    assert {p.name: p.read_bytes() for p in run_dir.iterdir() if p.is_file() and p.name != ".tfdd-lock"} == before


def test_a_corrupt_newest_checkpoint_falls_back_to_the_previous_one(interrupted):
    run_dir = interrupted
    newest = sorted((run_dir / "checkpoints").glob("ckpt-*.index"), key=lambda p: int(p.stem.split("-")[1]))[-1]
    data = next((run_dir / "checkpoints").glob(f"{newest.stem}.data-*"))
    data.write_bytes(data.read_bytes()[: data.stat().st_size // 2])  # a copy cut short
    rc, err = resume(run_dir)
    assert rc == 0, err[-2000:]
    assert f"Checkpoint {newest.stem}" in err and "older one is used" in err and "Traceback" not in err
    assert (run_dir / "set-aside" / "checkpoints" / newest.name).is_file()
    assert_every_epoch_once(run_dir)


def test_no_readable_checkpoint_refuses_with_one_line_and_changes_nothing(interrupted):
    run_dir = interrupted
    for index in (run_dir / "checkpoints").glob("ckpt-*.index"):
        index.write_bytes(b"garbage")
    before = {str(p.relative_to(run_dir)): p.read_bytes() for p in run_dir.rglob("*") if p.is_file()}
    rc, err = resume(run_dir)
    assert rc == 2, err[-2000:]
    lines = [line for line in err.splitlines() if line.startswith("error:")]
    assert len(lines) == 1 and "no checkpoint" in lines[0] and "can be read" in lines[0], err
    after = {str(p.relative_to(run_dir)): p.read_bytes() for p in run_dir.rglob("*") if p.is_file()}
    assert {k: v for k, v in after.items() if k != ".tfdd-lock"} == {
        k: v for k, v in before.items() if k != ".tfdd-lock"
    }


FULL_DISK = r"""
# Runs inside a private mount namespace: a 16 MB tmpfs holds the run; after epoch 1's checkpoint a filler
# takes the rest of the disk. Prints one JSON line with what the test checks.
import json, subprocess, sys, time
from pathlib import Path
sys.path.insert(0, sys.argv[3])
from engine.core import events as ev
from engine.core.runs.rundir import read_events, read_metrics
run_dir, config = Path(sys.argv[1]), sys.argv[2]
proc = subprocess.Popen([sys.executable, "main.py", "train", "--config", config, "--run-dir", str(run_dir)],
                        stderr=subprocess.PIPE, text=True)
while not any(isinstance(e, ev.CheckpointSaved) for e in read_events(run_dir)):
    assert proc.poll() is None, proc.stderr.read()
    time.sleep(0.05)
filler = run_dir.parent / "filler"
try:
    with open(filler, "wb") as f:  # at once (an epoch takes well under a second), then to the last block
        for chunk in (1 << 20, 4096):
            try:
                while True:
                    f.write(b"\0" * chunk)
                    f.flush()
            except OSError:
                pass
except OSError:  # closing it flushes what its buffer still held
    pass
_, err = proc.communicate(timeout=300)
events = read_events(run_dir)
first = {"rc": proc.returncode, "last": err.strip().splitlines()[-1] if err.strip() else "",
         "recorded": events[-1].message if isinstance(events[-1], ev.RunFailed) else repr(events[-1]),
         "ends_with_newline": (run_dir / "events.jsonl").read_bytes().endswith(b"\n")}
filler.unlink()
again = subprocess.run([sys.executable, "main.py", "train", "--resume", str(run_dir)], capture_output=True, text=True)
events = read_events(run_dir)
steps = [e.global_step for e in events if isinstance(e, ev.BatchEnd)]
print(json.dumps({"first": first, "resume_rc": again.returncode, "resume_err": again.stderr[-3000:],
                  "resumed_at": [line for line in again.stderr.splitlines() if "Resuming at" in line],
                  "metrics": [int(r["epoch"]) for r in read_metrics(run_dir / "metrics.csv")],
                  "epoch_ends": [e.epoch for e in events if isinstance(e, ev.EpochEnd)],
                  "steps_unique": steps == sorted(set(steps)), "final": events[-1].type}), flush=True)
"""


def _can_mount_tmpfs() -> bool:
    if not sys.platform.startswith("linux") or not shutil.which("unshare"):
        return False
    probe = subprocess.run(
        ["unshare", "-rm", "sh", "-c", "mount -t tmpfs -o size=64k none /mnt"], capture_output=True, timeout=10
    )
    return probe.returncode == 0


@pytest.mark.skipif(not _can_mount_tmpfs(), reason="needs a private mount namespace for a small tmpfs")
def test_a_full_disk_fails_the_run_as_a_full_disk_and_a_resume_repeats_nothing(tmp_path):
    disk = tmp_path / "disk"
    disk.mkdir()
    config = write_config(tmp_path, {**CONFIG, "checkpoint": {"every_steps": 0, "keep": 2}})
    script = tmp_path / "full_disk.py"
    script.write_text(FULL_DISK, encoding="utf-8")
    run_dir = disk / "run"
    out = subprocess.run(
        [
            "unshare",
            "-rm",
            "sh",
            "-c",
            f'mount -t tmpfs -o size=16m none "{disk}" && exec "$0" "$@"',
            sys.executable,
            str(script),
            str(run_dir),
            str(config),
            str(REPO),
        ],
        cwd=REPO,
        env=env(),
        capture_output=True,
        text=True,
        timeout=900,
    )
    report = [line for line in out.stdout.splitlines() if line.startswith("{")]
    assert report, out.stdout + out.stderr[-3000:]
    result = json.loads(report[-1])
    first = result["first"]
    assert first["rc"] == 1 and "disk is full" in first["last"] and "memory" not in first["last"], first
    assert "disk is full" in first["recorded"] and first["ends_with_newline"], first  # the history shows it
    assert result["resume_rc"] == 0, result["resume_err"]
    assert any("Resuming at epoch 2" in line for line in result["resumed_at"]), result["resume_err"]
    assert result["metrics"] == result["epoch_ends"] == list(range(1, EPOCHS + 1)), result
    assert result["steps_unique"] and result["final"] == "run_finished", result
