"""Every rule of a TF_CONFIG checked before any process starts, each problem naming its place and the fix."""

from __future__ import annotations

from typing import Any

from engine.core.config import RunConfig, Strategy, has_validation
from engine.core.messages import msg
from engine.core.plan import choice_problems
from engine.core.tfconfig.addresses import host_problem, is_loopback, parse_address
from engine.core.tfconfig.spec import (
    CLUSTER_STRATEGIES,
    EVALUATOR_JOB,
    JOBS,
    SINGLE_TASK_JOBS,
    TRAINING_JOBS,
    ClusterProblem,
    ClusterSpec,
    Task,
    TFConfig,
)


def validate(tf_config: TFConfig, strategy: str | None = None) -> list[ClusterProblem]:
    """Every error and warning of `tf_config`; `strategy` enables the strategy rules."""
    problems: list[ClusterProblem] = []

    def add(severity: str, location: str, value: Any, message: str) -> None:
        problems.append(ClusterProblem(severity, location, value, message))

    cluster = tf_config.cluster
    if not cluster.jobs:
        add(
            "error",
            "cluster",
            cluster.to_dict(),
            msg(
                "no cluster: TensorFlow would silently train this process alone; list the tasks, e.g. "
                '{"worker": ["127.0.0.1:20001", "127.0.0.1:20002"]}'
            ),
        )
    tasks: list[Task] = []
    for job, addresses in cluster.jobs:
        if job not in JOBS:
            add(
                "error", f"cluster.{job}", list(addresses), msg("unknown job; use one of: {jobs}", jobs=", ".join(JOBS))
            )
            continue
        if not addresses:
            add("error", f"cluster.{job}", [], msg("lists no address; add one or remove the job"))
        if job in SINGLE_TASK_JOBS and len(addresses) > 1:
            add("error", f"cluster.{job}", list(addresses), msg("at most one {job}; make the others workers", job=job))
        for index, address in enumerate(addresses):
            try:
                host, port = parse_address(address)
            except ValueError as exc:
                add("error", f"cluster.{job}[{index}]", address, exc.args[0])
                continue
            message = host_problem(host)
            if message is None and not 1 <= port <= 65535:
                message = msg("the port must be 1-65535")
            if message:
                add("error", f"cluster.{job}[{index}]", address, message)
            else:
                tasks.append(Task(job, index, host, port))
    if cluster.jobs and not any(cluster.addresses(job) for job in TRAINING_JOBS):
        add("error", "cluster", cluster.to_dict(), msg("has no chief or worker task: nothing would train"))
    problems += _address_problems(tasks)
    if cluster.jobs:  # without a cluster the task cannot be judged; one error is enough
        problems += _task_problems(tf_config)
    problems += _strategy_problems(cluster, strategy)
    return problems


def _address_problems(tasks: list[Task]) -> list[ClusterProblem]:
    """Port clashes, and hosts that work but deserve a second look."""
    problems: list[ClusterProblem] = []
    seen: dict[tuple[str, int], Task] = {}
    remote = sorted({t.host for t in tasks if not is_loopback(t.host)})
    for t in tasks:
        where = f"cluster.{t.job}[{t.index}]"
        # TensorFlow listens on every interface (measured), so all loopback names are one machine.
        key = ("loopback" if is_loopback(t.host) else t.host.lower().rstrip("."), t.port)
        if key in seen:
            problems.append(
                ClusterProblem(
                    "error",
                    where,
                    t.address,
                    msg("same machine and port as {name}; give each task its own port", name=seen[key].name),
                )
            )
        seen.setdefault(key, t)
        if not is_loopback(t.host):
            problems.append(
                ClusterProblem(
                    "warning",
                    where,
                    t.address,
                    msg(
                        "not a loopback address: TensorFlow's gRPC server has no authentication or encryption "
                        "and runs any graph it is sent; use it only on a trusted, firewalled network"
                    ),
                )
            )
        elif remote:
            problems.append(
                ClusterProblem(
                    "warning",
                    where,
                    t.address,
                    msg(
                        "{host} means a different machine to each task, but other tasks run on {remote}; use "
                        "this machine's network name or address",
                        host=t.host,
                        remote=", ".join(remote),
                    ),
                )
            )
    return problems


