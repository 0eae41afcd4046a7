"""The two training loops: Keras `model.fit` and a custom `strategy.run` loop.

Both receive the same `Session` (strategy, model, optimizer, data, progress)
and differ only in how steps run. Both run several steps per `tf.function`
call (Python overhead dominates small models: FACTS.md 6) and look at the
stop request between calls. Each returns "completed" or "stopped".
With steps_per_execution "auto", the custom loop sizes its calls itself
(`CallSizer`); fit and cluster workers get a fixed size (Trainer._steps_per_execution).
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

from engine.config import RunConfig
from engine.data import Arrays, Datasets
from engine.models import build_loss_and_metric
from engine.progress import Progress


@dataclass
class Session:
    """Everything a loop needs; built once by the trainer."""

    config: RunConfig
    tf: Any
    keras: Any
    strategy: Any
    model: Any
    optimizer: Any
    arrays: Arrays
    datasets: Datasets
    progress: Progress
    steps_per_execution: int | None  # None: "auto", tuned by the custom loop's CallSizer
    start_epoch: int
    start_step: int

    @property
    def global_batch_size(self) -> int:
        return self.config.global_batch_size


# ---- custom loop ------------------------------------------------------------------


class CallSizer:
    """How many steps the next call runs: fixed, or "auto".

    Auto grows the call while calls are short and shrinks it when they are
    long, aiming at TARGET_S per call: long enough that Python's per-call
    overhead vanishes for a tiny model, short enough that the plots move and
    a stop is honoured within a fraction of a second for a big one. The first
    call of a run is not measured: it holds the tracing.
    """

    TARGET_S = 0.1
    START, LIMIT = 4, 1024

    def __init__(self, fixed: int | None):
        self.fixed = fixed
        self.size = fixed or self.START
        self._first = True

    def next(self, remaining: int) -> int:
        return min(self.size, remaining)

    def observe(self, steps: int, seconds: float) -> None:
        if self.fixed or self._first:
            self._first = False
            return
        if seconds < self.TARGET_S / 2 and steps == self.size:
            self.size = min(self.size * 2, self.LIMIT)
        elif seconds > self.TARGET_S * 2 and self.size > 1:
            self.size //= 2



def _correct_count(tf: Any, binary: bool, labels: Any, logits: Any) -> Any:
    if binary:
        predicted = tf.cast(logits > 0, tf.float32)
    else:
        predicted = tf.cast(tf.argmax(logits, axis=-1, output_type=tf.int32), labels.dtype)
    return tf.reduce_sum(tf.cast(tf.equal(predicted, labels), tf.float32))


class CustomLoop:
    """strategy.run + strategy.reduce over a distributed dataset, the tutorial done right.

    Batches come from `experimental_distribute_dataset`, so each replica sees
    global / replicas examples (the tutorial fed every replica the whole batch,
    FACTS.md 5); the per-example loss is averaged over the *global* batch by
    `tf.nn.compute_average_loss`, and summing the replicas' losses gives the
    batch mean.
    """

    def __init__(self, s: Session):
        self.s = s
        tf, strategy = s.tf, s.strategy
        binary = s.arrays.binary
        global_batch = s.global_batch_size
        with strategy.scope():
            loss_object, _ = build_loss_and_metric(s.arrays.num_classes, s.keras, s.keras.losses.Reduction.NONE)
        model, optimizer = s.model, s.optimizer
        scales_loss = hasattr(optimizer, "get_scaled_loss")  # LossScaleOptimizer under float16

        def train_step(features: Any, labels: Any) -> tuple[Any, Any]:
            with tf.GradientTape() as tape:
                logits = model(features, training=True)
                loss = tf.nn.compute_average_loss(loss_object(labels, logits), global_batch_size=global_batch)
                if model.losses:
                    loss += tf.nn.scale_regularization_loss(tf.add_n(model.losses))
                scaled = optimizer.get_scaled_loss(loss) if scales_loss else loss
            grads = tape.gradient(scaled, model.trainable_variables)
            if scales_loss:
                grads = optimizer.get_unscaled_gradients(grads)
            optimizer.apply_gradients(zip(grads, model.trainable_variables))
            return loss, _correct_count(tf, binary, labels, logits)

        @tf.function
        def train_steps(iterator: Any, n: Any) -> tuple[Any, Any]:
            """n steps in one call; every step's loss and accuracy come back."""
            losses = tf.TensorArray(tf.float32, size=n)
            accuracies = tf.TensorArray(tf.float32, size=n)
            for i in tf.range(n):
                loss, correct = strategy.run(train_step, args=next(iterator))
                losses = losses.write(i, strategy.reduce("SUM", loss, axis=None))
                accuracies = accuracies.write(i, strategy.reduce("SUM", correct, axis=None) / global_batch)
            return losses.stack(), accuracies.stack()

        def eval_step(features: Any, labels: Any) -> tuple[Any, Any, Any]:
            logits = model(features, training=False)
            return (tf.reduce_sum(loss_object(labels, logits)), _correct_count(tf, binary, labels, logits),
                    tf.cast(tf.shape(labels)[0], tf.float32))

        @tf.function
        def evaluate_batch(batch: Any) -> list[Any]:
            return [strategy.reduce("SUM", t, axis=None) for t in strategy.run(eval_step, args=batch)]

        self._train_steps = train_steps
        self._evaluate_batch = evaluate_batch

    def evaluate(self) -> tuple[float | None, float | None]:
        val = self.s.datasets.validation
        if val is None:
            return None, None
        loss_sum = correct = count = 0.0
        for batch in self.s.strategy.experimental_distribute_dataset(val):
            l, c, n = (float(t) for t in self._evaluate_batch(batch))
            loss_sum, correct, count = loss_sum + l, correct + c, count + n
        return loss_sum / count, correct / count

    def run(self) -> str:
        s, tf, p = self.s, self.s.tf, self.s.progress
        sizer = CallSizer(s.steps_per_execution)
        for epoch in range(s.start_epoch, s.config.epochs):
            first = s.start_step if epoch == s.start_epoch else 0
            p.begin_epoch(epoch, first)
            iterator = iter(s.strategy.experimental_distribute_dataset(s.datasets.train(epoch, first)))
            while p.step < p.steps_per_epoch:
                if p.should_stop():
                    return "stopped"
                n = sizer.next(p.steps_per_epoch - p.step)
                t0 = time.perf_counter()
                losses, accuracies = self._train_steps(iterator, tf.constant(n))
                losses, accuracies = losses.numpy(), accuracies.numpy()  # waits for the call
                seconds = time.perf_counter() - t0
                sizer.observe(n, seconds)
                p.after_steps(losses, accuracies, seconds)
            val_loss, val_accuracy = self.evaluate()
            p.end_epoch(val_loss=val_loss, val_accuracy=val_accuracy)
        return "completed"


