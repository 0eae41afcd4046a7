"""Where the step time goes (engine.train.anatomy), found with known costs injected: real training, small data."""

from __future__ import annotations

import json

import pytest

from engine import anatomy
from engine import events as ev
from tests.engine.train.worker_process import base_config, parse_stdout, run_python, train, train_all

pytestmark = pytest.mark.slow


def runs_in_one_process(runs: list[tuple[dict, bool]]) -> list[list[ev.Event]]:
    """Each (config, anatomy on) trained in turn in one process: the events of each run."""
    arg = json.dumps([{"config": config, "anatomy": on} for config, on in runs])
    done = run_python("-m", "tests.engine.train.anatomy_runs", arg)
    assert done.returncode == 0, done.stderr[-3000:]
    out: list[list[ev.Event]] = []
    for line in done.stdout.splitlines():
        if line.startswith('{"run"'):
            out.append([])
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
    mean = {f: sum(getattr(a, f) * a.steps for a in parts) / steps for f in ("step_ms", "input_ms", "compute_ms")}
    mean |= {f: sum(getattr(a, f) * a.steps for a in parts) / steps for f in ("sync_ms", "rest_ms")}
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
