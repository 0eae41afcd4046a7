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
from typing import Any

from engine.config import Strategy
from engine.problems import MAX_VALUE_CHARS, ConfigError, Problem, printable, short_value
from engine.protocol.codes import task_id

JOBS = ("chief", "worker", "ps", "evaluator")
SINGLE_TASK_JOBS = ("chief", "evaluator")
# The jobs that run the trainer under MultiWorkerMirroredStrategy; export and
# launch handle only these (there is no evaluator or ps program here).
TRAINING_JOBS = ("chief", "worker")
LOOPBACK_HOST = "127.0.0.1"

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

    def chief(self) -> Task:
        """The task that writes results: the chief job, else worker 0 (as TensorFlow decides)."""
        tasks = self.training_tasks()
        if not tasks:
            raise ValueError("the cluster has no chief or worker task")
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
            raise ValueError('write an IPv6 address as "[::1]:2222"')
    else:
        host, sep, port = address.rpartition(":")
        if not sep:
            raise ValueError('needs a port, e.g. "127.0.0.1:2222"')
        if ":" in host:
            raise ValueError('put an IPv6 address in brackets, e.g. "[::1]:2222"')
    if not port.isdigit() or not port.isascii():
        raise ValueError(f"port {port!r} is not a number; use 1-65535")
    return host, int(port)


def host_problem(host: str) -> str | None:
    """Why `host` is not a safe host name or address, or None when it is."""
    unsafe = sorted({c for c in host if c in _SHELL_UNSAFE or not c.isprintable()})
    if not host:
        return "the host is empty; use a machine name or an IP address"
    if unsafe:
        return (
            f"the host contains {' '.join(repr(c) for c in unsafe)}, which is not allowed in a "
            "host name and unsafe in a start script; use a machine name or an IP address"
        )
    if ":" in host:
        try:
            ipaddress.IPv6Address(host)
        except ValueError:
            return "not a valid IPv6 address"
        return None
    labels = host.rstrip(".").split(".")
    if all(label.isdigit() for label in labels):
        try:
            ipaddress.IPv4Address(host)
        except ValueError:
            return "not a valid IPv4 address (four numbers 0-255, e.g. 10.0.0.5)"
        return None
    if len(host) > 253 or not all(_LABEL.match(label) for label in labels):
        return (
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
            raise ClusterError([ClusterProblem("error", "(document)", source[:40], f"not JSON: {exc}")]) from None
    if not isinstance(raw, dict):
        raise ClusterError(
            [ClusterProblem("error", "(document)", raw, 'must be a JSON object {"cluster": ..., "task": ...}')]
        )
    unknown = [key for key in raw if key not in ("cluster", "task")]
    if unknown and len(unknown) == len(raw):
        raise ClusterError(
            [
                ClusterProblem(
                    "error",
                    "(document)",
                    unknown,
                    'not a TF_CONFIG: it has neither "cluster" nor "task" (is it a run config?)',
                )
            ]
        )
    for key in unknown:
        bad(key, raw[key], 'unknown key; a TF_CONFIG here has only "cluster" and "task"')
    jobs: dict[str, list[str]] = {}
    cluster = raw.get("cluster", {})
    if not isinstance(cluster, dict):
        bad("cluster", cluster, 'must be an object like {"worker": ["127.0.0.1:2222"]}')
        cluster = {}
    for job, addresses in cluster.items():
        if not isinstance(addresses, list) or not all(isinstance(a, str) for a in addresses):
            bad(f"cluster.{job}", addresses, 'must be a list of "host:port" strings')
        else:
            jobs[job] = addresses
    task = raw.get("task")
    task_type = task_index = None
    if task is not None:
        if not isinstance(task, dict):
            bad("task", task, 'must be an object like {"type": "worker", "index": 0}')
        else:
            task_type, task_index = task.get("type"), task.get("index")
            if task_type is not None and not isinstance(task_type, str):
                bad("task.type", task_type, f"must be one of: {', '.join(JOBS)}")
            if task_index is not None and (not isinstance(task_index, int) or isinstance(task_index, bool)):
                bad("task.index", task_index, "must be an integer, counting from 0")
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
            "no cluster: TensorFlow would silently train this process alone; list the tasks, "
            'e.g. {"worker": ["127.0.0.1:20001", "127.0.0.1:20002"]}',
        )
    tasks: list[Task] = []
    for job, addresses in cluster.jobs:
        if job not in JOBS:
            add("error", f"cluster.{job}", list(addresses), f"unknown job; use one of: {', '.join(JOBS)}")
            continue
        if not addresses:
            add("error", f"cluster.{job}", [], "lists no address; add one or remove the job")
        if job in SINGLE_TASK_JOBS and len(addresses) > 1:
            add("error", f"cluster.{job}", list(addresses), f"at most one {job}; make the others workers")
        for index, address in enumerate(addresses):
            try:
                host, port = parse_address(address)
            except ValueError as exc:
                add("error", f"cluster.{job}[{index}]", address, str(exc))
                continue
            message = host_problem(host)
            if message is None and not 1 <= port <= 65535:
                message = "the port must be 1-65535"
            if message:
                add("error", f"cluster.{job}[{index}]", address, message)
            else:
                tasks.append(Task(job, index, host, port))
    if cluster.jobs and not any(cluster.addresses(job) for job in TRAINING_JOBS):
        add("error", "cluster", cluster.to_dict(), "has no chief or worker task: nothing would train")
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
                    "error", where, t.address, f"same machine and port as {seen[key].name}; give each task its own port"
                )
            )
        seen.setdefault(key, t)
        if not is_loopback(t.host):
            problems.append(
                ClusterProblem(
                    "warning",
                    where,
                    t.address,
                    "not a loopback address: TensorFlow's gRPC server has no authentication "
                    "or encryption and runs any graph it is sent; use it only on a trusted, "
                    "firewalled network",
                )
            )
        elif remote:
            problems.append(
                ClusterProblem(
                    "warning",
                    where,
                    t.address,
                    f"{t.host} means a different machine to each task, but other tasks run on "
                    f"{', '.join(remote)}; use this machine's network name or address",
                )
            )
    return problems


