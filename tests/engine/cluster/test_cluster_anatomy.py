"""multi_worker_mirrored's step anatomy on a real local cluster of 2 workers: the chief reports it, in both loops."""

from __future__ import annotations

import pytest

from engine.cluster.launcher import launch_local_cluster
from engine.core import events as ev

pytestmark = [pytest.mark.slow, pytest.mark.timeout(300)]


@pytest.mark.parametrize("loop", ["custom", "fit"])
def test_the_chief_reports_each_epochs_anatomy_with_the_workers_all_reduce_as_sync(tmp_path, write_run_config, loop):
    """Each epoch has the chief's anatomy; the parts add up to the step; two workers all-reduce their gradients
    every step, so synchronising is more than nothing."""
    seen: list[tuple[str, ev.Event]] = []
    config = write_run_config(loop=loop, epochs=2, num_samples=8192)  # 4 calls of 32 steps an epoch: the first traces
    result = launch_local_cluster(
        config, 2, tmp_path / "run", join_timeout_s=180, on_event=lambda task, e: seen.append((task.id, e))
    )
    assert result.ok, result.failure
    anatomies = [e for task, e in seen if task == "worker-0" and isinstance(e, ev.StepAnatomy)]
    assert {a.epoch for a in anatomies} == {1, 2}, seen
    for a in anatomies:
        parts = a.input_ms + a.compute_ms + a.sync_ms + a.rest_ms
        assert parts == pytest.approx(a.step_ms, rel=0.10) and min(a.input_ms, a.compute_ms, a.rest_ms) >= 0, a
        assert a.sync_ms > 0, a
