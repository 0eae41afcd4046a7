"""Start a cluster's tasks on this machine and watch them as one group (engine.cluster.group).

Each task is the protocol's trainer command (engine.core.protocol.commands)
with its own TF_CONFIG, which picks its program. No TensorFlow here. Tasks
are addressed on loopback only, yet TensorFlow's server listens on every
interface whatever TF_CONFIG says (measured with `ss`), and trusts anyone
who reaches it: on an untrusted network, firewall the ports.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Collection
from pathlib import Path

from engine.cluster.group import (
    DEFAULT_RESTARTS,
    STOP_GRACE_S,
    ClusterResult,
    EventCallback,
    StateCallback,
    StopCheck,
    TaskGroup,
)
from engine.core.config import RunConfig, Strategy
from engine.core.protocol import commands
from engine.core.protocol.profile import ProfileRequests
from engine.core.runs.rundir import claim
from engine.core.runs.runlock import RunLock
from engine.core.session import launched_cluster
from engine.core.tfconfig import (
    ClusterError,
    ClusterProblem,
    ClusterSpec,
    Task,
    errors,
    is_loopback,
    local_cluster,
    local_cluster_like,
    port_in_use,
    run_problems,
)

CommandFactory = Callable[[Path, Path, bool], list[str]]  # (run config, run dir, resume) -> command


def trainer_command(config_path: Path, run_dir: Path, resume: bool) -> list[str]:
    """The protocol's trainer command for one task: a fresh run, or a resume of `run_dir`.

    Every task gets the same command; its TF_CONFIG picks what it runs (engine.train.task).
    """
    return commands.trainer_resume_command(run_dir) if resume else commands.trainer_command(config_path, run_dir)


def local_cluster_for(strategy: str, workers: int, ps: int = 0, evaluator: bool = False) -> ClusterSpec:
    """The local cluster `cluster launch --workers N [--ps M] [--evaluator]` means for `strategy`:
    parameter_server implies its chief (the coordinator); otherwise worker 0 is the chief."""
    return local_cluster(workers, ps=ps, chief=strategy == Strategy.PARAMETER_SERVER, evaluator=evaluator)


def relaunched_cluster(run_dir: Path) -> ClusterSpec | None:
    """The cluster a local run was launched with (RUN_DIR/cluster.json) on fresh free ports; None when that
    file is missing (a run launched with --workers only) or unreadable."""
    cluster = launched_cluster(run_dir)
    return local_cluster_like(cluster) if cluster is not None else None


def launch_local_cluster(
    run_config_path: str | Path,
    n_workers: int,
    run_dir: str | Path,
    *,
    join_timeout_s: float,
    ps: int = 0,
    evaluator: bool = False,
    on_event: EventCallback | None = None,
    on_state: StateCallback | None = None,
    should_stop: StopCheck | None = None,
    resume: bool = False,
    lock: RunLock | None = None,
    restarts: int = DEFAULT_RESTARTS,
) -> ClusterResult:
    """`n_workers` workers (and `ps` parameter servers, an evaluator) on free 127.0.0.1 ports."""
    strategy = RunConfig.load(run_config_path).strategy
    return launch_cluster(
        local_cluster_for(strategy, n_workers, ps, evaluator),
        run_config_path,
        run_dir,
        join_timeout_s=join_timeout_s,
        on_event=on_event,
        on_state=on_state,
        should_stop=should_stop,
        resume=resume,
        lock=lock,
        restarts=restarts,
    )


def launch_cluster(
    cluster: ClusterSpec,
    run_config_path: str | Path,
    run_dir: str | Path,
    *,
    join_timeout_s: float,
    start_only: Collection[str] | None = None,
    on_event: EventCallback | None = None,
    on_state: StateCallback | None = None,
    should_stop: StopCheck | None = None,
    command_for: CommandFactory = trainer_command,
    resume: bool = False,
    lock: RunLock | None = None,
    restarts: int = DEFAULT_RESTARTS,
    stall_s: float | None = None,
    profile: ProfileRequests | None = None,
) -> ClusterResult:
    """Run the cluster's tasks here and wait for all of them (never unbounded).

    `start_only` names the tasks to start ("worker 0"); the others are expected
    to be started elsewhere. Once `should_stop()` is true the group stops gracefully.
    `command_for` builds each task's command (tests use a fake trainer).
    `resume` continues the run in `run_dir` from its latest checkpoint (every
    worker restores the chief's). `restarts`: how often a lost
    parameter_server worker is started again. `stall_s`: a trainer without a
    step for that long is reported to on_event as a TaskStalled (None: from its
    step times, engine.core.logs.stall). `profile`: the profile requests the
    launcher hears while it runs, passed on to every task that trains. `lock`, the run's lock held by
    the caller, is handed to the chief (the one task that writes the run), so
    no other process can train the run while the cluster does; without one, a
    launcher that starts the chief claims the folder itself (marker and lock
    first, so the tasks' logs do not make it look like someone else's).
    ConfigError, ClusterError (port in use included) or RunDirError before
    anything starts.
    """
    config_path = Path(run_config_path).resolve()
    config = RunConfig.load(config_path)
    tasks = [t for t in _checked_tasks(cluster, config) if start_only is None or t.name in start_only]
    if not tasks:
        raise ClusterError([ClusterProblem("error", "cluster", cluster.to_dict(), f"no task named {start_only}")])
    _check_ports(tasks)
    owned = None
    if lock is None and cluster.chief() in tasks:  # this launcher runs the chief: it claims the run folder
        lock = owned = claim(Path(run_dir), resume=resume, command="tfdd cluster launch")
    if lock is not None and os.name != "posix":  # no inherited lock there: the folder is claimed, the chief locks it
        lock.release()
        lock = None
    group = TaskGroup(
        cluster, config.strategy, tasks, Path(run_dir).resolve(), on_event, on_state, restarts, lock, stall_s, profile
    )
    try:
        group.start(command_for(config_path, group.run_dir, resume))
        return group.watch(join_timeout_s, should_stop or (lambda: False))
    finally:
        group.shutdown(STOP_GRACE_S)  # a no-op unless an exception (e.g. Ctrl-C) got here
        if owned is not None:
            owned.release()


def _checked_tasks(cluster: ClusterSpec, config: RunConfig) -> list[Task]:
    problems = errors(run_problems(cluster, config))
    if problems:
        raise ClusterError(problems)
    tasks = cluster.tasks()
    remote = [t for t in tasks if not is_loopback(t.host)]
    if remote:
        raise ClusterError(
            [
                ClusterProblem(
                    "error",
                    f"cluster.{t.job}[{t.index}]",
                    t.address,
                    "the launcher starts tasks on this machine only, on a loopback "
                    "address; use `cluster export` for other machines",
                )
                for t in remote
            ]
        )
    return tasks


def _check_ports(tasks: list[Task]) -> None:
    busy = [t for t in tasks if port_in_use(t.host, t.port)]
    if busy:
        raise ClusterError(
            [
                ClusterProblem(
                    "error",
                    f"cluster.{t.job}[{t.index}]",
                    t.address,
                    f"port {t.port} of {t.name} is already in use on this machine; stop "
                    "the program that holds it or pick another port",
                )
                for t in busy
            ]
        )
