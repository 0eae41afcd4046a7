"""A sweep in TensorBoard's HParams dashboard: the space at the sweep's folder, each trial's values in its run.

`tensorboard --logdir SWEEP_DIR` then lists every trial with its parameters beside the objective, which the
trainer already writes as `epoch/<metric>` scalars in the trial's tensorboard/ folder. TensorBoard's own
protobuf helpers and record format are used; the file is written here, since TensorBoard's own
EventFileWriter opens files through TensorFlow (an import of 3–4 s in the sweep process).
"""

from __future__ import annotations

import os
import socket
import time
from pathlib import Path
from typing import Any

from tensorboard.compat.proto import event_pb2
from tensorboard.plugins.hparams import summary_v2 as hp
from tensorboard.summary.writer.record_writer import RecordWriter

from engine.core.protocol.paths import RunPaths
from engine.core.sweep.space import Parameter, SweepSpace

OBJECTIVE_TAG = "epoch/{objective}"  # the trainer's TensorBoard sink names epoch scalars so


def _hparam(p: Parameter) -> hp.HParam:
    if p.distribution == "choice":
        return hp.HParam(p.name, hp.Discrete([_plain(v) for v in p.values]))
    if p.distribution == "int":
        return hp.HParam(p.name, hp.IntInterval(int(p.values[0]), int(p.values[1])))
    return hp.HParam(p.name, hp.RealInterval(float(p.values[0]), float(p.values[1])))


def _plain(value: Any) -> bool | float | str:
    """HParams take numbers, booleans and text: a list such as hidden units is shown as its text."""
    if isinstance(value, bool | str):
        return value
    if isinstance(value, int | float):
        return float(value)
    return str(list(value))


def _write(directory: Path, summary: Any) -> None:
    """One events file holding `summary`, named as TensorBoard names its own."""
    directory.mkdir(parents=True, exist_ok=True)
    now = time.time()
    name = f"events.out.tfevents.{now:.0f}.{socket.gethostname()}.{os.getpid()}.hparams"
    with open(directory / name, "wb") as f:
        records = RecordWriter(f)
        records.write(event_pb2.Event(wall_time=now, file_version="brain.Event:2").SerializeToString())
        records.write(event_pb2.Event(wall_time=now, summary=summary).SerializeToString())


def write_space(sweep_dir: Path, space: SweepSpace) -> None:
    """The parameters and the objective, once, at the sweep's folder (the dashboard's columns)."""
    metrics = [hp.Metric(OBJECTIVE_TAG.format(objective=name)) for name in ("val_loss", "val_accuracy", "loss")]
    _write(sweep_dir, hp.hparams_config_pb([_hparam(p) for p in space.parameters], metrics))


def write_trial(run_dir: Path, params: dict[str, Any]) -> None:
    """One trial's values, in its run's tensorboard/ folder beside the scalars the trainer wrote."""
    _write(
        RunPaths(run_dir).tensorboard, hp.hparams_pb({k: _plain(v) for k, v in params.items()}, trial_id=run_dir.name)
    )
