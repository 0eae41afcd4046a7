"""A cluster as a Slurm batch job: `sbatch tfdd.sbatch` on a university or lab cluster.

    OUT/tfdd.sbatch   the job: one node per task, `srun` starts task.sh on each
    OUT/task.sh       one task: its TF_CONFIG from Slurm (`tfdd cluster slurm-tf-config`), then `train`
    OUT/run.json      the run config every task reads
    OUT/README.md     how to submit, where the results go, how to resume
Slurm chooses the nodes, so only the cluster's shape is used. Servers and the evaluator end once the chief is
gone (engine.train.chief_watch), so the job ends with the run. No TensorFlow here: the window exports too.
"""

from __future__ import annotations

from pathlib import Path

from engine.core.config import RunConfig, Strategy
from engine.core.exports.bundle import JOIN_TIMEOUT_LINES_SH, check_bundle_folder, run_name, sh_quote, write_export
from engine.core.exports.script import localized, user_files
from engine.core.protocol.commands import CLI_MODULE
from engine.core.tfconfig import (
    ClusterError,
    ClusterProblem,
    ClusterSpec,
    cluster_shape,
    errors,
    local_cluster_like,
    run_problems,
)

DEFAULT_PORT_BASE = 20000
SBATCH = "tfdd.sbatch"
TASK_SCRIPT = "task.sh"
PRINT_FLAG = "--print-tf-config"


def jobs_argument(cluster: ClusterSpec) -> str:
    """The shape as `slurm-tf-config --jobs` takes it, e.g. "chief=1,worker=2,ps=1"."""
    return ",".join(f"{job}={count}" for job, count in cluster_shape(cluster).items())


def export_slurm(
    cluster: ClusterSpec,
    run_config: RunConfig,
    out_dir: str | Path,
    gpus_per_node: int = 0,
    port_base: int = DEFAULT_PORT_BASE,
    cpus_per_task: int = 0,
) -> list[Path]:
    """Write the job; return every file written. ClusterError if the cluster's shape cannot run the config.
    `cpus_per_task` 0: each task has its node to itself, with all its CPUs."""
    problems = errors(run_problems(local_cluster_like(cluster), run_config))  # hosts do not matter here
    if gpus_per_node < 0:
        problems.append(_problem("gpus_per_node", gpus_per_node, "must be 0 (CPU nodes) or more"))
    if not 1024 <= port_base <= 65535:
        problems.append(_problem("port_base", port_base, "must be a port number 1024-65535"))
    if cpus_per_task < 0:
        problems.append(_problem("cpus_per_task", cpus_per_task, "must be 0 (the node's CPUs) or more"))
    if problems:
        raise ClusterError(problems)
    out = Path(out_dir)
    check_bundle_folder(out)  # the user's own files are never overwritten; an earlier export is replaced whole
    name = run_name(run_config)
    tasks = sum(cluster_shape(cluster).values())
    sources = user_files(run_config)
    files = {
        out / SBATCH: sbatch_script(cluster, run_config, gpus_per_node, cpus_per_task),
        out / TASK_SCRIPT: task_script(cluster, port_base),
        out / "run.json": localized(run_config).to_json() + "\n",
        out / "README.md": _readme(cluster, name, tasks, gpus_per_node, port_base, cpus_per_task),
    }
    for file_name, source in sources.items():  # every task imports the user's files from the job's folder
        files[out / file_name] = source.read_text(encoding="utf-8")
    return write_export(out, files)


def _problem(field: str, value: object, message: str) -> ClusterProblem:
    return ClusterProblem("error", field, value, message)


def sbatch_script(cluster: ClusterSpec, run_config: RunConfig, gpus_per_node: int, cpus_per_task: int = 0) -> str:
    name = run_name(run_config)
    shape = cluster_shape(cluster)
    tasks = sum(shape.values())
    described = ", ".join(f"{job} {count}" for job, count in shape.items())
    gpus = f"#SBATCH --gpus-per-node={gpus_per_node}\n" if gpus_per_node else ""
    # Slurm gives a task one CPU unless asked (under task/affinity it is pinned to it), and srun does not
    # inherit sbatch's --cpus-per-task: so srun is told too; by default the task's node is its own
    cpus = f"#SBATCH --cpus-per-task={cpus_per_task}\n" if cpus_per_task else "#SBATCH --exclusive\n"
    srun_cpus = str(cpus_per_task) if cpus_per_task else '"$SLURM_CPUS_ON_NODE"'
    # parameter_server survives a lost worker (the coordinator reruns its steps); multi_worker_mirrored does not,
    # so there a failed task ends the step at once instead of after the peers' heartbeat timeout
    kill_on_bad_exit = 0 if run_config.strategy == Strategy.PARAMETER_SERVER else 1
    return f"""#!/bin/bash
# {name}: a {run_config.strategy} cluster of {tasks} tasks ({described}), one per node.
# Submit from this folder, on a filesystem every node sees:   sbatch {SBATCH}
# Continue a stopped or failed run:   TFDD_RESUME=1 TFDD_RUN_DIR=<its run dir> sbatch {SBATCH}
# TFDD_PYTHON picks the interpreter, which must have this dashboard installed. See README.md.
#SBATCH --job-name={name}
#SBATCH --nodes={tasks}
#SBATCH --ntasks={tasks}
#SBATCH --ntasks-per-node=1
{gpus}{cpus}#SBATCH --output={name}-%j.out
set -euo pipefail
cd "${{SLURM_SUBMIT_DIR:-.}}"
export TFDD_RUN_DIR="${{TFDD_RUN_DIR:-$PWD/runs/{name}-${{SLURM_JOB_ID:-local}}}}"
mkdir -p "$TFDD_RUN_DIR"
echo "run directory: $TFDD_RUN_DIR"
# one task per node; each builds its TF_CONFIG from srun's environment and runs `train`
srun --ntasks={tasks} --ntasks-per-node=1 --cpus-per-task={srun_cpus} --kill-on-bad-exit={kill_on_bad_exit} \\
    bash ./{TASK_SCRIPT}
"""


