"""How one block of training steps runs: a custom `strategy.run` loop, or Keras `model.fit`.

The controller (engine.train.controller) owns everything around the steps:
epochs, resume, evaluation, checkpoints, stop and events. Both loops get the
same `Session` and differ only in how a block of steps runs and reports back.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable, Generator
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, Literal

from engine.core.config import RunConfig
from engine.train.controller import Controller
from engine.train.datasets import InputSource
from engine.train.models import build_loss_and_metric
from engine.train.retire import retired
from engine.train.tf_runtime import convert_ahead, inner_function, keras, tf


@dataclass
class Session:
    """What a loop trains: built once by the trainer, inside the strategy's scope where it matters."""

    config: RunConfig
    strategy: Any
    model: Any
    optimizer: Any
    source: InputSource
    from_logits: bool  # False when the model ends in softmax/sigmoid (a user's model)
    steps_per_execution: int | None  # fixed steps per call, or None when the controller's policy tunes them

    @property
    def global_batch_size(self) -> int:
        return self.config.global_batch_size


# ---- custom loop ------------------------------------------------------------------


class ValidationPass:
    """Validation by strategy.run over every validation example: sums of per-example losses and of
    right answers, divided by the examples seen. It needs no count in advance, so it also serves a
    python dataset's validation function (whose size is unknown) under the fit loop."""

    def __init__(self, s: Session):
        self.s = s
        strategy, binary = s.strategy, s.source.binary
        threshold = 0.0 if s.from_logits else 0.5
        loss_object = _loss_object(s)
        model = s.model

        def eval_step(features: Any, labels: Any) -> tuple[Any, Any, Any]:
            return validation_sums(model, loss_object, binary, features, labels, threshold)

        @tf.function
        def evaluate_batch(batch: Any) -> list[Any]:
            return [strategy.reduce("SUM", t, axis=None) for t in strategy.run(eval_step, args=batch)]

        self._evaluate_batch = evaluate_batch

    def evaluate(self) -> tuple[float | None, float | None]:
        val = self.s.source.distributed_validation(self.s.strategy)
        if val is None:
            return None, None
        loss_sum = correct = count = 0.0
        with retired([iter(val)]) as held:  # destroying it here can take seconds (engine.train.retire)
            for batch in held[0]:
                batch_loss, batch_correct, n = (float(t) for t in self._evaluate_batch(batch))
                loss_sum, correct, count = loss_sum + batch_loss, correct + batch_correct, count + n
        return loss_sum / count, correct / count


def right_answers(binary: bool, labels: Any, logits: Any, threshold: float) -> Any:
    """Whether each example's prediction is its label (bool, one an example): a logit or probability
    beyond `threshold` predicts class 1 of a binary label (0. or 1.), else the largest logit's class."""
    if binary:
        return tf.equal(logits > threshold, labels > 0.5)
    return tf.equal(tf.cast(tf.argmax(logits, axis=-1, output_type=tf.int32), labels.dtype), labels)


def _correct_count(binary: bool, labels: Any, logits: Any, threshold: float) -> Any:
    return tf.reduce_sum(tf.cast(right_answers(binary, labels, logits, threshold), tf.float32))


def validation_sums(
    model: Any, loss_object: Any, binary: bool, features: Any, labels: Any, threshold: float = 0.0
) -> tuple[Any, Any, Any]:
    """(summed loss, correct predictions, examples) of one validation batch; averaged by the caller.
    `threshold`: a binary prediction's cut, 0 for a logit, 0.5 for a probability."""
    logits = tf.cast(model(features, training=False), tf.float32)
    return (
        tf.reduce_sum(loss_object(labels, logits)),
        _correct_count(binary, labels, logits, threshold),
        tf.cast(tf.shape(labels)[0], tf.float32),
    )


def replica_train_step(s: Session, loss_object: Any) -> Any:
    """One replica's step: forward, the loss averaged over the *global* batch, gradients, update.

    Returns a function (features, labels) -> (loss, right answers: `right_answers`) for `strategy.run`;
    block_of_steps runs it for both the custom loop and the parameter-server loop. The right answers are
    counted once per call (`each_step`): a small model's step is short enough for their counting to show.
    """
    model, optimizer = s.model, s.optimizer
    binary, global_batch = s.source.binary, s.global_batch_size
    threshold = 0.0 if s.from_logits else 0.5  # a logit above 0, or a probability above 0.5
    scales_loss = hasattr(optimizer, "get_scaled_loss")  # LossScaleOptimizer under float16

    def train_step(features: Any, labels: Any) -> tuple[Any, Any]:
        with tf.GradientTape() as tape:
            logits = tf.cast(model(features, training=True), tf.float32)
            loss = tf.nn.compute_average_loss(loss_object(labels, logits), global_batch_size=global_batch)
            if model.losses:
                loss += tf.nn.scale_regularization_loss(tf.add_n(model.losses))
            scaled = optimizer.get_scaled_loss(loss) if scales_loss else loss
        grads = tape.gradient(scaled, model.trainable_variables)
        if scales_loss:
            grads = optimizer.get_unscaled_gradients(grads)
        optimizer.apply_gradients(zip(grads, model.trainable_variables))  # noqa: B905 - AutoGraph rejects strict=
        return loss, right_answers(binary, labels, logits, threshold)

    return with_xla(s, train_step)


