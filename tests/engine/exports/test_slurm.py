"""engine.core.exports.slurm: the sbatch job, its shell syntax, and each task's TF_CONFIG under a faked srun."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from engine.core.config import RunConfig
from engine.core.exports.slurm import PRINT_FLAG, export_slurm
from engine.core.tfconfig import ClusterError, ClusterSpec, local_cluster

MWMS = RunConfig(strategy="multi_worker_mirrored")
PS = RunConfig(strategy="parameter_server", validation_split=0.2)


def test_the_scripts_are_valid_bash(tmp_path):
    export_slurm(local_cluster(2, ps=1, chief=True, evaluator=True), PS, tmp_path, gpus_per_node=4)
    for name in ("tfdd.sbatch", "task.sh"):
        done = subprocess.run(["bash", "-n", str(tmp_path / name)], capture_output=True, text=True, timeout=10)
        assert done.returncode == 0, done.stderr
    sbatch = (tmp_path / "tfdd.sbatch").read_text()
    assert "#SBATCH --nodes=5" in sbatch and "#SBATCH --ntasks-per-node=1" in sbatch
    assert "#SBATCH --gpus-per-node=4" in sbatch and "srun " in sbatch
    assert RunConfig.load(tmp_path / "run.json") == PS


def test_a_cpu_job_asks_for_no_gpu_and_fails_fast_under_multi_worker_mirrored(tmp_path):
    export_slurm(local_cluster(2), MWMS, tmp_path)
    sbatch = (tmp_path / "tfdd.sbatch").read_text()
    assert "--gpus-per-node" not in sbatch and "--kill-on-bad-exit=1" in sbatch


@pytest.mark.parametrize(
    "cluster, config, words",
    [
        (ClusterSpec.from_dict({"chief": ["h:1"], "worker": ["h:2"]}), PS, "at least one ps task"),
        (local_cluster(2, evaluator=True), MWMS, "validation_split is 0"),
    ],
)
def test_a_shape_the_config_cannot_run_is_refused(tmp_path, cluster, config, words):
    with pytest.raises(ClusterError, match=words):
        export_slurm(cluster, config, tmp_path / "out")
    assert not (tmp_path / "out").exists()


def tf_configs(tmp_path, nodes: str, names: list[str]) -> list[dict]:
    """Run task.sh's TF_CONFIG step once per rank, with the variables srun sets for one task per node."""
    procs = []
    for rank, name in enumerate(names):
        env = {k: v for k, v in os.environ.items() if not k.startswith("SLURM")}
        env.update(
            TFDD_PYTHON=sys.executable,
            SLURM_PROCID=str(rank),
            SLURM_STEP_NUM_TASKS=str(len(names)),
            SLURM_STEP_NODELIST=nodes,
            SLURM_STEP_TASKS_PER_NODE=f"1(x{len(names)})",
            SLURMD_NODENAME=name,
            TF_CPP_MIN_LOG_LEVEL="3",
        )
        procs.append(
            subprocess.Popen(
                ["bash", str(tmp_path / "task.sh"), PRINT_FLAG],
                env=env,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
            )
        )
    outputs = [p.communicate(timeout=180) for p in procs]
    assert [p.returncode for p in procs] == [0] * len(names), [err[-2000:] for _, err in outputs]
    return [json.loads(out) for out, _ in outputs]


@pytest.mark.slow
def test_each_task_of_a_two_node_job_gets_its_tf_config(tmp_path):
    export_slurm(local_cluster(2), MWMS, tmp_path, port_base=23000)
    configs = tf_configs(tmp_path, "node[01-02]", ["node01", "node02"])
    cluster = {"worker": ["node01:23000", "node02:23000"]}
    assert configs == [
        {"cluster": cluster, "task": {"type": "worker", "index": 0}},
        {"cluster": cluster, "task": {"type": "worker", "index": 1}},
    ]


@pytest.mark.slow
def test_each_node_finds_itself_although_the_resolver_sorts_node10_before_node9(tmp_path):
    """SlurmClusterResolver sorts hosts as text; each task must still get its own node's address."""
    export_slurm(local_cluster(1, ps=1, chief=True), PS, tmp_path)
    names = ["node9", "node10", "node11"]  # Slurm's rank order; sorted as text, node10 comes first
    configs = tf_configs(tmp_path, "node[9-11]", names)
    assert len({json.dumps(c["cluster"], sort_keys=True) for c in configs}) == 1  # one cluster for all
    cluster = configs[0]["cluster"]
    assert sorted(cluster) == ["chief", "ps", "worker"]
    for name, config in zip(names, configs, strict=True):
        task = config["task"]
        assert cluster[task["type"]][task["index"]] == f"{name}:20000"


def srun_arguments(tmp_path, env: dict[str, str]) -> list[str]:
    """tfdd.sbatch run as sbatch would, with an `srun` on PATH that prints the arguments it was given."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "srun").write_text('#!/bin/sh\nfor a in "$@"; do printf "%s\\n" "$a"; done\n')
    (bin_dir / "srun").chmod(0o755)
    environ = {k: v for k, v in os.environ.items() if not k.startswith(("SLURM", "TFDD"))}
    environ.update(env, PATH=f"{bin_dir}{os.pathsep}{environ['PATH']}", SLURM_SUBMIT_DIR=str(tmp_path / "job"))
    done = subprocess.run(
        ["bash", str(tmp_path / "job" / "tfdd.sbatch")], env=environ, capture_output=True, text=True, timeout=30
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.splitlines()


def test_each_task_gets_its_nodes_cpus_by_default_and_the_cpus_asked_for_otherwise(tmp_path):
    """Under task/affinity a task gets the CPUs srun asks for: one, unless it asks for more."""
    export_slurm(local_cluster(2), MWMS, tmp_path / "job")
    sbatch = (tmp_path / "job" / "tfdd.sbatch").read_text()
    assert "#SBATCH --exclusive" in sbatch and "--cpus-per-task=" not in sbatch.split("#SBATCH --exclusive")[0]
    assert "--cpus-per-task=16" in srun_arguments(tmp_path, {"SLURM_CPUS_ON_NODE": "16"})
    assert "CPUs" in (tmp_path / "job" / "README.md").read_text()

    export_slurm(local_cluster(2), MWMS, tmp_path / "job", cpus_per_task=4)
    sbatch = (tmp_path / "job" / "tfdd.sbatch").read_text()
    assert "#SBATCH --cpus-per-task=4" in sbatch and "--exclusive" not in sbatch
    (tmp_path / "bin" / "srun").unlink()
    (tmp_path / "bin").rmdir()
    assert "--cpus-per-task=4" in srun_arguments(tmp_path, {"SLURM_CPUS_ON_NODE": "16"})
    assert "4 CPUs per task" in (tmp_path / "job" / "README.md").read_text()
    with pytest.raises(ClusterError, match="cpus_per_task"):
        export_slurm(local_cluster(2), MWMS, tmp_path / "other", cpus_per_task=-1)


def test_the_cli_passes_cpus_per_task(tmp_path):
    from engine.cli import main

    (tmp_path / "cluster.json").write_text(json.dumps({"cluster": local_cluster(2).to_dict()}))
    MWMS.save(tmp_path / "run.json")
    argv = ["cluster", "export", "--cluster", str(tmp_path / "cluster.json"), "--config", str(tmp_path / "run.json")]
    assert main([*argv, "--out", str(tmp_path / "job"), "--slurm", "--cpus-per-task", "3"]) == 0
    assert "#SBATCH --cpus-per-task=3" in (tmp_path / "job" / "tfdd.sbatch").read_text()
