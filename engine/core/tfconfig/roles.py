"""This process's place in a cluster, from the TF_CONFIG in its environment."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass

from engine.core.config import Strategy
from engine.core.messages import msg
from engine.core.problems import ConfigError, Problem
from engine.core.protocol.codes import task_id
from engine.core.tfconfig.parsing import parse_tf_config
from engine.core.tfconfig.spec import CLUSTER_STRATEGIES, EVALUATOR_JOB, TRAINING_JOBS, ClusterError
from engine.core.tfconfig.validation import errors, validate

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
