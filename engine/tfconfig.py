"""TF_CONFIG without TensorFlow: parse, validate, render, and local ports.

TensorFlow reads the cluster from the TF_CONFIG environment variable and
checks little of it: a document without "cluster" silently trains one
worker alone, a port clash ends in "Could not start gRPC server", a missing
peer waits for an hour. So every rule is checked here, before any process
starts, and each problem names its place (`cluster.worker[1]`), the value and
what to change. The GUI's cluster editor imports this module, so it must
never import TensorFlow.
"""

from __future__ import annotations

import errno
import ipaddress
import json
import os
import re
import socket
from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from engine.config import RunConfig, Strategy
from engine.kinds import has_validation
from engine.messages import msg
from engine.problems import MAX_VALUE_CHARS, ConfigError, Problem, printable, short_value
from engine.protocol.codes import task_id

JOBS = ("chief", "worker", "ps", "evaluator")
SINGLE_TASK_JOBS = ("chief", "evaluator")
# The jobs of the training cluster: under MultiWorkerMirroredStrategy every one of them trains in sync; under
# ParameterServerStrategy the chief coordinates and the workers run its steps. The ps job holds the variables;
# the evaluator stands beside the cluster, never in it (see training_cluster).
TRAINING_JOBS = ("chief", "worker")
CLUSTER_STRATEGIES = (Strategy.MULTI_WORKER_MIRRORED, Strategy.PARAMETER_SERVER)
EVALUATOR_JOB = "evaluator"
LOOPBACK_HOST = "127.0.0.1"


class Program(StrEnum):
    """What a task of a cluster runs; one `train` command serves them all (see task_program)."""

    TRAINER = "trainer"  # the training program: every MWMS task, the PS chief (coordinator)
    SERVER = "server"  # a TensorFlow server that waits for the coordinator: PS workers and ps tasks
    EVALUATOR = "evaluator"  # validates each checkpoint the chief writes


def task_program(job: str, strategy: str) -> Program:
    """The program of a task of `job` in a cluster trained with `strategy`."""
    if job == EVALUATOR_JOB:
        return Program.EVALUATOR
    if strategy == Strategy.PARAMETER_SERVER and job in ("worker", "ps"):
        return Program.SERVER
    return Program.TRAINER


def role_text(job: str, index: int, strategy: str, cluster: ClusterSpec) -> str:
    """What a task does, as the workers panel and the bundle README say it."""
    if job == EVALUATOR_JOB:
        return msg("evaluator: validates each checkpoint")
    if strategy == Strategy.PARAMETER_SERVER:
        return {
            "chief": msg("coordinator: runs the training program"),
            "worker": msg("worker: runs the coordinator's steps"),
            "ps": msg("parameter server: holds variables"),
        }.get(job, job)
    chief = cluster.chief() if cluster.addresses("chief") or cluster.addresses("worker") else None
    if chief is not None and (chief.job, chief.index) == (job, index):
        return msg("chief: trains and writes the results")
    return msg("worker: trains in sync")


_LABEL = re.compile(r"^[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?$")
# EACCES also: Windows' answer for an exclusively held port, POSIX's for ports < 1024.
_IN_USE_ERRNOS = {errno.EADDRINUSE, errno.EACCES, 10048, 10013}
_SHELL_UNSAFE = set(" \t\n\r'\"`$;&|<>()\\*?!#~{}[]^%,=")


class ClusterError(ValueError):
    """Raised with every problem that stops a document from being a TF_CONFIG."""

    def __init__(self, problems: list[ClusterProblem]):
        self.problems = problems
        super().__init__("\n".join(str(p) for p in problems))


@dataclass(frozen=True)
class ClusterProblem:
    """One thing wrong with a cluster, phrased so a person can fix it."""

    severity: str  # "error" or "warning"
    location: str  # e.g. "cluster.worker[1]", "task.index"
    value: Any
    message: str

    def __str__(self) -> str:
        # a job name or value comes from the user's file: shown escaped and cut, never as terminal control codes
        return (
            f"{self.severity}: {printable(self.location, MAX_VALUE_CHARS)} = {short_value(self.value)}: {self.message}"
        )


@dataclass(frozen=True)
class Task:
    """One process of the cluster, with its address split for port checks."""

    job: str
    index: int
    host: str  # IPv6 without brackets
    port: int

    @property
    def address(self) -> str:
        return f"[{self.host}]:{self.port}" if ":" in self.host else f"{self.host}:{self.port}"

    @property
    def name(self) -> str:
        """What messages call this task, e.g. "worker 1"."""
        return f"{self.job} {self.index}"

    @property
    def id(self) -> str:
        """Its identifier in folder names, log sources and the workers panel, e.g. "worker-1"."""
        return task_id(self.job, self.index)


