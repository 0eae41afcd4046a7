"""Where the step time goes (engine.train.anatomy), found with known costs injected: real training, small data."""

from __future__ import annotations

import json
import statistics

import pytest

from engine.core import anatomy
from engine.core import events as ev
from tests.engine.train.worker_process import base_config, parse_stdout, run_python, train, train_all

pytestmark = pytest.mark.slow


def runs_in_one_process(runs: list[tuple[dict, bool]] | list[dict]) -> list[list[ev.Event]]:
    """Each (config, anatomy on), or each run as tests.engine.train.anatomy_runs takes it, trained in turn in
    one process: the events of each run, and last a {"probes": n} of the probes it ran."""
    arg = json.dumps([run if isinstance(run, dict) else {"config": run[0], "anatomy": run[1]} for run in runs])
    done = run_python("-m", "tests.engine.train.anatomy_runs", arg)
    assert done.returncode == 0, done.stderr[-3000:]
    out: list[list[ev.Event]] = []
    for line in done.stdout.splitlines():
        if line.startswith('{"run"'):
            out.append([])
        elif line.startswith('{"probes"'):
            out[-1].append(json.loads(line))
        elif out:
            out[-1].extend(parse_stdout(line)[0])
    return out


def of(events: list[ev.Event], kind: type) -> list:
    return [e for e in events if isinstance(e, kind)]


def whole_run(events: list[ev.Event]) -> ev.StepAnatomy:
    """The anatomy of every step measured, each figure weighted by the steps it covers."""
    parts = of(events, ev.StepAnatomy)
    assert parts, "no step_anatomy event"
    steps = sum(a.steps for a in parts)
    figures = ("step_ms", "input_ms", "compute_ms", "sync_ms", "rest_ms")
    mean = {f: sum(getattr(a, f) * a.steps for a in parts) / steps for f in figures}
    return ev.StepAnatomy(epoch=parts[-1].epoch, global_step=parts[-1].global_step, steps=steps, **mean)


def assert_parts_add_up(events: list[ev.Event]) -> None:
    for a in of(events, ev.StepAnatomy):
        parts = a.input_ms + a.compute_ms + a.sync_ms + a.rest_ms
        assert parts == pytest.approx(a.step_ms, rel=0.10) and min(a.input_ms, a.compute_ms, a.sync_ms) >= 0, a


def test_probes_leave_training_numbers_unchanged_in_both_loops():
    """A probe after every block, against none: the same losses, to the last bit (custom, fit, float16)."""
    configs = [
        base_config(virtual_devices=2, validation_split=0.25),
        base_config(virtual_devices=2, loop="fit", validation_split=0.25),
        base_config(virtual_devices=2, mixed_precision="float16"),
    ]
    events = runs_in_one_process([(c, on) for c in configs for on in (True, False)])
    for config, (measured, plain) in zip(configs, zip(events[::2], events[1::2], strict=True), strict=True):
        assert of(measured, ev.RunFinished) and of(plain, ev.RunFinished), config
        losses = [(e.loss, e.accuracy, e.val_loss) for e in of(measured, ev.EpochEnd)]
        assert losses == [(e.loss, e.accuracy, e.val_loss) for e in of(plain, ev.EpochEnd)], config["loop"]
        assert {a.epoch for a in of(measured, ev.StepAnatomy)} == {1, 2}, "each loop reports each epoch"
        assert not of(plain, ev.StepAnatomy)
        assert_parts_add_up(measured)


SLEEPY_DATA = '''
"""A user's dataset whose every batch of 64 examples takes {pause} s to make (each pause, as long as it really
took on a busy host, is appended to {log})."""
import time

import numpy as np
import tensorflow as tf


def _slowly(x):
    started = time.perf_counter()
    time.sleep({pause})
    with open({log!r}, "a") as log:
        log.write(f"{{time.perf_counter() - started}}\\n")
    return x


def make_dataset(input_context):
    rng = np.random.default_rng(0)
    x = rng.standard_normal((1280, 10)).astype("float32")
    y = (x[:, 0] > 0).astype("int64")
    batches = tf.data.Dataset.from_tensor_slices((x, y)).batch(64)
    slow = batches.map(lambda x, y: (tf.ensure_shape(tf.py_function(_slowly, [x], tf.float32), x.shape), y))
    return slow.unbatch()
'''


