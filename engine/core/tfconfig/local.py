"""Clusters on this machine: a task's TF_CONFIG, local clusters on free loopback ports, ports in use."""

from __future__ import annotations

import errno
import os
import socket

from engine.core.messages import msg
from engine.core.tfconfig.spec import EVALUATOR_JOB, JOBS, LOOPBACK_HOST, ClusterSpec, TFConfig

# EACCES also: Windows' answer for an exclusively held port, POSIX's for ports < 1024.
_IN_USE_ERRNOS = {errno.EADDRINUSE, errno.EACCES, 10048, 10013}


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
