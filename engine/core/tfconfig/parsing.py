"""TF_CONFIG documents read from JSON (every problem at once) and written back."""

from __future__ import annotations

import json
from typing import Any

from engine.core.messages import msg
from engine.core.tfconfig.spec import JOBS, ClusterError, ClusterProblem, ClusterSpec, TFConfig


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
