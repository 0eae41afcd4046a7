"""`tfdd try`: the current config and a changed one in turn, real trainers, the speed-up measured."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from engine.core import anatomy
from engine.core import events as ev
from engine.core.protocol.paths import RunPaths
from engine.core.remedies import CHANGED, CURRENT, speedup
from engine.tools import trial
from tests.engine.train.test_step_anatomy import SLEEPY_DATA
from tests.engine.train.worker_process import base_config, env, parse_stdout, write_config
from tests.repo import REPO


def tfdd(*args: str, timeout: float = 600) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "engine.cli", *args],
        cwd=REPO,
        env=env(),
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def tfdd_events(tmp_path, *args: str) -> tuple[int, list[ev.Event], str]:
    """`tfdd ... --events` as the window runs it: its stdin held open (closing it asks for a stop)."""
    with (tmp_path / "stderr.txt").open("w+", encoding="utf-8") as err:
        proc = subprocess.Popen(
            [sys.executable, "-m", "engine.cli", *args, "--events"],
            cwd=REPO,
            env=env(),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=err,
            text=True,
        )
        out = proc.stdout.read()
        proc.wait(timeout=60)
        proc.stdin.close()
        err.seek(0)
        return proc.returncode, parse_stdout(out)[0], err.read()


def test_bad_changes_are_each_one_line_and_nothing_starts(tmp_path):
    config = write_config(tmp_path, base_config())
    out = tmp_path / "trial"
    cases = {
        ("--change", "foo=1"): ["foo = 1: not a field of the run config"],
        ("--change", "jit_compile=maybe"): ["jit_compile = 'maybe': wrong type; expected true or false"],
        ("--change", "global_batch_size=0"): ["global_batch_size = 0: must be a number >= 1"],
        ("--change", "nonsense", "--change", "=3"): [
            "--change = 'nonsense': write a change as field=value, e.g. jit_compile=true",
            "--change = '=3': write a change as field=value, e.g. jit_compile=true",
        ],
        ("--change", "steps_per_execution=4"): ["steps_per_execution = 4: the config already has these values"],
        (): ["--change = '': give at least one change, e.g. --change jit_compile=true"],
    }
    for flags, lines in cases.items():
        done = tfdd("try", "--config", str(config), *flags, "--out", str(out))
        said = done.stderr.splitlines()
        assert done.returncode == 2 and said[0] == "error: the trial cannot start:", done.stderr
        assert said[1:] == lines, flags
        assert not out.exists(), "nothing started"


def test_a_bad_change_asked_for_with_events_is_one_run_failed_event(tmp_path):
    config = write_config(tmp_path, base_config())
    code, events, _ = tfdd_events(tmp_path, "try", "--config", str(config), "--change", "foo=1")
    assert code == 2 and [type(e) for e in events] == [ev.RunFailed]
    assert "foo = 1: not a field of the run config" in events[0].message


REMOTE_CLUSTER = {"cluster": {"worker": ["10.0.0.5:2222", "10.0.0.6:2222"]}}  # a run's cluster.json, SSH hosts


def test_a_trial_of_a_run_that_trained_on_other_machines_is_refused_before_anything_starts(tmp_path):
    """Its cluster.json names other hosts: a trial here would measure this machine's devices, not theirs."""
    run = RunPaths(tmp_path / "run")
    run.root.mkdir()
    run.config.write_text(json.dumps(base_config()), encoding="utf-8")
    run.cluster.write_text(json.dumps(REMOTE_CLUSTER), encoding="utf-8")
    out = tmp_path / "trial"
    done = tfdd("try", "--config", str(run.config), "--change", "jit_compile=true", "--out", str(out))
    said = done.stderr.splitlines()
    assert done.returncode == 2 and said[0] == "error: the trial cannot start:", done.stderr
    assert "10.0.0.5, 10.0.0.6" in said[1] and "this machine" in said[1], said
    assert not out.exists(), "nothing started"
    run.cluster.write_text(json.dumps({"cluster": {"worker": ["127.0.0.1:2222", "localhost:2223"]}}), "utf-8")
    assert trial.load_checked(str(run.config), ["jit_compile=true"])[1] == {"jit_compile": True}, "a local cluster"


