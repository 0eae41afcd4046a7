"""Headless commands: how other machines of a cluster run the engine.

tfdd train --config run.json [--run-dir DIR]      (or python -m engine.cli ..., python main.py ...)
tfdd train --resume RUN_DIR
tfdd train ... --profile-steps A-B                 (a TensorFlow profile of global steps A to B)
tfdd devices [--json]
tfdd export-script --config run.json --out train.py
tfdd scaling --config run.json --replicas 1 2 4 [--events]
tfdd try --config run.json --change jit_compile=true [--change ...] [--rounds 2] [--epochs 1] [--events]
tfdd sweep --config base.json --space space.json [--out DIR] | --resume SWEEP_DIR
tfdd model-summary --config run.json [--replicas N] [--json]
tfdd cluster {validate,export,launch} ...
"""

from __future__ import annotations

import argparse
import json
import shlex
import sys
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from engine.core import events as ev
from engine.core.arguments import add_profile_steps, positive_int
from engine.core.config import RunConfig
from engine.core.logs import event_lines
from engine.core.problems import ConfigError, DataError, OutputExists, RunDirError, capped, printable
from engine.core.protocol.codes import ExitCode, RunStatus
from engine.core.protocol.profile import ProfileRequests
from engine.core.remedies import TRIAL_EPOCHS, TRIAL_ROUNDS

if TYPE_CHECKING:
    from engine.core.sources import SourceInfo


class ConsoleProgress:
    """A terminal progress bar fed by events (tqdm), with one line per epoch and per checkpoint."""

    def __init__(self, out: IO[str] | None = None, config: RunConfig | None = None) -> None:
        """With the run's `config`, a completed run ends with what to try for its last verdict."""
        self._out = out or sys.stderr
        self._bar = None
        self._epochs = 0
        self._epoch_lines = event_lines.EpochLines()
        self._config = config
        self._started: ev.RunStarted | None = None

    def __call__(self, event: ev.Event) -> None:
        from tqdm import tqdm

        if isinstance(event, ev.RunStarted):
            self._epochs = self._epoch_lines.epochs = event.epochs
            self._started = event
            tqdm.write(f"{event_lines.run_started_line(event)}; run dir {event.run_dir}", file=self._out)
            self._bar = tqdm(
                total=event.epochs * event.steps_per_epoch,
                unit="step",
                dynamic_ncols=True,
                initial=event.start_epoch * event.steps_per_epoch + event.start_step,
                file=self._out,
            )
        elif isinstance(event, ev.BatchEnd) and self._bar is not None:
            self._bar.update(event.global_step - self._bar.n)
            self._bar.set_postfix_str(
                f"epoch {event.epoch}/{self._epochs} loss {event.loss:.4f} "
                f"acc {event.accuracy:.3f} {event.examples_per_sec:,.0f} ex/s",
                refresh=False,
            )
        elif isinstance(event, (ev.StepAnatomy, ev.EpochEnd)):
            for line in self._epoch_lines(event):
                tqdm.write(line, file=self._out)
        elif isinstance(event, ev.CheckpointSaved):
            tqdm.write(event_lines.checkpoint_line(event), file=self._out)
        elif isinstance(event, ev.ProfileSaved):
            tqdm.write(event_lines.profile_line(event), file=self._out)
        elif isinstance(event, ev.Evaluation):  # the evaluator task of a cluster
            tqdm.write(f"evaluator: {event_lines.evaluation_line(event)}", file=self._out)
        elif isinstance(event, ev.Log):
            tqdm.write(f"[{event.level}] {event.message}", file=self._out)
        elif isinstance(event, (ev.RunFinished, ev.RunFailed)) and self._bar is not None:
            self._bar.close()
        if isinstance(event, ev.RunFinished) and event.status == RunStatus.COMPLETED:
            self._what_to_try()

    def _what_to_try(self) -> None:
        """The changes the last verdict offers, each as the `tfdd try` command that measures it (the window's
        Try buttons), and advice the config cannot express, or why no change is offered."""
        from engine.core import anatomy, remedies
        from engine.core.protocol.paths import RunPaths

        last = self._epoch_lines.anatomy
        if self._config is None or self._started is None or last is None:
            return
        started = self._started
        offered = remedies.remedies(self._config, last, max(started.num_replicas, 1), remedies.machine_of(started))
        config_file = str(RunPaths(Path(started.run_dir)).config)
        print(f"what to try ({anatomy.verdict(last)}):", file=self._out)
        for remedy in offered:
            if remedy.changes:
                changes = [a for argument in remedy.arguments for a in ("--change", argument)]
                print(f"  {shlex.join(['tfdd', 'try', '--config', config_file, *changes])}", file=self._out)
                print(f"      {remedy.why}", file=self._out)
            else:
                print(f"  {remedy.why}", file=self._out)


