"""A Slurm task's TF_CONFIG, from TensorFlow's SlurmClusterResolver (`tfdd cluster slurm-tf-config`).

The exported Slurm job (engine.core.exports.slurm) runs this on each node, then `train`. Three traps of the
resolver are worked around: without GPU counts it runs nvidia-smi (absent on a CPU node) and 0 divides by
zero, so it gets one "GPU" slot per task and never sets CUDA_VISIBLE_DEVICES; it sorts hosts as strings (node10
before node9), so each task finds itself by its node name (SLURMD_NODENAME); and jobs take ranks in
alphabetical order (chief, evaluator, ps, worker).
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping

from engine.core.tfconfig import JOBS
from engine.train.tf_runtime import tf


def parse_jobs(text: str) -> dict[str, int]:
    """ "chief=1,worker=2,ps=1" -> {"chief": 1, "worker": 2, "ps": 1}; ValueError says what is wrong."""
    jobs: dict[str, int] = {}
    for part in filter(None, (p.strip() for p in text.split(","))):
        job, sep, count = part.partition("=")
        if not sep or job not in JOBS or not count.isdigit() or int(count) < 1:
            raise ValueError(f"bad job {part!r}: write JOB=COUNT with JOB one of {', '.join(JOBS)}, COUNT >= 1")
        jobs[job] = int(count)
    if not jobs:
        raise ValueError("no jobs given, e.g. --jobs worker=2")
    return jobs


def slurm_tf_config(jobs: dict[str, int], port_base: int, environ: Mapping[str, str] = os.environ) -> str:
    """This task's TF_CONFIG as one line of JSON; RuntimeError when srun's environment does not fit."""
    tasks = sum(jobs.values())
    resolver = tf.distribute.cluster_resolver.SlurmClusterResolver(
        jobs=jobs, port_base=port_base, gpus_per_node=tasks, gpus_per_task=1, auto_set_gpu=False
    )
    cluster = resolver.cluster_spec().as_dict()  # sets task_type and task_id
    task = (resolver.task_type, resolver.task_id)
    node = environ.get("SLURMD_NODENAME", "")
    if node:
        mine = [
            (job, index)
            for job, addresses in cluster.items()
            for index, address in enumerate(addresses)
            if address.rpartition(":")[0] == node
        ]
        if len(mine) == 1:
            task = mine[0]
        elif task not in mine:
            raise RuntimeError(
                f"SlurmClusterResolver gave rank {environ.get('SLURM_PROCID')} the address of another node "
                f"than {node}; run one task per node (srun --ntasks-per-node=1)"
            )
    return json.dumps({"cluster": cluster, "task": {"type": task[0], "index": task[1]}}, separators=(",", ":"))
