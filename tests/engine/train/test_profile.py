"""TensorFlow profiles of chosen steps (engine.train.profile): real training, a tiny model, the xplane read back."""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest

from engine.core import events as ev
from engine.core.arguments import parse_step_range
from engine.core.protocol.profile import StepRange, parse_profile_line, profile_line
from engine.core.runs.rundir import read_events
from tests.engine.train.worker_process import LiveWorker, base_config, run_python, run_worker, write_config


def step_markers(session: Path) -> list[int]:
    """The step_num of every "train" step marker in a profile session's xplane files, in order."""
    from tensorflow.tsl.profiler.protobuf import xplane_pb2

    found = []
    for path in sorted(session.glob("*.xplane.pb")):
        space = xplane_pb2.XSpace()
        space.ParseFromString(path.read_bytes())
        for plane in space.planes:
            names = {k: m.name for k, m in plane.event_metadata.items()}
            stats = {k: m.name for k, m in plane.stat_metadata.items()}
            for line in plane.lines:
                for event in line.events:
                    if names.get(event.metadata_id) == "train":
                        values = {stats[s.metadata_id]: s.int64_value or s.uint64_value for s in event.stats}
                        found.append(values["step_num"])
    return sorted(found)


def saved_session(event: ev.ProfileSaved, run: Path) -> Path:
    session = Path(event.path)
    assert session.parent == run / "tensorboard" / "plugins" / "profile", session
    assert list(session.glob("*.xplane.pb")), list(session.iterdir())
    assert not list((run / "tensorboard").glob(".profiling-*")), "the staging folder is gone"
    return session


def test_step_ranges_are_checked():
    assert parse_step_range("2-3") == StepRange(2, 3)
    assert parse_step_range("5") == StepRange(5, 5)
    for bad, said in (("3-2", "comes after"), ("0-2", "from 1"), ("a-b", "not a range"), ("1-200000", "at most")):
        with pytest.raises(argparse.ArgumentTypeError, match=said):
            parse_step_range(bad)
    assert parse_profile_line(profile_line(7)) == 7
    assert parse_profile_line("profile 0") is None and parse_profile_line("stop") is None


@pytest.mark.slow
def test_custom_loop_profile_of_steps_2_3_has_a_marker_per_call(tmp_path):
    """Two steps per call: steps 2-3 are in the calls of steps 1-2 and 3-4, each one marker (its first step)."""
    config = base_config(steps_per_execution=2)
    path = write_config(tmp_path, config)
    done = run_worker(["--config", str(path), "--run-dir", str(tmp_path / "run"), "--profile-steps", "2-3"])
    assert done.returncode == 0, done.stderr[-2000:]
    saved = done.of(ev.ProfileSaved)
    assert saved == [e for e in read_events(tmp_path / "run" / "events.jsonl") if isinstance(e, ev.ProfileSaved)]
    assert [(e.first_step, e.last_step) for e in saved] == [(1, 4)]
    assert step_markers(saved_session(saved[0], tmp_path / "run")) == [1, 3]


@pytest.mark.slow
def test_fit_profile_via_tfdd_train_holds_keras_step_markers(tmp_path):
    """`tfdd train --profile-steps 2-3` under fit: tf-keras marks each call, counting from 0 in the epoch."""
    config = base_config(loop="fit", steps_per_execution=1)
    path = write_config(tmp_path, config)
    done = run_python(
        "-m", "engine.cli", "train", "--config", str(path), "--run-dir", str(tmp_path / "run"), "--profile-steps", "2-3"
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert "profile of steps 2-3 written to" in done.stderr
    saved = [e for e in read_events(tmp_path / "run" / "events.jsonl") if isinstance(e, ev.ProfileSaved)]
    assert [(e.first_step, e.last_step) for e in saved] == [(2, 3)]
    assert step_markers(saved_session(saved[0], tmp_path / "run")) == [1, 2]


@pytest.mark.slow
def test_a_run_that_ends_first_keeps_what_it_profiled_and_says_so(tmp_path):
    """32 steps: a window of 31-40 is written with steps 31-32 and a warning; 50-60 is only a warning."""
    path = write_config(tmp_path, base_config(steps_per_execution=1), "late.json")
    worker = LiveWorker(["--config", str(path), "--run-dir", str(tmp_path / "late"), "--profile-steps", "31-40"])
    assert worker.finish() == 0
    saved = worker.of(ev.ProfileSaved)
    assert [(e.first_step, e.last_step) for e in saved] == [(31, 32)]
    warnings = [e.message for e in worker.of(ev.Log) if e.level == "warning"]
    assert any("ended at step 32, before step 40" in w for w in warnings), warnings
    worker = LiveWorker(["--config", str(path), "--run-dir", str(tmp_path / "never"), "--profile-steps", "50-60"])
    assert worker.finish() == 0
    assert not worker.of(ev.ProfileSaved)
    assert any("ended before step 50" in e.message for e in worker.of(ev.Log)), worker.of(ev.Log)


@pytest.mark.slow
def test_profile_of_the_next_steps_asked_on_stdin(tmp_path):
    """A "profile 3" line while it trains: the next calls from a boundary on; a second ask meanwhile is refused."""
    config = base_config(steps_per_execution=1, epochs=3, data={"num_samples": 4096})
    path = write_config(tmp_path, config)
    worker = LiveWorker(["--config", str(path), "--run-dir", str(tmp_path / "run")])
    worker.wait_for(lambda e: isinstance(e, ev.BatchEnd))
    assert worker.proc.stdin is not None
    worker.proc.stdin.write(profile_line(3) + profile_line(2))
    worker.proc.stdin.flush()
    saved = worker.wait_for(lambda e: isinstance(e, ev.ProfileSaved))
    assert isinstance(saved, ev.ProfileSaved) and saved.last_step - saved.first_step + 1 == 3
    assert worker.finish() == 0
    assert worker.of(ev.ProfileSaved) == [saved], "no --profile-steps: the one profile is the one asked for"
    assert any("already being captured" in e.message for e in worker.of(ev.Log)), worker.of(ev.Log)
    assert step_markers(saved_session(saved, tmp_path / "run")) == list(range(saved.first_step, saved.last_step + 1))