def test_a_stop_as_a_probe_starts_or_before_it_ends_the_run_stopped_with_a_checkpoint():
    """A stop asked as the first probe starts (it traces a second copy of the step, longer than the grace of
    0.05 s) waits for the probe, which is the engine's own work, not the user's; a stop asked before the first
    report starts no probe. Each run ends stopped, with a checkpoint, and not killed."""
    runs = [
        {"config": base_config(loop=loop), "anatomy": True, "stop_at": at, "grace_s": 0.05}
        for loop, at in (("custom", "probe"), ("fit", "probe"), ("custom", "block"))
    ]
    events = runs_in_one_process(runs)
    assert len(events) == len(runs), "a run was killed: its process ended"
    for run, seen in zip(runs, events, strict=True):
        assert [e.status for e in of(seen, ev.RunFinished)] == ["stopped"], (run, of(seen, ev.Log))
        assert of(seen, ev.CheckpointSaved), run
        assert seen[-1] == {"probes": 1 if run["stop_at"] == "probe" else 0}, run


def test_a_dataset_that_sleeps_shows_as_input(tmp_path):
    pause = 0.1  # long beside the pipeline's own time per batch, a few ms more on a busy host
    data = tmp_path / "sleepy.py"
    pauses = tmp_path / "pauses.txt"
    data.write_text(SLEEPY_DATA.format(pause=pause, log=str(pauses)), encoding="utf-8")
    finished = train(tmp_path, base_config(data={"kind": "python", "path": str(data), "num_samples": 1280}))
    assert finished.returncode == 0, finished.stderr[-3000:]
    assert_parts_add_up(finished.events)
    run = whole_run(finished.events)
    # each step waits for a batch that takes a pause to make (less when batches made ahead during a pause, an
    # epoch's end, are used up); a pause is `pause` or, on a busy host, what the sleep really took
    took = [float(line) for line in pauses.read_text().split()]
    implied = min(1.0, 1000 * statistics.median(took) / run.step_ms)
    assert anatomy.shares(run)["input"] == pytest.approx(implied, abs=0.10), run
    assert anatomy.bound_by(run) == "input"


def test_sync_grows_with_replicas_and_a_large_model_on_fast_input_computes(tmp_path):
    """The same model on 1, 2 and 4 virtual devices (its share at 4 above its share at 2 in one run of two on a
    host at a load average of 8-17: not asserted); and a large model on data in memory."""
    mlp = {"model": {"hidden_units": [256, 256]}, "data": {"num_samples": 6400, "num_features": 64}}
    configs = {f"replicas-{n}": base_config(virtual_devices=n, **mlp) for n in (1, 2, 4)}
    large = {"hidden_units": [1024, 1024, 1024]}
    configs["large"] = base_config(model=large, global_batch_size=256, data={"num_samples": 12800, "num_features": 256})
    finished = train_all(tmp_path, configs)
    for name, run in finished.items():
        assert run.returncode == 0, (name, run.stderr[-3000:])
        assert_parts_add_up(run.events)
    sync = {n: anatomy.shares(whole_run(finished[f"replicas-{n}"].events))["sync"] for n in (1, 2, 4)}
    assert all(a.sync_ms == 0 for a in finished["replicas-1"].of(ev.StepAnatomy)), "one replica: nothing to sync"
    assert sync[2] > 0 and sync[4] > 0, sync
    large_run = whole_run(finished["large"].events)
    assert anatomy.bound_by(large_run) == "compute" and anatomy.shares(large_run)["compute"] > 0.6, large_run