# ---- fit loop ---------------------------------------------------------------------


def _fit_bridge(s: Session) -> Any:
    """A tf-keras callback that feeds `Progress` and honours the stop request.

    tf-keras logs running epoch means, called once per `steps_per_execution`
    steps; the mean of just the latest steps is recovered from two running
    means (sum_now - sum_before) / steps.
    """
    p = s.progress

    class FitBridge(s.keras.callbacks.Callback):
        def on_epoch_begin(self, epoch: int, logs: Any = None) -> None:
            self.seen, self.loss_sum, self.acc_sum = 0, 0.0, 0.0
            self.t0 = time.perf_counter()

        def on_train_batch_end(self, batch: int, logs: Any = None) -> None:
            done = batch + 1
            k = done - self.seen
            loss_sum, acc_sum = float(logs["loss"]) * done, float(logs["accuracy"]) * done
            now = time.perf_counter()
            p.after_steps([(loss_sum - self.loss_sum) / k], [(acc_sum - self.acc_sum) / k], now - self.t0, steps_each=k)
            self.seen, self.loss_sum, self.acc_sum, self.t0 = done, loss_sum, acc_sum, now
            if p.should_stop():
                self.model.stop_training = True

    return FitBridge()


class FitLoop:
    """Keras `model.fit`, one call per epoch so each epoch has its fixed, skippable order."""

    def __init__(self, s: Session):
        self.s = s
        with s.strategy.scope():
            loss, metric = build_loss_and_metric(s.arrays.num_classes, s.keras)
            s.model.compile(optimizer=s.optimizer, loss=loss, metrics=[metric],
                            steps_per_execution=s.steps_per_execution)
        self._bridge = _fit_bridge(s)

    def run(self) -> str:
        s, p = self.s, self.s.progress
        for epoch in range(s.start_epoch, s.config.epochs):
            first = s.start_step if epoch == s.start_epoch else 0
            p.begin_epoch(epoch, first)
            if p.should_stop():
                return "stopped"
            history = s.model.fit(s.datasets.train(epoch, first), initial_epoch=epoch, epochs=epoch + 1,
                                  validation_data=s.datasets.validation, callbacks=[self._bridge], verbose=0)
            if p.step < p.steps_per_epoch:
                return "stopped"
            logs = {k: v[-1] for k, v in history.history.items()}
            p.end_epoch(loss=logs["loss"], accuracy=logs["accuracy"],
                        val_loss=logs.get("val_loss"), val_accuracy=logs.get("val_accuracy"))
        return "completed"
