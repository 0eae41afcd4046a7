"""A cluster as files to carry to real machines: start scripts and a Kubeflow TFJob.

    OUT/README.md           what to copy where, in which order to start
    OUT/cluster.json        the cluster (TF_CONFIG without a task), for the editor
    OUT/tfjob.yaml          ConfigMap with run.json + Kubeflow TFJob
    OUT/<job>-<i>/          per task: tf_config.json, run.json, start.sh, start.ps1 (the same `train` command)
    OUT/.tfdd-bundle        what this export wrote: exporting again replaces exactly that; other files refuse
Hosts are validated by engine.core.tfconfig and quoted anyway. No TensorFlow and no PyYAML: the GUI exports too.
"""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path
from typing import Any

import yaml

from engine.core.config import RunConfig, Strategy
from engine.core.data_kinds import data_kind
from engine.core.exports.script import localized, user_files
from engine.core.model_kinds import model_kind
from engine.core.problems import OutputExists
from engine.core.protocol.codes import CLUSTER_GRACE_S, DEFAULT_JOIN_TIMEOUT_S, JOIN_TIMEOUT_ENV
from engine.core.protocol.commands import CLI_MODULE
from engine.core.tfconfig import (
    ClusterError,
    ClusterSpec,
    Task,
    TFConfig,
    errors,
    for_task,
    render,
    role_text,
    run_problems,
)

TFJOB_PORT = 2222  # the training operator's default; it writes TF_CONFIG for the pods itself
TERMINATION_GRACE_S = int(CLUSTER_GRACE_S) + 20
"""Seconds Kubernetes waits between SIGTERM and SIGKILL (its default, 30, can cut a stop short): after
SIGTERM every worker finishes its block of steps, agrees to stop, writes a collective checkpoint and the
model, as a local cluster does within CLUSTER_GRACE_S; 20 more for a slow shared volume."""

# TF_CONFIG's job -> the TFJob replica type the training operator (kubeflow.org/v1) knows it by
TFJOB_REPLICA_TYPES = {"chief": "Chief", "worker": "Worker", "ps": "PS", "evaluator": "Evaluator"}
BUNDLE_MARKER = ".tfdd-bundle"
JOIN_TIMEOUT_COMMENT = (
    "# seconds to wait for the other tasks to start, saying which and where, before giving up (training waits for all)"
)
JOIN_TIMEOUT_LINES_SH = (
    f"{JOIN_TIMEOUT_COMMENT}\nexport {JOIN_TIMEOUT_ENV}=${{{JOIN_TIMEOUT_ENV}:-{DEFAULT_JOIN_TIMEOUT_S}}}"
)
"""Start scripts set the join timeout (engine.train.peers), so it can be seen and changed there."""


def export_bundle(cluster: ClusterSpec, run_config: RunConfig, out_dir: str | Path) -> list[Path]:
    """Write the bundle; return every file written.

    ClusterError if the cluster has errors; OutputExists if `out_dir` holds
    files but no earlier bundle (a bundle written before is replaced whole).
    """
    problems = errors(run_problems(cluster, run_config))
    if problems:
        raise ClusterError(problems)
    out = Path(out_dir)
    check_bundle_folder(out)
    name = run_name(run_config)
    tasks = cluster.tasks()
    sources = user_files(run_config)
    task_config = localized(run_config)
    files: dict[Path, str] = {
        out / "README.md": _readme(cluster, run_config.strategy, name, shared_paths(run_config), list(sources)),
        out / "cluster.json": render(TFConfig(cluster), indent=2) + "\n",
        out / "tfjob.yaml": tfjob_yaml(cluster, run_config),
    }
    for task in tasks:
        folder = out / task.id
        tf_config = render(for_task(cluster, task.job, task.index))
        files[folder / "tf_config.json"] = tf_config + "\n"
        files[folder / "run.json"] = task_config.to_json() + "\n"
        files[folder / "start.sh"] = _start_sh(task, tf_config, name)
        files[folder / "start.ps1"] = _start_ps1(task, tf_config, name)
        for file_name, source in sources.items():  # every task imports the user's files from its own folder
            files[folder / file_name] = source.read_text(encoding="utf-8")
    return write_export(out, files)


def write_export(out: Path, files: dict[Path, str]) -> list[Path]:
    """Replace the previous export in `out` (checked by check_bundle_folder) with `files`; the user's own
    files there stay. Shell scripts are made executable. Returns the files written."""
    _remove_previous(out)
    out.mkdir(parents=True, exist_ok=True)
    (out / BUNDLE_MARKER).write_text(
        json.dumps({"files": sorted(str(p.relative_to(out)) for p in files)}, indent=1) + "\n", encoding="utf-8"
    )
    for path, text in files.items():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8", newline="\n")
        if path.suffix in (".sh", ".sbatch"):
            path.chmod(0o755)
    return sorted(files)


