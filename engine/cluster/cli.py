"""`tfdd cluster ...`: check a TF_CONFIG, export a bundle or a Slurm job, launch locally.

    cluster validate FILE [--strategy S]
    cluster export --cluster cluster.json --config run.json --out DIR [--slurm ...]
    cluster launch (--workers N [--ps M] [--evaluator] | --cluster FILE) (--config run.json | --resume RUN_DIR)
                   [--run-dir DIR] [--join-timeout S] [--restarts K] [--events | --detach]
                   [--hosts FILE-or-LIST [--ssh-config FILE]]   (the tasks on other machines, over SSH)
    cluster slurm-tf-config --jobs chief=1,worker=2,ps=1 [--port-base P]   (inside a Slurm job step)

engine/cli.py calls register() and run(); `python -m engine.cluster.cli`
works on its own too. No TensorFlow in this process: the tasks import it
(slurm-tf-config imports it lazily); engine.cluster.launch_plan turns a
launch's arguments into what it starts. With --events, `cluster launch` speaks
engine.train.worker's protocol for the whole cluster (one event stream,
"stop" and "profile N" on stdin, exit 0/1/2), so a runner that drives one trainer process
drives a local cluster the same way.
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from engine.cluster.launch_plan import LaunchPlan, launch_plan, launched_hosts, load_cluster, run_plan
from engine.cluster.netns import Isolation
from engine.cluster.ssh import add_host_arguments
from engine.core import events as ev
from engine.core.arguments import add_profile_steps, count, port, positive_int, positive_seconds
from engine.core.config import STRATEGIES, RunConfig
from engine.core.logs import event_lines
from engine.core.messages import msg
from engine.core.problems import ConfigError, OutputExists, RunDirError, printable
from engine.core.protocol.codes import ExitCode, RunStatus
from engine.core.protocol.paths import RunPaths
from engine.core.tfconfig import (
    ClusterError,
    ClusterProblem,
    Program,
    Task,
    errors,
    run_problems,
    task_program,
    validate,
)

if TYPE_CHECKING:
    from engine.cluster.group import WorkerStatus

JOB_NAMES = {"chief": "chief", "worker": "worker", "ps": "parameter server", "evaluator": "evaluator"}
LAUNCHER = "launcher"
"""The source of the launcher's own log lines in the relayed stream (the workers' are their task ids)."""


def register(subparsers: Any) -> argparse.ArgumentParser:
    """Add the `cluster` command to a `add_subparsers()` object."""
    from engine.core.exports.slurm import DEFAULT_PORT_BASE

    cluster = subparsers.add_parser("cluster", help="check, export or launch a multi-worker cluster")
    actions = cluster.add_subparsers(dest="cluster_action", metavar="ACTION", required=True)
    check = actions.add_parser("validate", help="print every problem of a TF_CONFIG file; non-zero exit on errors")
    check.add_argument("file", help='TF_CONFIG JSON ({"cluster": ..., "task": ...}; the task is optional)')
    check.add_argument("--strategy", choices=STRATEGIES, help="also check the rules of this strategy")
    _add_export(actions)
    _add_launch(actions)
    slurm = actions.add_parser(
        "slurm-tf-config",
        help="print this Slurm task's TF_CONFIG, built by TensorFlow's SlurmClusterResolver (the exported "
        "job runs it in every task)",
    )
    slurm.add_argument("--jobs", required=True, help="tasks per job in rank order, e.g. chief=1,worker=2,ps=1")
    slurm.add_argument("--port-base", type=port, default=DEFAULT_PORT_BASE, metavar="P")
    cluster.set_defaults(handler=run)
    return cluster


def _add_export(actions: Any) -> None:
    from engine.core.exports.slurm import DEFAULT_PORT_BASE

    export = actions.add_parser(
        "export", help="write start scripts, a README and a Kubeflow TFJob per task, or (--slurm) an sbatch job"
    )
    export.add_argument("--cluster", required=True, help="TF_CONFIG JSON file with the cluster")
    export.add_argument("--config", required=True, help="RunConfig JSON file")
    export.add_argument("--out", required=True, help="folder to write the bundle to")
    export.add_argument(
        "--slurm",
        action="store_true",
        help="write a Slurm batch job instead (one task per node; the cluster file gives only how many "
        "tasks each job has, Slurm chooses the nodes)",
    )
    export.add_argument("--gpus-per-node", type=count, default=0, metavar="G", help="--slurm: GPUs per node (0: CPU)")
    export.add_argument(
        "--port-base",
        type=port,
        default=DEFAULT_PORT_BASE,
        metavar="P",
        help=f"--slurm: the port every task listens on (default {DEFAULT_PORT_BASE})",
    )
    export.add_argument(
        "--cpus-per-task",
        type=count,
        default=0,
        metavar="C",
        help="--slurm: CPUs each task asks for (default 0: the whole node, with all its CPUs)",
    )


def _add_launch(actions: Any) -> None:
    launch = actions.add_parser(
        "launch", help="run a cluster here (127.0.0.1) or over SSH (--hosts): workers, parameter servers, an evaluator"
    )
    launch.add_argument(
        "--workers",
        type=positive_int,
        help="worker processes (multi_worker_mirrored: worker 0 is the chief; parameter_server: a chief "
        "that coordinates is added)",
    )
    launch.add_argument(
        "--ps", type=count, default=0, metavar="M", help="parameter servers (strategy parameter_server)"
    )
    launch.add_argument(
        "--evaluator", action="store_true", help="add an evaluator task that validates each checkpoint the chief writes"
    )
    launch.add_argument(
        "--cluster", metavar="FILE", help="start the tasks of this TF_CONFIG file (all on 127.0.0.1) instead"
    )
    add_host_arguments(launch)
    launch.add_argument(
        "--detach",
        action="store_true",
        help="go on in the background, free of this terminal or ssh login (output in RUN_DIR/launcher.log); "
        "watch and stop the run from the window's Runs tab, or stop it with kill -TERM PID",
    )
    launch.add_argument(
        "--force", action="store_true", help="start more tasks than this machine's memory and cores hold"
    )
    source = launch.add_mutually_exclusive_group(required=True)
    source.add_argument("--config", help="RunConfig JSON file (strategy multi_worker_mirrored or parameter_server)")
    source.add_argument(
        "--resume",
        metavar="RUN_DIR",
        help="continue a stopped, killed or failed cluster run from its latest checkpoint, with the same tasks",
    )
    launch.add_argument(
        "--run-dir", help="where the chief writes results (default: a new folder under $TFDD_RUNS_DIR or ~/tfdd-runs)"
    )
    _add_supervision(launch)


def _add_supervision(launch: argparse.ArgumentParser) -> None:
    """How `cluster launch` watches its tasks, and what it prints."""
    launch.add_argument(
        "--join-timeout",
        type=positive_seconds,
        default=120.0,
        metavar="S",
        help="fail when a task has not started training after S seconds (default 120)",
    )
    launch.add_argument(
        "--restarts",
        type=count,
        default=None,
        metavar="K",
        help="parameter_server: start a lost worker again up to K times (default 2; 0: never)",
    )
    launch.add_argument(
        "--stall-seconds",
        type=positive_seconds,
        default=None,
        metavar="S",
        help="report a training task that has not finished a step for S seconds, with its Python stacks "
        "(default: from its own step times, at least 30 s)",
    )
    add_profile_steps(launch)
    launch.add_argument(
        "--events",
        action="store_true",
        help="JSON-line events on stdout instead of text: the chief's events, worker_state, the "
        "evaluator's evaluations, the tasks' logs; \"stop\" on stdin stops the cluster (the worker protocol)",
    )


def run(args: argparse.Namespace) -> int:
    action = {
        "validate": _validate,
        "export": _export,
        "launch": _launch,
        "slurm-tf-config": _slurm_tf_config,
    }[args.cluster_action]
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


def _validate(args: argparse.Namespace) -> int:
    problems = validate(load_cluster(args.file), args.strategy)
    _print_problems(problems)
    n_errors = len(errors(problems))
    n_warnings = len(problems) - n_errors
    print(f"{args.file}: {n_errors} error(s), {n_warnings} warning(s)")
    return ExitCode.FAILED if n_errors else ExitCode.OK


def _export(args: argparse.Namespace) -> int:
    tf_config = load_cluster(args.cluster)
    config = RunConfig.load(args.config)
    if args.slurm:
        from engine.core.exports.slurm import export_slurm

        files = export_slurm(
            tf_config.cluster, config, args.out, args.gpus_per_node, args.port_base, args.cpus_per_task
        )
    else:
        from engine.core.exports.bundle import export_bundle

        _print_problems([p for p in run_problems(tf_config.cluster, config) if p.severity == "warning"])
        files = export_bundle(tf_config.cluster, config, args.out)
    print(f"wrote {len(files)} files to {args.out}; read {Path(args.out) / 'README.md'} next")
    return ExitCode.OK


def _slurm_tf_config(args: argparse.Namespace) -> int:
    from engine.train.slurm import parse_jobs, slurm_tf_config

    print(slurm_tf_config(parse_jobs(args.jobs), args.port_base))
    return ExitCode.OK


def _launch(args: argparse.Namespace) -> int:
    from engine.cluster.netns import isolate_network
    from engine.core.protocol.channel import StopSignal, handle_stop_signals

    if args.hosts or launched_hosts(args, Path(args.resume) if args.resume else None):  # tasks elsewhere
        isolation = Isolation(False, reason=msg("the tasks run on other machines (--hosts)"))
    else:
        isolation = isolate_network()  # first: before any thread (stdin, BLAS) or socket; the tasks inherit it
    if args.events:
        return _relay(args, isolation)
    from engine.cluster.remote import PreflightError

    plan = launch_plan(args) if args.detach else None
    if plan is not None:
        _detach(plan)  # only the detached launcher comes back
    stop = StopSignal()
    handle_stop_signals(stop)  # Ctrl-C (130) and SIGTERM (143) stop every task after its checkpoint
    plan = plan or launch_plan(args)
    chief = plan.cluster.chief()
    epoch_lines = event_lines.EpochLines(plan.epochs)

    statuses: dict[str, WorkerStatus] = {}

    def on_state(status: WorkerStatus) -> None:
        statuses[status.task.id] = status
        detail = f": {status.message}" if status.message else ""
        print(f"{status.task.name} (pid {status.pid}): {status.state}{detail}", flush=True)

    def on_event(task: Task, event: ev.Event) -> None:
        if isinstance(event, (ev.EpochEnd, ev.StepAnatomy)) and task == chief:
            for line in epoch_lines(event):
                print(line, flush=True)
        elif isinstance(event, (ev.Evaluation, ev.ProfileSaved)):
            print(f"{task.name}: {event_lines.task_line(event)}", flush=True)
        elif isinstance(event, ev.Log) and event.level in ("warning", "error"):
            print(f"{task.name}: [{event.level}] {printable(event.message)}", flush=True)
        elif isinstance(event, ev.TaskStalled):
            print_stall(event, statuses.get(event.worker))

    tasks = ", ".join(f"{len(a)} {JOB_NAMES[job]}{'s' if len(a) > 1 else ''}" for job, a in plan.cluster.jobs)
    where = ", ".join(dict.fromkeys(h.name for h in plan.remote.hosts.values())) if plan.remote else "127.0.0.1"
    print(f"launching {tasks} on {where}; run dir {printable(str(plan.run_dir))}", flush=True)
    print(isolation.message(), file=sys.stderr, flush=True)
    try:
        result = run_plan(plan, args, stop, on_event, on_state)
    except PreflightError as exc:
        print("error: nothing was started; the hosts are not ready:", file=sys.stderr)
        print("\n".join(f"  {line}" for line in exc.lines), file=sys.stderr)
        return ExitCode.CONFIG
    if result.ok:
        print(f"completed: all {len(result.workers)} task(s) done; results in {result.run_dir}")
        return ExitCode.OK
    if result.status == RunStatus.STOPPED:
        print(f"stopped; results so far in {result.run_dir}", file=sys.stderr)
        return stop.exit_code if stop.requested else ExitCode.INTERRUPTED
    print(f"error: cluster failed: {printable(result.failure)}", file=sys.stderr)
    return ExitCode.FAILED


def _detach(plan: LaunchPlan) -> None:
    """Fork: this process says where the run goes and exits; the launcher goes on in a session of its own (no
    terminal, no SIGHUP when the terminal or the ssh login closes), holding the run's lock (so the Runs tab
    can watch and stop it), its output in RUN_DIR/launcher.log."""
    log = RunPaths(plan.run_dir).launcher_log
    out = os.open(log, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
    sys.stdout.flush()
    sys.stderr.flush()
    pid = os.fork()
    if pid:
        plan.lock.handed_to(pid)
        print(
            f"detached: the launcher goes on as pid {pid}, its output in {printable(str(log))}; watch the run "
            f"from the window's Runs tab (Watch live), stop it there or with `kill -TERM {pid}`",
            flush=True,
        )
        os._exit(ExitCode.OK)  # the lock stays held: it went to the child with its open file
    os.setsid()
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.dup2(out, 1)
    os.dup2(out, 2)
    os.close(null)
    os.close(out)


def print_stall(event: ev.TaskStalled, where: WorkerStatus | None = None) -> None:
    """A stalled task's line and its Python stacks (py-spy, on its host when `where` says it is elsewhere),
    or the line saying it steps again."""
    from engine.core.logs.stacks import python_stacks
    from engine.core.logs.stall import resumed_line, stall_line

    if event.resumed:
        print(resumed_line(event.worker), flush=True)
        return
    print(f"warning: {stall_line(event.worker, event.idle_s, event.step_s)}; its Python stacks:", flush=True)
    host, there = (where.host, where.stacks) if where is not None else ("", ())
    print(python_stacks(event.pid, host, there).text.rstrip() if event.pid else "(it has no process)", flush=True)


def _relay(args: argparse.Namespace, isolation: Isolation) -> int:
    """One event stream for the cluster: the chief's events, worker_state, the evaluator's evaluations,
    the others' logs and failures.

    The chief's run_finished / run_failed is held back: the cluster's outcome
    (a failed peer, a join timeout) decides the one final event.
    """
    from engine.cluster.group import state_event
    from engine.cluster.remote import PreflightError
    from engine.core.protocol.channel import EventChannel, StopSignal, handle_stop_signals, protect_stdout, watch_stdin
    from engine.core.protocol.profile import ProfileRequests

    emit = EventChannel(protect_stdout())
    stop = StopSignal()
    profile = ProfileRequests()  # "profile N" on stdin, passed on to every task that trains (engine.cluster.group)
    watch_stdin(stop, profile)
    handle_stop_signals(stop, ctrl_c_code=ExitCode.OK)  # as the trainer: SIGTERM exits 143 after the checkpoint
    chief_final: list[ev.Event] = []
    epochs = [0]

    def on_state(status: WorkerStatus) -> None:
        emit(state_event(status))

    emit(ev.Log(level="info" if isolation.isolated else "warning", message=isolation.message(), source=LAUNCHER))
    try:
        plan = launch_plan(args)
    except (ClusterError, ConfigError, RunDirError) as exc:
        emit(ev.RunFailed(message=str(exc), error_type=type(exc).__name__))
        return ExitCode.CONFIG
    chief = plan.cluster.chief()
    strategy = RunConfig.load(plan.config_path, check=False).strategy

    def on_event(task: Task, event: ev.Event) -> None:
        source = task.id
        if task == chief:
            if isinstance(event, (ev.RunFinished, ev.RunFailed)):
                chief_final.append(event)
                return
            if isinstance(event, ev.EpochEnd):
                epochs[0] = event.epoch
            emit(dataclasses.replace(event, source=source) if isinstance(event, ev.Log) else event)
        elif isinstance(event, ev.Log):
            emit(dataclasses.replace(event, source=source))
        elif isinstance(event, ev.Evaluation) and task_program(task.job, strategy) == Program.EVALUATOR:
            emit(event)
        elif isinstance(event, ev.RunFailed):
            emit(ev.Log(level="error", message=event.message, source=source))
        elif isinstance(event, (ev.TaskStalled, ev.ProfileSaved)):
            emit(event)

    try:
        result = run_plan(plan, args, stop, on_event, on_state, profile)
    except (ClusterError, ConfigError, PreflightError) as exc:
        said = exc.message if isinstance(exc, PreflightError) else str(exc)
        emit(ev.RunFailed(message=said, error_type=type(exc).__name__))
        return ExitCode.CONFIG
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
