"""One run, start to finish: the one place that orders the steps.

validate config -> inspect the data source (engine.core.sources, before TF) ->
plan devices -> apply them -> strategy -> input pipeline -> model/optimizer
in scope, its output checked on one batch -> restore checkpoint ->
controller drives the loop -> save model. Every failure becomes a
`run_failed` event with a message a person can act on; finished epochs and
checkpoints are never thrown away.
"""

from __future__ import annotations

import os
import traceback
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NamedTuple

from engine.core import events as ev
from engine.core.config import Loop, RunConfig, Strategy, batch_problem, has_validation
from engine.core.messages import msg
from engine.core.plan import DevicePlan, cpu_info, plan_devices, precision_features
from engine.core.problems import ConfigError, Problem, RunDirError, capped, failure_message
from engine.core.protocol.channel import ProfileRequests, StopSignal
from engine.core.protocol.codes import RunStatus
from engine.core.protocol.paths import RunPaths
from engine.core.runs.rundir import RunDir
from engine.core.runs.safe_files import DiskFull, disk_full_message, is_disk_full
from engine.core.runs.scratch import ScratchDir
from engine.core.sources import (
    SourceInfo,
    check_fits_batch,
    inspect,
    resolve_shard_policy,
    shard_problem,
    sharding_workers,
)
from engine.core.tfconfig import TaskRole, role_from_environment
from engine.train.controller import Controller, NonFiniteLoss, Schedule
from engine.train.ending import exit_now, exits_guarded
from engine.train.failures import explain, out_of_memory_message, user_exit_message
from engine.train.run_setup import SetUp
from engine.train.steps_policy import steps_per_call
from engine.train.user_code import running_user_code


@dataclass(frozen=True)
class Outcome:
    status: RunStatus  # COMPLETED, STOPPED or FAILED
    message: str = ""
    error_type: str = ""
    # everything is written: skip the interpreter's teardown (a parameter-server coordinator's took up to
    # 18 s after a worker had been restarted, measured, with the run long over)
    exit_at_once: bool = False

    @property
    def config_error(self) -> bool:
        """The config (or TF_CONFIG, the device choice, the data, the model or the run folder) cannot work:
        nothing was trained."""
        return self.error_type in ("ConfigError", "DeviceError", "DataError", "ModelError", "RunDirError", "RunLocked")


class _Data(NamedTuple):
    """The data source as read before TensorFlow starts, and how it is sharded."""

    info: SourceInfo
    workers: int
    shard_policy: str


class _Start(NamedTuple):
    """Where training starts: `epoch` epochs finished, `step` steps of the next done, its carried totals."""

    epoch: int
    step: int
    totals: tuple[float, ...]