@dataclass(frozen=True)
class ClusterSpec:
    """Job name -> task addresses, in TF_CONFIG order; unknown jobs are kept for validate()."""

    jobs: tuple[tuple[str, tuple[str, ...]], ...] = ()

    @classmethod
    def from_dict(cls, jobs: dict[str, list[str]]) -> ClusterSpec:
        return cls(tuple((job, tuple(addresses)) for job, addresses in jobs.items()))

    def to_dict(self) -> dict[str, list[str]]:
        return {job: list(addresses) for job, addresses in self.jobs}

    def addresses(self, job: str) -> tuple[str, ...]:
        return dict(self.jobs).get(job, ())

    def training_tasks(self) -> list[Task]:
        """The chief and worker tasks, chief first; ValueError on an address that does not parse."""
        return [
            Task(job, index, *parse_address(address))
            for job in TRAINING_JOBS
            for index, address in enumerate(self.addresses(job))
        ]

    def tasks(self) -> list[Task]:
        """Every task of the known jobs, in JOBS order; ValueError on an address that does not parse."""
        return [
            Task(job, index, *parse_address(address))
            for job in JOBS
            for index, address in enumerate(self.addresses(job))
        ]

    def without(self, job: str) -> ClusterSpec:
        return ClusterSpec(tuple((j, a) for j, a in self.jobs if j != job))

    def chief(self) -> Task:
        """The task that writes results: the chief job, else worker 0 (as TensorFlow decides)."""
        tasks = self.training_tasks()
        if not tasks:
            raise ValueError(msg("the cluster has no chief or worker task"))
        return tasks[0]


@dataclass(frozen=True)
class TFConfig:
    """One TF_CONFIG document; task fields are None for a bare cluster description."""

    cluster: ClusterSpec
    task_type: str | None = None
    task_index: int | None = None

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"cluster": self.cluster.to_dict()}
        if self.task_type is not None or self.task_index is not None:
            d["task"] = {"type": self.task_type, "index": self.task_index}
        return d


# ---- addresses ---------------------------------------------------------------


def parse_address(address: str) -> tuple[str, int]:
    """Split "host:port" or "[ipv6]:port"; ValueError says what is wrong."""
    if address.startswith("["):
        host, sep, port = address[1:].partition("]:")
        if not sep:
            raise ValueError(msg('write an IPv6 address as "[::1]:2222"'))
    else:
        host, sep, port = address.rpartition(":")
        if not sep:
            raise ValueError(msg('needs a port, e.g. "127.0.0.1:2222"'))
        if ":" in host:
            raise ValueError(msg('put an IPv6 address in brackets, e.g. "[::1]:2222"'))
    if not port.isdigit() or not port.isascii():
        raise ValueError(msg("port {port!r} is not a number; use 1-65535", port=port))
    return host, int(port)


def host_problem(host: str) -> str | None:
    """Why `host` is not a safe host name or address, or None when it is."""
    unsafe = sorted({c for c in host if c in _SHELL_UNSAFE or not c.isprintable()})
    if not host:
        return msg("the host is empty; use a machine name or an IP address")
    if unsafe:
        return msg(
            "the host contains {characters}, which is not allowed in a host name and unsafe in a start "
            "script; use a machine name or an IP address",
            characters=" ".join(repr(c) for c in unsafe),
        )
    if ":" in host:
        try:
            ipaddress.IPv6Address(host)
        except ValueError:
            return msg("not a valid IPv6 address")
        return None
    labels = host.rstrip(".").split(".")
    if all(label.isdigit() for label in labels):
        try:
            ipaddress.IPv4Address(host)
        except ValueError:
            return msg("not a valid IPv4 address (four numbers 0-255, e.g. 10.0.0.5)")
        return None
    if len(host) > 253 or not all(_LABEL.match(label) for label in labels):
        return msg(
            "not a valid host name: letters, digits and '-' in dot-separated parts of at most "
            "63 characters, not starting or ending with '-'"
        )
    return None


def is_loopback(host: str) -> bool:
    if host.lower().rstrip(".") == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


# ---- parsing -----------------------------------------------------------------


