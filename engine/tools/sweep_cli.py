"""`tfdd sweep`: start or continue a hyper-parameter sweep from a terminal, or (--events) for the window.

Optuna is imported only when a sweep runs: every `tfdd` command builds this parser.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from engine.core import events as ev
from engine.core.config import RunConfig
from engine.core.problems import ConfigError, printable
from engine.core.protocol import commands
from engine.core.protocol.codes import ExitCode, RunStatus
from engine.core.protocol.paths import runs_root
from engine.core.sweep import SweepPaths, TrialStatus, new_sweep_dir
from engine.core.sweep.space import load_space

if TYPE_CHECKING:
    import optuna
    from optuna.trial import FrozenTrial


def register(subcommands: Any) -> None:
    """Add `sweep` to the `tfdd` command line."""
    parser = subcommands.add_parser(
        "sweep", help="search hyper-parameters: many runs of a config, sampled and pruned by Optuna"
    )
    source = parser.add_mutually_exclusive_group(required=True)
    source.add_argument("--config", help="the base RunConfig JSON file (with --space)")
    source.add_argument("--resume", metavar="SWEEP_DIR", help="continue a stopped or killed sweep where it was")
    source.add_argument(
        "--status", metavar="SWEEP_DIR", help="what a sweep holds (running, stopped or finished), without running it"
    )
    parser.add_argument("--space", help="the search space JSON file: which fields vary, the objective, the budget")
    parser.add_argument("--out", help="the sweep's folder (default: a new folder under the runs folder)")
    parser.add_argument(
        "--events", action="store_true", help='JSON-line events on stdout (sweep_trial); "stop" on stdin stops'
    )
    parser.set_defaults(handler=run)


def physical_gpus() -> list[str]:
    """The GPUs TensorFlow sees in this environment (CUDA_VISIBLE_DEVICES applies), from the device probe."""
    import subprocess

    done = subprocess.run(commands.probe_command(), capture_output=True, text=True, timeout=300, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"the device probe failed: {done.stderr.strip()[-500:]}")
    return [d["name"] for d in json.loads(done.stdout)["devices"] if d.get("type") == "GPU"]


def run(args: argparse.Namespace) -> int:
    from engine.core.protocol.channel import EventChannel, StopSignal, handle_stop_signals, protect_stdout, watch_stdin
    from engine.tools import sweep

    if args.config and not args.space:
        print("error: --space is required with --config", file=sys.stderr)
        return ExitCode.CONFIG
    stop = StopSignal()
    handle_stop_signals(stop)
    if args.events:
        emit: ev.Sink = EventChannel(protect_stdout())
        watch_stdin(stop)
    else:
        emit = _print_trial
    if args.status:
        return _status(Path(args.status), emit if args.events else lambda e: None, args.events)
    try:
        if args.resume:
            sweep_dir = Path(args.resume)
            trials = sweep.resume(sweep_dir, physical_gpus(), emit, lambda: stop.requested)
        else:
            base = RunConfig.load(args.config)
            space = load_space(args.space, base)
            sweep_dir = Path(args.out) if args.out else new_sweep_dir(runs_root(), base.name)
            trials = sweep.start(sweep_dir, base, space, physical_gpus(), emit, lambda: stop.requested)
    except ConfigError as exc:
        return _refused(exc, emit, args.events)
    status = RunStatus.STOPPED if stop.requested else RunStatus.COMPLETED
    if args.events:
        emit(ev.RunFinished(status=status, epochs_completed=len(trials), run_dir=str(sweep_dir)))
    else:
        print(report(sweep_dir, trials))
        if stop.requested:
            print(f"stopped; continue with: tfdd sweep --resume {sweep_dir}")
    return ExitCode.OK


def _status(sweep_dir: Path, emit: ev.Sink, events: bool) -> int:
    """`--status`: the sweep's trials and summary as events, then how it stands (a RunFinished status)."""
    from engine.tools import sweep

    try:
        status = sweep.status(sweep_dir, emit)
    except ConfigError as exc:
        return _refused(exc, emit, events)
    if events:
        emit(ev.RunFinished(status=status, epochs_completed=0, run_dir=str(sweep_dir)))
    else:
        print(f"{report(sweep_dir)}\n{status}")
    return ExitCode.OK


