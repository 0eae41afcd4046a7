"""parameter_server's step anatomy (engine.train.ps_anatomy), on a real local cluster: a chief, 2 workers, 1 ps."""

from __future__ import annotations

import sys

import pytest

from engine.cluster.launcher import launch_cluster, launch_local_cluster, local_cluster_for
from engine.core import events as ev

pytestmark = [pytest.mark.slow, pytest.mark.timeout(400)]


@pytest.mark.parametrize("loop", ["custom", "fit"])
def test_both_loops_report_where_the_workers_time_went_on_the_runs_wall_clock(tmp_path, write_run_config, loop):
    """The parts add up to the step; the step is the run's own wall time per step (each epoch after the first,
    which traces and probes, is its anatomies' steps × step_ms within ±10 %); a ps means round trips."""
    seen: list[ev.Event] = []
    config = write_run_config(strategy="parameter_server", loop=loop, epochs=3, num_samples=8192)
    result = launch_local_cluster(
        config, 2, tmp_path / "run", ps=1, join_timeout_s=180, on_event=lambda task, e: seen.append(e)
    )
    assert result.ok, result.failure
    anatomies = [e for e in seen if isinstance(e, ev.StepAnatomy)]
    assert {a.epoch for a in anatomies} == {1, 2, 3}, anatomies
    for a in anatomies:
        parts = a.input_ms + a.compute_ms + a.sync_ms + a.rest_ms
        assert parts == pytest.approx(a.step_ms, rel=0.10) and min(a.input_ms, a.compute_ms, a.rest_ms) >= 0, a
        assert a.sync_ms > 0, a  # every step reads its variables from the ps and pushes its gradients there
        assert a.rest_ms > 0, a  # the workers were busy less than the window's wall time: what ran in it counted
    for epoch in (e for e in seen if isinstance(e, ev.EpochEnd) and e.epoch > 1):
        of_epoch = [a for a in anatomies if a.epoch == epoch.epoch]
        assert sum(a.steps for a in of_epoch) == 128, of_epoch  # 8192 examples in batches of 64: all covered
        wall = sum(a.steps * a.step_ms for a in of_epoch) / 1000
        assert wall == pytest.approx(epoch.seconds, rel=0.10), (epoch, of_epoch)


@pytest.mark.parametrize("loop", ["custom", "fit"])
def test_both_loops_measure_nothing_when_the_step_anatomy_is_off(tmp_path, write_run_config, loop):
    """Trainer(anatomy=False) on the chief: no step_anatomy event, and no probe runs (one would fail the run)."""
    seen: list[ev.Event] = []
    config = write_run_config(strategy="parameter_server", loop=loop, epochs=2, num_samples=4096)
    result = launch_cluster(
        local_cluster_for("parameter_server", 2, ps=1),
        config,
        tmp_path / "run",
        join_timeout_s=180,
        on_event=lambda task, e: seen.append(e),
        command_for=lambda path, run_dir, resume: [
            sys.executable,
            "-m",
            "tests.engine.cluster.task_without_anatomy",
            *("--config", str(path), "--run-dir", str(run_dir)),
        ],
    )
    assert result.ok, result.failure
    assert [e.epoch for e in seen if isinstance(e, ev.EpochEnd)] == [1, 2]
    assert not [e for e in seen if isinstance(e, ev.StepAnatomy)]


@pytest.mark.parametrize("loop", ["custom", "fit"])
def test_an_epoch_of_one_call_is_reported_from_the_second_epoch_on(tmp_path, write_run_config, loop):
    """8 steps an epoch, 8 a call: epoch 1's one call traces the steps and is no window's (as in the other loops),
    and each later epoch's anatomy covers its 8 steps."""
    seen: list[ev.Event] = []
    config = write_run_config(strategy="parameter_server", loop=loop, epochs=3, num_samples=512, steps_per_execution=8)
    result = launch_local_cluster(
        config, 2, tmp_path / "run", ps=1, join_timeout_s=180, on_event=lambda task, e: seen.append(e)
    )
    assert result.ok, result.failure
    anatomies = [e for e in seen if isinstance(e, ev.StepAnatomy)]
    assert [(a.epoch, a.steps) for a in anatomies] == [(2, 8), (3, 8)], anatomies
    for a in anatomies:
        assert a.input_ms + a.compute_ms + a.sync_ms + a.rest_ms == pytest.approx(a.step_ms, rel=0.10), a
