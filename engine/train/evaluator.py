"""The evaluator task: validates each checkpoint the chief writes, beside a multi-worker run.

tf_keras's SidecarEvaluator stops only at a checkpoint number given in advance, waits for ever when the chief
dies first, and skips checkpoints it was slow for. This one validates every checkpoint in order, knows the
run's end from the checkpoint's position, and stops on request (the launcher's, or its own when the chief goes
quiet: engine.train.chief_watch). It runs at low priority, and the trainer then skips its own validation.
Results: `evaluation` events, RUN_DIR/evaluation.csv and TensorBoard scalars in RUN_DIR/tensorboard/evaluation/.
"""

from __future__ import annotations

import os
import time
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import Any

from engine.core import events as ev
from engine.core.config import RunConfig, has_validation
from engine.core.problems import ConfigError
from engine.core.protocol.channel import StopSignal
from engine.core.protocol.codes import RunStatus
from engine.core.protocol.paths import RunPaths
from engine.core.runs.evaluation_log import EvaluationLog
from engine.core.sources import inspect, resolve_shard_policy, sharding_workers
from engine.core.tfconfig import TaskRole
from engine.train.trainer import Outcome

POLL_S = 0.5
NICENESS = 10


class Evaluator:
    """Validates the checkpoints of `run_dir` until the final one, or until asked to stop."""

    def __init__(self, config: RunConfig, run_dir: Path, sinks: list[ev.Sink], stop: StopSignal, role: TaskRole):
        self.config = config
        self.paths = RunPaths(run_dir)
        self.stop = stop
        self.role = role
        self.log = EvaluationLog(run_dir)
        self.sinks: list[ev.Sink] = [self.log, *sinks]
        self.epochs_validated = 0

    def emit(self, event: ev.Event) -> None:
        for sink in self.sinks:
            sink(event)

    def run(self) -> Outcome:
        try:
            return self._run()
        except (ConfigError, ValueError) as exc:  # DataError and ModelError are ConfigErrors
            return self._fail(str(exc), type(exc).__name__)
        except Exception as exc:  # say what happened; training goes on without it
            traceback.print_exc()
            return self._fail(f"{type(exc).__name__}: {exc}", type(exc).__name__)

    def _fail(self, message: str, error_type: str) -> Outcome:
        self.emit(ev.RunFailed(message=f"the evaluator failed: {message}", error_type=error_type))
        return Outcome(RunStatus.FAILED, message, error_type)

    def _run(self) -> Outcome:
        # a stop from here on means "validate what is written, then exit", even while TensorFlow loads:
        # training may end before this process is ready, and its checkpoints still deserve a look
        self.stop.training_reached()
        config = self.config
        if not has_validation(config):
            return self._fail(
                "there is no validation data to evaluate on: set validation_split above 0 (e.g. 0.2)", "ConfigError"
            )
        info = inspect(config)  # the trainer's data, split and step count, read the same way
        workers = sharding_workers(config.strategy, self.role.num_workers)
        shard_policy = resolve_shard_policy(config.data.shard_policy, info, workers, config.validation_split)
        _lower_priority()
        from engine.train.datasets import make_source

        self._set_up_tensorflow()
        source = make_source(config, info, shard_policy, workers)
        totals, weights = self._validation(source)
        self._watch_chief()
        self.emit(
            ev.Log(
                level="info",
                message=f"evaluator: validating each checkpoint in {self.paths.checkpoints} ({source.describe()})",
            )
        )
        final = self._validate_checkpoints(totals, weights, source.steps_per_epoch)
        status = RunStatus.COMPLETED if final else RunStatus.STOPPED
        self.emit(ev.RunFinished(status=status, epochs_completed=self.epochs_validated, run_dir=str(self.paths.root)))
        return Outcome(status)

    def _set_up_tensorflow(self) -> None:
        """One thread per op pool, GPU memory taken only as needed, the run's precision, TensorBoard's sink."""
        from engine.train.tensorboard_sink import TensorBoardSink
        from engine.train.tf_runtime import keras, tf

        tf.config.threading.set_intra_op_parallelism_threads(1)
        tf.config.threading.set_inter_op_parallelism_threads(1)
        for gpu in tf.config.list_physical_devices("GPU"):
            tf.config.experimental.set_memory_growth(gpu, True)  # never take the memory the trainer needs
        if self.config.mixed_precision != "off":
            keras.mixed_precision.set_global_policy(f"mixed_{self.config.mixed_precision}")
        self.sinks.insert(1, TensorBoardSink(self.paths.tensorboard_evaluation))

    def _validation(self, source: Any) -> tuple[Callable[[], Any], Any]:
        """(the whole validation set's sums in one compiled call, the reader of a checkpoint's weights)."""
        from engine.train.checkpoints import WeightReader
        from engine.train.loops import validation_sums
        from engine.train.models import build_loss_and_metric, build_model
        from engine.train.tf_runtime import keras, tf

        built = build_model(self.config, source.input_shape(), source.num_classes)  # weights only: no optimizer
        model, binary = built.model, source.binary
        threshold = 0.0 if built.from_logits else 0.5
        loss_object, _ = build_loss_and_metric(
            source.num_classes, keras.losses.Reduction.NONE, from_logits=built.from_logits
        )
        validation = source.validation()

        @tf.function
        def totals() -> tuple[Any, Any, Any]:
            """The whole validation set in one call: per-batch calls from Python cost more than the model."""
            loss_sum, correct, count = tf.constant(0.0), tf.constant(0.0), tf.constant(0.0)
            for features, labels in validation:
                batch_loss, batch_correct, n = validation_sums(model, loss_object, binary, features, labels, threshold)
                loss_sum, correct, count = loss_sum + batch_loss, correct + batch_correct, count + n
            return loss_sum, correct, count

        return totals, WeightReader(model)

    def _watch_chief(self) -> None:
        """A task of a cluster ends when its chief goes quiet (engine.train.chief_watch)."""
        if not self.role.task:
            return
        from engine.core.tfconfig import TF_CONFIG_ENV, parse_tf_config
        from engine.train.chief_watch import watch_chief

        cluster = parse_tf_config(os.environ.get(TF_CONFIG_ENV) or "{}").cluster
        if cluster.addresses("chief") or cluster.addresses("worker"):  # a TFJob may list the evaluator alone
            watch_chief(cluster.chief(), self.stop)

    def _validate_checkpoints(self, totals: Callable[[], Any], weights: Any, per_epoch: int) -> bool:
        """One `evaluation` event per checkpoint, in order, until the final one (True) or a stop (False)."""
        done = self.log.checkpoints()
        final = False
        cpu = time.process_time()
        while not final:
            pending = [p for p in self.paths.checkpoint_indexes() if p.stem not in done]
            if not pending:
                if self.stop.requested:
                    break
                self.stop.wait(POLL_S)
                continue
            index = pending[0]
            done.add(index.stem)
            prefix = str(index.with_suffix(""))
            started = time.perf_counter()
            try:
                epoch, step = weights.read(prefix)
            except Exception as exc:  # removed by the chief's `keep` meanwhile, or half-written: skip it
                self.emit(ev.Log(level="warning", message=f"evaluator: skipped {index.stem}: {exc}".strip()))
                continue
            loss_sum, correct, count = (float(t) for t in totals())  # the trainer's own validation arithmetic
            self.emit(
                ev.Evaluation(
                    epoch=epoch,
                    step=step,
                    global_step=epoch * per_epoch + step,
                    val_loss=loss_sum / count,
                    val_accuracy=correct / count,
                    examples=int(count),
                    seconds=time.perf_counter() - started,
                    checkpoint=prefix,
                    cpu_seconds=time.process_time() - cpu,
                )
            )
            cpu = time.process_time()
            self.epochs_validated = max(self.epochs_validated, epoch)
            final = epoch >= self.config.epochs and step == 0
        return final


def _lower_priority() -> None:
    """Leave the cores to training first (POSIX; elsewhere the evaluator runs at normal priority)."""
    if hasattr(os, "nice"):
        os.nice(NICENESS)
