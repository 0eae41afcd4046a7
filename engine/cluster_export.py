"""A cluster as files to carry to real machines: start scripts and a Kubeflow TFJob.

    OUT/README.md           what to copy where, in which order to start
    OUT/cluster.json        the cluster (TF_CONFIG without a task), for the editor
    OUT/tfjob.yaml          ConfigMap with run.json + Kubeflow TFJob
    OUT/<job>-<i>/          one folder per task: tf_config.json, run.json,
                            start.sh (POSIX shell), start.ps1 (PowerShell)

Hosts are validated by engine.cluster before they get here, and everything
put into a script is quoted anyway. No TensorFlow and no PyYAML: the GUI
exports too, and the manifest is a small fixed shape written by hand.
"""
from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import engine
from engine.cluster import ClusterError, ClusterSpec, Task, TFConfig, errors, for_task, render, validate
from engine.config import RunConfig

PROJECT_DIR = Path(engine.__file__).resolve().parent.parent
TFJOB_PORT = 2222  # the training operator's default; it writes TF_CONFIG for the pods itself
_YAML_KEY = re.compile(r"^[A-Za-z0-9_.-]+$")


def export_bundle(cluster: ClusterSpec, run_config: RunConfig, out_dir: str | Path) -> list[Path]:
    """Write the bundle; return every file written. ClusterError if the cluster has errors."""
    problems = errors(validate(TFConfig(cluster), run_config.strategy))
    if problems:
        raise ClusterError(problems)
    out = Path(out_dir)
    name = _run_name(run_config)
    tasks = cluster.training_tasks()
    files: dict[Path, str] = {
        out / "README.md": _readme(tasks, name),
        out / "cluster.json": render(TFConfig(cluster), indent=2) + "\n",
        out / "tfjob.yaml": tfjob_yaml(cluster, run_config),
    }
    for task in tasks:
        folder = out / f"{task.job}-{task.index}"
        tf_config = render(for_task(cluster, task.job, task.index))
        files[folder / "tf_config.json"] = tf_config + "\n"
        files[folder / "run.json"] = run_config.to_json() + "\n"
        files[folder / "start.sh"] = _start_sh(task, tf_config, name)
        files[folder / "start.ps1"] = _start_ps1(task, tf_config, name)
    for path, text in files.items():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8", newline="\n")
        if path.name == "start.sh":
            path.chmod(0o755)
    return sorted(files)


def _run_name(run_config: RunConfig) -> str:
    """A name safe as a folder, a shell word and a Kubernetes object name."""
    slug = re.sub(r"[^a-z0-9]+", "-", run_config.name.lower()).strip("-")[:40].strip("-")
    return f"tfdd-{slug}" if slug else "tfdd-cluster-run"


# ---- start scripts -----------------------------------------------------------------


def sh_quote(text: str) -> str:
    """POSIX single quotes: nothing inside is expanded; a ' becomes '\"'\"'."""
    return "'" + text.replace("'", "'\"'\"'") + "'"


def ps_quote(text: str) -> str:
    """PowerShell single quotes; it also treats the typographic quotes as quotes."""
    return "'" + re.sub(r"(['\u2018\u2019\u201a\u201b])", r"\1\1", text) + "'"


def _start_sh(task: Task, tf_config: str, name: str) -> str:
    return f"""#!/bin/sh
# {task.name} of the cluster: start on {task.host}, where it listens on port {task.port}.
# Usage: ./start.sh [PROJECT_DIR [RUN_DIR]]   (or set TFDD_PROJECT_DIR, TFDD_RUN_DIR;
# TFDD_PYTHON picks the interpreter). See ../README.md.
set -eu
HERE=$(CDPATH= cd -- "$(dirname -- "$0")" && pwd)
PROJECT_DIR=${{1:-${{TFDD_PROJECT_DIR:-{sh_quote(str(PROJECT_DIR))}}}}}
RUN_DIR=${{2:-${{TFDD_RUN_DIR:-runs/{name}}}}}
PYTHON=${{TFDD_PYTHON:-python3}}
export TF_CONFIG={sh_quote(tf_config)}
cd "$PROJECT_DIR"
exec "$PYTHON" main.py train --config "$HERE/run.json" --run-dir "$RUN_DIR"
"""


def _start_ps1(task: Task, tf_config: str, name: str) -> str:
    default_dir = f"if ($env:TFDD_PROJECT_DIR) {{ $env:TFDD_PROJECT_DIR }} else {{ {ps_quote(str(PROJECT_DIR))} }}"
    return f"""# {task.name} of the cluster: start on {task.host}, where it listens on port {task.port}.
# Usage: .\\start.ps1 [-ProjectDir DIR] [-RunDir DIR]   (or set TFDD_PROJECT_DIR, TFDD_RUN_DIR;
# TFDD_PYTHON picks the interpreter). See ..\\README.md.
param(
    [string]$ProjectDir = $({default_dir}),
    [string]$RunDir = $(if ($env:TFDD_RUN_DIR) {{ $env:TFDD_RUN_DIR }} else {{ 'runs/{name}' }})
)
$ErrorActionPreference = 'Stop'
$Python = if ($env:TFDD_PYTHON) {{ $env:TFDD_PYTHON }} else {{ 'python' }}
$env:TF_CONFIG = {ps_quote(tf_config)}
Set-Location -LiteralPath $ProjectDir
& $Python main.py train --config (Join-Path $PSScriptRoot 'run.json') --run-dir $RunDir
exit $LASTEXITCODE
"""


