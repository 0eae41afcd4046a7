"""Where a parameter_server step's time goes, measured on the workers that run the steps.

Under ClusterCoordinator the coordinator runs no step: W workers run closures of n steps each, in
parallel, reading the variables from the ps tasks and pushing gradients back. So the figures are
measured where the steps run and put on the run's wall clock:
- each closure times itself on its worker (TensorFlow timestamps at its start and end): the workers'
  busy time B. Over a window of T seconds and S steps the workers could have been busy W·T; what they
  were not, they waited for the coordinator (scheduling, fetching results, events, checkpoints): the rest.
- B is split by two probes, closures run on one worker at an epoch's end, when every closure is back: the
  training step on one batch held on the worker (no input awaited: compute and ps round trips), and the
  ps round trips alone (every variable the step reads fetched from its ps, and an update of its size
  pushed back). Input is the busy time beyond the held-batch step; it also holds what the workers lose
  to each other at the ps (a probe has the ps to itself), which the coordinator cannot tell apart.
Each worker-second is divided by W, so the parts are milliseconds of the run's wall time per step and
add up to T/S, as the other loops' (engine.train.anatomy.anatomy_figures). A probe trains the real
variables, so every variable the step writes is read before it and written back after it.
Both loops are measured so: the custom loop's closures are timed where it schedules them, and tf-keras's fit
schedules its steps through `model.train_function`, which is replaced by the same schedule of the same
steps, timed (TimedFitSteps); fit's probes run fit's own step (`model.train_step`).
"""

from __future__ import annotations

import inspect
import math
import statistics
import time
from collections.abc import Callable
from typing import Any

from engine.core import events as ev
from engine.core.config import Loop
from engine.train.anatomy import PROBE_REPEATS, StepMeter, _written_by_step
from engine.train.loops import Session, replica_train_step
from engine.train.models import build_loss_and_metric
from engine.train.tf_runtime import keras, tf


def timed_on_worker(steps: Callable[..., Any]) -> Callable[..., Any]:
    """`steps(*args)` inside a closure, and the seconds it took on its worker, as its last output."""

    def timed(*args: Any) -> tuple[Any, Any]:
        start = tf.timestamp()
        with tf.control_dependencies([start]):
            outputs = steps(*args)
        with tf.control_dependencies(tf.nest.flatten(outputs)):
            return outputs, tf.timestamp() - start

    return timed


class PSProbes:
    """The two probes of a parameter_server run, each a closure the coordinator schedules on a worker;
    `measure` returns their seconds per step divided by the workers (the run's wall time per step).

    `replica_step(batch)` is the loop's training step on one batch; `state()` every variable it may write;
    `iterator()` the per-worker iterator of the training data the steps read now (the held batch is its next).
    """

    def __init__(
        self,
        coordinator: Any,
        strategy: Any,
        replica_step: Callable[[Any], Any],
        state: Callable[[], list[Any]],
        iterator: Callable[[], Any],
        workers: int,
    ):
        self._coordinator = coordinator
        self._iterator = iterator
        self._workers = workers
        self._state = state
        self._warm = False

        def held_batch_steps(iterator: Any, n: Any) -> Any:
            batch = next(iterator)  # one batch of this worker's endless stream, held for the probe
            total = tf.constant(0.0)
            with tf.control_dependencies(tf.nest.flatten(batch)):
                for _ in tf.range(n):
                    for value in tf.nest.flatten(strategy.run(replica_step, args=(batch,))):
                        total += tf.reduce_sum(tf.cast(value, tf.float32))  # used, so none is pruned
            return total

        def round_trips(n: Any) -> Any:
            total = tf.constant(0.0)
            for _ in tf.range(n):
                for variable in self._state():
                    if variable.trainable:
                        value = variable.read_value()
                        variable.assign_add(tf.zeros_like(value))
                        total += tf.cast(tf.reshape(value, [-1])[0], tf.float32)
            return total

        self._held = tf.function(timed_on_worker(held_batch_steps))
        self._trips = tf.function(timed_on_worker(round_trips))

    def _on_worker(self, probe: Callable[..., Any], *args: Any) -> float:
        """Seconds the probe took on the worker that ran it, the median of PROBE_REPEATS calls."""
        runs = (self._coordinator.schedule(probe, args=args).fetch()[1] for _ in range(PROBE_REPEATS))
        return statistics.median(float(seconds) for seconds in runs)

    def measure(self, steps: int) -> tuple[float, float]:
        """(held-batch step, ps round trips) in seconds per step of wall time, with no closure in flight; the
        training state is left as it was. The first measure traces both probes."""
        self._coordinator.join()
        saved = [(v, tf.identity(v.read_value())) for v in self._state()]
        try:
            if not self._warm:
                self._on_worker(self._held, self._iterator(), tf.constant(1))
                self._on_worker(self._trips, tf.constant(1))
                self._warm = True
            held = self._on_worker(self._held, self._iterator(), tf.constant(steps)) / steps
            trips = self._on_worker(self._trips, tf.constant(steps)) / steps
        finally:
            for variable, value in saved:
                variable.assign(value)
        return held / self._workers, trips / self._workers


