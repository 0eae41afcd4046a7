"""The shape of a cluster: its jobs and tasks, what each task runs, and the problems a document can have."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from engine.core.config import Strategy
from engine.core.messages import msg
from engine.core.problems import MAX_VALUE_CHARS, printable, short_value
from engine.core.protocol.codes import task_id
from engine.core.tfconfig.addresses import parse_address

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