def check_bundle_folder(out: Path) -> None:
    """A bundle goes into a new or empty folder, or one holding an earlier bundle; OutputExists otherwise."""
    if out.exists() and not out.is_dir():
        raise OutputExists(f"{out} is a file; nothing was written: choose a folder for the bundle")
    if out.is_dir() and not (out / BUNDLE_MARKER).is_file() and any(out.iterdir()):
        raise OutputExists(
            f"{out} is not empty and holds no bundle written by `cluster export`; nothing was written: "
            "choose an empty or new folder"
        )


def _previous_files(out: Path) -> list[Path]:
    try:
        listed = json.loads((out / BUNDLE_MARKER).read_text(encoding="utf-8")).get("files", [])
    except (OSError, ValueError, AttributeError):
        return []
    root = out.resolve()
    paths = [(out / str(name)).resolve() for name in listed if isinstance(name, str)]
    return [p for p in paths if p.is_relative_to(root) and p != root]  # never outside the bundle


def _remove_previous(out: Path) -> None:
    """Remove what the last export wrote (the user's own files stay), then its emptied task folders."""
    previous = _previous_files(out)
    for path in previous:
        if path.is_file():
            path.unlink()
    for folder in sorted({p.parent for p in previous}, key=lambda p: len(p.parts), reverse=True):
        if folder != out.resolve() and folder.is_dir() and not any(folder.iterdir()):
            folder.rmdir()


def run_name(run_config: RunConfig) -> str:
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
# Usage: ./start.sh [RUN_DIR]   (or set TFDD_RUN_DIR; default $TFDD_RUNS_DIR/{name} or ~/tfdd-runs/{name};
# TFDD_PYTHON picks the interpreter, which must have this dashboard installed). See ../README.md.
set -eu
HERE=$(CDPATH= cd -- "$(dirname -- "$0")" && pwd)
RUN_DIR=${{1:-${{TFDD_RUN_DIR:-${{TFDD_RUNS_DIR:-$HOME/tfdd-runs}}/{name}}}}}
PYTHON=${{TFDD_PYTHON:-python3}}
{JOIN_TIMEOUT_LINES_SH}
export TF_CONFIG={sh_quote(tf_config)}
exec "$PYTHON" -m {CLI_MODULE} train --config "$HERE/run.json" --run-dir "$RUN_DIR"
"""


def _start_ps1(task: Task, tf_config: str, name: str) -> str:
    runs = "if ($env:TFDD_RUNS_DIR) { $env:TFDD_RUNS_DIR } else { Join-Path $HOME 'tfdd-runs' }"
    return f"""# {task.name} of the cluster: start on {task.host}, where it listens on port {task.port}.