def ps_probes(s: Session, coordinator: Any, iterator: Callable[[], Any], workers: int) -> PSProbes:
    """The probes of a parameter_server run's loop (custom or fit): they run the loop's own step, on a batch
    of `iterator()` (the per-worker iterator the steps read)."""
    model = s.model
    if s.config.loop == Loop.FIT:
        written = lambda: _written_by_step(model, model.optimizer, metrics=True)  # noqa: E731
        return PSProbes(coordinator, s.strategy, model.train_step, written, iterator, workers)
    with s.strategy.scope():
        loss_object, _ = build_loss_and_metric(
            s.source.num_classes, keras.losses.Reduction.NONE, from_logits=s.from_logits
        )
    step = replica_train_step(s, loss_object)
    return PSProbes(
        coordinator,
        s.strategy,
        lambda batch: step(*batch),
        lambda: _written_by_step(model, s.optimizer, metrics=False),
        iterator,
        workers,
    )


class TimedLogs(tf.distribute.experimental.coordinator.RemoteValue):
    """What fit gets back from one scheduled call of its steps: the RemoteValue of their logs, as tf-keras's
    own schedule returns; its first fetch hands `done` the seconds the steps took on their worker."""

    def __init__(self, remote: Any, done: Callable[[float], None]):
        self._remote = remote
        self._done: Callable[[float], None] | None = done

    def _logs(self, logs: Any, busy: Any) -> Any:
        if self._done is not None:
            self._done(float(busy))
            self._done = None
        return logs

    def fetch(self) -> Any:
        return self._logs(*self._remote.fetch())

    def get(self) -> Any:
        return self._logs(*self._remote.get())


def fit_steps_timeable(model: Any) -> bool:
    """Whether tf-keras keeps fit's compiled steps where TimedFitSteps can time them (`train_tf_function`,
    undocumented: engine.train.tf_runtime.PRIVATE_API); without it parameter-server fit reports no anatomy."""
    return hasattr(model, "train_tf_function")


def steps_take_count(steps: Callable[..., Any]) -> bool:
    """Whether fit's steps under a coordinator take the steps per execution as a second argument (tf-keras makes
    them so unless a call is one step). Read from the public signature: inspect follows a tf.function to its
    Python function."""
    return len(inspect.signature(steps).parameters) == 2


class TimedFitSteps(keras.callbacks.Callback):
    """fit's calls of steps under a coordinator, timed on their workers. As fit begins (its steps made, none
    run yet), `model.train_function`, tf-keras's schedule of its compiled steps (`model.train_tf_function`,
    given the value of the public `model.steps_per_execution` variable when it takes them), becomes the same
    schedule of the same steps, timed (timed_on_worker). fit gets the same logs (TimedLogs); `done(seconds)`
    is called as each call is fetched, and `iterator` is the per-worker iterator the latest call read."""

    def __init__(self, coordinator: Any, done: Callable[[float], None]):
        super().__init__()
        self._coordinator = coordinator
        self._done = done
        self._steps: Any = None
        self._timed: Any = None
        self._per_call = False  # the steps take the steps per execution as an argument
        self.iterator: Any = None

    def on_train_begin(self, logs: Any = None) -> None:
        steps = self.model.train_tf_function
        if steps is not self._steps:  # made again only when compile made new steps
            self._steps, self._timed = steps, tf.function(timed_on_worker(steps))
            self._per_call = steps_take_count(steps)
        self.model.train_function = self._train_function

    def _train_function(self, iterator: Any) -> TimedLogs:
        self.iterator = iterator
        args = (iterator, self.model.steps_per_execution.value()) if self._per_call else (iterator,)
        return TimedLogs(self._coordinator.schedule(self._timed, args=args), self._done)


class PSStepMeter(StepMeter):
    """StepMeter for the coordinator: the time inside the calls is the closures' time on their workers
    (`closure_done`), divided by the workers; a window starts when it opens (closures run all the time).

    A window is an epoch (after the run's first report, which traced the steps): an epoch starts with no
    closure in flight and ends when every one has come back, so each closure counts in the window that saw
    it run. A window closed mid-epoch would leave out the closures still in flight, which ran in it but are
    counted when they come back, in the next window. The run's first closure runs alone (it traces the steps,
    and the first report is no window's), so the first window, too, starts with none in flight."""

    emit_every_s = math.inf

    def __init__(self, emit: ev.Sink, probes: PSProbes, workers: int):
        self._workers = workers
        super().__init__(emit, probes)  # a PSProbes measures as a StepProbes does

    def _open(self, at: float | None) -> None:
        super()._open(time.perf_counter() if at is None else at)

    def block_done(
        self, epoch: int, global_step: int, steps: int, epoch_over: bool, stopping: Callable[[], bool]
    ) -> None:
        """As StepMeter's, but a probe runs only at an epoch's end, when every closure has come back: the
        probe has its worker and the variables alone."""
        if epoch_over:
            super().block_done(epoch, global_step, steps, epoch_over, stopping)
            return
        next_probe, self._next_probe = self._next_probe, math.inf
        super().block_done(epoch, global_step, steps, epoch_over, stopping)
        self._next_probe = next_probe

    def closure_done(self, busy_s: float) -> None:
        """A closure came back; it had run `busy_s` seconds on its worker."""
        if self._warm:
            self._in_call += busy_s / self._workers