def task_script(cluster: ClusterSpec, port_base: int) -> str:
    jobs = jobs_argument(cluster)
    return f"""#!/bin/bash
# One task of the Slurm job (srun starts one per node). TensorFlow's SlurmClusterResolver turns srun's
# environment (SLURM_PROCID, SLURM_STEP_NODELIST, ...) into this task's TF_CONFIG; every task listens on
# port {port_base}. Then the same `train` command as every other task: TF_CONFIG's role picks the program.
# `bash {TASK_SCRIPT} {PRINT_FLAG}` (inside srun) only prints the TF_CONFIG.
set -euo pipefail
HERE=$(cd -- "$(dirname -- "${{BASH_SOURCE[0]}}")" && pwd)
PYTHON=${{TFDD_PYTHON:-python3}}
{JOIN_TIMEOUT_LINES_SH}
TF_CONFIG=$("$PYTHON" -m {CLI_MODULE} cluster slurm-tf-config --jobs {sh_quote(jobs)} --port-base {port_base})
export TF_CONFIG
if [ "${{1:-}}" = {sh_quote(PRINT_FLAG)} ]; then
    printf '%s\\n' "$TF_CONFIG"
    exit 0
fi
RUN_DIR=${{TFDD_RUN_DIR:?set TFDD_RUN_DIR to a folder every node can reach ({SBATCH} does)}}
echo "${{SLURMD_NODENAME:-$(hostname)}}: TF_CONFIG=$TF_CONFIG" >&2
if [ "${{TFDD_RESUME:-0}}" = 1 ]; then
    exec "$PYTHON" -m {CLI_MODULE} train --resume "$RUN_DIR"
fi
exec "$PYTHON" -m {CLI_MODULE} train --config "$HERE/run.json" --run-dir "$RUN_DIR"
"""


def _readme(cluster: ClusterSpec, name: str, tasks: int, gpus_per_node: int, port_base: int, cpus_per_task: int) -> str:
    rows = "\n".join(f"| {job} | {count} |" for job, count in cluster_shape(cluster).items())
    gpus = f"{gpus_per_node} GPU(s) per node" if gpus_per_node else "CPU nodes (no GPU requested)"
    cpus = (
        f"{cpus_per_task} CPUs per task (`#SBATCH --cpus-per-task`, passed to `srun` too)"
        if cpus_per_task
        else "all of its node's CPUs per task (`#SBATCH --exclusive`: the node is the task's alone)"
    )
    return f"""# Slurm job `{name}`: {tasks} task(s), one per node, {gpus}

Each task gets {cpus}. Slurm otherwise gives a task one CPU, and a cluster
that binds tasks to CPUs (`task/affinity`) pins TensorFlow to it; change it
with `cluster export --slurm --cpus-per-task N`.

| job | tasks |
| --- | --- |
{rows}

1. Copy this folder to the cluster, onto a filesystem every node can reach
   (your home or project directory), and install this dashboard in the Python
   the nodes use (`python3 -m {CLI_MODULE} --help` must work there;
   `TFDD_PYTHON` chooses another interpreter).
2. Submit from this folder: `sbatch {SBATCH}`. Slurm picks {tasks} nodes; `srun`
   starts `{TASK_SCRIPT}` once on each. Each task asks TensorFlow's
   `SlurmClusterResolver` for its TF_CONFIG (its job and index, every task's
   node and port {port_base}) and runs the same `train` command; its role
   decides what it runs.
3. Results (metrics, TensorBoard logs, checkpoints, the model) go to
   `runs/{name}-<job id>/` here, or `TFDD_RUN_DIR`. The job's output is
   `{name}-<job id>.out`; each task's raw TensorFlow log is the run's
   `stderr.log` (the chief's), or `runs/{name}-<job id>.<task id>.log` beside it.
   A task waits for the others up to `TFDD_JOIN_TIMEOUT_S` seconds (set in `{TASK_SCRIPT}`).
4. To continue a stopped or failed run from its checkpoints:
   `TFDD_RESUME=1 TFDD_RUN_DIR=runs/{name}-<job id> sbatch {SBATCH}`.

Port {port_base} must be free on the nodes and open between them, and nowhere
else: TensorFlow's server has no authentication or encryption. Change the
`--port-base` in `{TASK_SCRIPT}` if another job uses it. To check what each
task gets, run `srun bash {TASK_SCRIPT} {PRINT_FLAG}` inside an allocation
(`salloc --nodes={tasks} --ntasks-per-node=1`).
"""