def _train(args: argparse.Namespace) -> int:
    from engine.core.protocol.channel import StopSignal, handle_stop_signals
    from engine.core.runs.rundir import open_run
    from engine.train.ending import exit_now

    try:
        info = _check_source(args.config) if args.config else None  # before a run directory exists
        config, run_dir, resume = open_run(args.config, args.run_dir, args.resume, args.continue_existing)
    except (DataError, RunDirError) as exc:
        print(f"error: {capped(str(exc))}", file=sys.stderr)
        return ExitCode.CONFIG
    except ConfigError as exc:
        print(f"error: the run config has problems:\n{exc}", file=sys.stderr)
        return ExitCode.CONFIG

    def stop_before_training(reason: str) -> None:
        print(f"stopped before training began ({reason})", file=sys.stderr)
        exit_now(stop.exit_code)  # blocked in TensorFlow start-up, nothing to save

    stop = StopSignal(on_early_stop=stop_before_training)
    handle_stop_signals(stop, main_thread_may_block=True)
    from engine.core.logs.stderr_tee import fold_stderr
    from engine.core.runs.raw_log import task_raw_log

    try:  # the raw log: the run's stderr.log, or a cluster task's own file (it writes no run)
        with fold_stderr(*task_raw_log(run_dir, config.strategy), verbose=args.verbose) as terminal:
            from engine.train.task import run_task

            outcome = run_task(
                config,
                run_dir,
                [ConsoleProgress(terminal, config)],
                stop,
                resume=resume,
                print_tracebacks=args.verbose,
                source_info=info,
                profile=ProfileRequests(args.profile_steps) if args.profile_steps else None,
            )
    except (ConfigError, RunDirError) as exc:  # TF_CONFIG problems; a run folder that is not ours or in use
        print(f"error: {exc}", file=sys.stderr)
        return ExitCode.CONFIG
    from engine.train.task import end_process

    if outcome.status == RunStatus.FAILED:
        print(f"error: {outcome.message}", file=sys.stderr)
        return end_process(ExitCode.CONFIG if outcome.config_error else ExitCode.FAILED, outcome)
    print(f"{outcome.status}: {run_dir}", file=sys.stderr)
    return end_process(stop.exit_code if outcome.status == RunStatus.STOPPED else ExitCode.OK, outcome)


def _check_source(config_path: str) -> SourceInfo:
    """The data source (and TF_CONFIG), read before TensorFlow starts and before a run directory is made: a bad
    folder, file or cluster leaves nothing behind. DataError (one line naming the file) or ConfigError.
    Imported here: NumPy starts BLAS threads on import, and `cluster launch` must still be
    single-threaded when it isolates its network."""
    from engine.core.sources import check_fits_batch, inspect
    from engine.core.tfconfig import role_from_environment

    config = RunConfig.load(config_path)
    role_from_environment(config.strategy)  # a TF_CONFIG that cannot run is refused here, as cluster validate does
    info = inspect(config)
    check_fits_batch(info, config.validation_split, config.global_batch_size)
    return info


def _devices(args: argparse.Namespace) -> int:
    from engine.train.devices import format_table, probe

    info = probe()
    print(json.dumps(info, indent=2) if args.json else format_table(info))
    return ExitCode.OK


def _load_config(path: str) -> RunConfig | None:
    """The config file, or None after printing its problems."""
    try:
        return RunConfig.load(path)
    except ConfigError as exc:
        print(f"error: the run config has problems:\n{exc}", file=sys.stderr)
        return None


def _export_script(args: argparse.Namespace) -> int:
    from engine.core.exports.script import export_script

    config = _load_config(args.config)
    if config is None:
        return ExitCode.CONFIG
    try:
        path = export_script(config, args.out, overwrite=args.force)
    except (OutputExists, ConfigError) as exc:  # the file exists; a strategy the script cannot run
        print(f"error: {printable(str(exc))}", file=sys.stderr)
        return ExitCode.CONFIG
    print(f"wrote {path}; run it with: python {path}")
    return ExitCode.OK


