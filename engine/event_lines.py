"""A run's events as the lines of its log: one line per epoch, per checkpoint, per start and end.

The window's log and `tfdd train` print the same words; TF-free and Qt-free.
"""

from __future__ import annotations

from engine import events as ev


def _number(value: float | None, digits: int = 4) -> str:
    return "n/a" if value is None else f"{value:.{digits}f}"


def run_started_line(event: ev.RunStarted) -> str:
    where = f"epoch {event.start_epoch + 1}, step {event.start_step}" if event.start_epoch or event.start_step else ""
    resumed = f"; resuming at {where}" if where else ""
    return (
        f"{event.strategy}: {event.num_replicas} replica(s) on {', '.join(event.devices)}; "
        f"global batch {event.global_batch_size} = {event.per_replica_batch_size} per replica; "
        f"{event.loop} loop; {event.epochs} epoch(s) of {event.steps_per_epoch} steps{resumed}"
    )


def epoch_line(event: ev.EpochEnd, epochs: int = 0) -> str:
    """e.g. "epoch 3/10: loss 0.4123, accuracy 0.8120, val loss 0.4500, val accuracy 0.8000,
    71,213 examples/s, 1.4 s"."""
    of = f"/{epochs}" if epochs else ""
    val = ""
    if event.val_loss is not None or event.val_accuracy is not None:
        val = f", val loss {_number(event.val_loss)}, val accuracy {_number(event.val_accuracy)}"
    return (
        f"epoch {event.epoch}{of}: loss {_number(event.loss)}, accuracy {_number(event.accuracy)}{val}, "
        f"{event.examples_per_sec:,.0f} examples/s, {event.seconds:.1f} s"
    )


def checkpoint_line(event: ev.CheckpointSaved) -> str:
    """Where the checkpoint stands: after a whole epoch, or inside one (a stop, or every N steps)."""
    if event.step == 0:
        where = f"after epoch {event.epoch}" if event.epoch else "before the first epoch"
    else:
        where = f"at epoch {event.epoch + 1}, step {event.step}"
    return f"checkpoint saved {where}: {event.path}"


def evaluation_line(event: ev.Evaluation) -> str:
    """A cluster's evaluator task on one checkpoint, e.g. "ckpt-2 (epoch 2, step 0): val loss 0.4500,
    val accuracy 0.8000"."""
    checkpoint = event.checkpoint.replace("\\", "/").rpartition("/")[2]
    return (
        f"{checkpoint} (epoch {event.epoch}, step {event.step}): val loss {_number(event.val_loss)}, "
        f"val accuracy {_number(event.val_accuracy)}"
    )


def end_line(event: ev.RunFinished | ev.RunFailed) -> str:
    if isinstance(event, ev.RunFailed):
        return f"run failed after {event.epochs_completed} epoch(s): {event.message}"
    return f"run {event.status} after {event.epochs_completed} epoch(s)"
