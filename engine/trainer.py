"""One run, start to finish: the one place that orders the steps.

validate config -> load data (NumPy, before TF) -> plan devices -> import TF,
apply devices -> strategy -> model/optimizer in scope -> restore checkpoint ->
loop -> save model. Every failure becomes a `run_failed` event with a message
a person can act on; finished epochs and checkpoints are never thrown away.
"""
from __future__ import annotations

import json
import os
import shutil
import tempfile
import traceback
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from engine import events as ev
from engine.config import ConfigError, Problem, RunConfig, batch_problem, fixed_steps_per_execution
from engine.data import Arrays, DataError, Datasets, load_arrays, steps_per_epoch
from engine.devices import apply_plan, plan_devices
from engine.progress import NonFiniteLoss, Progress, StopSignal
from engine.rundir import RunDir
from engine.tensorboard_sink import TensorBoardSink

Sink = Callable[[ev.Event], None]


@dataclass(frozen=True)
class Outcome:
    status: str  # "completed", "stopped" or "failed"
    message: str = ""
    error_type: str = ""

    @property
    def config_error(self) -> bool:
        """The config (or TF_CONFIG, or the device choice) cannot work on this machine."""
        return self.error_type in ("ConfigError", "DeviceError")


@dataclass(frozen=True)
class WorkerRole:
    """This process's place in a TF_CONFIG cluster (one worker when there is none)."""

    num_workers: int = 1
    task: str = ""
    is_chief: bool = True

    @classmethod
    def from_environment(cls) -> "WorkerRole":
        raw = os.environ.get("TF_CONFIG", "").strip()
        if not raw:
            return cls()
        try:
            doc = json.loads(raw)
            cluster, task = doc.get("cluster", {}), doc.get("task", {})
            job, index = task.get("type", "worker"), int(task.get("index", 0))
        except (ValueError, AttributeError, TypeError) as exc:
            raise ConfigError([Problem("TF_CONFIG", raw[:60], f"not valid JSON with cluster and task ({exc}); "
                                       "check it with `python main.py cluster validate`")]) from None
        workers = len(cluster.get("chief", [])) + len(cluster.get("worker", []))
        chief = job == "chief" or (job == "worker" and index == 0 and "chief" not in cluster)
        return cls(num_workers=max(workers, 1), task=f"{job}:{index}", is_chief=chief)


class Checkpointer:
    """Model, optimizer and (epoch, step) in one atomic tf.train checkpoint."""

    def __init__(self, tf: Any, model: Any, optimizer: Any, directory: Path, keep: int, emit: Sink,
                 restore_from: Path | None = None):
        """Saves to `directory`; restores from `restore_from` (default the same): in a cluster every
        worker restores the chief's checkpoint, while non-chief workers save to scratch folders."""
        self._tf = tf
        self._restore_from = restore_from or directory
        self._position = tf.Variable([0, 0], dtype=tf.int64, trainable=False, name="position")
        self._checkpoint = tf.train.Checkpoint(model=model, optimizer=optimizer, position=self._position)
        self._manager = tf.train.CheckpointManager(self._checkpoint, str(directory), max_to_keep=keep)
        self._emit = emit
        self.last_saved: tuple[int, int] | None = None

    def restore(self) -> tuple[int, int] | None:
        """(epoch, step) to continue from, or None when there is no checkpoint."""
        path = self._tf.train.latest_checkpoint(str(self._restore_from))
        if not path:
            return None
        self._checkpoint.restore(path).expect_partial()
        epoch, step = (int(v) for v in self._position.numpy())
        self.last_saved = (epoch, step)
        return epoch, step

    def save(self, epoch: int, step: int) -> None:
        if self.last_saved == (epoch, step):
            return
        self._position.assign([epoch, step])
        path = self._manager.save()
        self.last_saved = (epoch, step)
        self._emit(ev.CheckpointSaved(path=path, epoch=epoch, step=step))


def _measure_replica_batches(tf: Any, strategy: Any, dataset: Any) -> list[int]:
    """The batch each replica really receives (a number measured, not assumed)."""
    batch = next(iter(strategy.experimental_distribute_dataset(dataset.take(1))))
    sizes = tf.function(lambda b: strategy.run(lambda x, y: tf.shape(x)[0], args=b))(batch)
    return [int(v) for v in strategy.experimental_local_results(sizes)]