def _scaling(args: argparse.Namespace) -> int:
    from engine.tools import scaling

    if args.events:
        return scaling.serve(args.config, args.replicas, args.out)
    config = _load_config(args.config)
    if config is None:
        return ExitCode.CONFIG
    points = scaling.run_study(
        config,
        args.replicas,
        Path(args.out) if args.out else None,
        on_point=lambda p: print(
            f"{p.replicas} replica(s): {p.error or f'{p.examples_per_sec:,.0f} examples/s'}", file=sys.stderr
        ),
    )
    print(scaling.format_table(points))
    return ExitCode.FAILED if any(p.error for p in points) else ExitCode.OK


def _try(args: argparse.Namespace) -> int:
    """A trial of config changes: the current and the changed config in turn, the speed-up measured."""
    from engine.tools import trial

    try:
        config, changes = trial.load_checked(args.config, args.change)
    except ConfigError as exc:
        if args.events:
            from engine.core.protocol.channel import EventChannel, protect_stdout

            EventChannel(protect_stdout())(ev.RunFailed(message=str(exc), error_type="ConfigError"))
        print(f"error: the trial cannot start:\n{exc}", file=sys.stderr)
        return ExitCode.CONFIG
    if args.events:
        return trial.run_in(args.out, lambda root: trial.serve(config, changes, root, args.rounds, args.epochs))
    label = " ".join(args.change)

    def body(root: Path) -> int:
        arms = trial.run_trial(
            config,
            changes,
            root,
            args.rounds,
            args.epochs,
            on_arm=lambda a: print(
                f"{a.arm} run {a.round}: {a.error or f'{a.examples_per_sec:,.0f} examples/s'}", file=sys.stderr
            ),
        )
        print(trial.format_table(arms, label))
        return ExitCode.FAILED if any(a.error for a in arms) else ExitCode.OK

    return trial.run_in(args.out, body)


def _model_summary(args: argparse.Namespace) -> int:
    """Layers, parameters and a memory estimate; with --json one document on stdout (the window reads it),
    {"error": ..., "field": ...} and exit code 2 when the model or data cannot be built."""
    try:
        config = RunConfig.load(args.config)
    except ConfigError as exc:
        return _summary_error(args, exc)
    from engine.train.summary import summarize

    try:
        summary = summarize(config, args.replicas)
    except ConfigError as exc:
        return _summary_error(args, exc)
    if args.json:
        print(json.dumps(summary))
        return ExitCode.OK
    print(f"{summary['model']}: input {tuple(summary['input_shape'])} -> {summary['output_units']} output(s)")
    for layer in summary["layers"]:
        print(f"  {layer['name']:<28} {layer['type']:<24} {str(layer['output_shape']):<22} {layer['params']:>12,}")
    memory = summary["memory_bytes"]
    print(
        f"{summary['total_params']:,} parameters ({summary['trainable_params']:,} trainable); about "
        f"{memory['total'] / 2**20:,.1f} MB per replica at {summary['per_replica_batch']} examples"
    )
    return ExitCode.OK


def _summary_error(args: argparse.Namespace, exc: ConfigError) -> int:
    first = exc.problems[0] if exc.problems else None
    message = getattr(exc, "message", None) or str(exc)
    if args.json:
        print(json.dumps({"error": message, "field": first.field if first else ""}))
    else:
        print(f"error: {message}", file=sys.stderr)
    return ExitCode.CONFIG