def with_xla(s: Session, replica_step: Callable[..., Any]) -> Callable[..., Any]:
    """One replica's step, XLA-compiled when the config asks (as tf-keras's compile(jit_compile=True) does:
    the loop around the step reads a tf.data iterator, which XLA cannot compile)."""
    return tf.function(replica_step, jit_compile=True) if s.config.jit_compile else replica_step


def _loss_object(s: Session) -> Any:
    """The per-example loss (no reduction: the loops average over the global batch themselves)."""
    with s.strategy.scope():
        loss_object, _ = build_loss_and_metric(
            s.source.num_classes, keras.losses.Reduction.NONE, from_logits=s.from_logits
        )
    return loss_object


def each_step(strategy: Any, global_batch: int, n: Any, step: Callable[[Any], Any]) -> tuple[Any, Any]:
    """Every step's loss and accuracy over n steps in a `tf.range` loop; `step(i)` runs step i by
    strategy.run and gives its per-replica (loss, right answers). Each step keeps its loss, summed over this
    worker's replicas, and their right answers; the answers are counted after the loop, and both are summed
    over the workers then: once a call, not once a step."""
    losses = tf.TensorArray(tf.float32, size=n, element_shape=[])
    rights = tf.TensorArray(tf.bool, size=n)
    for i in tf.range(n):
        loss, right = step_results(strategy, step(i))
        losses = losses.write(i, loss)
        rights = rights.write(i, right)
    counts = tf.reduce_sum(tf.reshape(tf.cast(rights.stack(), tf.float32), [n, -1]), axis=1)
    step_losses, step_counts = summed_over_workers(strategy, [losses.stack(), counts])
    return step_losses, step_counts / global_batch


def step_results(strategy: Any, outputs: tuple[Any, Any]) -> tuple[Any, Any]:
    """One step's loss summed over this worker's replicas (each is a share of the global batch's mean; the
    replicas' losses are added as `strategy.reduce` adds them, by an AddN), and their right answers side by
    side."""
    losses, rights = (strategy.experimental_local_results(value) for value in outputs)
    return tf.add_n(losses), tf.concat(rights, axis=0)


def summed_over_workers(strategy: Any, local: list[Any]) -> list[Any]:
    """`local`, tensors of this worker's, summed over the workers of a MultiWorkerMirroredStrategy (one
    all-reduce, to which each worker's first replica gives them and the others zeros); as they are otherwise
    (one worker, or a parameter-server closure, whose steps are its own)."""
    if not isinstance(strategy, tf.distribute.MultiWorkerMirroredStrategy):
        return local
    local_replicas = len(strategy.extended.worker_devices)

    def all_reduce() -> Any:
        context = tf.distribute.get_replica_context()
        first = context.replica_id_in_sync_group % local_replicas == 0  # ids run worker by worker
        return context.all_reduce("SUM", [tf.where(first, t, tf.zeros_like(t)) for t in local])

    return list(strategy.experimental_local_results(strategy.run(all_reduce))[0])


def block_of_steps(s: Session) -> Callable[[Any, Any], tuple[Any, Any]]:
    """(iterator, n) -> every step's loss and accuracy, for n steps of strategy.run + strategy.reduce; the
    body of one `tf.function` call (the custom loop's, and each closure the parameter-server loop schedules)."""
    strategy, global_batch = s.strategy, s.global_batch_size
    train_step = replica_train_step(s, _loss_object(s))

    def train_steps(iterator: Any, n: Any) -> tuple[Any, Any]:
        def step(i: Any) -> Any:
            return strategy.run(train_step, args=next(iterator))

        return each_step(strategy, global_batch, n, step)

    return train_steps