def _task_problems(tf_config: TFConfig) -> list[ClusterProblem]:
    task_type, task_index = tf_config.task_type, tf_config.task_index
    if task_type is None and task_index is None:
        return []  # a cluster description shared by all tasks
    if task_type is None:
        return [ClusterProblem("error", "task.type", None, msg('missing; name the job of this process, e.g. "worker"'))]
    addresses = tf_config.cluster.addresses(task_type)
    if not addresses:
        jobs = ", ".join(job for job, _ in tf_config.cluster.jobs) or "none"
        return [
            ClusterProblem(
                "error", "task.type", task_type, msg("is not a job of the cluster (jobs: {jobs})", jobs=jobs)
            )
        ]
    if task_index is None or not 0 <= task_index < len(addresses):
        return [
            ClusterProblem(
                "error",
                "task.index",
                task_index,
                msg(
                    "must be 0-{n_addresses}: the {task_type} job has {n_addresses2} task(s)",
                    n_addresses=len(addresses) - 1,
                    task_type=task_type,
                    n_addresses2=len(addresses),
                ),
            )
        ]
    return []


def _strategy_problems(cluster: ClusterSpec, strategy: str | None) -> list[ClusterProblem]:
    """One line per rule a strategy breaks: which jobs it uses, and which it cannot."""
    if strategy is None:
        return []
    problems: list[ClusterProblem] = []

    def error(location: str, value: Any, message: str) -> None:
        problems.append(ClusterProblem("error", location, value, message))

    evaluators = list(cluster.addresses(EVALUATOR_JOB))
    ps = list(cluster.addresses("ps"))
    if strategy not in CLUSTER_STRATEGIES:
        if sum(len(cluster.addresses(job)) for job in TRAINING_JOBS) > 1:
            error(
                "cluster",
                cluster.to_dict(),
                msg(
                    "strategy {strategy} ignores the cluster and every worker would train alone; use "
                    "strategy multi_worker_mirrored or parameter_server",
                    strategy=strategy,
                ),
            )
        if ps:
            error(
                "cluster.ps",
                ps,
                msg("strategy {strategy} uses no parameter servers; use parameter_server", strategy=strategy),
            )
        if evaluators:
            error(
                "cluster.evaluator",
                evaluators,
                msg(
                    "strategy {strategy} cannot use an evaluator (it validates the checkpoints of a "
                    "multi_worker_mirrored or parameter_server cluster); remove it or change the strategy",
                    strategy=strategy,
                ),
            )
        return problems
    if strategy == Strategy.MULTI_WORKER_MIRRORED:
        if ps:
            error("cluster.ps", ps, msg("multi_worker_mirrored uses no parameter servers; remove the ps job"))
        return problems
    if not ps:
        error(
            "cluster.ps",
            [],
            msg("parameter_server needs at least one ps task to hold the variables; add one (cluster launch --ps 1)"),
        )
    if not cluster.addresses("chief"):
        error(
            "cluster.chief",
            [],
            msg("parameter_server needs a chief task: the coordinator that runs the training program; add one"),
        )
    if not cluster.addresses("worker"):
        error("cluster.worker", [], msg("parameter_server needs at least one worker task to run the steps; add one"))
    return problems


def evaluator_problem(config: RunConfig) -> str | None:
    """Why an evaluator task cannot validate `config`'s run, or None when it can."""
    if not isinstance(config.validation_split, (int, float)) or not has_validation(config):
        return msg(
            "the evaluator validates on the run's validation data, and validation_split is 0; "
            "set it above 0 (e.g. 0.2) or remove the evaluator"
        )
    return None


def run_problems(cluster: ClusterSpec, config: RunConfig) -> list[ClusterProblem]:
    """Every problem of running `config` on `cluster`: the cluster's own, and the rules that need both."""
    problems = validate(TFConfig(cluster), config.strategy)
    evaluator_allowed = config.strategy in CLUSTER_STRATEGIES  # else validate() has refused it already
    why = evaluator_problem(config)
    if cluster.addresses(EVALUATOR_JOB) and evaluator_allowed and why:
        problems.append(ClusterProblem("error", "cluster.evaluator", list(cluster.addresses(EVALUATOR_JOB)), why))
    # the tasks' machines are not known here: what even a Linux GPU machine cannot run (each task's trainer
    # checks its own devices)
    problems += [ClusterProblem("error", p.field, p.value, p.message) for p in choice_problems(config, True, "Linux")]
    return problems


def errors(problems: list[ClusterProblem]) -> list[ClusterProblem]:
    return [p for p in problems if p.severity == "error"]
