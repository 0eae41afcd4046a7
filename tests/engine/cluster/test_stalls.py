"""A real task whose input pipeline blocks: the launcher names it and py-spy shows where it waits."""

from __future__ import annotations

import subprocess
import threading
from pathlib import Path

import pytest

from engine.cluster.launcher import launch_cluster
from engine.core import events as ev
from engine.core.config import DataConfig, RunConfig
from engine.core.logs.stacks import python_stacks
from engine.core.protocol.commands import cli_command
from engine.core.tfconfig import local_cluster

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


def examples(held):
    rng = np.random.default_rng(0)
    for i in range(10**9):
        if held and i == {block_after}:
            hold_here_until_released()
        yield rng.standard_normal(4).astype("float32"), np.int64(i % 2)


def make_dataset(input_context):
    signature = (tf.TensorSpec((4,), tf.float32), tf.TensorSpec((), tf.int64))
    held = input_context.input_pipeline_id == input_context.num_input_pipelines - 1  # the last worker's
    return tf.data.Dataset.from_generator(lambda: examples(held), output_signature=signature)
"""


def blocking_run(tmp_path: Path, **settings) -> Path:
    """A multi_worker_mirrored config whose last worker's input blocks after BLOCK_AFTER examples until
    tmp_path/release exists (tmp_path/held says it is blocked). One step a call: its first steps are seen
    before it blocks, so a slow start reported as a stall (a busy machine) is over before the real one."""
    source = tmp_path / "blocking_data.py"
    source.write_text(
        DATASET.format(held=str(tmp_path / "held"), release=str(tmp_path / "release"), block_after=BLOCK_AFTER)
    )
    config = RunConfig(
        strategy="multi_worker_mirrored",
        epochs=1,
        global_batch_size=32,
        validation_split=0.0,
        data=DataConfig(kind="python", path=str(source), num_samples=256, num_classes=2),
        **{"steps_per_execution": 1, **settings},
    )
    config.save(tmp_path / "run.json")
    return tmp_path / "run.json"


def test_a_task_whose_input_blocks_is_named_with_its_python_stacks(tmp_path: Path) -> None:
    held, release = tmp_path / "held", tmp_path / "release"
    config_path = blocking_run(tmp_path)
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


def test_a_collective_timeout_ends_a_hung_all_reduce(tmp_path: Path) -> None:
    config_path = blocking_run(tmp_path, collective_timeout_s=5.0)
    stalls: list[ev.TaskStalled] = []
    result = launch_cluster(
        local_cluster(2),
        config_path,
        tmp_path / "run",
        join_timeout_s=120,
        on_event=lambda task, event: stalls.append(event) if isinstance(event, ev.TaskStalled) else None,
        stall_s=60.0,
    )
    assert (tmp_path / "held").exists()
    assert not result.ok and result.workers[0].state == "failed"
    assert "worker 0" in result.failure and "Collective has timed out" in result.workers[0].message
    peer = result.workers[1]
    assert f"it waited for a peer, and still running were: worker 1 (pid {peer.pid}, no step for " in result.failure


def test_cluster_launch_prints_the_stalled_task_and_its_stacks(tmp_path: Path) -> None:
    config_path = blocking_run(tmp_path)
    command = cli_command("cluster", "launch", "--workers", "1", "--config", str(config_path))
    command += ["--run-dir", str(tmp_path / "run"), "--stall-seconds", "3"]
    proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    lines: list[str] = []

    def read() -> None:
        for line in proc.stdout:  # type: ignore[union-attr]
            lines.append(line.rstrip("\n"))
            said = "\n".join(lines)
            if (tmp_path / "held").exists() and ("hold_here_until_released" in said or "may not attach" in said):
                (tmp_path / "release").touch()

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    try:
        assert proc.wait(timeout=240) == 0, "\n".join(lines)
    finally:
        proc.kill()
        reader.join(timeout=10)
    out = "\n".join(lines)
    assert "warning: worker-0: no step for " in out and "; its Python stacks:" in out, out
    if "may not attach" in out:
        pytest.skip(f"py-spy cannot attach here (ptrace): {out}")
    assert "hold_here_until_released" in out
    assert out.index("hold_here_until_released") < out.rindex("worker-0: stepping again")