class Trainer:
    """Runs one RunConfig in this process; `emit` goes to every sink."""

    def __init__(self, config: RunConfig, run_dir: Path, sinks: list[Sink], stop: StopSignal,
                 resume: bool = False, print_tracebacks: bool = True):
        self.config = config
        self.print_tracebacks = print_tracebacks
        self.stop = stop
        self.resume = resume
        self.role = WorkerRole.from_environment() if config.strategy == "multi_worker_mirrored" else WorkerRole()
        self._scratch = None if self.role.is_chief else Path(tempfile.mkdtemp(prefix="tfdd-worker-"))
        self.run_dir = RunDir(self._scratch or run_dir, validation=config.validation_split > 0)
        self.checkpoint_dir = Path(run_dir) / "checkpoints"  # all workers restore the chief's
        self.sinks = [self.run_dir, TensorBoardSink(self.run_dir.tensorboard), *sinks]
        self._progress: Progress | None = None  # exists once training is set up

    @property
    def epochs_completed(self) -> int:
        """Finished epochs, restored ones included; what run_failed and run_finished report."""
        return self._progress.epochs_completed if self._progress else 0

    def emit(self, event: ev.Event) -> None:
        for sink in self.sinks:
            sink(event)

    def log(self, message: str, level: str = "info") -> None:
        self.emit(ev.Log(level=level, message=message))

    def run(self) -> Outcome:
        try:
            return self._run()
        except KeyboardInterrupt:
            return self._fail("Interrupted before training could stop cleanly.", "KeyboardInterrupt")
        except (ConfigError, DataError) as exc:  # DeviceError is a ConfigError
            return self._fail(str(exc), type(exc).__name__)
        except NonFiniteLoss as exc:
            return self._fail(str(exc), "NonFiniteLoss")
        except Exception as exc:  # the last line of defence: say what happened, keep the run dir
            if self.print_tracebacks:
                traceback.print_exc()
            return self._fail(_explain(exc), type(exc).__name__)
        finally:
            self.run_dir.close()
            if self._scratch:
                shutil.rmtree(self._scratch, ignore_errors=True)

    def _fail(self, message: str, error_type: str) -> Outcome:
        self.emit(ev.RunFailed(message=message, error_type=error_type, epochs_completed=self.epochs_completed,
                               run_dir=str(self.run_dir.path)))
        return Outcome("failed", message, error_type)

    def _run(self) -> Outcome:
        config = self.config
        if self.role.is_chief and not self.resume:
            self.run_dir.write_config(config)
        arrays = load_arrays(config)  # NumPy: bad data is reported before TensorFlow starts
        from engine.tf_runtime import keras, tf

        plan = plan_devices(config, [f"GPU:{i}" for i, _ in enumerate(tf.config.list_physical_devices("GPU"))])
        apply_plan(plan, tf)
        if config.mixed_precision != "off":
            keras.mixed_precision.set_global_policy(f"mixed_{config.mixed_precision}")
        from engine.strategies import make_strategy

        # checked before the strategy too: a cluster's workers block in its constructor until all have joined
        _check_batch(config, plan.num_local_replicas * self.role.num_workers)
        strategy = make_strategy(config, plan, tf)
        self.stop.training_reached()
        replicas = strategy.num_replicas_in_sync
        _check_batch(config, replicas)
        keras.utils.set_random_seed(config.seed)
        with strategy.scope():
            from engine.models import build_model, build_optimizer

            model = build_model(config, arrays.num_features, arrays.num_classes, keras)
            optimizer = build_optimizer(config, keras)
            if config.mixed_precision == "float16" and config.loop == "custom":
                optimizer = keras.mixed_precision.LossScaleOptimizer(optimizer)
        checkpointer = Checkpointer(tf, model, optimizer, self.run_dir.checkpoints, config.checkpoint.keep,
                                    self.emit, restore_from=self.checkpoint_dir)
        start_epoch, start_step = self._restore(checkpointer)
        session = self._session(config, tf, keras, strategy, model, optimizer, arrays, checkpointer,
                                start_epoch, start_step)
        if start_epoch >= config.epochs:
            self.log(f"All {config.epochs} epochs were already finished; nothing to resume.")
            return self._finish("completed", model, save_model=False)
        replica_batches = _measure_replica_batches(tf, strategy, session.datasets.train(start_epoch))
        self.emit(ev.RunStarted(
            strategy=config.strategy, num_replicas=replicas, devices=list(plan.strategy_devices),
            global_batch_size=config.global_batch_size, per_replica_batch_size=replica_batches[0],
            loop=config.loop, epochs=config.epochs, steps_per_epoch=session.progress.steps_per_epoch,
            steps_per_execution=session.steps_per_execution or 0, run_dir=str(self.run_dir.path),
            start_epoch=start_epoch, start_step=start_step, num_workers=self.role.num_workers, task=self.role.task,
        ))
        self.log(f"{type(strategy).__name__} on {', '.join(plan.strategy_devices)}; all-reduce: {plan.all_reduce}; "
                 f"memory growth: {'on' if plan.memory_growth and plan.uses_gpu else 'off'}; "
                 f"mixed precision: {config.mixed_precision}; {self.role.num_workers} worker(s)")
        from engine.loops import CustomLoop, FitLoop

        loop = FitLoop(session) if config.loop == "fit" else CustomLoop(session)
        status = loop.run()
        if status == "stopped":
            p = session.progress
            checkpointer.save(p.epoch + (1 if p.step >= p.steps_per_epoch else 0), p.step % p.steps_per_epoch)
        return self._finish(status, model, save_model=True)

    def _restore(self, checkpointer: Checkpointer) -> tuple[int, int]:
        position = checkpointer.restore() if self.resume else None
        if position is None:
            if self.resume:
                self.log("No checkpoint found; starting from the first epoch.", "warning")
            return 0, 0
        epoch, step = position
        self.log(f"Resuming at epoch {epoch + 1}, step {step} from {self.checkpoint_dir}.")
        if self.role.is_chief:
            self.run_dir.keep_epochs_before(epoch + 1)
        return epoch, step

    def _session(self, config: RunConfig, tf: Any, keras: Any, strategy: Any, model: Any, optimizer: Any,
                 arrays: Arrays, checkpointer: Checkpointer, start_epoch: int, start_step: int) -> Any:
        from engine.loops import Session

        per_epoch = steps_per_epoch(arrays, config.global_batch_size)
        progress = Progress(
            emit=self.emit, stop=self.stop, global_batch_size=config.global_batch_size, steps_per_epoch=per_epoch,
            checkpoint=checkpointer.save, checkpoint_every_steps=config.checkpoint.every_steps,
            checkpoint_every_epoch=config.checkpoint.every_epoch, learning_rate=config.learning_rate,
            stop_agreed=_stop_agreement(tf, strategy) if self.role.num_workers > 1 else None,
        )
        progress.epochs_completed = start_epoch
        self._progress = progress
        return Session(config=config, tf=tf, keras=keras, strategy=strategy, model=model, optimizer=optimizer,
                       arrays=arrays, datasets=Datasets(arrays, config, tf), progress=progress,
                       steps_per_execution=self._steps_per_execution(config, per_epoch),
                       start_epoch=start_epoch, start_step=start_step)

    def _steps_per_execution(self, config: RunConfig, per_epoch: int) -> int | None:
        """Fixed, or None for "auto": the custom loop's CallSizer tunes calls by their duration.

        Elsewhere "auto" is a fixed 32. Workers of a cluster must run calls of equal size, or their
        collectives stop matching and they deadlock, so a tuner that listens to each worker's own
        clock is no good there; and tf-keras's own "auto" tuner for fit ran at a quarter of fit's
        speed at 32 steps per call (BENCHMARKS.md)."""
        fixed = fixed_steps_per_execution(config, per_epoch)
        if fixed is None and (self.role.num_workers > 1 or config.loop == "fit"):
            return min(32, per_epoch)
        return fixed

    def _finish(self, status: str, model: Any, save_model: bool) -> Outcome:
        model_path = ""
        if save_model:
            model.save(str(self.run_dir.model_path))
            model_path = str(self.run_dir.model_path) if self.role.is_chief else ""
        self.emit(ev.RunFinished(status=status, epochs_completed=self.epochs_completed,
                                 run_dir=str(self.run_dir.path), model_path=model_path))
        return Outcome(status)