def block_of_gathered_steps(s: Session, features: Any, labels: Any) -> Callable[[Any, Any, Any], tuple[Any, Any]]:
    """(order, first, n) -> as block_of_steps, for examples held in memory (`InputSource.in_memory`): step
    k's global batch is order[k * global_batch : (k + 1) * global_batch], and each replica gathers its
    slice of it on the host (the slices experimental_distribute_dataset would give it), so no tf.data
    iterator is made or read."""
    strategy, global_batch = s.strategy, s.global_batch_size
    per_replica = global_batch // strategy.num_replicas_in_sync
    train_step = replica_train_step(s, _loss_object(s))
    host = features.device

    def gathered_step(order: Any, start: Any) -> Any:
        with tf.device(host):
            at = start + tf.distribute.get_replica_context().replica_id_in_sync_group * per_replica
            index = tf.slice(order, [at], [per_replica])  # a static shape: the step's shape arithmetic folds away
            batch = tf.gather(features, index), tf.gather(labels, index)
        return train_step(*batch)

    def train_steps(order: Any, first: Any, n: Any) -> tuple[Any, Any]:
        def step(i: Any) -> Any:
            return strategy.run(gathered_step, args=(order, (first + i) * global_batch))

        return each_step(strategy, global_batch, n, step)

    return train_steps


def convert_loop_functions_ahead() -> None:
    """AutoGraph's conversions of the custom loop's traced functions, done by a warm trainer while it
    waits: parsing and rewriting their source was about 0.3 s of every run's first trace."""
    convert_ahead(
        [
            (inner_function(block_of_steps, "train_steps"), False),
            (inner_function(block_of_gathered_steps, "train_steps"), False),
            (inner_function(block_of_gathered_steps, "gathered_step"), True),
            (each_step, True),
            (step_results, True),
            (summed_over_workers, True),
            (inner_function(summed_over_workers, "all_reduce"), True),
            (inner_function(replica_train_step, "train_step"), True),
            (right_answers, True),
            (_correct_count, True),
            (inner_function(ValidationPass.__init__, "evaluate_batch"), False),
            (inner_function(ValidationPass.__init__, "eval_step"), True),
            (validation_sums, True),
        ]
    )


def _run_blocks(controller: Controller, call: Callable[[int], tuple[Any, Any]]) -> None:
    """Calls of `call(n)` (n steps: their losses and accuracies) in the sizes the controller asks, until it
    ends the epoch."""
    going = True
    while going:
        n = controller.block_size()
        t0 = time.perf_counter()
        losses, accuracies = call(n)
        losses, accuracies = losses.numpy(), accuracies.numpy()  # waits for the call
        going = controller.block_done(losses, accuracies, time.perf_counter() - t0)


class OrdersAhead:
    """Each epoch's order of the examples held in memory (`InputSource.order`), the next epoch's made on a thread
    while this one trains (NumPy's shuffle releases the GIL): made between two epochs, it was a noticeable share
    of a small model's short epoch (BENCHMARKS.md, "Engine against the ceiling")."""

    def __init__(self, source: InputSource, epochs: int):
        self._source, self._epochs = source, epochs
        self._pool = ThreadPoolExecutor(1, thread_name_prefix="epoch-order")
        self._next: tuple[int, Future[Any]] | None = None

    def take(self, epoch: int) -> Any:
        """Epoch `epoch`'s order as a tensor; the next epoch's is started."""
        ahead, self._next = self._next, None
        order = ahead[1].result() if ahead is not None and ahead[0] == epoch else self._make(epoch)
        if epoch + 1 < self._epochs:
            self._next = (epoch + 1, self._pool.submit(self._make, epoch + 1))
        else:
            self._pool.shutdown(wait=False)
        return order

    def _make(self, epoch: int) -> Any:
        return tf.constant(self._source.order(epoch))


class CustomLoop:
    """strategy.run + strategy.reduce over a distributed dataset, the tutorial done right.

    Batches come from `experimental_distribute_dataset`, so each replica sees
    global / replicas examples (the tutorial passed every replica the whole
    global batch, so with N replicas the loss was N times too large); the
    per-example loss is averaged over the *global* batch by
    `tf.nn.compute_average_loss`, and summing the replicas' losses gives the
    batch mean. Several steps run per `tf.function` call (a `tf.range` loop),
    every step's loss comes back. Examples held in memory skip tf.data: each
    replica gathers its slice of the step's batch (block_of_gathered_steps).
    """

    def __init__(self, s: Session):
        self.s = s
        held = s.source.in_memory()
        self._orders = OrdersAhead(s.source, s.config.epochs) if held is not None else None
        self._train_steps = tf.function(block_of_gathered_steps(s, *held) if held else block_of_steps(s))
        self._evaluator = ValidationPass(s)

    def train_epoch(self, epoch: int, first_step: int, controller: Controller) -> None:
        s = self.s
        train_steps = controller.timed(self._train_steps)  # timed for the step anatomy when it is measured
        if self._orders is not None:
            order = self._orders.take(epoch)
            _run_blocks(controller, lambda n: train_steps(order, tf.constant(controller.step), tf.constant(n)))
            return
        # destroyed here, the iterator held the epoch's end up by seconds (engine.train.retire)
        with retired([iter(s.source.distributed_train(s.strategy, epoch, first_step))]) as held:
            _run_blocks(controller, lambda n: train_steps(held[0], tf.constant(n)))

    def evaluate(self) -> tuple[float | None, float | None]:
        return self._evaluator.evaluate()