def _readme(tasks: list[Task], name: str) -> str:
    rows = "\n".join(f"| `{t.job}-{t.index}/` | {t.host} | {t.port} |" for t in tasks)
    chief = tasks[0]
    return f"""# Cluster bundle `{name}`: {len(tasks)} training task(s)

| folder | copy to machine | port it listens on |
| --- | --- | --- |
{rows}

1. Every machine needs a checkout of this project with its Python environment
   (`pip install -e .`) at the same path as on the exporting machine, or pass
   the path: `./start.sh /path/to/project` (`.\\start.ps1 -ProjectDir ...`), or
   set `TFDD_PROJECT_DIR`. `TFDD_PYTHON` chooses the interpreter.
2. Copy each task's folder to its machine. Open its port between the machines
   and nowhere else: TensorFlow's server has no authentication or encryption
   and listens on every interface of the machine, whatever the host above.
3. Start every task: `./start.sh` (POSIX) or `.\\start.ps1` (PowerShell). The
   order does not matter: a started task waits for the others, up to
   TensorFlow's registration timeout (one hour by default), then fails. Start
   them close together, and if one fails, stop the others (Ctrl-C): they
   notice a dead peer only after a heartbeat timeout, or not at all.
4. `{chief.job}-{chief.index}` is the chief: it writes the results (metrics, TensorBoard
   logs, checkpoints, the model) to its run directory, `runs/{name}` under the
   project unless given as the second argument or `TFDD_RUN_DIR`. Starting
   again starts afresh. To continue from the chief's checkpoints instead,
   every task must reach them: use one shared folder (e.g. NFS) as the run
   directory, and start each task with its TF_CONFIG (`tf_config.json`) and
   `python main.py train --resume RUN_DIR`.

`tfjob.yaml` runs the same cluster on Kubernetes with the Kubeflow training
operator, which writes TF_CONFIG itself: build an image with this project in
`/app`, put its name in the manifest, then `kubectl apply -f tfjob.yaml`.
"""


# ---- Kubeflow TFJob ------------------------------------------------------------------


def tfjob_manifest(cluster: ClusterSpec, run_config: RunConfig) -> list[dict[str, Any]]:
    """A ConfigMap holding run.json, and a TFJob with the cluster's chief and worker replicas."""
    name = _run_name(run_config)
    container = {
        "name": "tensorflow",  # the operator finds the TensorFlow container by this name
        "image": "REPLACE-WITH-YOUR-IMAGE",
        "workingDir": "/app",
        "command": ["python", "main.py", "train", "--config", "/etc/tfdd/run.json", "--run-dir", f"/runs/{name}"],
        "ports": [{"name": "tfjob-port", "containerPort": TFJOB_PORT}],
        "volumeMounts": [{"name": "run-config", "mountPath": "/etc/tfdd", "readOnly": True}],
    }
    replica_specs = {
        job.capitalize(): {
            "replicas": len(cluster.addresses(job)),
            # Our exit codes 1 (failed) and 2 (bad config) are permanent; killed pods (128+) are retried.
            "restartPolicy": "ExitCode",
            "template": {"spec": {
                "containers": [container],
                "volumes": [{"name": "run-config", "configMap": {"name": f"{name}-config"}}],
            }},
        }
        for job in ("chief", "worker") if cluster.addresses(job)
    }
    config_map = {
        "apiVersion": "v1", "kind": "ConfigMap",
        "metadata": {"name": f"{name}-config"},
        "data": {"run.json": json.dumps(run_config.to_dict())},
    }
    tfjob = {
        "apiVersion": "kubeflow.org/v1", "kind": "TFJob",
        "metadata": {"name": name},
        "spec": {"runPolicy": {"cleanPodPolicy": "None"}, "tfReplicaSpecs": replica_specs},
    }
    return [config_map, tfjob]


def tfjob_yaml(cluster: ClusterSpec, run_config: RunConfig) -> str:
    header = ("# Kubeflow training operator: kubectl apply -f tfjob.yaml\n"
              "# Replace the image; mount a shared volume at /runs to keep results and checkpoints.\n")
    return header + "---\n".join("\n".join(to_yaml(doc)) + "\n" for doc in tfjob_manifest(cluster, run_config))


def to_yaml(value: Any, indent: int = 0) -> list[str]:
    """Block-style YAML lines; every scalar is written as JSON, which YAML reads unchanged."""
    pad = "  " * indent
    if isinstance(value, dict) and value:
        lines = []
        for key, item in value.items():
            if not _YAML_KEY.match(key):
                raise ValueError(f"not a plain YAML key: {key!r}")
            if isinstance(item, (dict, list)) and item:
                lines += [f"{pad}{key}:", *to_yaml(item, indent + 1)]
            else:
                lines.append(f"{pad}{key}: {json.dumps(item)}")
        return lines
    if isinstance(value, list) and value:
        lines = []
        for item in value:
            first, *rest = to_yaml(item, indent + 1)
            lines += [f"{pad}- {first.lstrip()}", *rest]
        return lines
    return [pad + json.dumps(value)]
