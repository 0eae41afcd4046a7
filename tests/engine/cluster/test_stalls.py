"""A real task whose input pipeline blocks: the launcher names it and py-spy shows where it waits."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine import events as ev
from engine.cluster.launcher import launch_cluster
from engine.config import DataConfig, RunConfig
from engine.stacks import python_stacks
from engine.tfconfig import local_cluster

pytestmark = [pytest.mark.slow, pytest.mark.timeout(300)]
BLOCK_AFTER = 3 * 32  # examples: three steps of a global batch of 32 on one worker

DATASET = """
import os
import time

import numpy as np
import tensorflow as tf

HELD, RELEASE = {held!r}, {release!r}


def hold_here_until_released():
    open(HELD, "w").close()
    while not os.path.exists(RELEASE):
        time.sleep(0.05)


def examples():
    rng = np.random.default_rng(0)
    for i in range(10**9):
        if i == {block_after}:
            hold_here_until_released()
        yield rng.standard_normal(4).astype("float32"), np.int64(i % 2)


def make_dataset(input_context):
    signature = (tf.TensorSpec((4,), tf.float32), tf.TensorSpec((), tf.int64))
    return tf.data.Dataset.from_generator(examples, output_signature=signature)
"""


def test_a_task_whose_input_blocks_is_named_with_its_python_stacks(tmp_path: Path) -> None:
    held, release = tmp_path / "held", tmp_path / "release"
    source = tmp_path / "blocking_data.py"
    source.write_text(DATASET.format(held=str(held), release=str(release), block_after=BLOCK_AFTER))
    config = RunConfig(
        strategy="multi_worker_mirrored",
        epochs=1,
        global_batch_size=32,
        validation_split=0.0,
        data=DataConfig(kind="python", path=str(source), num_samples=256, num_classes=2),
    )
    config_path = tmp_path / "run.json"
    config.save(config_path)
    stalls: list[ev.TaskStalled] = []
    stacks: list = []

    def on_event(task, event) -> None:
        if not isinstance(event, ev.TaskStalled):
            return
        stalls.append(event)
        if not event.resumed and held.exists() and not release.exists():  # not a slow start: the real stall
            stacks.append(python_stacks(event.pid))
            release.touch()

    result = launch_cluster(
        local_cluster(1), config_path, tmp_path / "run", join_timeout_s=120, on_event=on_event, stall_s=3.0
    )
    assert result.ok, result.failure
    assert release.exists(), f"no stall reported while the pipeline was held: {stalls}"
    stalled = [s for s in stalls if not s.resumed][-1]
    assert stalled.worker == "worker-0" and stalled.pid == result.workers[0].pid
    assert stalled.idle_s > 3.0 and stalled.threshold_s == 3.0
    assert any(s.resumed for s in stalls)  # its steps went on once released
    [dump] = stacks
    if not dump.ok and "may not attach" in dump.text:
        pytest.skip(f"py-spy cannot attach here (ptrace): {dump.text}")
    assert dump.ok, dump.text
    assert "hold_here_until_released" in dump.text
