"""Where a run's step time goes, measured while it trains: input, compute, sync and the rest.

The method, in two halves:
- Around every compiled call of steps the wall clock is split in Python: the time inside the calls
  (`StepMeter.timed`) and the time between them, which is the host's (the loop's Python, callbacks, events,
  checkpoints): the rest. Both are exact, so the four parts always add up to the wall time per step.
- The time inside the calls is split by two short ablation probes, run rarely: the same training step,
  compiled once more, on one batch cached on the devices (what a step costs when no input is awaited:
  compute + sync), and an all-reduce of gradient-shaped tensors across the replicas, the way the
  optimizer aggregates gradients (sync; exactly 0 with one replica). Input is the time inside the calls
  beyond the cached step's.
A probe trains the real variables, so everything the step writes (the model's and the optimizer's
variables, Keras's metrics) is read before it and written back after it, replica by replica, and its
compiled function is its own: the training function's random-number state is not touched, and the
training numbers do not change. Probes run at the first report and then each time the steps trained
have grown PROBE_GROWTH-fold, at most PROBE_STEPS steps each: a cost that shrinks as the run goes on.
The schedule counts steps, never seconds, so the workers of a cluster (whose probes all-reduce together)
all run them at the same step. The cached step and the all-reduce describe the model and the devices,
which stay the same through a run; the input and the rest are measured over every step.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from typing import Any

from engine.core import events as ev
from engine.core.config import Loop
from engine.train.loops import Session, replica_train_step, step_results, with_xla
from engine.train.models import build_loss_and_metric
from engine.train.retire import retired
from engine.train.tf_runtime import keras, tf

EMIT_EVERY_S = 2.0
"""The least wall time one step_anatomy event stands for (an epoch's last steps get one of their own)."""
PROBE_STEPS = 8
"""The most steps one probe runs (fewer when the run's calls are shorter: a call's steps are its measure)."""
PROBE_GROWTH = 4
PROBE_REPEATS = 3
"""Each probe is timed this many times and the median kept: a busy host's spike on one call does not count."""
"""After a probe, the next one waits until the steps trained have grown this many times."""


def _wait(outputs: Any) -> None:
    """Block until a call's outputs exist (a device may still be running what the call started)."""
    for value in tf.nest.flatten(outputs):
        if hasattr(value, "numpy"):
            value.numpy()
            return


def _components(variables: list[Any], strategy: Any) -> list[Any]:
    """Every replica's own copy of each variable (a distributed variable's components)."""
    return [c for v in variables for c in strategy.experimental_local_results(v)]


def cached_batch(strategy: Any, distributed: Any) -> Any:
    """One batch of `distributed` (a distributed dataset) on the replicas' devices: zeros of its per-replica
    shapes when they are all known numbers (no pipeline runs, and no random state moves), else its first."""
    specs = distributed.element_spec
    flat = [getattr(spec, "_value_specs", (spec,))[0] for spec in tf.nest.flatten(specs)]
    if not all(s.shape.is_fully_defined() and (s.dtype.is_floating or s.dtype.is_integer) for s in flat):
        with retired([iter(distributed)]) as held:
            return next(held[0])
    return strategy.experimental_distribute_values_from_function(
        lambda _: tf.nest.pack_sequence_as(specs, [tf.zeros(s.shape, s.dtype) for s in flat])
    )


class StepProbes:
    """The two probes of one run, in one compiled function: the training step on a cached batch, and the
    gradients' all-reduce.

    `replica_step(batch)` is one replica's training step (what `strategy.run` runs); `state()` every variable
    it may write; `batches()` the run's distributed training data, the shape of the cached batch; `reduced`:
    the step's outputs are the custom loop's, gathered from the replicas as it gathers them (`step_results`),
    else fit's, of which the first replica's are read.
    """

    def __init__(
        self,
        strategy: Any,
        replica_step: Callable[[Any], Any],
        state: Callable[[], list[Any]],
        batches: Callable[[], Any],
        reduced: bool,
    ):
        self._strategy = strategy
        self._state = state
        self._batches = batches
        self._batch: Any = None
        self._syncs = strategy.num_replicas_in_sync > 1

        def first(value: Any) -> Any:
            return strategy.experimental_local_results(value)[0]

        def all_reduce(grads: list[Any]) -> Any:
            sums = tf.distribute.get_replica_context().all_reduce("SUM", grads)
            return tf.add_n([tf.cast(tf.reshape(g, [-1])[0], tf.float32) for g in sums])  # each used: none pruned

        @tf.function
        def probe(batch: Any, steps: Any, reduces: Any) -> Any:
            total = tf.constant(0.0)
            for _ in tf.range(steps):
                outputs = strategy.run(replica_step, args=(batch,))
                used = step_results(strategy, outputs) if reduced else [first(v) for v in tf.nest.flatten(outputs)]
                for value in used:  # used as the loop uses them, so none is pruned
                    total += tf.reduce_sum(tf.cast(value, tf.float32))
            if self._syncs:
                # gradient-shaped tensors made from an input, so nothing is folded away at compile time
                grads = strategy.run(
                    lambda: [tf.fill(v.shape, tf.cast(total * 0, v.dtype)) for v in state() if v.trainable]
                )
                for _ in tf.range(reduces):
                    total += tf.add_n(strategy.experimental_local_results(strategy.run(all_reduce, args=(grads,))))
            return total

        self._probe = probe

    def _timed(self, steps: int, reduces: int) -> float:
        """Seconds of one probe call, the median of PROBE_REPEATS."""
        times = []
        for _ in range(PROBE_REPEATS):
            started = time.perf_counter()
            _wait(self._probe(self._batch, tf.constant(steps), tf.constant(reduces)))
            times.append(time.perf_counter() - started)
        return statistics.median(times)

    def measure(self, steps: int) -> tuple[float, float]:
        """Seconds per step of (the cached-batch step, the all-reduce; 0 with one replica), each over `steps`;
        the training state is left exactly as it was. The first measure traces the probe and warms it."""
        saved = [(c, tf.identity(c.read_value())) for c in _components(self._state(), self._strategy)]
        try:
            if self._batch is None:
                self._batch = cached_batch(self._strategy, self._batches())
                self._timed(1, 1)
            cached = self._timed(steps, 0) / steps
        finally:
            for variable, value in saved:
                variable.assign(value)
        return cached, (self._timed(0, steps) / steps if self._syncs else 0.0)


def anatomy_figures(
    wall_s: float, in_call_s: float, steps: int, cached_s: float, sync_s: float
) -> tuple[float, float, float, float, float]:
    """(step, input, compute, sync, rest) in ms per step, from the wall and in-call seconds of `steps` steps
    and the probes' seconds per step; the four parts add up to the step. Inside the calls, what exceeds the
    cached step waited for input; when the calls were quicker than the probe (noise), compute and sync
    share what the calls took."""
    step = 1000 * wall_s / steps
    inside = 1000 * min(in_call_s, wall_s) / steps
    cached, sync = 1000 * cached_s, 1000 * min(sync_s, cached_s)
    scale = min(1.0, inside / cached) if cached > 0 else 0.0
    return step, max(0.0, inside - cached), (cached - sync) * scale, sync * scale, step - inside


class StepMeter:
    """Times the loop's compiled calls and the time between them, runs the probes on their schedule and
    emits StepAnatomy events (at most every `emit_every_s`, and at each epoch's end)."""

    emit_every_s = EMIT_EVERY_S

    def __init__(self, emit: ev.Sink, probes: StepProbes):
        self._emit = emit
        self._probes = probes
        self._costs: tuple[float, float] | None = None  # the latest probes' seconds per step
        self._warm = False  # the run's first call traces the training function: it is not measured
        self._trained = 0  # steps this process trained
        self._next_probe = 0
        self._emitted_at = time.perf_counter()
        self.own_s = 0.0  # the meter's own time between the calls (its probes included): what measuring costs
        self._open(None)

    def _open(self, at: float | None) -> None:
        """Start a new window of steps at `at` (None: at the next call's start)."""
        self._mark, self._in_call, self._steps, self._excluded = at, 0.0, 0, 0.0

    def timed(self, call: Callable[..., Any]) -> Callable[..., Any]:
        """`call` (a compiled call of steps), its time counted as inside the calls."""

        def timed_call(*args: Any) -> Any:
            started = time.perf_counter()
            outputs = call(*args)
            _wait(outputs)
            if self._mark is None:
                self._mark = started
            self._in_call += time.perf_counter() - started
            return outputs

        return timed_call

    def epoch_begins(self) -> None:
        """What happened between epochs (validation, the epoch's checkpoint, a new iterator) is no step's."""
        self._open(None)
        self._emitted_at = time.perf_counter()

    def block_done(
        self, epoch: int, global_step: int, steps: int, epoch_over: bool, stopping: Callable[[], bool]
    ) -> None:
        """After each reported block of `steps` steps (epoch 1-based, global_step the last of them). A probe
        due is not run when `stopping()` (asked only then: it is a collective across the workers, which all
        have a probe due at the same step)."""
        now = time.perf_counter()
        self._trained += steps
        if self._warm:
            self._steps += steps
        else:
            self._warm = True
            self._open(None)
        probe_s = 0.0
        if self._trained >= self._next_probe and not stopping():
            self._costs = self._probes.measure(max(1, min(steps, PROBE_STEPS)))
            self._next_probe = self._trained * PROBE_GROWTH
            probe_s = time.perf_counter() - now
        due = epoch_over or now - self._emitted_at >= self.emit_every_s
        if due and self._steps and self._costs and self._mark is not None:
            self._emit_window(epoch, global_step, now - self._mark - self._excluded, *self._costs)
            self._emitted_at = now
            self._open(now + probe_s)  # the probe just run is no step's
        elif self._mark is not None:
            self._excluded += probe_s
        self.own_s += time.perf_counter() - now

    def _emit_window(self, epoch: int, global_step: int, wall_s: float, cached_s: float, sync_s: float) -> None:
        step, input_ms, compute, sync, rest = anatomy_figures(wall_s, self._in_call, self._steps, cached_s, sync_s)
        self._emit(
            ev.StepAnatomy(
                epoch=epoch,
                global_step=global_step,
                steps=self._steps,
                step_ms=step,
                input_ms=input_ms,
                compute_ms=compute,
                sync_ms=sync,
                rest_ms=rest,
            )
        )


def _written_by_step(model: Any, optimizer: Any, metrics: bool) -> list[Any]:
    """Every variable a training step may write: the model's and the optimizer's (a loss scale's too), and
    with `metrics` Keras's metrics' (fit's step updates them)."""
    found: dict[int, Any] = {}
    for root in (model, optimizer):
        for node in tf.train.TrackableView(root).descendants():
            if isinstance(node, tf.Variable):
                found[id(node)] = node
    for variable in (v for m in model.metrics for v in m.variables) if metrics else ():
        found[id(variable)] = variable
    return list(found.values())


def step_meter(s: Session, emit: ev.Sink, batches: Callable[[], Any]) -> StepMeter:
    """The meter of a run's loop (custom or fit): its probes run the loop's own step; `batches()` gives the
    distributed training data whose first batch the probes cache."""
    model = s.model
    if s.config.loop == Loop.FIT:
        written = lambda: _written_by_step(model, model.optimizer, metrics=True)  # noqa: E731
        return StepMeter(emit, StepProbes(s.strategy, with_xla(s, model.train_step), written, batches, reduced=False))
    with s.strategy.scope():
        loss_object, _ = build_loss_and_metric(
            s.source.num_classes, keras.losses.Reduction.NONE, from_logits=s.from_logits
        )
    step = replica_train_step(s, loss_object)
    return StepMeter(
        emit,
        StepProbes(
            s.strategy,
            lambda batch: step(*batch),
            lambda: _written_by_step(model, s.optimizer, metrics=False),
            batches,
            reduced=True,
        ),
    )
