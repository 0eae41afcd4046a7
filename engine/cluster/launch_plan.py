"""What `tfdd cluster launch` starts, from its arguments: the run (claimed), the cluster, the hosts.

engine.cluster.cli parses the arguments; this module turns them into a LaunchPlan and runs it (locally, or
over SSH with --hosts). No TensorFlow here.
"""

from __future__ import annotations

import argparse
import dataclasses
import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

from engine.cluster.ssh import Ssh
from engine.core.arguments import profiled_command
from engine.core.config import RunConfig
from engine.core.hosts import parse_hosts
from engine.core.problems import ConfigError, Problem
from engine.core.protocol.paths import RunPaths
from engine.core.protocol.profile import ProfileRequests
from engine.core.runs.runlock import RunLock
from engine.core.tfconfig import ClusterError, ClusterProblem, ClusterSpec, errors, parse_tf_config, run_problems

if TYPE_CHECKING:
    from engine.cluster.remote import RemoteCluster


def load_cluster(path: str) -> Any:
    file = Path(path)
    if not file.is_file():
        raise ClusterError([ClusterProblem("error", "(file)", path, "no such file")])
    return parse_tf_config(file.read_text(encoding="utf-8"))


@dataclasses.dataclass(frozen=True)
class LaunchPlan:
    """What `cluster launch` starts: the run config, the run directory (claimed: `lock` held) and the cluster.

    The launcher holds the run's lock for the whole cluster (and hands it to
    the chief): a second launch or train of the same run is refused.
    """

    config_path: Path
    run_dir: Path
    cluster: ClusterSpec
    resume: bool
    epochs: int
    lock: RunLock
    remote: RemoteCluster | None = None  # --hosts: where each task runs
    ssh: Ssh | None = None

    def abandon(self) -> None:
        """Nothing was started: release the run, and leave no empty new run in the history."""
        from engine.core.runs.rundir import discard_unused

        self.lock.release()
        if not self.resume:
            discard_unused(self.run_dir)


def launch_plan(args: argparse.Namespace) -> LaunchPlan:
    """A new run, or the run `--resume` names, on the cluster the arguments (or the run) describe."""
    from engine.cluster.capacity import local_tasks_problem
    from engine.cluster.launcher import local_cluster_for, relaunched_cluster
    from engine.core.runs.rundir import claim, new_run_dir

    if args.detach and (args.events or os.name != "posix"):
        raise ConfigError([Problem("--detach", None, "a terminal's option on Linux or macOS, not with --events")])
    shape_given = args.workers is not None or args.ps or args.evaluator
    if args.cluster and shape_given:
        raise ConfigError([Problem("--cluster", args.cluster, "give either --cluster or --workers/--ps/--evaluator")])
    if args.resume:
        paths = RunPaths(Path(args.resume))
        if not paths.config.is_file():
            raise ConfigError([Problem("--resume", args.resume, "not a run directory (it has no config.json)")])
        config_path, run_dir = paths.config, paths.root
        config = RunConfig.load(config_path, check=False)
    else:
        config = RunConfig.load(args.config)
        config_path = Path(args.config)
        run_dir = Path(args.run_dir) if args.run_dir else None  # created once the cluster is known to be good
    if args.cluster:
        cluster = load_cluster(args.cluster).cluster
    elif args.workers is not None:
        cluster = local_cluster_for(config.strategy, args.workers, args.ps, args.evaluator)
    elif args.resume and (relaunched := relaunched_cluster(run_dir)) is not None:
        cluster = relaunched
    else:
        raise ConfigError([Problem("--workers", None, "give --workers N (or --cluster FILE)")])
    problems = errors(run_problems(cluster, config))
    if problems:
        raise ClusterError(problems)
    where = "--cluster" if args.cluster else "--workers"
    too_many = None if args.force or args.hosts else local_tasks_problem(len(cluster.tasks()), where)
    if too_many:
        raise ConfigError([too_many])
    hosts_text = args.hosts or launched_hosts(args, run_dir)
    hosts = parse_hosts(hosts_text) if hosts_text else None  # its problems before a run folder exists
    if run_dir is None:
        run_dir = new_run_dir(config)
    lock = claim(run_dir, resume=bool(args.resume), command="tfdd cluster launch")
    plan = LaunchPlan(Path(config_path), run_dir, cluster, bool(args.resume), config.epochs, lock)
    if hosts:
        from engine.cluster.remote import remote_cluster

        ssh = Ssh.configured(args.ssh_config)
        try:
            remote = remote_cluster(cluster, hosts, ssh, run_dir.name)
        except ConfigError:
            plan.abandon()
            raise
        plan = dataclasses.replace(plan, cluster=remote.cluster, remote=remote, ssh=ssh)
    return plan


def launched_hosts(args: argparse.Namespace, run_dir: Path | None) -> str | None:
    """--resume of a run started with --hosts: the file of its hosts (the same tasks on the same hosts)."""
    from engine.cluster.remote import HOSTS_FILE

    saved = run_dir / HOSTS_FILE if args.resume and run_dir is not None else None
    return str(saved) if saved is not None and saved.is_file() else None


def _restarts(args: argparse.Namespace) -> dict[str, int]:
    return {} if args.restarts is None else {"restarts": args.restarts}


def run_plan(
    plan: LaunchPlan,
    args: argparse.Namespace,
    stop: Any,
    on_event: Any,
    on_state: Any,
    profile: ProfileRequests | None = None,
) -> Any:
    """Start the plan's cluster and wait for it (a ClusterResult); `profile`: the requests the launcher hears
    (--events), for its tasks. The run's lock is released at the end; a launch refused before anything started
    (ClusterError, ConfigError) leaves no empty new run behind."""
    from engine.cluster.launcher import launch_cluster, trainer_command
    from engine.cluster.remote import PreflightError, launch_remote_cluster

    common = dict(
        join_timeout_s=args.join_timeout,
        on_event=on_event,
        on_state=on_state,
        should_stop=lambda: stop.requested,
        resume=plan.resume,
        lock=plan.lock,
        stall_s=args.stall_seconds,
        profile=profile,
        **_restarts(args),
    )
    try:
        command_for = profiled_command(trainer_command, args.profile_steps, remote=plan.remote is not None)
        if plan.remote is not None:
            assert plan.ssh is not None
            return launch_remote_cluster(plan.remote, plan.config_path, plan.run_dir, plan.ssh, **common)
        return launch_cluster(plan.cluster, plan.config_path, plan.run_dir, **common, command_for=command_for)
    except (ClusterError, ConfigError, PreflightError):
        plan.abandon()
        raise
    finally:
        plan.lock.release()