def _task_problems(tf_config: TFConfig) -> list[ClusterProblem]:
    task_type, task_index = tf_config.task_type, tf_config.task_index
    if task_type is None and task_index is None:
        return []  # a cluster description shared by all tasks
    if task_type is None:
        return [ClusterProblem("error", "task.type", None, 'missing; name the job of this process, e.g. "worker"')]
    addresses = tf_config.cluster.addresses(task_type)
    if not addresses:
        jobs = ", ".join(job for job, _ in tf_config.cluster.jobs) or "none"
        return [ClusterProblem("error", "task.type", task_type, f"is not a job of the cluster (jobs: {jobs})")]
    if task_index is None or not 0 <= task_index < len(addresses):
        return [
            ClusterProblem(
                "error",
                "task.index",
                task_index,
                f"must be 0-{len(addresses) - 1}: the {task_type} job has {len(addresses)} task(s)",
            )
        ]
    return []


def _strategy_problems(cluster: ClusterSpec, strategy: str | None) -> list[ClusterProblem]:
    if strategy is None:
        return []
    problems: list[ClusterProblem] = []
    if strategy != Strategy.MULTI_WORKER_MIRRORED:
        if sum(len(cluster.addresses(job)) for job in TRAINING_JOBS) > 1:
            problems.append(
                ClusterProblem(
                    "error",
                    "cluster",
                    cluster.to_dict(),
                    f"strategy {strategy} ignores the cluster and every worker would train "
                    "alone; use strategy multi_worker_mirrored",
                )
            )
        return problems
    if cluster.addresses("ps"):
        problems.append(
            ClusterProblem(
                "error",
                "cluster.ps",
                list(cluster.addresses("ps")),
                "multi_worker_mirrored uses no parameter servers; remove the ps job",
            )
        )
    if cluster.addresses("evaluator"):
        problems.append(
            ClusterProblem(
                "warning",
                "cluster.evaluator",
                list(cluster.addresses("evaluator")),
                "this tool has no evaluator program; export and launch skip this task",
            )
        )
    return problems


def errors(problems: list[ClusterProblem]) -> list[ClusterProblem]:
    return [p for p in problems if p.severity == "error"]


# ---- this process's role -------------------------------------------------------------

TF_CONFIG_ENV = "TF_CONFIG"


@dataclass(frozen=True)
class Role:
    """This process's place in a TF_CONFIG cluster (one worker, the chief, when there is none)."""

    num_workers: int = 1  # chief and worker tasks: the processes that train in sync
    task: str = ""  # task id, e.g. "worker-1"; empty outside a cluster
    is_chief: bool = True  # writes the results


def role_from_environment(environ: Mapping[str, str] = os.environ) -> Role:
    """The role TF_CONFIG gives this process; ConfigError when TF_CONFIG is malformed."""
    raw = environ.get(TF_CONFIG_ENV, "").strip()
    if not raw:
        return Role()
    try:
        doc = parse_tf_config(raw)
    except ClusterError as exc:
        raise ConfigError(
            [
                Problem(TF_CONFIG_ENV, raw, f"{p.location}: {p.message}; check it with `tfdd cluster validate`")
                for p in exc.problems
            ]
        ) from None
    job, index = doc.task_type or "worker", doc.task_index or 0
    cluster = doc.cluster
    workers = sum(len(cluster.addresses(j)) for j in TRAINING_JOBS)
    chief = job == "chief" or (job == "worker" and index == 0 and not cluster.addresses("chief"))
    return Role(num_workers=max(workers, 1), task=task_id(job, index), is_chief=chief)


# ---- building clusters -------------------------------------------------------------


def for_task(cluster: ClusterSpec, job: str, index: int) -> TFConfig:
    """The TF_CONFIG of one task; ValueError when the cluster has no such task."""
    if not 0 <= index < len(cluster.addresses(job)):
        raise ValueError(f"the cluster has no task {job} {index}")
    return TFConfig(cluster, job, index)


def local_cluster(n_workers: int, ports: list[int] | None = None) -> ClusterSpec:
    """`n_workers` workers on 127.0.0.1, on free ports unless `ports` are given."""
    if n_workers < 1:
        raise ValueError("a cluster needs at least one worker")
    ports = free_loopback_ports(n_workers) if ports is None else ports
    if len(ports) != n_workers:
        raise ValueError(f"{n_workers} workers need {n_workers} ports, got {len(ports)}")
    return ClusterSpec((("worker", tuple(f"{LOOPBACK_HOST}:{p}" for p in ports)),))


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