def test_a_trial_without_an_output_folder_leaves_nothing_behind():
    seen = []
    assert trial.run_in(None, lambda root: seen.append(root) or 0) == 0
    assert seen and not seen[0].exists()


@pytest.mark.slow
def test_more_steps_per_call_on_a_tiny_model_is_measured_faster(tmp_path):
    """Python's cost of a call dominates a step of a tiny model: 64 steps a call are several times faster than
    one; the median of three pairs is beyond one busy moment of a shared host. The runs alternate, current
    first, and each measures a second of steps or more at one step a call."""
    tiny = base_config(
        steps_per_execution=1,
        global_batch_size=16,
        model={"hidden_units": [8]},
        data={"num_samples": 32768, "num_features": 4},
        checkpoint={"every_epoch": False},
    )
    config = write_config(tmp_path, tiny)
    out = tmp_path / "trial"
    code, events, stderr = tfdd_events(
        tmp_path, "try", "--config", str(config), "--change", "steps_per_execution=64", "--out", str(out)
    )
    assert code == 0, stderr[-3000:]
    arms = [e for e in events if isinstance(e, ev.TrialArm)]
    assert [(a.arm, a.round) for a in arms] == [(CURRENT, 1), (CHANGED, 1), (CURRENT, 2), (CHANGED, 2)]
    assert all(not a.error and a.examples_per_sec > 0 and a.anatomy for a in arms), arms
    assert sum(isinstance(e, ev.RunStarted) for e in events) == 4 and isinstance(events[-1], ev.RunFinished)
    changed = json.loads((out / "changed-1.json").read_text(encoding="utf-8"))
    assert changed["steps_per_execution"] == 64 and changed["epochs"] == 2, "one epoch warms up, one is measured"
    result = speedup(arms)
    assert result is not None and result.pairs == 3 and result.factor > 1.5, result


@pytest.mark.slow
def test_caching_a_slow_python_dataset_is_measured_faster_and_trains_the_same_batches(tmp_path):
    """A user's pipeline that sleeps 20 ms a batch, read once into memory: the measured epochs wait for no
    input, and every epoch's loss is the streamed run's. One round (streamed, then cached) is enough for a wait
    this large; the alternating rounds and their pairs are the steps-per-call test's."""
    data = tmp_path / "sleepy.py"
    data.write_text(SLEEPY_DATA.format(pause=0.02, log=str(tmp_path / "pauses.txt")), encoding="utf-8")
    sleepy = base_config(
        data={"kind": "python", "path": str(data), "num_samples": 1280}, checkpoint={"every_epoch": False}
    )
    out = tmp_path / "trial"
    code, events, stderr = tfdd_events(
        tmp_path,
        "try",
        "--config",
        str(write_config(tmp_path, sleepy)),
        "--change",
        "data.cache=true",
        "--rounds",
        "1",
        "--out",
        str(out),
    )
    assert code == 0, stderr[-3000:]
    arms = [e for e in events if isinstance(e, ev.TrialArm)]
    assert [(a.arm, a.round) for a in arms] == [(CURRENT, 1), (CHANGED, 1)] and all(not a.error for a in arms), arms
    input_share = {a.arm: anatomy.shares(anatomy.from_plain(a.anatomy))["input"] for a in arms}
    # cached, each step gathers its batch in the graph, which the cached-batch probe does not: on this tiny model
    # that gather is a share of the step of its own, 0.34 of it in one full-suite run on 2 loaded cores
    assert input_share[CURRENT] > 0.5 and input_share[CHANGED] < input_share[CURRENT] / 2, input_share
    result = speedup(arms)
    assert result is not None and result.factor > 2, result

    def losses(run: str) -> list[float]:
        ends = [ev.decode(line) for line in (out / run / "events.jsonl").read_text(encoding="utf-8").splitlines()]
        return [e.loss for e in ends if isinstance(e, ev.EpochEnd)]

    assert len(losses("changed-1")) == 2 and losses("changed-1") == losses("current-1")