# Usage: .\\start.ps1 [-RunDir DIR]   (or set TFDD_RUN_DIR; default $env:TFDD_RUNS_DIR\\{name} or
# ~\\tfdd-runs\\{name}; TFDD_PYTHON picks the interpreter, which must have this dashboard installed).
# See ..\\README.md.
param(
    [string]$RunDir = $(if ($env:TFDD_RUN_DIR) {{ $env:TFDD_RUN_DIR }} else {{ Join-Path $({runs}) '{name}' }})
)
$ErrorActionPreference = 'Stop'
$Python = if ($env:TFDD_PYTHON) {{ $env:TFDD_PYTHON }} else {{ 'python' }}
{JOIN_TIMEOUT_COMMENT}
if (-not $env:{JOIN_TIMEOUT_ENV}) {{ $env:{JOIN_TIMEOUT_ENV} = '{DEFAULT_JOIN_TIMEOUT_S}' }}
$env:TF_CONFIG = {ps_quote(tf_config)}
& $Python -m {CLI_MODULE} train --config (Join-Path $PSScriptRoot 'run.json') --run-dir $RunDir
exit $LASTEXITCODE
"""


def _mount_folder(path: str) -> str:
    """The folder to mount for a data path: the folder itself, or a file's (or a glob's) parent."""
    p = Path(path)
    while any(ch in p.name for ch in "*?[") and p.parent != p:
        p = p.parent
    return str(p if p.is_dir() else p.parent)


def shared_paths(run_config: RunConfig) -> list[str]:
    """Data and model files every machine reads from its own disk (the same path on each)."""
    paths = []
    data, model = data_kind(run_config.data.kind), model_kind(run_config.model.kind)
    if data and "path" in data.fields and not data.user_code and run_config.data.path:
        paths.append(str(run_config.data.path))
    for field in model.shared if model else ():
        if value := getattr(run_config.model, field):
            paths.append(value)
    return paths


def _data_section(paths: list[str], copied: list[str]) -> str:
    lines = []
    if paths:
        lines.append("## Data every machine must see\n")
        lines.append(
            "Each task reads these paths itself, at the same path on every machine (a shared folder such as "
            "NFS, or a copy on each machine). `tfjob.yaml` mounts a volume claim at each path's folder.\n"
        )
        lines += [f"- `{p}`" for p in paths]
        lines.append("")
    if copied:
        lines.append(
            f"Your Python files ({', '.join(f'`{c}`' for c in copied)}) are copied into every task's folder, and "
            "`run.json` names them there; the TFJob's ConfigMap carries them too.\n"
        )
    return "\n".join(lines)


def _firewall(tasks: list[Task]) -> str:
    """Per machine: its port open to the cluster's other machines only (iptables, then PowerShell)."""
    linux, windows = [], []
    for t in tasks:
        peers = sorted({p.host for p in tasks if p.host != t.host})
        linux.append(f"# {t.id}, on {t.host}: port {t.port} for the cluster only")
        linux.append(f"sudo iptables -A INPUT -p tcp --dport {t.port} -i lo -j ACCEPT")
        linux += [f"sudo iptables -A INPUT -p tcp --dport {t.port} -s {shlex.quote(p)} -j ACCEPT" for p in peers]
        linux += [f"sudo iptables -A INPUT -p tcp --dport {t.port} -j DROP", ""]
        if peers:
            windows.append(
                f"New-NetFirewallRule -DisplayName {ps_quote('tfdd ' + t.id)} -Direction Inbound -Protocol TCP "
                f"-LocalPort {t.port} -RemoteAddress {','.join(ps_quote(p) for p in peers)} -Action Allow"
            )
    text = "```sh\n" + "\n".join(linux).rstrip() + "\n```\n"
    if windows:
        text += (
            "\nOn Windows (PowerShell as administrator; inbound connections not allowed by a rule are blocked "
            "there by default):\n\n```powershell\n" + "\n".join(windows) + "\n```\n"
        )
    return text


def _readme(
    cluster: ClusterSpec, strategy: str, name: str, paths: list[str] | None = None, copied: list[str] | None = None
) -> str:
    tasks = cluster.tasks()
    rows = "\n".join(
        f"| `{t.id}/` | {role_text(t.job, t.index, strategy, cluster)} | {t.host} | {t.port} |" for t in tasks
    )
    chief = cluster.chief()
    data = _data_section(paths or [], copied or [])
    if strategy == Strategy.PARAMETER_SERVER:
        order = (
            "The order does not matter: the chief (the coordinator) waits until every worker and ps task\n"
            "   answers, silently, so start them close together. A worker that stops is not fatal: the\n"
            "   coordinator reruns its steps on the others, and takes it back when it is started again. A ps\n"
            "   task or the chief that stops ends the run; the workers and ps tasks then stop by themselves a\n"
            "   few seconds after the chief is gone."
        )
    else:
        order = (
            "The order does not matter: a started task waits for the others, saying which\n"
            f"   and where, and gives up after `{JOIN_TIMEOUT_ENV}` seconds (set in the start\n"
            f"   scripts, default {DEFAULT_JOIN_TIMEOUT_S}); Ctrl-C or SIGTERM ends a waiting task at once.\n"
            "   Once training runs, stopping one task (Ctrl-C, SIGTERM) stops them all after a\n"
            "   checkpoint; if one fails, stop the others: they notice a dead peer only after a\n"
            "   heartbeat timeout, or not at all."
        )
    evaluator = (
        "\n   `evaluator-0` validates each checkpoint the chief writes; it must see the chief's\n"
        "   run directory (a shared folder), and writes `evaluation.csv` and `tensorboard/evaluation/` there.\n"
        "   It never holds training up, and stops by itself after the final checkpoint or once the chief is gone."
        if cluster.addresses("evaluator")
        else ""
    )
    return f"""# Cluster bundle `{name}`: {len(tasks)} task(s), strategy {strategy}

| folder | role | copy to machine | port it listens on |
| --- | --- | --- | --- |
{rows}

1. Every machine needs Python with this dashboard installed (`pip install`
   the same version, from its wheel or a checkout), so that
   `python -m {CLI_MODULE} --help` works there. `TFDD_PYTHON` chooses the
   interpreter the start scripts use.
2. Copy each task's folder to its machine. Open its port between the machines
   and nowhere else: TensorFlow's server has no authentication or encryption
   and listens on every interface of the machine, whatever the host above.
3. Start every task: `./start.sh` (POSIX) or `.\\start.ps1` (PowerShell). Every
   task runs the same `train` command; its TF_CONFIG says what it is.
   {order}
4. `{chief.id}` is the chief: it writes the results (metrics, TensorBoard
   logs, checkpoints, the model) to its run directory, `~/tfdd-runs/{name}`
   (or under `$TFDD_RUNS_DIR`) unless given as the first argument or
   `TFDD_RUN_DIR`; every other task keeps its raw TensorFlow log beside its run
   directory, `RUN_DIR.<task id>.log`. A run directory that already holds a run is refused, so a
   finished run is never overwritten: give a new one to start afresh. To
   continue from the chief's checkpoints instead, every task must reach them:
   use one shared folder (e.g. NFS) as the run directory, and start each task
   with its TF_CONFIG (`tf_config.json`) and
   `python -m {CLI_MODULE} train --config run.json --run-dir RUN_DIR --continue`.{evaluator}

{data}
`tfjob.yaml` runs the same cluster on Kubernetes with the Kubeflow training
operator, which writes TF_CONFIG itself: build an image with this dashboard
installed, put its name in the manifest, then `kubectl apply -f tfjob.yaml`.
Kubernetes stops a pod with SIGTERM: the trainer then writes a checkpoint and
exits (code 143) within the manifest's grace period.

## Firewall

TensorFlow's gRPC server accepts anyone who reaches its port and runs what it
is sent. On each machine, let only the cluster's other machines in, for
example with iptables (Linux; `sudo iptables -S` shows the rules, they last
until reboot unless saved):

{_firewall(tasks)}"""


