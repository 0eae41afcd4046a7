"""ParameterServerStrategy's loops: the coordinator hands out blocks of steps to whichever worker is free.

Under ParameterServerStrategy the chief is a coordinator. It holds no
replica: it queues closures (`ClusterCoordinator.schedule`) that the
workers run against variables held by the ps tasks, asynchronously, and a
worker that dies has its closure put back and run by another (measured: the
coordinator notices in under 0.1 s and training goes on without an error
reaching this code). Each closure runs several steps, because the RPC per
closure dominates a small model (4k examples/s at one step per closure, 14k
at ten, measured), and a short queue of closures keeps every worker busy
while the controller still sees each block come back, in order.

The controller (engine.train.controller) owns epochs, checkpoints, stop and
events as for the other loops. An epoch is steps_per_epoch steps counted
here; each worker repeats its own shuffled copy of the data without end
(engine.train.datasets.base.InputSource.worker_dataset). Validation runs on the
coordinator itself (TensorFlow's "inline evaluation"): tf-keras's
`evaluate` under this strategy ended in CancelledError on a finite dataset
(measured).
"""

from __future__ import annotations

import os
import tempfile
import time
from collections import deque
from pathlib import Path
from typing import Any

from engine.core import events as ev
from engine.core.protocol.codes import task_id
from engine.train.controller import Checkpoint, Controller
from engine.train.loops import FitBridge, Session, block_of_steps, validation_sums
from engine.train.models import build_loss_and_metric, build_model
from engine.train.ps_anatomy import PSStepMeter, TimedFitSteps, fit_steps_timeable, ps_probes, timed_on_worker
from engine.train.tf_runtime import keras, tf

IN_FLIGHT_PER_WORKER = 2  # closures queued per worker: one running, one ready to start
TASK_STEPS_INTERVAL_S = 1.0  # how often the steps each worker ran are reported
# Closures finish on several workers at once and their results are fetched back to back, so the time
# between two fetches says little: results are reported together once this much time has passed, and
# the throughput shown is measured over the last RATE_WINDOW_S.
REPORT_INTERVAL_S = 0.1
RATE_WINDOW_S = 1.0


class RateWindow:
    """Steps per second over the last RATE_WINDOW_S of results."""

    def __init__(self) -> None:
        self._marks: deque[tuple[float, int]] = deque()  # (time, steps finished by then)
        self._total = 0

    def add(self, steps: int, now: float) -> float | None:
        """Count `steps` finished at `now`; the rate, or None until two results span some time."""
        self._total += steps
        self._marks.append((now, self._total))
        while len(self._marks) > 2 and now - self._marks[1][0] >= RATE_WINDOW_S:
            self._marks.popleft()
        start, before = self._marks[0]
        return (self._total - before) / (now - start) if len(self._marks) > 1 and now > start else None


def make_coordinator(strategy: Any) -> Any:
    """The strategy's coordinator (one per strategy: tf-keras's fit finds the same one)."""
    return tf.distribute.coordinator.ClusterCoordinator(strategy)


def in_flight_limit(workers: int) -> int:
    return max(2, IN_FLIGHT_PER_WORKER * workers)


class InlineValidation:
    """Validation on the coordinator: the model's variables are read from the ps tasks."""

    def __init__(self, s: Session):
        self.s = s
        with s.strategy.scope():
            loss_object, _ = build_loss_and_metric(
                s.source.num_classes, keras.losses.Reduction.NONE, from_logits=s.from_logits
            )
        binary = s.source.binary
        threshold = 0.0 if s.from_logits else 0.5

        @tf.function
        def sums(features: Any, labels: Any) -> tuple[Any, Any, Any]:
            return validation_sums(s.model, loss_object, binary, features, labels, threshold)

        self._sums = sums

    def __call__(self) -> tuple[float | None, float | None]:
        val = self.s.source.validation()
        if val is None:
            return None, None
        loss_sum = correct = count = 0.0
        for features, labels in val:
            batch_loss, batch_correct, n = (float(t) for t in self._sums(features, labels))
            loss_sum, correct, count = loss_sum + batch_loss, correct + batch_correct, count + n
        return loss_sum / count, correct / count