def parse_tf_config(source: str | dict[str, Any]) -> TFConfig:
    """TF_CONFIG text or dict -> TFConfig; ClusterError for a malformed shape.

    Only the shape is checked here; validate() judges the content.
    """
    problems: list[ClusterProblem] = []

    def bad(location: str, value: Any, message: str) -> None:
        problems.append(ClusterProblem("error", location, value, message))

    raw: Any = source
    if isinstance(source, str):
        try:
            raw = json.loads(source)
        except json.JSONDecodeError as exc:
            raise ClusterError(
                [ClusterProblem("error", "(document)", source[:40], msg("not JSON: {exc}", exc=exc))]
            ) from None
    if not isinstance(raw, dict):
        raise ClusterError(
            [ClusterProblem("error", "(document)", raw, msg('must be a JSON object {"cluster": ..., "task": ...}'))]
        )
    unknown = [key for key in raw if key not in ("cluster", "task")]
    if unknown and len(unknown) == len(raw):
        raise ClusterError(
            [
                ClusterProblem(
                    "error",
                    "(document)",
                    unknown,
                    msg('not a TF_CONFIG: it has neither "cluster" nor "task" (is it a run config?)'),
                )
            ]
        )
    for key in unknown:
        bad(key, raw[key], msg('unknown key; a TF_CONFIG here has only "cluster" and "task"'))
    jobs: dict[str, list[str]] = {}
    cluster = raw.get("cluster", {})
    if not isinstance(cluster, dict):
        bad("cluster", cluster, msg('must be an object like {"worker": ["127.0.0.1:2222"]}'))
        cluster = {}
    for job, addresses in cluster.items():
        if not isinstance(addresses, list) or not all(isinstance(a, str) for a in addresses):
            bad(f"cluster.{job}", addresses, msg('must be a list of "host:port" strings'))
        else:
            jobs[job] = addresses
    task = raw.get("task")
    task_type = task_index = None
    if task is not None:
        if not isinstance(task, dict):
            bad("task", task, msg('must be an object like {"type": "worker", "index": 0}'))
        else:
            task_type, task_index = task.get("type"), task.get("index")
            if task_type is not None and not isinstance(task_type, str):
                bad("task.type", task_type, msg("must be one of: {jobs}", jobs=", ".join(JOBS)))
            if task_index is not None and (not isinstance(task_index, int) or isinstance(task_index, bool)):
                bad("task.index", task_index, msg("must be an integer, counting from 0"))
    if problems:
        raise ClusterError(problems)
    return TFConfig(ClusterSpec.from_dict(jobs), task_type, task_index)


def render(tf_config: TFConfig, indent: int | None = None) -> str:
    """JSON text; compact by default, as an environment variable wants it."""
    separators = (",", ":") if indent is None else None
    return json.dumps(tf_config.to_dict(), indent=indent, separators=separators)


# ---- validation ----------------------------------------------------------------


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
    return problems


def errors(problems: list[ClusterProblem]) -> list[ClusterProblem]:
    return [p for p in problems if p.severity == "error"]


# ---- this process's role -------------------------------------------------------------

TF_CONFIG_ENV = "TF_CONFIG"


@dataclass(frozen=True)
class TaskRole:
    """This process's place in a TF_CONFIG cluster (one worker, the chief, when there is none)."""

    num_workers: int = 1  # MWMS: the chief and worker tasks training in sync; PS: the workers running steps
    task: str = ""  # task id, e.g. "worker-1"; empty outside a cluster
    is_chief: bool = True  # writes the results
    job: str = ""  # "chief", "worker", "ps", "evaluator"; empty outside a cluster
    has_evaluator: bool = False  # an evaluator task validates the checkpoints, so the trainer need not
    num_ps: int = 0  # parameter_server: the ps tasks holding the variables

    @property
    def index(self) -> int:
        return int(self.task.rpartition("-")[2]) if self.task else 0


def role_from_environment(strategy: str, environ: Mapping[str, str] = os.environ) -> TaskRole:
    """The role TF_CONFIG gives this process under `strategy`; ConfigError when TF_CONFIG is malformed.

    Strategies that train in one process ignore TF_CONFIG (validation refuses a
    cluster for them): they are always the chief.
    """
    raw = environ.get(TF_CONFIG_ENV, "").strip()
    if not raw or strategy not in CLUSTER_STRATEGIES:
        return TaskRole()
    try:
        doc = parse_tf_config(raw)
        problems = errors(validate(doc, strategy))  # the rules of `tfdd cluster validate`, before TensorFlow
    except ClusterError as exc:
        problems = exc.problems
    if problems:
        raise ConfigError(
            [
                Problem(
                    TF_CONFIG_ENV,
                    raw,
                    msg(
                        "{location}: {message}; check it with `tfdd cluster validate`",
                        location=p.location,
                        message=p.message,
                    ),
                )
                for p in problems
            ]
        )
    job, index = doc.task_type or "worker", doc.task_index or 0
    cluster = doc.cluster
    if strategy == Strategy.PARAMETER_SERVER:
        workers = len(cluster.addresses("worker"))
        chief = job == "chief"
    else:
        workers = sum(len(cluster.addresses(j)) for j in TRAINING_JOBS)
        chief = job == "chief" or (job == "worker" and index == 0 and not cluster.addresses("chief"))
    return TaskRole(
        num_workers=max(workers, 1),
        task=task_id(job, index),
        is_chief=chief,
        job=job,
        has_evaluator=bool(cluster.addresses(EVALUATOR_JOB)),
        num_ps=len(cluster.addresses("ps")),
    )