def _gui_hint(args: argparse.Namespace) -> int:
    """The engine imports no Qt: the window is its own entry point."""
    print("The window is its own program: run `tfdd-gui` (or `python main.py` in a checkout).", file=sys.stderr)
    return ExitCode.CONFIG


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="tfdd",
        description="TensorFlow distributed training dashboard, headless. The window: tfdd-gui (or python main.py).",
    )
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument(
        "--verbose", action="store_true", help="show tracebacks of failures and TensorFlow's log lines unfolded"
    )
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    window = commands.add_parser("gui", help="open the dashboard window (the program tfdd-gui, or python main.py)")
    window.set_defaults(handler=_gui_hint)
    train = commands.add_parser("train", parents=[common], help="run training headless, with a progress bar")
    source = train.add_mutually_exclusive_group(required=True)
    source.add_argument("--config", help="RunConfig JSON file")
    source.add_argument("--resume", metavar="RUN_DIR", help="continue a stopped or killed run from its checkpoint")
    train.add_argument(
        "--run-dir",
        help="where the run's files go: a new or empty folder (default: a new folder under $TFDD_RUNS_DIR or "
        "~/tfdd-runs); a folder that already holds a run is refused",
    )
    train.add_argument(
        "--continue",
        dest="continue_existing",
        action="store_true",
        help="with --config and --run-dir: when the folder already holds a run of the same config, continue it "
        "from its checkpoint (how a restarted pod or start script picks up where it stopped)",
    )
    add_profile_steps(train)
    train.set_defaults(handler=_train)
    devices = commands.add_parser("devices", parents=[common], help="list the GPUs and the CPU TensorFlow sees")
    devices.add_argument("--json", action="store_true", help="machine-readable output (used by the window)")
    devices.set_defaults(handler=_devices)
    script = commands.add_parser(
        "export-script", parents=[common], help="write a standalone TensorFlow script that reproduces a run config"
    )
    script.add_argument("--config", required=True, help="RunConfig JSON file")
    script.add_argument("--out", required=True, help="the Python file to write, e.g. train.py")
    script.add_argument("--force", action="store_true", help="replace the file if it exists")
    script.set_defaults(handler=_export_script)
    scaling = commands.add_parser(
        "scaling", parents=[common], help="run a config with 1, 2, 4 ... replicas and report examples/s and efficiency"
    )
    scaling.add_argument("--config", required=True, help="RunConfig JSON file")
    scaling.add_argument(
        "--replicas", type=positive_int, nargs="+", default=[1, 2, 4], help="replica counts (default 1 2 4)"
    )
    scaling.add_argument("--out", help="folder for the study's runs (default: a temporary folder)")
    scaling.add_argument(
        "--events",
        action="store_true",
        help='JSON-line events on stdout (scaling_point per count); "stop" on stdin cancels '
        "(the worker protocol, as the window uses it)",
    )
    scaling.set_defaults(handler=_scaling)
    _add_try(commands, common)
    summary = commands.add_parser(
        "model-summary", parents=[common], help="the model's layers, parameters and per-replica memory, untrained"
    )
    summary.add_argument("--config", required=True, help="RunConfig JSON file")
    summary.add_argument("--replicas", type=int, help="replicas the global batch is divided by (default: the config's)")
    summary.add_argument("--json", action="store_true", help="one JSON document on stdout (used by the window)")
    summary.set_defaults(handler=_model_summary)
    from engine.cluster import cli as cluster_cli

    cluster_cli.register(commands)
    from engine.tools import sweep_cli

    sweep_cli.register(commands)
    return parser


def _add_try(commands: Any, common: argparse.ArgumentParser) -> None:
    tryout = commands.add_parser(
        "try",
        parents=[common],
        help="run a config and the config with changes in turn (short real runs) and report the speed-up",
    )
    tryout.add_argument("--config", required=True, help="RunConfig JSON file: the current config")
    tryout.add_argument(
        "--change",
        action="append",
        default=[],
        metavar="FIELD=VALUE",
        help="a change to try, e.g. jit_compile=true or model.hidden_units=[64,32] (JSON, or text); repeat for "
        "several changes tried together",
    )
    tryout.add_argument(
        "--rounds",
        type=positive_int,
        default=TRIAL_ROUNDS,
        help=f"runs of each config, alternating (default {TRIAL_ROUNDS}: A B A B)",
    )
    tryout.add_argument(
        "--epochs",
        type=positive_int,
        default=TRIAL_EPOCHS,
        help=f"epochs measured in each run, after a first epoch that traces and warms up (default {TRIAL_EPOCHS})",
    )
    tryout.add_argument("--out", help="keep the trial's runs in this folder (default: a scratch folder, removed)")
    tryout.add_argument(
        "--events",
        action="store_true",
        help='JSON-line events on stdout (trial_arm per run); "stop" on stdin cancels (the worker protocol)',
    )
    tryout.set_defaults(handler=_try)


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "handler", None):
        parser.print_help()
        return ExitCode.OK
    try:
        return args.handler(args)
    except Exception as exc:  # one clear line unless --verbose
        if getattr(args, "verbose", False):
            raise
        print(f"error: {type(exc).__name__}: {exc} (run with --verbose for the traceback)", file=sys.stderr)
        return ExitCode.FAILED


if __name__ == "__main__":
    sys.exit(main())
