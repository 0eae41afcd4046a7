"""The new kinds in a real two-worker cluster on 127.0.0.1, and the model summary command."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from engine.cluster.group import FINISHED
from engine.cluster.launcher import launch_local_cluster
from engine.core import events as ev
from engine.core.resources import resource_path
from tests.data_factory import write_image_folder
from tests.engine.train.worker_process import base_config, env, write_config
from tests.repo import REPO

pytestmark = [pytest.mark.slow, pytest.mark.timeout(300)]


def test_cnn_with_synchronized_batch_norm_trains_two_workers_to_the_same_loss(tmp_path):
    """Batch statistics all-reduced across processes: both workers end with the same losses."""
    images = write_image_folder(tmp_path / "images", classes=3, per_class=16, size=(12, 12))
    config = base_config(
        strategy="multi_worker_mirrored",
        global_batch_size=16,
        validation_split=0.25,
        data={"kind": "image_folder", "path": str(images)},
        model={"kind": "cnn", "filters": [8], "hidden_units": [8]},
    )
    losses: dict[int, list[float]] = {0: [], 1: []}

    def on_event(task, event):
        if isinstance(event, ev.EpochEnd):
            losses[task.index].append(event.loss)

    result = launch_local_cluster(
        write_config(tmp_path, config), 2, tmp_path / "run", join_timeout_s=120, on_event=on_event
    )
    assert result.ok, result.failure
    assert [w.state for w in result.workers] == [FINISHED, FINISHED]
    assert len(losses[0]) == 2 and losses[0] == pytest.approx(losses[1], rel=1e-6)


def test_model_summary_of_a_python_dataset_example():
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "engine.cli",
            "model-summary",
            "--config",
            str(resource_path("examples", "data-python.json")),
            "--replicas",
            "2",
            "--json",
        ],
        cwd=REPO,
        env=env(),
        capture_output=True,
        text=True,
        timeout=240,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    summary = json.loads(proc.stdout.strip().splitlines()[-1])
    assert summary["input_shape"] == [8] and summary["output_units"] == 1 and summary["per_replica_batch"] == 64
    assert summary["total_params"] == 8 * 32 + 32 + 32 * 16 + 16 + 16 + 1
    memory = summary["memory_bytes"]
    assert memory["optimizer"] == 2 * memory["gradients"]  # Adam: two slots per weight