# ---- building clusters -------------------------------------------------------------


def for_task(cluster: ClusterSpec, job: str, index: int) -> TFConfig:
    """The TF_CONFIG of one task; ValueError when the cluster has no such task."""
    if not 0 <= index < len(cluster.addresses(job)):
        raise ValueError(msg("the cluster has no task {job} {index}", job=job, index=index))
    return TFConfig(cluster, job, index)


def local_cluster(
    n_workers: int, ports: list[int] | None = None, *, ps: int = 0, chief: bool = False, evaluator: bool = False
) -> ClusterSpec:
    """A cluster on 127.0.0.1, on free ports unless `ports` are given (in JOBS order).

    `n_workers` worker tasks (without a chief, worker 0 is the chief, as
    TensorFlow decides), plus a chief, `ps` parameter servers and an evaluator
    when asked.
    """
    if n_workers < 1 and not chief:
        raise ValueError(msg("a cluster needs at least one worker"))
    counts = {"chief": int(chief), "worker": n_workers, "ps": ps, EVALUATOR_JOB: int(evaluator)}
    total = sum(counts.values())
    ports = free_loopback_ports(total) if ports is None else list(ports)
    if len(ports) != total:
        raise ValueError(msg("{total} tasks need {total} ports, got {n_ports}", total=total, n_ports=len(ports)))
    jobs = []
    for job in JOBS:
        taken, ports = ports[: counts[job]], ports[counts[job] :]
        if taken:
            jobs.append((job, tuple(f"{LOOPBACK_HOST}:{p}" for p in taken)))
    return ClusterSpec(tuple(jobs))


def cluster_shape(cluster: ClusterSpec) -> dict[str, int]:
    """How many tasks each job has; what a local cluster is rebuilt from on fresh ports."""
    return {job: len(cluster.addresses(job)) for job in JOBS if cluster.addresses(job)}


def local_cluster_like(cluster: ClusterSpec) -> ClusterSpec:
    """A cluster of the same shape as `cluster` on 127.0.0.1 and free ports (a resumed local run)."""
    shape = cluster_shape(cluster)
    return local_cluster(
        shape.get("worker", 0),
        ps=shape.get("ps", 0),
        chief=bool(shape.get("chief")),
        evaluator=bool(shape.get(EVALUATOR_JOB)),
    )


def free_loopback_ports(n: int) -> list[int]:
    """`n` distinct ports free on 127.0.0.1 now; another program may still take one before
    a worker binds it, and then that worker fails by name ("Could not start gRPC server")."""
    sockets = [socket.socket(socket.AF_INET, socket.SOCK_STREAM) for _ in range(n)]
    try:
        for s in sockets:
            s.bind((LOOPBACK_HOST, 0))
        return [s.getsockname()[1] for s in sockets]
    finally:
        for s in sockets:
            s.close()


def port_in_use(host: str, port: int) -> bool:
    """True when a TensorFlow server on this machine could not listen on `port`.

    TensorFlow's server listens on every interface whatever host TF_CONFIG
    names (measured), so a listener on `host` or on any address counts.
    """
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    wildcard = "::" if family == socket.AF_INET6 else "0.0.0.0"
    for address in dict.fromkeys((host, wildcard)):
        with socket.socket(family, socket.SOCK_STREAM) as s:
            # Match gRPC (SO_REUSEADDR: TIME_WAIT is not "in use"); on Windows that
            # option would allow stealing a port, so ask for exclusive use there.
            option = getattr(socket, "SO_EXCLUSIVEADDRUSE", None) if os.name == "nt" else socket.SO_REUSEADDR
            if option is not None:
                s.setsockopt(socket.SOL_SOCKET, option, 1)
            try:
                s.bind((address, port))
            except OSError as exc:
                if exc.errno in _IN_USE_ERRNOS:
                    return True
                raise  # e.g. EADDRNOTAVAIL: `host` is not this machine
    return False
