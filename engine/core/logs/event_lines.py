"""A run's events as the lines of its log: one line per epoch, per checkpoint, per start and end.

The window's log and `tfdd train` print the same words; TF-free and Qt-free.
Every line is an `engine.core.messages.Message`: English text for the command
line, with its template and parameters for the window to translate.
Numbers are formatted here, once, so every language shows the same digits.
"""

from __future__ import annotations

from engine.core import anatomy
from engine.core import events as ev
from engine.core.messages import Message, msg


def _number(value: float | None, digits: int = 4) -> str:
    return msg("n/a") if value is None else f"{value:.{digits}f}"


def run_started_line(event: ev.RunStarted) -> Message:
    resumed = (
        msg("; resuming at epoch {epoch}, step {step}", epoch=event.start_epoch + 1, step=event.start_step)
        if event.start_epoch or event.start_step
        else ""
    )
    return msg(
        "{strategy}: {replicas} replica(s) on {devices}; global batch {global_batch} = {per_replica} per replica; "
        "{loop} loop; {epochs} epoch(s) of {steps} steps{resumed}",
        strategy=event.strategy,
        replicas=event.num_replicas,
        devices=", ".join(event.devices),
        global_batch=event.global_batch_size,
        per_replica=event.per_replica_batch_size,
        loop=event.loop,
        epochs=event.epochs,
        steps=event.steps_per_epoch,
        resumed=resumed,
    )


def epoch_line(event: ev.EpochEnd, epochs: int = 0) -> Message:
    """e.g. "epoch 3/10: loss 0.4123, accuracy 0.8120, val loss 0.4500, val accuracy 0.8000,
    71,213 examples/s, 1.4 s"."""
    val = ""
    if event.val_loss is not None or event.val_accuracy is not None:
        val = msg(
            ", val loss {val_loss}, val accuracy {val_accuracy}",
            val_loss=_number(event.val_loss),
            val_accuracy=_number(event.val_accuracy),
        )
    return msg(
        "epoch {epoch}{of}: loss {loss}, accuracy {accuracy}{val}, {rate} examples/s, {seconds} s",
        epoch=event.epoch,
        of=f"/{epochs}" if epochs else "",
        loss=_number(event.loss),
        accuracy=_number(event.accuracy),
        val=val,
        rate=f"{event.examples_per_sec:,.0f}",
        seconds=f"{event.seconds:.1f}",
    )


def checkpoint_line(event: ev.CheckpointSaved) -> Message:
    """Where the checkpoint stands: after a whole epoch, or inside one (a stop, or every N steps)."""
    if event.step != 0:
        return msg(
            "checkpoint saved at epoch {epoch}, step {step}: {path}",
            epoch=event.epoch + 1,
            step=event.step,
            path=event.path,
        )
    if event.epoch:
        return msg("checkpoint saved after epoch {epoch}: {path}", epoch=event.epoch, path=event.path)
    return msg("checkpoint saved before the first epoch: {path}", path=event.path)


def evaluation_line(event: ev.Evaluation) -> Message:
    """A cluster's evaluator task on one checkpoint, e.g. "ckpt-2 (epoch 2, step 0): val loss 0.4500,
    val accuracy 0.8000"."""
    return msg(
        "{checkpoint} (epoch {epoch}, step {step}): val loss {val_loss}, val accuracy {val_accuracy}",
        checkpoint=event.checkpoint.replace("\\", "/").rpartition("/")[2],
        epoch=event.epoch,
        step=event.step,
        val_loss=_number(event.val_loss),
        val_accuracy=_number(event.val_accuracy),
    )


def end_line(event: ev.RunFinished | ev.RunFailed) -> Message:
    if isinstance(event, ev.RunFailed):
        return msg(
            "run failed after {epochs} epoch(s): {message}", epochs=event.epochs_completed, message=event.message
        )
    return msg("run {status} after {epochs} epoch(s)", status=event.status, epochs=event.epochs_completed)


def profile_line(event: ev.ProfileSaved) -> Message:
    """Where a profile was written and how to open it."""
    return msg(
        "profile of steps {first}-{last}{task} written to {path}; to view it: pip install "
        "tensorboard-plugin-profile, then tensorboard --logdir {logdir} (the Profile tab)",
        first=event.first_step,
        last=event.last_step,
        task=f" ({event.task})" if event.task else "",
        path=event.path,
        logdir=event.logdir,
    )


def task_line(event: ev.Evaluation | ev.ProfileSaved) -> Message:
    """What a cluster task reports beside its steps: an evaluation, or a profile written."""
    return evaluation_line(event) if isinstance(event, ev.Evaluation) else profile_line(event)


class EpochLines:
    """A terminal's lines for a run's epochs: each epoch's line and, under it, the step anatomy measured in
    that epoch (the latest of its step_anatomy events); `tfdd train` and `tfdd cluster launch` print them."""

    def __init__(self, epochs: int = 0) -> None:
        self.epochs = epochs
        self.anatomy: ev.StepAnatomy | None = None  # the latest step_anatomy event

    def __call__(self, event: ev.Event) -> list[str]:
        """The lines `event` adds (none for most events)."""
        if isinstance(event, ev.StepAnatomy):
            self.anatomy = event
        if not isinstance(event, ev.EpochEnd):
            return []
        lines = [str(epoch_line(event, self.epochs))]
        if self.anatomy is not None and self.anatomy.epoch == event.epoch:
            lines.append(f"  {anatomy.summary_line(self.anatomy)}")
        return lines