class Trainer:
    """Runs one RunConfig in this process; `emit` goes to every sink."""

    def __init__(
        self,
        config: RunConfig,
        run_dir: Path,
        sinks: list[ev.Sink],
        stop: StopSignal,
        resume: bool = False,
        print_tracebacks: bool = True,
        source_info: SourceInfo | None = None,
        anatomy: bool = True,
        profile: ProfileRequests | None = None,
    ):
        self.config = config
        self.profile = profile  # the steps to profile (engine.train.profile), from --profile-steps and stdin
        self.anatomy = anatomy  # measure where the step time goes (engine.train.anatomy); off only to price it
        self.print_tracebacks = print_tracebacks
        self.stop = stop
        self.resume = resume
        self._source_info = source_info  # the data source, when the caller has read it already
        self.role: TaskRole = role_from_environment(config.strategy)
        # with an evaluator task in the cluster, it validates (evaluation.csv) and training does not wait for it
        self.validates = has_validation(config) and not self.role.has_evaluator
        # a non-chief worker's saves go to a scratch folder (swept by the next worker if this one is killed)
        self._scratch = None if self.role.is_chief else ScratchDir("tfdd-worker-")
        try:  # claims the folder (RunDirError: not ours, already a run, in use) before TensorFlow starts
            self.run_dir = RunDir(
                self._scratch.path / "run" if self._scratch else run_dir,
                validation=self.validates,
                resume=resume and self.role.is_chief,
            )
        except BaseException:
            if self._scratch:
                self._scratch.cleanup()
            raise
        self.checkpoint_dir = RunPaths(run_dir).checkpoints  # every worker restores the chief's
        self.sinks: list[ev.Sink] = [self.run_dir, *sinks]
        self._controller: Any = None  # exists once training is set up
        self._plan: DevicePlan | None = None
        self._source: Any = None  # the input pipeline, once made: it names a file that fails to read
        self._started = False  # RunStarted sent: the model is built, the steps run

    @property
    def epochs_completed(self) -> int:
        """Finished epochs, restored ones included; what run_failed and run_finished report."""
        return self._controller.epochs_completed if self._controller else 0

    def emit(self, event: ev.Event) -> None:
        for sink in self.sinks:
            sink(event)

    def log(self, message: str, level: str = "info") -> None:
        self.emit(ev.Log(level=level, message=message))

    def run(self) -> Outcome:
        self.stop.on_overdue = self._overdue
        try:
            with exits_guarded(lambda message: self._fail(message, "UserExit")):
                return self._run()
        except KeyboardInterrupt:
            return self._fail("Interrupted before training could stop cleanly.", "KeyboardInterrupt")
        except RunDirError as exc:  # a resume that cannot be trusted: refused, the folder left as it was
            return self._fail(str(exc), "RunDirError", record=False)
        except SystemExit as exc:  # the user's code, called by TensorFlow or Keras (a layer, a loss)
            return self._fail(user_exit_message(exc), "UserExit")
        except (ConfigError, NonFiniteLoss) as exc:  # DeviceError, DataError and ModelError are ConfigErrors
            message = failure_message(exc) if isinstance(exc, ConfigError) else str(exc)
            return self._fail(message, type(exc).__name__)
        except Exception as exc:  # the last line of defence: say what happened, keep the run dir
            if is_disk_full(exc):
                return self._fail(
                    str(exc) if isinstance(exc, DiskFull) else disk_full_message(self.run_dir.path), "DiskFull"
                )
            if self.print_tracebacks:
                traceback.print_exc()
            if type(exc).__name__ == "ResourceExhaustedError":
                return self._fail(self._out_of_memory(exc), type(exc).__name__)
            if self._source is not None and (unreadable := self._source.unreadable_file(exc)):
                return self._fail(unreadable.message, "DataError")
            return self._fail(explain(exc), type(exc).__name__)
        finally:
            self.run_dir.close()
            if self._scratch:
                self._scratch.cleanup()

    def _fail(self, message: str, error_type: str, record: bool = True) -> Outcome:
        """run_failed to every sink; `record=False` keeps it out of the run directory (a refusal)."""
        self.stop.honour()  # the run has ended: a stop request now has nothing to wait for
        message = capped(message)
        failed = ev.RunFailed(
            message=message,
            error_type=error_type,
            epochs_completed=self.epochs_completed,
            run_dir=str(self.run_dir.path),
        )
        if record:
            self.run_dir.accept()  # the failure becomes part of the run, and so does its stderr
        for sink in self.sinks:
            if record or sink is not self.run_dir:
                sink(failed)
        return Outcome(
            RunStatus.FAILED, message, error_type, exit_at_once=self.config.strategy == Strategy.PARAMETER_SERVER
        )

    def _overdue(self, reason: str) -> None:
        """A stop training did not reach within its grace period (the user's code blocks it): record the end
        and why, then end the process; the finished epochs and checkpoints stay."""
        where = running_user_code()
        self.log(
            msg(
                "Stop requested ({reason}), but {what} had not returned after {seconds:g} s; the process ends "
                "now. Finished epochs and checkpoints are kept; --resume continues from the last checkpoint.",
                reason=reason,
                what=msg("the user's code ({where})", where=where) if where else msg("the training step"),
                seconds=self.stop.grace_s,
            ),
            "warning",
        )
        self.run_dir.accept()
        self.emit(
            ev.RunFinished(
                status=RunStatus.KILLED, epochs_completed=self.epochs_completed, run_dir=str(self.run_dir.path)
            )
        )
        self.run_dir.close()
        exit_now(self.stop.exit_code)

    def _run(self) -> Outcome:
        """The phases in order: check before TensorFlow, set up, restore, announce, train, finish."""
        config = self.config
        data = self._check_before_tensorflow()
        from engine.train.models import check_output
        from engine.train.profile import run_profiled
        from engine.train.ps_loop import save_plain_model
        from engine.train.tensorboard_sink import TensorBoardSink

        setup = self._set_up(data)
        start = self._restore(setup.checkpointer)
        self.run_dir.accept()  # a sound start or resume: from here on the run goes ahead
        # after a resume is known to be sound (a refused one leaves no file), and after the event channel:
        # its first write traces a summary op, 0.15 s the window would wait for its first point
        self.sinks.append(TensorBoardSink(self.run_dir.tensorboard))
        if start.epoch >= config.epochs:
            self.log(msg("All {epochs} epochs were already finished; nothing to resume.", epochs=config.epochs))
            return self._finish(RunStatus.COMPLETED, setup.model, save_model=False)
        source, built = setup.source, setup.built
        if built.needs_output_check:
            check_output(setup.model, next(iter(source.train(start.epoch).take(1)))[0], source.num_classes, built.where)
        controller, session = self._controller_and_session(setup, start)
        self._start(setup, session, start)
        self._describe(setup, data)
        loop = self._loop(setup, session, start)
        status = run_profiled(controller, loop, self.profile, self.checkpoint_dir.parent, self.role.task, self.config)
        saver = (lambda path: save_plain_model(session, path)) if setup.coordinator else None
        return self._finish(status, setup.model, save_model=True, saver=saver)

    def _check_before_tensorflow(self) -> _Data:
        """The config file written, the strategy's cluster and the data checked: bad data is reported before
        TensorFlow starts (every row, image header and record framing is read)."""
        config = self.config
        if self.role.is_chief and not self.resume:
            self.run_dir.write_config(config)
        if config.strategy == Strategy.PARAMETER_SERVER and not self.role.job:
            raise ConfigError(
                [
                    Problem(
                        "strategy",
                        config.strategy,
                        "parameter_server trains a cluster (a chief, workers, ps tasks) and TF_CONFIG names none; "
                        "run `tfdd cluster launch --workers 2 --ps 1 --config FILE`, or set TF_CONFIG on every task",
                    )
                ]
            )
        info = self._source_info or inspect(config)
        check_fits_batch(info, config.validation_split, config.global_batch_size)
        workers = sharding_workers(config.strategy, self.role.num_workers)
        shard_policy = resolve_shard_policy(config.data.shard_policy, info, workers, config.validation_split)
        if problem := shard_problem(shard_policy, info, workers):
            raise ConfigError([problem])
        return _Data(info, workers, shard_policy)

    def _set_up(self, data: _Data) -> SetUp:
        """Devices, strategy, input pipeline, and the model and optimizer in the strategy's scope."""
        from engine.train.checkpoints import Checkpointer
        from engine.train.datasets import make_source
        from engine.train.devices import apply_plan
        from engine.train.models import build_model, build_optimizer
        from engine.train.ps_loop import make_coordinator
        from engine.train.strategies import make_strategy
        from engine.train.tf_runtime import keras, tf

        config = self.config
        gpus = [f"GPU:{i}" for i, _ in enumerate(tf.config.list_physical_devices("GPU"))]
        plan = self._plan = plan_devices(config, gpus, workers=self.role.num_workers)
        apply_plan(plan)
        if config.mixed_precision != "off":
            keras.mixed_precision.set_global_policy(f"mixed_{config.mixed_precision}")
        # checked before the strategy too: a cluster's workers block in its constructor until all have joined
        _check_batch(config, plan.replicas)
        strategy = make_strategy(config, plan, self.stop, self.emit)  # a cluster's tasks wait in here for all
        coordinator = make_coordinator(strategy) if config.strategy == Strategy.PARAMETER_SERVER else None
        self.stop.training_reached()
        _check_batch(config, strategy.num_replicas_in_sync)
        source = self._source = make_source(config, data.info, data.shard_policy, data.workers)
        if source.steps_per_epoch < 1:
            raise ConfigError(
                [Problem("global_batch_size", config.global_batch_size, f"{source.describe()}: not one full batch")]
            )
        keras.utils.set_random_seed(config.seed)
        with strategy.scope():
            built = build_model(config, source.input_shape(), source.num_classes)
            optimizer = build_optimizer(config)
            if config.mixed_precision == "float16" and config.loop == Loop.CUSTOM:
                optimizer = keras.mixed_precision.LossScaleOptimizer(optimizer)
            # its slot variables now, not inside the first step: a tf.function that creates variables
            # is traced twice (a second of every run's start); under parameter_server the slots must also
            # exist before a restore, or they are restored only at the first step
            optimizer.build(built.model.trainable_variables)
        checkpointer = Checkpointer(
            built.model,
            optimizer,
            self.run_dir.checkpoints,
            config.checkpoint.keep,
            self.emit,
            restore_from=self.checkpoint_dir,
        )
        return SetUp(plan, strategy, coordinator, source, built, optimizer, checkpointer)

    def _controller_and_session(self, setup: SetUp, start: _Start) -> tuple[Controller, Any]:
        """The controller over the remaining epochs, and the session its loop trains."""
        from engine.train.loops import Session
        from engine.train.ps_loop import quiesced
        from engine.train.strategies import stop_agreement

        config, coordinator = self.config, setup.coordinator
        policy = steps_per_call(config, setup.source.steps_per_epoch, self.role.num_workers)

        def save(epoch: int, step: int, totals: tuple[float, ...] = ()) -> None:
            self.run_dir.synced()  # the events it covers are on disk first
            setup.checkpointer.save(epoch, step, totals)

        in_sync = config.strategy == Strategy.MULTI_WORKER_MIRRORED and self.role.num_workers > 1
        self._controller = controller = Controller(
            schedule=Schedule(
                epochs=config.epochs,
                steps_per_epoch=setup.source.steps_per_epoch,
                global_batch_size=config.global_batch_size,
                start_epoch=start.epoch,
                start_step=start.step,
                start_totals=start.totals,
                checkpoint_every_steps=config.checkpoint.every_steps,
                checkpoint_every_epoch=config.checkpoint.every_epoch,
                validate=self.validates,
            ),
            policy=policy,
            emit=self.emit,
            stop=self.stop,
            checkpoint=quiesced(coordinator, save) if coordinator else save,
            learning_rate=config.learning_rate,
            stop_agreed=stop_agreement(setup.strategy) if in_sync else None,
        )
        session = Session(
            config=config,
            strategy=setup.strategy,
            model=setup.model,
            optimizer=setup.optimizer,
            source=setup.source,
            from_logits=setup.built.from_logits,
            steps_per_execution=policy.fixed,
        )
        return controller, session

    def _start(self, setup: SetUp, session: Any, start: _Start) -> None:
        """run_started: the model is built, the steps run from here."""
        from engine.train.strategies import measure_replica_batches

        config, strategy, source = self.config, setup.strategy, setup.source
        replicas = strategy.num_replicas_in_sync
        replica_batches = (
            [config.global_batch_size // replicas]  # a coordinator runs no replica of its own to measure
            if setup.coordinator
            else measure_replica_batches(strategy, source.distributed_train(strategy, start.epoch, start.step))
        )
        self.emit(
            ev.RunStarted(
                strategy=config.strategy,
                num_replicas=replicas,
                devices=list(setup.plan.strategy_devices),
                global_batch_size=config.global_batch_size,
                per_replica_batch_size=replica_batches[0],
                loop=config.loop,
                epochs=config.epochs,
                steps_per_epoch=source.steps_per_epoch,
                steps_per_execution=session.steps_per_execution or 0,
                run_dir=str(self.run_dir.path),
                start_epoch=start.epoch,
                start_step=start.step,
                num_workers=self.role.num_workers,
                task=self.role.task,
                cpu_features=precision_features(cpu_info()),
            )
        )
        self._started = True

    def _loop(self, setup: SetUp, session: Any, start: _Start) -> Any:
        """The loop the controller drives: custom or fit, a parameter-server coordinator's or not."""
        from engine.train.anatomy import step_meter
        from engine.train.loops import CustomLoop, FitLoop
        from engine.train.ps_loop import PSCustomLoop, PSFitLoop

        fit = self.config.loop == Loop.FIT
        if setup.coordinator:
            return (PSFitLoop if fit else PSCustomLoop)(
                session, setup.coordinator, self.role.num_workers, anatomy=self.anatomy
            )
        loop = FitLoop(session) if fit else CustomLoop(session)
        if self.anatomy:
            strategy, source = setup.strategy, setup.source
            batches = lambda: source.distributed_train(strategy, start.epoch, start.step)  # noqa: E731
            self._controller.anatomy = step_meter(session, self.emit, batches)
        return loop

    def _describe(self, setup: SetUp, data: _Data) -> None:
        """The run's set-up in the log: strategy and devices, data, model, who validates."""
        for line, level in setup.log_lines(self.config, self.role, data.shard_policy, self._controller.policy.fixed):
            self.log(line, level)
        if has_validation(self.config) and not self.validates:
            path = str(RunPaths(self.run_dir.path).evaluation)
            self.log(msg("The evaluator task validates each checkpoint ({path}).", path=path))

    def _out_of_memory(self, exc: BaseException) -> str:
        return out_of_memory_message(exc, self.config, self._plan, self._started)

    def _restore(self, checkpointer: Any) -> _Start:
        """Continue from the newest readable checkpoint, and make the run's files agree with it."""
        restored = checkpointer.restore() if self.resume else None  # RunDirError when none can be read
        notes: list[str] = []
        if restored is None:
            epoch, step, totals = 0, 0, ()
        else:
            epoch, step, totals = restored.epoch, restored.step, restored.totals
        if step:
            _check_batch_unchanged(self.run_dir.events_path, epoch, step, self.config.global_batch_size)
        if self.resume and self.role.is_chief:
            notes = self.run_dir.reconcile(epoch, step)
        if restored is None:
            if self.resume:
                self.log(msg("No checkpoint found (no epoch was finished); starting from the first epoch."), "warning")
            return _Start(0, 0, ())
        for why in restored.skipped:
            self.log(msg("Checkpoint {why}; it was set aside and an older one is used.", why=why), "warning")
        self.log(
            msg(
                "Resuming at epoch {epoch}, step {step} from {checkpoint} in {folder}.",
                epoch=epoch + 1,
                step=step,
                checkpoint=Path(restored.path).name,
                folder=str(self.checkpoint_dir),
            )
        )
        for note in notes:
            self.log(msg("Resume: {note}.", note=note))
        return _Start(epoch, step, totals)

    def _finish(
        self, status: RunStatus, model: Any, save_model: bool, saver: Callable[[Path], None] | None = None
    ) -> Outcome:
        self.stop.honour()  # what is left is the engine's own: saving the model
        model_path = ""
        if save_model:
            (saver or (lambda path: _save_model(model, path)))(self.run_dir.model_path)
            model_path = str(self.run_dir.model_path) if self.role.is_chief else ""
        self.emit(
            ev.RunFinished(
                status=status,
                epochs_completed=self.epochs_completed,
                run_dir=str(self.run_dir.path),
                model_path=model_path,
            )
        )
        return Outcome(status, exit_at_once=self.config.strategy == Strategy.PARAMETER_SERVER)


def _check_batch_unchanged(events: Path, epoch: int, step: int, batch: int) -> None:
    """A checkpoint within an epoch counts steps of the batch size it was trained with: with another size
    the position means other examples (or lies past the epoch's end), so such a resume is refused."""
    from engine.core.runs.events_file import EventsDigest

    digest = EventsDigest()
    digest.update(events)
    before = digest.started.global_batch_size if digest.started else batch
    if before != batch:
        raise RunDirError(
            f"the checkpoint is at step {step} of epoch {epoch + 1}, in steps of global_batch_size {before}, and "
            f"the run's config.json now says {batch}; nothing was changed: resume with global_batch_size "
            f"{before} (it can change at an epoch's end), or start a new run"
        )


def _save_model(model: Any, path: Path) -> None:
    """Write the model beside its place and rename it there: a crash leaves the old file or the new one."""
    tmp = path.with_name(f".{path.stem}.tmp{path.suffix}")  # Keras wants the .keras suffix
    try:
        model.save(str(tmp))
        os.replace(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)


def _check_batch(config: RunConfig, replicas: int) -> None:
    problem = batch_problem(config.global_batch_size, replicas)
    if problem:
        raise ConfigError([problem])
