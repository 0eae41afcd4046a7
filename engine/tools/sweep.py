"""Run a hyper-parameter sweep: Optuna samples and prunes, every trial is an ordinary trainer process.

Optuna is used for what it does well and keeps for us: the samplers (grid, random, TPE), the pruners
(median, successive halving) and an SQLite study in the sweep's folder that outlives the process. Each trial
is a fresh `train` process on its slot's devices writing an ordinary run directory; the sweep reads its
epoch_end events, reports the objective to Optuna, and asks a trial that Optuna prunes to stop (it
checkpoints, like any stopped run).

A sweep stopped, killed or cut by a reboot continues with `resume`: finished trials stay as they are; a
trial that was training is marked failed as interrupted and the same parameters are queued again, to
continue its run directory from its last checkpoint, so every parameter set finishes exactly once. The epochs
its run folder already holds are reported to Optuna first (pruning included); a run that completed as the sweep
died is recorded from its folder, with nothing left to train.
"""

from __future__ import annotations

import datetime
import itertools
import json
import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import optuna
from optuna.trial import TrialState

from engine.core import events as ev
from engine.core.config import RunConfig
from engine.core.messages import from_plain, msg, to_plain
from engine.core.problems import ConfigError, Problem
from engine.core.protocol import commands
from engine.core.protocol.client import WorkerProcess
from engine.core.protocol.codes import STOP_GRACE_S, ExitCode, RunStatus
from engine.core.protocol.paths import RunPaths
from engine.core.runs.history import read_metrics_table, summarize
from engine.core.runs.runlock import RunLock, holder
from engine.core.sweep import SweepPaths, TrialStatus, note_trial_end
from engine.core.sweep.slots import Slot, plan_slots
from engine.core.sweep.space import Parameter, SweepSpace, apply, load_sweep
from engine.tools import sweep_hparams
from engine.tools.sweep_pruning import PRUNED, why_pruned

POLL_S = 0.1
CONTINUES = "continues"  # user attribute of a trial queued again for an interrupted one: that one's number
RUN_DIR = "run_dir"  # user attribute: the trial's run directory
ERROR = "error"  # user attribute: why a trial failed
DEVICES = "devices"  # user attribute: where the trial trains, Slot.label()
MEDIAN_STARTUP_TRIALS = 5  # Optuna's default n_startup_trials of its MedianPruner
IMPORTANCE_METHOD = "PED-ANOVA"  # Optuna's PedAnovaImportanceEvaluator; its fANOVA would need scikit-learn
FINISHED_STATUS = {
    TrialState.COMPLETE: TrialStatus.COMPLETED,
    TrialState.PRUNED: TrialStatus.PRUNED,
    TrialState.FAIL: TrialStatus.FAILED,
}

optuna.logging.set_verbosity(optuna.logging.WARNING)  # the sweep reports trials itself, once each