def _refused(exc: ConfigError, emit: ev.Sink, events: bool) -> int:
    """A sweep refused (a bad space, no sweep in the folder): said as an event or on stderr."""
    text = printable(str(exc))
    if events:
        emit(ev.RunFailed(message=text, error_type="ConfigError"))
    else:
        print(f"error: {text}", file=sys.stderr)
    return ExitCode.CONFIG


def _print_trial(event: ev.Event) -> None:
    if not isinstance(event, ev.SweepTrial) or (event.state == TrialStatus.RUNNING and event.epoch):
        return
    value = "" if event.value is None else f" {event.value:.4g}"
    tail = f": {event.message}" if event.message else ""
    print(f"trial {event.number} {event.state}{value} ({event.devices or 'CPU'}) {event.params}{tail}", file=sys.stderr)


def report(sweep_dir: Path, trials: list[FrozenTrial] | None = None) -> str:
    """The trials (default: every trial of its study) sorted by the objective, the best trial's parameters and
    each parameter's importance."""
    import optuna
    from optuna.trial import TrialState

    from engine.tools.sweep import config_values as values

    study = optuna.load_study(study_name="sweep", storage=f"sqlite:///{SweepPaths(sweep_dir).study}")
    trials = study.get_trials(deepcopy=False) if trials is None else trials
    maximise = study.direction == optuna.study.StudyDirection.MAXIMIZE
    order = {TrialState.COMPLETE: 0, TrialState.PRUNED: 1, TrialState.RUNNING: 2, TrialState.FAIL: 3}

    def key(t: FrozenTrial) -> tuple[int, float]:
        value = t.value if t.value is not None else (t.intermediate_values or {0: float("nan")}).get(t.last_step, 0.0)
        return order.get(t.state, 4), -value if maximise else value

    lines = [f"sweep {sweep_dir}", "trial  state     objective  epochs  seconds  devices  parameters"]
    for t in sorted(trials, key=key):
        value = t.value if t.value is not None else (t.intermediate_values.get(t.last_step) if t.last_step else None)
        seconds = (t.datetime_complete - t.datetime_start).total_seconds() if t.datetime_complete else 0
        lines.append(
            f"{t.number:>5}  {t.state.name.lower():<8}  {'' if value is None else f'{value:.4g}':>9}  "
            f"{t.last_step or 0:>6}  {seconds:>7.0f}  {t.user_attrs.get('devices', ''):<7}  {values(t.params)}"
            + _why(t)
        )
    completed = [t for t in trials if t.state == TrialState.COMPLETE]
    if completed:
        best = study.best_trial
        lines.append(
            f"best: trial {best.number}, {best.value:.4g}, {values(best.params)} ({best.user_attrs.get('run_dir')})"
        )
        lines.append(importance_line(study))
    return "\n".join(lines)


def _why(trial: FrozenTrial) -> str:
    """A report line's tail: why the trial failed (cut short), or why it was pruned."""
    from optuna.trial import TrialState

    from engine.tools.sweep import why_finished

    why = why_finished(trial)
    if not why:
        return ""
    return f"  (pruned: {why})" if trial.state == TrialState.PRUNED else f"  ({why[:80]})"


def importance_line(study: optuna.Study) -> str:
    from engine.tools.sweep import IMPORTANCE_METHOD, importances

    shares, note = importances(study)
    if not shares:
        return f"importance: not yet ({note})"
    parts = ", ".join(f"{name} {share:.0%}" for name, share in shares.items())
    return f"importance ({IMPORTANCE_METHOD}): {parts}"