class _WorkerSteps:
    """Counts the steps each worker ran and reports them as task_steps events, at most once a second."""

    def __init__(self, workers: int, emit: ev.Sink):
        self.steps = {task_id("worker", i): 0 for i in range(workers)}
        self._emit = emit
        self._last = 0.0

    def add(self, worker: int, steps: int) -> None:
        key = task_id("worker", worker)
        self.steps[key] = self.steps.get(key, 0) + steps
        self.report(force=False)

    def report(self, force: bool = True) -> None:
        now = time.monotonic()
        if force or now - self._last >= TASK_STEPS_INTERVAL_S:
            self._last = now
            self._emit(ev.TaskSteps(steps=dict(self.steps)))


class PSCustomLoop:
    """The custom loop on a coordinator: `schedule` blocks of steps over per-worker datasets; with `anatomy`
    it measures where the step time goes (engine.train.ps_anatomy)."""

    def __init__(self, s: Session, coordinator: Any, workers: int, anatomy: bool = True):
        self.s = s
        self._coordinator = coordinator
        self._limit = in_flight_limit(workers)
        self._workers = workers
        self._validation = InlineValidation(s)
        strategy = s.strategy
        steps = block_of_steps(s)

        def train_steps(iterator: Any, n: Any) -> tuple[Any, Any, Any]:
            """n steps on one worker; every step's loss and accuracy come back, and which worker ran them (and,
            timed_on_worker, the seconds they took there: the step anatomy's busy time)."""
            losses, accuracies = steps(iterator, n)
            return losses, accuracies, tf.distribute.coordinator.experimental_get_current_worker_index()

        self._train_steps = tf.function(timed_on_worker(train_steps))

        @tf.function
        def per_worker_dataset() -> Any:
            return strategy.distribute_datasets_from_function(s.source.worker_dataset)

        self._iterator = iter(coordinator.create_per_worker_dataset(per_worker_dataset))
        self._steps: _WorkerSteps | None = None
        self._probes = ps_probes(s, coordinator, lambda: self._iterator, workers) if anatomy else None
        self._meter: PSStepMeter | None = None  # the step anatomy's, made with the first epoch's controller
        self._alone = anatomy  # the run's first closure runs alone (PSStepMeter)

    def train_epoch(self, epoch: int, first_step: int, controller: Controller) -> None:
        if self._steps is None:
            self._steps = _WorkerSteps(self._workers, controller.emit)
        if self._meter is None and self._probes is not None:
            controller.anatomy = self._meter = PSStepMeter(controller.emit, self._probes, self._workers)
        in_flight: deque[tuple[Any, int]] = deque()
        ahead = 0  # steps scheduled but not yet reported
        going = True
        last = time.perf_counter()
        losses: list[float] = []
        accuracies: list[float] = []
        rates = RateWindow()  # per epoch: the pause between epochs (validation, checkpoint) is not training
        rates.add(0, last)
        while True:
            limit = 1 if self._alone else self._limit
            while going and len(in_flight) < limit and controller.step + ahead < controller.steps_per_epoch:
                n = controller.block_size(ahead)
                remote = self._coordinator.schedule(self._train_steps, args=(self._iterator, tf.constant(n)))
                in_flight.append((remote, n))
                ahead += n
            if not in_flight:
                break
            remote, n = in_flight.popleft()
            (block_losses, block_accuracies, worker), busy = remote.fetch()  # a lost worker's closure ran again
            if self._meter is not None:
                self._meter.closure_done(float(busy))
            losses += list(block_losses)
            accuracies += list(block_accuracies)
            self._steps.add(int(worker), n)
            now = time.perf_counter()
            rate = rates.add(n, now)
            if now - last >= REPORT_INTERVAL_S or not in_flight:
                ahead -= len(losses)
                going = controller.block_done(losses, accuracies, now - last, steps_per_sec=rate) and going
                losses, accuracies, last, self._alone = [], [], now, False
        self._steps.report()

    def evaluate(self) -> tuple[float | None, float | None]:
        return self._validation()