# ---- fit loop ---------------------------------------------------------------------


@contextlib.contextmanager
def iterator_retired(
    model: Any, kind: Literal["train", "test"], around: Callable[[Any], Any] = lambda call: call
) -> Generator[None, None, None]:
    """Around one `fit` (kind "train") or `evaluate` ("test"): retire the data iterator Keras makes.

    Keras drops it as the call returns, and destroying it there held each epoch's end up by
    seconds (engine.train.retire). So the model's `train_function`/`test_function`, the public
    hook Keras calls with the iterator and reuses while it is set, is wrapped for the call to
    keep a reference; the wrapper goes when the call ends, and the reference to the retirer. `around`
    wraps what the wrapper calls (the step anatomy's timer).
    """
    attribute = f"{kind}_function"
    function = model.make_train_function() if kind == "train" else model.make_test_function()
    call = around(function)
    with retired([]) as held:

        def holding(iterator: Any) -> Any:
            if not held:
                held.append(iterator)
            return call(iterator)

        setattr(model, attribute, holding)
        try:
            yield
        finally:
            setattr(model, attribute, function)


class FitBridge(keras.callbacks.Callback):
    """Hands each `steps_per_execution` block of fit to the controller and honours its answer.

    tf-keras logs running epoch means, once per block; the mean of just the
    latest block is recovered from two running means: (sum_now - sum_before) / steps.
    """

    def __init__(self, controller: Controller):
        super().__init__()
        self.controller = controller
        self.seen, self.loss_sum, self.acc_sum = 0, 0.0, 0.0
        self.t0 = time.perf_counter()

    def on_epoch_begin(self, epoch: int, logs: Any = None) -> None:
        """The clock starts once fit has distributed the data and made its iterator: the custom loop's
        clock starts after the same work, so both loops' examples/s time the steps alone (fit's
        set-up, a few tenths of a second per epoch here, is in the epoch's wall seconds)."""
        self.t0 = time.perf_counter()

    def on_train_batch_end(self, batch: int, logs: Any = None) -> None:
        self.report(batch + 1, float(logs["loss"]), float(logs["accuracy"]))

    def report(self, done: int, loss_mean: float, accuracy_mean: float, seconds: float | None = None) -> None:
        """Hand the steps between the last report and `done` (the running means after it) to the controller;
        `seconds` they took, when not the time since the last report."""
        k = done - self.seen
        if k <= 0:
            return
        loss_sum, acc_sum = loss_mean * done, accuracy_mean * done
        now = time.perf_counter()
        going = self.controller.block_done(
            [(loss_sum - self.loss_sum) / k],
            [(acc_sum - self.acc_sum) / k],
            now - self.t0 if seconds is None else seconds,
            steps_each=k,
        )
        self.seen, self.loss_sum, self.acc_sum, self.t0 = done, loss_sum, acc_sum, now
        if not going:
            self.model.stop_training = True


class FitLoop:
    """Keras `model.fit`, one call per epoch so each epoch has its fixed, skippable order."""

    def __init__(self, s: Session):
        self.s = s
        self._evaluator = ValidationPass(s)
        with s.strategy.scope():
            loss, metric = build_loss_and_metric(s.source.num_classes, from_logits=s.from_logits)
            s.model.compile(
                optimizer=s.optimizer,
                loss=loss,
                metrics=[metric],
                steps_per_execution=s.steps_per_execution,
                jit_compile=s.config.jit_compile,
            )

    def train_epoch(self, epoch: int, first_step: int, controller: Controller) -> None:
        s = self.s
        with iterator_retired(s.model, "train", around=controller.timed):
            s.model.fit(
                # distributed: given a dataset of steps_per_epoch batches, fit makes two iterators an epoch
                s.source.distributed_train(s.strategy, epoch, first_step),
                initial_epoch=epoch,
                epochs=epoch + 1,
                steps_per_epoch=s.source.steps_per_epoch - first_step,
                callbacks=[FitBridge(controller)],
                verbose=0,
            )

    def evaluate(self) -> tuple[float | None, float | None]:
        steps = self.s.source.validation_steps
        if steps is None:  # a size known only by reading it all (a python dataset's validation function)
            return self._evaluator.evaluate()
        val = self.s.source.fit_validation(self.s.strategy)
        if val is None:
            return None, None
        with iterator_retired(self.s.model, "test"):
            logs = self.s.model.evaluate(val, steps=steps, verbose=0, return_dict=True)
        return logs["loss"], logs["accuracy"]