# ---- Kubeflow TFJob ------------------------------------------------------------------


def tfjob_manifest(cluster: ClusterSpec, run_config: RunConfig) -> list[dict[str, Any]]:
    """A ConfigMap holding run.json, and a TFJob with a replica spec per job of the cluster."""
    name = run_name(run_config)
    container = {
        "name": "tensorflow",  # the operator finds the TensorFlow container by this name
        "image": "REPLACE-WITH-YOUR-IMAGE",
        "command": [
            "python",
            "-m",
            CLI_MODULE,
            "train",
            "--config",
            "/etc/tfdd/run.json",
            "--run-dir",
            f"/runs/{name}",
            "--continue",  # a restarted pod continues the run from its checkpoint (with /runs shared)
        ],
        "env": [{"name": JOIN_TIMEOUT_ENV, "value": str(DEFAULT_JOIN_TIMEOUT_S)}],
        "ports": [{"name": "tfjob-port", "containerPort": TFJOB_PORT}],
        "volumeMounts": [{"name": "run-config", "mountPath": "/etc/tfdd", "readOnly": True}],
    }
    volumes: list[dict[str, Any]] = [{"name": "run-config", "configMap": {"name": f"{name}-config"}}]
    for i, folder in enumerate(dict.fromkeys(_mount_folder(p) for p in shared_paths(run_config))):
        # the data at the same path as in run.json; a claim on a volume that holds it (README: data)
        container["volumeMounts"].append({"name": f"data-{i}", "mountPath": folder, "readOnly": True})
        volumes.append({"name": f"data-{i}", "persistentVolumeClaim": {"claimName": "REPLACE-WITH-YOUR-DATA-CLAIM"}})
    replica_specs = {
        TFJOB_REPLICA_TYPES[job]: {
            "replicas": len(cluster.addresses(job)),
            # Our exit codes 1 (failed) and 2 (bad config) are permanent; killed pods (128+) are retried.
            "restartPolicy": "ExitCode",
            "template": {
                "spec": {
                    "terminationGracePeriodSeconds": TERMINATION_GRACE_S,
                    "containers": [container],
                    "volumes": volumes,
                }
            },
        }
        for job in TFJOB_REPLICA_TYPES
        if cluster.addresses(job)
    }
    config_map = {
        "apiVersion": "v1",
        "kind": "ConfigMap",
        "metadata": {"name": f"{name}-config"},
        "data": {
            "run.json": json.dumps(localized(run_config).to_dict()),
            **{key: source.read_text(encoding="utf-8") for key, source in user_files(run_config).items()},
        },
    }
    tfjob = {
        "apiVersion": "kubeflow.org/v1",
        "kind": "TFJob",
        "metadata": {"name": name},
        "spec": {"runPolicy": {"cleanPodPolicy": "None"}, "tfReplicaSpecs": replica_specs},
    }
    return [config_map, tfjob]


def tfjob_yaml(cluster: ClusterSpec, run_config: RunConfig) -> str:
    header = (
        "# Kubeflow training operator: kubectl apply -f tfjob.yaml\n"
        "# Replace the image; mount a shared volume at /runs to keep results and checkpoints (then a restarted\n"
        "# pod continues from the last checkpoint: --continue).\n"
    )
    return header + yaml.safe_dump_all(
        tfjob_manifest(cluster, run_config), sort_keys=False, default_flow_style=False, allow_unicode=True
    )