class _QueuedFitBridge(FitBridge):
    """fit's blocks under ParameterServerStrategy, reported a few blocks late so the workers stay busy.

    Here a batch hook's logs are one RemoteValue whose fetch waits for that
    block, and tf-keras refuses batch hooks unless the callback says it can
    take them (`_supports_tf_logs`). The running means a block returns count
    whatever other workers had finished by then, so one block's share is
    approximate; the epoch's exact means, reported last, make the epoch's
    sum exact. With `first_alone` (the run's first epoch) the first block is
    awaited and reported before a second is scheduled: it traced the steps,
    so the step anatomy leaves the first report out (StepMeter), and the
    window it measures next starts with no block half run.
    """

    def __init__(self, controller: Controller, depth: int, first_alone: bool = False):
        super().__init__(controller)
        self._supports_tf_logs = True
        self._queue: deque[tuple[int, Any]] = deque()
        self._depth = depth
        self._first_alone = first_alone
        self._scheduled = 0  # steps of the epoch handed to the coordinator so far

    def on_train_batch_end(self, batch: int, logs: Any = None) -> None:
        self._scheduled = batch + 1
        self._queue.append((batch + 1, logs))
        while len(self._queue) > (0 if self._first_alone else self._depth):
            done, remote = self._queue.popleft()
            values = remote.fetch()  # waits for that block; the later ones keep the workers busy
            # blocks fetched back to back report together
            if self._first_alone or time.perf_counter() - self.t0 >= REPORT_INTERVAL_S:
                self._first_alone = False
                self.report(done, float(values["loss"]), float(values["accuracy"]))

    def on_epoch_end(self, epoch: int, logs: Any = None) -> None:
        """The blocks still queued (and any held back) are reported at once, with the epoch's exact means."""
        for _, remote in self._queue:
            remote.fetch()  # every block of the epoch has run: its exact means cover them all (and the step
            # anatomy counts each fetched block's time on its worker)
        self._queue.clear()
        self.report(self._scheduled, float(logs["loss"]), float(logs["accuracy"]))


class PSFitLoop:
    """tf-keras `model.fit` on a coordinator (Keras 3 has no fit for this strategy), one call per epoch; with
    `anatomy` it measures where the step time goes (engine.train.ps_anatomy)."""

    def __init__(self, s: Session, coordinator: Any, workers: int, anatomy: bool = True):
        self.s = s
        self._coordinator = coordinator
        self._workers = workers
        self._depth = in_flight_limit(workers)
        self._validation = InlineValidation(s)
        with s.strategy.scope():
            loss, metric = build_loss_and_metric(s.source.num_classes, from_logits=s.from_logits)
            s.model.compile(
                optimizer=s.optimizer, loss=loss, metrics=[metric], steps_per_execution=s.steps_per_execution
            )
        self._timing: TimedFitSteps | None = None  # times fit's steps for the step anatomy, made with its meter
        measured = anatomy and fit_steps_timeable(s.model)
        self._probes = (
            ps_probes(s, coordinator, lambda: self._timing and self._timing.iterator, workers) if measured else None
        )
        self._begun = False  # an epoch has begun: the run's first call, which traces, has run alone when measured

    def train_epoch(self, epoch: int, first_step: int, controller: Controller) -> None:
        first, self._begun = not self._begun and self._probes is not None, True
        if first:
            controller.anatomy = meter = PSStepMeter(controller.emit, self._probes, self._workers)
            self._timing = TimedFitSteps(self._coordinator, meter.closure_done)
        # steps_per_epoch is required with this strategy, and the data must repeat (measured: a finite
        # dataset ends the epoch in CancelledError, and numpy input is not rewound between epochs)
        self.s.model.fit(
            keras.utils.experimental.DatasetCreator(self.s.source.worker_dataset),
            initial_epoch=epoch,
            epochs=epoch + 1,
            steps_per_epoch=controller.steps_per_epoch - first_step,
            callbacks=[_QueuedFitBridge(controller, self._depth, first_alone=first), *filter(None, [self._timing])],
            verbose=0,
        )

    def evaluate(self) -> tuple[float | None, float | None]:
        return self._validation()


def quiesced(coordinator: Any, save: Checkpoint) -> Checkpoint:
    """A checkpoint callback that first waits for every scheduled closure, so the snapshot is consistent."""

    def checkpoint(epoch: int, step: int, totals: tuple[float, ...]) -> None:
        coordinator.join()
        save(epoch, step, totals)

    return checkpoint


def save_plain_model(s: Session, path: Path) -> None:
    """model.keras of a parameter-server run, through a plain copy of the model.

    tf-keras saves a sharded variable's shards as separate weights and then
    cannot load its own file ("Layer 'dense' expected 2 variables, but
    received 4", measured); a tf.train.Checkpoint saves a sharded variable
    whole, so a plain model restored from one saves a file that loads.
    """
    with tempfile.TemporaryDirectory(prefix="tfdd-ps-model-") as tmp:
        written = tf.train.Checkpoint(model=s.model).write(os.path.join(tmp, "model"))
        plain = build_model(s.config, s.source.input_shape(), s.source.num_classes).model
        tf.train.Checkpoint(model=plain).read(written).assert_existing_objects_matched()
        plain.save(str(path))