def pruner_for(space: SweepSpace, epochs: int) -> optuna.pruners.BasePruner:
    """The space's pruner, for trials of `epochs` epochs.

    Median: Optuna's recommended MedianPruner (5 finished trials before any is judged, no step judged before its
    warm-up) scaled to the sweep: at most half the budget waits, so a small sweep still prunes, and the first
    quarter of the epochs is not judged (a trial's first epochs say little of its last)."""
    varied = next((p for p in space.parameters if p.name == "epochs"), None)
    epochs = min(int(e) for e in varied.values) if varied is not None else epochs  # the shortest trial's
    if space.pruner == "median":
        startup = min(MEDIAN_STARTUP_TRIALS, max(1, space.trials // 2))
        # steps are epochs, from 1: Optuna judges a step from n_warmup_steps on
        return optuna.pruners.MedianPruner(n_startup_trials=startup, n_warmup_steps=epochs // 4 + 1)
    if space.pruner == "halving":
        return optuna.pruners.SuccessiveHalvingPruner()
    return optuna.pruners.NopPruner()


def study_for(space: SweepSpace, paths: SweepPaths, epochs: int) -> optuna.Study:
    """The sweep's study in its folder, created or loaded, with the space's sampler and pruner (for trials of
    `epochs` epochs)."""
    if space.method in ("grid", "random"):  # a grid's points are queued when it starts (queue_grid)
        sampler: optuna.samplers.BaseSampler = optuna.samplers.RandomSampler(seed=space.seed)
    else:
        sampler = optuna.samplers.TPESampler(seed=space.seed)
    return optuna.create_study(
        storage=f"sqlite:///{paths.study}",
        study_name="sweep",
        direction="maximize" if space.maximise else "minimize",
        sampler=sampler,
        pruner=pruner_for(space, epochs),
        load_if_exists=True,
    )


def queue_grid(study: optuna.Study, space: SweepSpace) -> None:
    """Every point of a grid space, queued in order. Optuna's GridSampler calls `Study.stop` when its grid is
    exhausted, which only works inside `Study.optimize`; the sweep asks and tells trials itself."""
    names = [p.name for p in space.parameters]
    for values in itertools.product(*(p.grid() for p in space.parameters)):
        study.enqueue_trial({n: _to_optuna(v) for n, v in zip(names, values, strict=True)})


def _to_optuna(value: Any) -> Any:
    """Optuna's categorical values are scalars: a list such as hidden units travels as its JSON text."""
    return json.dumps(list(value)) if isinstance(value, tuple | list) else value


def config_values(params: dict[str, Any]) -> dict[str, Any]:
    """A trial's parameters as the config holds them (a list such as hidden units is kept as its JSON text)."""
    return {k: json.loads(v) if isinstance(v, str) and v.startswith("[") else v for k, v in params.items()}


def _suggest(trial: optuna.Trial, p: Parameter) -> Any:
    """The trial's value of `p`, as the config takes it."""
    if p.distribution == "choice":
        value = trial.suggest_categorical(p.name, [_to_optuna(v) for v in p.values])
        return json.loads(value) if any(isinstance(v, tuple) for v in p.values) else value
    if p.distribution == "int":
        return trial.suggest_int(p.name, int(p.values[0]), int(p.values[1]))
    return trial.suggest_float(p.name, float(p.values[0]), float(p.values[1]), log=p.distribution == "log_uniform")


def importances(study: optuna.Study) -> tuple[dict[str, float], str]:
    """How much each parameter decides whether a trial is among the best (shares summing to 1), most
    important first; or ({}, why not yet)."""
    completed = study.get_trials(deepcopy=False, states=(TrialState.COMPLETE,))
    if len(completed) < 2:
        return {}, msg("comes once two trials have completed")
    try:
        found = optuna.importance.get_param_importances(
            study, evaluator=optuna.importance.PedAnovaImportanceEvaluator()
        )
    except (RuntimeError, ValueError) as exc:  # e.g. every completed trial has the same parameters
        return {}, str(exc)
    return {name: float(share) for name, share in found.items()}, ""


def why_finished(trial: optuna.trial.FrozenTrial) -> str:
    """Why a trial failed, or why it was pruned (a Message); "" for a trial of a sweep that did not say."""
    return trial.user_attrs.get(ERROR, "") or (from_plain(trial.user_attrs.get(PRUNED) or {}) or "")


def objective_of(event: ev.EpochEnd, objective: str) -> float | None:
    """The objective's value at the end of an epoch (None when the run gives no such figure)."""
    return {
        "val_loss": event.val_loss,
        "val_accuracy": event.val_accuracy,
        "loss": event.loss,
        "accuracy": event.accuracy,
    }[objective]


@dataclass
class _Running:
    """A trial training on a slot."""

    trial: optuna.Trial
    slot: Slot
    params: dict[str, Any]
    run_dir: Path
    worker: WorkerProcess | None = None  # None for a resumed trial whose run was complete: nothing to start
    started: float = field(default_factory=time.monotonic)
    value: float | None = None
    epoch: int = 0
    pruned: bool = False
    why: str = ""  # why it was pruned (a Message)
    values: dict[int, float] = field(default_factory=dict)  # epoch -> the objective reported
    error: str = ""
    stop_asked: float | None = None
    completed: bool = False  # its trainer said its run completed (a stop may have come after the last epoch)
    unread: bool = False  # resumed: the epochs its run folder already holds are not reported yet (_catch_up)


class Sweep:
    """One sweep in its folder: start trials on free slots, follow them, report, prune, record."""

    def __init__(
        self,
        paths: SweepPaths,
        base: RunConfig,
        space: SweepSpace,
        slots: Sequence[Slot],
        on_event: ev.Sink = lambda e: None,
        should_stop: Callable[[], bool] = lambda: False,
    ):
        self.paths, self.base, self.space, self.slots = paths, base, space, list(slots)
        self.on_event, self.should_stop = on_event, should_stop
        self.study = study_for(space, paths, base.epochs)
        self.running: list[_Running] = []
        self.stopping = False

    def run(self) -> list[optuna.trial.FrozenTrial]:
        """Train trials until the budget is spent or a stop is asked; the study's trials at the end."""
        self._replay()
        self._queue_interrupted()
        began = time.monotonic()
        while True:
            if not self.stopping and self.should_stop():
                self.stopping = True
                for r in self.running:
                    self._ask_stop(r)
            if not self.stopping:
                self._fill_slots(began)
            if not self.running:
                break
            for r in list(self.running):
                self._follow(r)
        return self.study.get_trials(deepcopy=False)

    # ---- budget and slots ----------------------------------------------------------

    def budget(self) -> int:
        """Trials to finish: the space's count, at most the grid's points."""
        return min(self.space.trials, self.space.grid_size()) if self.space.method == "grid" else self.space.trials

    def finished_trials(self) -> list[optuna.trial.FrozenTrial]:
        """Trials finished for good: interrupted ones that were queued again do not count."""
        trials = self.study.get_trials(deepcopy=False)
        continued = {t.user_attrs[CONTINUES] for t in trials if CONTINUES in t.user_attrs}
        return [t for t in trials if t.state.is_finished() and t.number not in continued]

    def finished_count(self) -> int:
        return len(self.finished_trials())

    def _fill_slots(self, began: float) -> None:
        over_time = self.space.time_budget_s is not None and time.monotonic() - began > self.space.time_budget_s
        busy = {r.slot.index for r in self.running}
        for slot in self.slots:
            if over_time or self.finished_count() + len(self.running) >= self.budget():
                return
            if slot.index not in busy:
                self._start(slot)

    def _queue_interrupted(self) -> None:
        """Trials left training by a previous sweep process: failed as interrupted, their parameters queued."""
        for t in self.study.get_trials(deepcopy=False, states=(TrialState.RUNNING,)):
            self.study.tell(t.number, state=TrialState.FAIL)
            self.study.enqueue_trial(t.params, user_attrs={CONTINUES: t.number, RUN_DIR: t.user_attrs.get(RUN_DIR, "")})
            self._emit(
                t.number, TrialStatus.INTERRUPTED, config_values(t.params), run_dir=t.user_attrs.get(RUN_DIR, "")
            )

    # ---- one trial -----------------------------------------------------------------

    def _start(self, slot: Slot) -> None:
        trial = self.study.ask()
        params = {p.name: _suggest(trial, p) for p in self.space.parameters}
        earlier = trial.user_attrs.get(RUN_DIR, "")
        resume = bool(earlier) and RunPaths(Path(earlier)).has_checkpoint()
        run_dir = Path(earlier) if resume else self.paths.trial_dir(trial.number)
        trial.set_user_attr(RUN_DIR, str(run_dir))
        trial.set_user_attr(DEVICES, slot.label())
        try:
            config = apply(self.base, params).replace(devices=slot.devices, name=f"trial-{trial.number:03d}")
        except ConfigError as exc:  # the space was checked value by value; a combination may still be refused
            self._finish_failed(trial, params, str(exc), run_dir)
            self._summarise()
            return
        config_path = self.paths.trial_config(trial.number)
        config.save(config_path)
        r = _Running(trial, slot, params, run_dir, unread=resume)
        if resume and summarize(run_dir).status == RunStatus.COMPLETED:  # nothing left to train
            self._finish(r)
            return
        command = commands.trainer_resume_command(run_dir) if resume else commands.trainer_command(config_path, run_dir)
        r.worker = WorkerProcess(command)
        r.worker.start()
        self.running.append(r)
        self._emit(trial.number, TrialStatus.RUNNING, params, devices=slot.label(), run_dir=str(run_dir))

    def _catch_up(self, r: _Running, before: float = math.inf) -> None:
        """A resumed trial's epochs before `before` that its run folder holds (metrics.csv), judged as a live
        trial's are: read once its trainer reports its first epoch (the resume has dropped the epochs after its
        checkpoint by then), or as it ends without one (its run was complete)."""
        r.unread = False
        for row in read_metrics_table(RunPaths(r.run_dir).metrics).rows:
            if r.pruned or r.error or row["epoch"] >= before:
                return
            self._judge(r, int(row["epoch"]), row.get(self.space.objective))

    def _follow(self, r: _Running) -> None:
        assert r.worker is not None  # only started trials are followed
        for out in r.worker.poll(timeout=POLL_S / max(1, len(self.running))):
            event = out.event
            if isinstance(event, ev.EpochEnd):
                self._report(r, event)
            elif isinstance(event, ev.RunFailed) and not r.error:
                r.error = event.message
            elif isinstance(event, ev.RunFinished):
                r.completed = event.status == RunStatus.COMPLETED
        if r.stop_asked is not None and time.monotonic() - r.stop_asked > STOP_GRACE_S:
            r.worker.kill()
        if not r.worker.alive() and not r.worker.streams_open:
            r.worker.close()
            self.running.remove(r)
            self._finish(r)

    def _report(self, r: _Running, event: ev.EpochEnd) -> None:
        if r.unread:
            self._catch_up(r, before=event.epoch)
        if r.pruned or r.error:  # judged: epochs trained before the trainer heard the stop stay in its folder only
            return
        if not self._judge(r, event.epoch, objective_of(event, self.space.objective)):
            return
        self._emit(
            r.trial.number,
            TrialStatus.RUNNING,
            r.params,
            value=r.value,
            epoch=r.epoch,
            devices=r.slot.label(),
            run_dir=str(r.run_dir),
            seconds=time.monotonic() - r.started,
        )

    def _judge(self, r: _Running, epoch: int, value: float | None) -> bool:
        """Report an epoch's objective to Optuna and prune the trial when it says so; False when the run gives
        no objective (the trial fails). Either verdict asks the trainer to stop."""
        r.epoch = epoch
        if value is None:
            r.error = r.error or msg(
                "the run gives no {objective}: it has no validation data", objective=self.space.objective
            )
            self._ask_stop(r)
            return False
        r.value = value
        r.values[epoch] = value if math.isfinite(value) else math.nan
        r.trial.report(r.values[epoch], epoch)
        if r.trial.should_prune():
            r.pruned = True
            self._ask_stop(r)  # first: the trainer goes on with its next epoch until it hears
            r.why = why_pruned(self.study, self.space.pruner, self.space.objective, r.values, epoch)
            r.trial.set_user_attr(PRUNED, to_plain(r.why))
        return True

    def _ask_stop(self, r: _Running) -> None:
        if r.stop_asked is None and r.worker is not None:
            r.stop_asked = time.monotonic()
            r.worker.request_stop()

    def _finish(self, r: _Running) -> None:
        code = (r.worker.returncode if r.worker else None) or 0
        if r.unread and code == ExitCode.OK:
            self._catch_up(r)
        number = r.trial.number
        where = {"devices": r.slot.label(), "run_dir": str(r.run_dir), "seconds": time.monotonic() - r.started}
        if self.stopping and not r.pruned and not r.error and not r.completed:
            self._emit(number, TrialStatus.INTERRUPTED, r.params, value=r.value, epoch=r.epoch, **where)
            return  # left running in the study: `resume` continues it
        if r.run_dir.is_dir():
            sweep_hparams.write_trial(r.run_dir, r.params)
        if r.pruned:
            self.study.tell(r.trial, state=TrialState.PRUNED)
            said = self._emit(
                number, TrialStatus.PRUNED, r.params, value=r.value, epoch=r.epoch, message=r.why, **where
            )
            if r.run_dir.is_dir():
                note_trial_end(r.run_dir, said)
        elif r.error or code != ExitCode.OK or r.value is None or not math.isfinite(r.value):
            why = r.error or (f"the trainer {ExitCode.describe(code)}" if code else "the objective is not a number")
            del where["run_dir"]
            self._finish_failed(r.trial, r.params, why, r.run_dir, epoch=r.epoch, **where)
        else:
            self.study.tell(r.trial, r.value)
            self._emit(number, TrialStatus.COMPLETED, r.params, value=r.value, epoch=r.epoch, **where)
        self._summarise()

    def _finish_failed(self, trial: optuna.Trial, params: dict, why: str, run_dir: Path, **more: Any) -> None:
        trial.set_user_attr(ERROR, str(why)[:2000])
        self.study.tell(trial, state=TrialState.FAIL)
        self._emit(trial.number, TrialStatus.FAILED, params, message=str(why), run_dir=str(run_dir), **more)

    def _replay(self) -> None:
        """What a resumed sweep already holds, said as when it happened: each finished trial, then the summary."""
        finished = self.finished_trials()
        for t in finished:
            seconds = (t.datetime_complete - t.datetime_start).total_seconds() if t.datetime_complete else 0.0
            self._emit(
                t.number,
                FINISHED_STATUS[t.state],
                config_values(t.params),
                value=t.value if t.value is not None else t.intermediate_values.get(t.last_step or 0),
                epoch=t.last_step or 0,
                devices=t.user_attrs.get(DEVICES, ""),
                run_dir=t.user_attrs.get(RUN_DIR, ""),
                message=why_finished(t),
                seconds=seconds,
            )
        if finished:
            self._summarise()

    def _summarise(self) -> None:
        """The best trial so far and each parameter's importance, for a watcher without Optuna."""
        finished = self.finished_trials()
        shares, note = importances(self.study)
        best: dict[str, Any] = {}
        if any(t.state == TrialState.COMPLETE for t in finished):
            trial = self.study.best_trial
            best = {
                "best_number": trial.number,
                "best_value": trial.value,
                "best_params": config_values(trial.params),
                "best_run_dir": trial.user_attrs.get(RUN_DIR, ""),
            }
        method = IMPORTANCE_METHOD if shares else ""
        self.on_event(
            ev.SweepSummary(
                finished=len(finished),
                budget=self.budget(),
                importance=shares,
                importance_method=method,
                importance_note=note,
                **best,
            )
        )

    def _emit(self, number: int, state: TrialStatus, params: dict, **fields: Any) -> ev.SweepTrial:
        event = ev.SweepTrial(number=number, state=state, params=params, **fields)
        self.on_event(event)
        return event


def start(
    sweep_dir: Path,
    base: RunConfig,
    space: SweepSpace,
    physical_gpus: Sequence[str],
    on_event: ev.Sink = lambda e: None,
    should_stop: Callable[[], bool] = lambda: False,
) -> list[optuna.trial.FrozenTrial]:
    """A new sweep in `sweep_dir` (created; refused when it holds another sweep)."""
    paths = SweepPaths(sweep_dir)
    if paths.spec.exists():
        raise ConfigError([Problem("(sweep)", str(sweep_dir), msg("already holds a sweep: continue it with --resume"))])
    slots = plan_slots(space, base, physical_gpus)
    sweep_dir.mkdir(parents=True, exist_ok=True)
    paths.spec.write_text(json.dumps({"base": base.to_dict(), "space": space.raw}, indent=2) + "\n", encoding="utf-8")
    if space.method == "grid":
        queue_grid(study_for(space, paths, base.epochs), space)
    sweep_hparams.write_space(sweep_dir, space)
    return _run(paths, base, space, slots, on_event, should_stop)


def resume(
    sweep_dir: Path,
    physical_gpus: Sequence[str],
    on_event: ev.Sink = lambda e: None,
    should_stop: Callable[[], bool] = lambda: False,
) -> list[optuna.trial.FrozenTrial]:
    """Continue the sweep in `sweep_dir` where it was."""
    paths = SweepPaths(sweep_dir)
    base, space = load_sweep(paths)
    return _run(paths, base, space, plan_slots(space, base, physical_gpus), on_event, should_stop)


def status(sweep_dir: Path, on_event: ev.Sink) -> RunStatus:
    """What the sweep in `sweep_dir` holds, said as events without running anything: each finished trial, each
    trial left training, the summary. RUNNING when a sweep process trains it now (its lock is held), COMPLETED
    when its budget is spent, else STOPPED (`resume` continues it). The study is only read."""
    paths = SweepPaths(sweep_dir)
    base, space = load_sweep(paths)
    sweep = Sweep(paths, base, space, [], on_event)
    sweep._replay()
    held = holder(RunPaths(paths.root)) is not None
    now = datetime.datetime.now()
    for t in sweep.study.get_trials(deepcopy=False, states=(TrialState.RUNNING,)):
        sweep._emit(
            t.number,
            TrialStatus.RUNNING if held else TrialStatus.INTERRUPTED,
            config_values(t.params),
            value=t.intermediate_values.get(t.last_step) if t.last_step else None,
            epoch=t.last_step or 0,
            devices=t.user_attrs.get(DEVICES, ""),
            run_dir=t.user_attrs.get(RUN_DIR, ""),
            seconds=(now - t.datetime_start).total_seconds() if t.datetime_start else 0.0,
        )
    if held:
        return RunStatus.RUNNING
    return RunStatus.COMPLETED if sweep.finished_count() >= sweep.budget() else RunStatus.STOPPED


def _run(
    paths: SweepPaths,
    base: RunConfig,
    space: SweepSpace,
    slots: list[Slot],
    on_event: ev.Sink,
    should_stop: Callable[[], bool],
) -> list[optuna.trial.FrozenTrial]:
    with RunLock.acquire(RunPaths(paths.root), command="tfdd sweep"):  # one sweep process per folder
        return Sweep(paths, base, space, slots, on_event, should_stop).run()
