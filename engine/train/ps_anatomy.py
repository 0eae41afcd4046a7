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
tf-keras's fit under this strategy schedules its own closures, which cannot time themselves: it reports
no anatomy.
"""

from __future__ import annotations

import math
import statistics
import time
from collections.abc import Callable
from typing import Any

from engine.core import events as ev
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
    `measure` returns their seconds per step divided by the workers (the run's wall time per step)."""

    def __init__(self, s: Session, coordinator: Any, iterator: Any, workers: int):
        self._coordinator = coordinator
        self._iterator = iterator
        self._workers = workers
        self._state = lambda: _written_by_step(s.model, s.optimizer, metrics=False)
        self._warm = False
        strategy = s.strategy
        with strategy.scope():
            loss_object, _ = build_loss_and_metric(
                s.source.num_classes, keras.losses.Reduction.NONE, from_logits=s.from_logits
            )
        step = replica_train_step(s, loss_object)

        def held_batch_steps(iterator: Any, n: Any) -> Any:
            batch = next(iterator)  # one batch of this worker's endless stream, held for the probe
            total = tf.constant(0.0)
            with tf.control_dependencies(tf.nest.flatten(batch)):
                for _ in tf.range(n):
                    loss, correct = strategy.run(step, args=batch)
                    total += tf.reduce_sum(loss) + tf.reduce_sum(correct)  # used, so none is pruned
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
                self._on_worker(self._held, self._iterator, tf.constant(1))
                self._on_worker(self._trips, tf.constant(1))
                self._warm = True
            held = self._on_worker(self._held, self._iterator, tf.constant(steps)) / steps
            trips = self._on_worker(self._trips, tf.constant(steps)) / steps
        finally:
            for variable, value in saved:
                variable.assign(value)
        return held / self._workers, trips / self._workers


class PSStepMeter(StepMeter):
    """StepMeter for the coordinator: the time inside the calls is the closures' time on their workers
    (`closure_done`), divided by the workers; a window starts when it opens (closures run all the time)."""

    def __init__(self, emit: ev.Sink, probes: PSProbes, workers: int):
        self._workers = workers
        super().__init__(emit, probes)  # a PSProbes measures as a StepProbes does

    def _open(self, at: float | None) -> None:
        super()._open(time.perf_counter() if at is None else at)

    def block_done(self, epoch: int, global_step: int, steps: int, epoch_over: bool) -> None:
        """As StepMeter's, but a probe runs only at an epoch's end, when every closure has come back: the
        probe has its worker and the variables alone, and no closure's steps land in a window whose wall
        time did not see them run. Closures that straddle a mid-epoch window's edge count in the window
        they come back in."""
        if epoch_over:
            super().block_done(epoch, global_step, steps, epoch_over)
            return
        next_probe, self._next_probe = self._next_probe, math.inf
        super().block_done(epoch, global_step, steps, epoch_over)
        self._next_probe = next_probe

    def closure_done(self, busy_s: float) -> None:
        """A closure came back; it had run `busy_s` seconds on its worker."""
        if self._warm:
            self._in_call += busy_s / self._workers