def _check_batch(config: RunConfig, replicas: int) -> None:
    problem = batch_problem(config.global_batch_size, replicas)
    if problem:
        raise ConfigError([problem])


def _stop_agreement(tf: Any, strategy: Any) -> Callable[[bool], bool]:
    """Multi-worker: stop only when all agree to (any one asked), or workers would hang
    waiting for a peer that left the collective."""

    @tf.function
    def any_worker(local: Any) -> Any:
        return strategy.reduce("SUM", strategy.run(lambda: tf.identity(local)), axis=None)

    def agreed(local: bool) -> bool:
        return float(any_worker(tf.constant(1.0 if local else 0.0))) > 0

    return agreed


def _explain(exc: BaseException) -> str:
    """Turn TensorFlow's errors into what a person can do about them."""
    name = type(exc).__name__
    lines = [line.strip() for line in str(exc).strip().splitlines() if line.strip()]
    # errors raised inside a tf.function start with "in user code:" and end with the cause
    text = (lines[-1] if lines[0].startswith("in user code") else lines[0]) if lines else name
    if name == "ResourceExhaustedError":
        return f"Out of device memory ({text}). Lower global_batch_size, use mixed precision, or fewer virtual devices."
    if name in ("UnavailableError", "DeadlineExceededError"):
        return f"A worker of the cluster stopped responding ({text}). Check that every worker is running and reachable."
    return f"{name}: {text}"
