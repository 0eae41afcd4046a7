"""`tfdd cluster ...`: check a TF_CONFIG, export a bundle, launch locally.

    cluster validate FILE [--strategy S]
    cluster export --cluster cluster.json --config run.json --out DIR
    cluster launch --workers N --config run.json [--run-dir DIR] [--join-timeout S] [--events]

engine/cli.py calls register() and run(); `python -m engine.cluster.cli`
works on its own too. No TensorFlow in this process: the workers import it.
With --events, `cluster launch` speaks engine.train.worker's protocol for the whole
cluster (one event stream, "stop" on stdin, exit 0/1/2), so a runner that
drives one trainer process drives a local cluster the same way.
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
from pathlib import Path
from typing import Any

from engine import events as ev
from engine.arguments import positive_int, positive_seconds
from engine.cluster.netns import Isolation
from engine.config import STRATEGIES, RunConfig
from engine.problems import ConfigError, OutputExists, Problem, RunDirError, printable
from engine.protocol.codes import ExitCode, RunStatus
from engine.protocol.paths import RunPaths
from engine.runlock import RunLock
from engine.tfconfig import ClusterError, ClusterProblem, Task, errors, parse_tf_config, validate

LAUNCHER = "launcher"
"""The source of the launcher's own log lines in the relayed stream (the workers' are their task ids)."""


def register(subparsers: Any) -> argparse.ArgumentParser:
    """Add the `cluster` command to a `add_subparsers()` object."""
    cluster = subparsers.add_parser("cluster", help="check, export or launch a multi-worker cluster")
    actions = cluster.add_subparsers(dest="cluster_action", metavar="ACTION", required=True)
    check = actions.add_parser("validate", help="print every problem of a TF_CONFIG file; non-zero exit on errors")
    check.add_argument("file", help='TF_CONFIG JSON ({"cluster": ..., "task": ...}; the task is optional)')
    check.add_argument("--strategy", choices=STRATEGIES, help="also check the rules of this strategy")
    export = actions.add_parser("export", help="write start scripts, a README and a Kubeflow TFJob per task")
    export.add_argument("--cluster", required=True, help="TF_CONFIG JSON file with the cluster")
    export.add_argument("--config", required=True, help="RunConfig JSON file")
    export.add_argument("--out", required=True, help="folder to write the bundle to")
    launch = actions.add_parser("launch", help="train with N workers on this machine (127.0.0.1)")
    launch.add_argument("--workers", type=positive_int, required=True, help="number of worker processes")
    source = launch.add_mutually_exclusive_group(required=True)
    source.add_argument("--config", help="RunConfig JSON file (strategy multi_worker_mirrored)")
    source.add_argument(
        "--resume", metavar="RUN_DIR", help="continue a stopped or killed cluster run from its latest checkpoint"
    )
    launch.add_argument(
        "--run-dir", help="where the chief writes results (default: a new folder under $TFDD_RUNS_DIR or ~/tfdd-runs)"
    )
    launch.add_argument(
        "--join-timeout",
        type=positive_seconds,
        default=120.0,
        metavar="S",
        help="fail when a worker has not started training after S seconds (default 120)",
    )
    launch.add_argument(
        "--events",
        action="store_true",
        help="JSON-line events on stdout instead of text: the chief's events, worker_state, the "
        'workers\' logs; "stop" on stdin stops the cluster (the worker protocol)',
    )
    cluster.set_defaults(handler=run)
    return cluster


def run(args: argparse.Namespace) -> int:
    action = {"validate": _validate, "export": _export, "launch": _launch}[args.cluster_action]
    try:
        return action(args)
    except (ClusterError, ConfigError) as exc:
        _print_problems(exc.problems)
        return ExitCode.CONFIG
    except (RunDirError, OutputExists) as exc:
        print(f"error: {printable(str(exc))}", file=sys.stderr)
        return ExitCode.CONFIG


def _print_problems(problems: list[Any]) -> None:
    for p in problems:
        print(p if isinstance(p, ClusterProblem) else f"error: {p}", file=sys.stderr)


def _load_cluster(path: str) -> Any:
    file = Path(path)
    if not file.is_file():
        raise ClusterError([ClusterProblem("error", "(file)", path, "no such file")])
    return parse_tf_config(file.read_text(encoding="utf-8"))


def _validate(args: argparse.Namespace) -> int:
    problems = validate(_load_cluster(args.file), args.strategy)
    _print_problems(problems)
    n_errors = len(errors(problems))
    n_warnings = len(problems) - n_errors
    print(f"{args.file}: {n_errors} error(s), {n_warnings} warning(s)")
    return ExitCode.FAILED if n_errors else ExitCode.OK


def _export(args: argparse.Namespace) -> int:
    from engine.exports.bundle import export_bundle

    tf_config = _load_cluster(args.cluster)
    config = RunConfig.load(args.config)
    _print_problems([p for p in validate(tf_config, config.strategy) if p.severity == "warning"])
    files = export_bundle(tf_config.cluster, config, args.out)
    print(f"wrote {len(files)} files to {args.out}; read {Path(args.out) / 'README.md'} next")
    return ExitCode.OK


def _claim(args: argparse.Namespace) -> tuple[Path, Path, RunLock]:
    """(run config, run directory, its lock) of a launch: a new run, or the run `--resume` names.

    The launcher holds the run's lock for the whole cluster (and hands it to
    the chief): a second launch or train of the same run is refused.
    """
    from engine.rundir import claim, new_run_dir

    command = "tfdd cluster launch"
    if args.resume:
        paths = RunPaths(Path(args.resume))
        if not paths.config.is_file():
            raise ConfigError([Problem("--resume", args.resume, "not a run directory (it has no config.json)")])
        return paths.config, paths.root, claim(paths.root, resume=True, command=command)
    config = RunConfig.load(args.config)
    run_dir = Path(args.run_dir) if args.run_dir else new_run_dir(config)
    return Path(args.config), run_dir, claim(run_dir, resume=False, command=command)


def _launch(args: argparse.Namespace) -> int:
    from engine.cluster.netns import isolate_network
    from engine.protocol.channel import StopSignal, handle_stop_signals

    isolation = isolate_network()  # first: before any thread (stdin, BLAS) or socket; the workers inherit it
    if args.events:
        return _relay(args, isolation)
    from engine.cluster.launcher import WorkerStatus, launch_local_cluster
    from engine.rundir import discard_unused

    stop = StopSignal()
    handle_stop_signals(stop)  # Ctrl-C (130) and SIGTERM (143) stop every worker after its checkpoint
    config_path, run_dir, lock = _claim(args)
    epochs = RunConfig.load(config_path, check=False).epochs

    def on_state(status: WorkerStatus) -> None:
        detail = f": {status.message}" if status.message else ""
        print(f"{status.task.name} (pid {status.pid}): {status.state}{detail}", flush=True)

    def on_event(task: Task, event: ev.Event) -> None:
        if isinstance(event, ev.EpochEnd) and task.index == 0:  # worker 0 is a local cluster's chief
            print(
                f"epoch {event.epoch}/{epochs}: loss {event.loss:.4f}, acc {event.accuracy:.4f}, "
                f"{event.seconds:.1f} s, {event.examples_per_sec:,.0f} ex/s",
                flush=True,
            )
        elif isinstance(event, ev.Log) and event.level in ("warning", "error"):
            print(f"{task.name}: [{event.level}] {printable(event.message)}", flush=True)

    print(f"launching {args.workers} worker(s) on 127.0.0.1; run dir {printable(str(run_dir))}", flush=True)
    print(isolation.message(), file=sys.stderr, flush=True)
    try:
        result = launch_local_cluster(
            config_path,
            args.workers,
            run_dir,
            join_timeout_s=args.join_timeout,
            on_event=on_event,
            on_state=on_state,
            should_stop=lambda: stop.requested,
            resume=bool(args.resume),
            lock=lock,
        )
    except (ClusterError, ConfigError):
        lock.release()
        if not args.resume:
            discard_unused(run_dir)  # nothing started: no empty run is left in the history
        raise
    finally:
        lock.release()
    if result.ok:
        print(f"completed: all {args.workers} worker(s) finished; results in {result.run_dir}")
        return ExitCode.OK
    if result.status == RunStatus.STOPPED:
        print(f"stopped; results so far in {result.run_dir}", file=sys.stderr)
        return stop.exit_code if stop.requested else ExitCode.INTERRUPTED
    print(f"error: cluster failed: {printable(result.failure)}", file=sys.stderr)
    return ExitCode.FAILED


def _relay(args: argparse.Namespace, isolation: Isolation) -> int:
    """One event stream for the cluster: the chief's events, worker_state, the others' logs and failures.

    The chief's run_finished / run_failed is held back: the cluster's outcome
    (a failed peer, a join timeout) decides the one final event.
    """
    from engine.cluster.launcher import WorkerStatus, launch_local_cluster
    from engine.protocol.channel import EventChannel, StopSignal, handle_stop_signals, protect_stdout, watch_stdin
    from engine.rundir import discard_unused

    emit = EventChannel(protect_stdout())
    stop = StopSignal()
    watch_stdin(stop)
    handle_stop_signals(stop, ctrl_c_code=ExitCode.OK)  # as the trainer: SIGTERM exits 143 after the checkpoint
    chief_final: list[ev.Event] = []
    epochs = [0]

    def on_state(status: WorkerStatus) -> None:
        task = status.task
        emit(
            ev.WorkerState(
                worker=task.id, state=status.state, pid=status.pid, message=status.message, log_path=status.log_path
            )
        )

    def on_event(task: Task, event: ev.Event) -> None:
        source = task.id
        if task.index == 0:  # worker 0 is a local cluster's chief
            if isinstance(event, (ev.RunFinished, ev.RunFailed)):
                chief_final.append(event)
                return
            if isinstance(event, ev.EpochEnd):
                epochs[0] = event.epoch
            emit(dataclasses.replace(event, source=source) if isinstance(event, ev.Log) else event)
        elif isinstance(event, ev.Log):
            emit(dataclasses.replace(event, source=source))
        elif isinstance(event, ev.RunFailed):
            emit(ev.Log(level="error", message=event.message, source=source))

    try:
        config_path, run_dir, lock = _claim(args)
    except (ClusterError, ConfigError, RunDirError) as exc:
        emit(ev.RunFailed(message=str(exc), error_type=type(exc).__name__))
        return ExitCode.CONFIG
    emit(ev.Log(level="info" if isolation.isolated else "warning", message=isolation.message(), source=LAUNCHER))
    try:
        result = launch_local_cluster(
            config_path,
            args.workers,
            run_dir,
            join_timeout_s=args.join_timeout,
            on_event=on_event,
            on_state=on_state,
            should_stop=lambda: stop.requested,
            resume=bool(args.resume),
            lock=lock,
        )
    except (ClusterError, ConfigError) as exc:
        lock.release()
        if not args.resume:
            discard_unused(run_dir)  # nothing started: no empty run is left in the history
        emit(ev.RunFailed(message=str(exc), error_type=type(exc).__name__))
        return ExitCode.CONFIG
    finally:
        lock.release()
    if result.status == RunStatus.FAILED:
        emit(
            ev.RunFailed(
                message=result.failure, error_type="WorkerFailed", epochs_completed=epochs[0], run_dir=result.run_dir
            )
        )
        return ExitCode.FAILED
    finished = [e for e in chief_final if isinstance(e, ev.RunFinished)]
    emit(
        finished[-1]
        if finished
        else ev.RunFinished(status=result.status, epochs_completed=epochs[0], run_dir=result.run_dir)
    )
    return stop.exit_code if result.status == RunStatus.STOPPED else ExitCode.OK


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m engine.cluster.cli")
    register(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(argv)
    return args.handler(args)


if __name__ == "__main__":
    sys.exit(main())
