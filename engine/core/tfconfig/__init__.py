"""TF_CONFIG without TensorFlow: parse, validate, render, and local ports.

TensorFlow checks little of TF_CONFIG (no "cluster" trains one worker alone, a missing peer waits an hour), so
every rule is checked here before any process starts, each problem naming its place (`cluster.worker[1]`), value
and fix. The cluster editor imports it, so no TensorFlow. Parts: spec, addresses, parsing, validation, roles,
local; the package's namespace holds their public names.
"""

from __future__ import annotations

from engine.core.tfconfig.addresses import host_problem, is_loopback, parse_address
from engine.core.tfconfig.local import (
    cluster_shape,
    for_task,
    free_loopback_ports,
    local_cluster,
    local_cluster_like,
    port_in_use,
)
from engine.core.tfconfig.parsing import parse_tf_config, render
from engine.core.tfconfig.roles import TF_CONFIG_ENV, TaskRole, role_from_environment
from engine.core.tfconfig.spec import (
    CLUSTER_STRATEGIES,
    EVALUATOR_JOB,
    JOBS,
    LOOPBACK_HOST,
    SINGLE_TASK_JOBS,
    TRAINING_JOBS,
    ClusterError,
    ClusterProblem,
    ClusterSpec,
    Program,
    Task,
    TFConfig,
    role_text,
    task_program,
)
from engine.core.tfconfig.validation import errors, evaluator_problem, run_problems, validate

__all__ = [
    "CLUSTER_STRATEGIES",
    "ClusterError",
    "ClusterProblem",
    "ClusterSpec",
    "EVALUATOR_JOB",
    "JOBS",
    "LOOPBACK_HOST",
    "Program",
    "SINGLE_TASK_JOBS",
    "TFConfig",
    "TF_CONFIG_ENV",
    "TRAINING_JOBS",
    "Task",
    "TaskRole",
    "cluster_shape",
    "errors",
    "evaluator_problem",
    "for_task",
    "free_loopback_ports",
    "host_problem",
    "is_loopback",
    "local_cluster",
    "local_cluster_like",
    "parse_address",
    "parse_tf_config",
    "port_in_use",
    "render",
    "role_from_environment",
    "role_text",
    "run_problems",
    "task_program",
    "validate",
]
