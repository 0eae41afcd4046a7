"""The TensorBoard sink writes on a thread of its own; the run's last event returns once all is written."""

from __future__ import annotations

import threading

from engine.core import events as ev
from engine.train.tensorboard_sink import TensorBoardSink
from engine.train.tf_runtime import tf


def scalars_written(folder) -> dict[str, list[int]]:
    """tag -> the steps it was written at, read back from the event files."""
    tags: dict[str, list[int]] = {}
    for path in sorted(folder.glob("events.out.tfevents.*")):
        for record in tf.data.TFRecordDataset(str(path)):
            event = tf.compat.v1.Event.FromString(record.numpy())
            for value in event.summary.value:
                tags.setdefault(value.tag, []).append(event.step)
    return tags


def test_every_scalar_is_in_the_file_when_the_last_event_returns_and_the_training_thread_wrote_none(tmp_path):
    sink = TensorBoardSink(tmp_path)
    written_on: set[str] = set()
    scalar = tf.summary.scalar

    def watched(*args, **kwargs):  # the real writer, told which thread called it
        written_on.add(threading.current_thread().name)
        return scalar(*args, **kwargs)

    tf.summary.scalar = watched
    try:
        sink(
            ev.RunStarted(
                strategy="mirrored",
                num_replicas=1,
                devices=["CPU:0"],
                global_batch_size=8,
                per_replica_batch_size=8,
                loop="custom",
                epochs=2,
                steps_per_epoch=2,
                steps_per_execution=0,
                run_dir=str(tmp_path),
            )
        )
        for epoch in (1, 2):
            for step in (1, 2):  # the second batch event of each epoch falls within BATCH_INTERVAL_S: thinned
                sink(
                    ev.BatchEnd(
                        epoch=epoch,
                        step=step,
                        global_step=2 * epoch + step - 2,
                        loss=0.5,
                        accuracy=0.5,
                        examples_per_sec=1.0,
                        time=epoch + step / 100,
                    )
                )
            sink(ev.EpochEnd(epoch=epoch, loss=0.5, accuracy=0.5, seconds=1.0, examples_per_sec=10.0))
        sink(ev.RunFinished(status="completed", epochs_completed=2, run_dir=str(tmp_path)))
    finally:
        tf.summary.scalar = scalar
    tags = scalars_written(tmp_path)
    assert tags["batch/loss"] == [1, 3] and tags["epoch/loss"] == [1, 2] and tags["epoch/examples_per_sec"] == [1, 2]
    assert written_on == {"tensorboard-writer"}
