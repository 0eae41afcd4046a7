"""engine.core.exports.bundle: the bundle's files, its scripts (run with a fake interpreter), the TFJob."""

from __future__ import annotations

import dataclasses
import json
import os
import re
import subprocess
from pathlib import Path

import pytest
import yaml

from engine.core.config import RunConfig
from engine.core.exports.bundle import export_bundle, ps_quote, sh_quote, tfjob_yaml
from engine.core.problems import OutputExists
from engine.core.protocol.codes import CLUSTER_GRACE_S
from engine.core.tfconfig import ClusterError, ClusterSpec, errors, local_cluster, parse_tf_config, validate

CONFIG = RunConfig(name="Tiny 'cluster' run", strategy="multi_worker_mirrored", epochs=2)
WITH_CHIEF = ClusterSpec.from_dict({"chief": ["127.0.0.1:20000"], "worker": ["127.0.0.1:20001", "127.0.0.1:20002"]})


def test_bundle_has_one_folder_per_task_and_a_readme(tmp_path):
    cluster = local_cluster(2)
    files = export_bundle(cluster, CONFIG, tmp_path)
    assert sorted(str(f.relative_to(tmp_path)) for f in files) == [
        "README.md",
        "cluster.json",
        "tfjob.yaml",
        *(f"worker-{i}/{name}" for i in (0, 1) for name in ("run.json", "start.ps1", "start.sh", "tf_config.json")),
    ]
    for i in (0, 1):
        folder = tmp_path / f"worker-{i}"
        tf_config = parse_tf_config((folder / "tf_config.json").read_text())
        assert (tf_config.task_type, tf_config.task_index) == ("worker", i)
        assert validate(tf_config, "multi_worker_mirrored") == []
        assert RunConfig.load(folder / "run.json") == CONFIG
        assert os.access(folder / "start.sh", os.X_OK)
    readme = (tmp_path / "README.md").read_text()
    assert "`worker-0/`" in readme and "order does not matter" in readme and "chief" in readme
    assert parse_tf_config((tmp_path / "cluster.json").read_text()).cluster == cluster


def test_every_task_gets_its_folder_the_evaluator_too(tmp_path):
    cluster = ClusterSpec.from_dict({**WITH_CHIEF.to_dict(), "evaluator": ["127.0.0.1:20009"]})
    export_bundle(cluster, CONFIG.replace(validation_split=0.2), tmp_path)
    assert sorted(p.name for p in tmp_path.iterdir() if p.is_dir()) == [
        "chief-0",
        "evaluator-0",
        "worker-0",
        "worker-1",
    ]
    assert "evaluator: validates each checkpoint" in (tmp_path / "README.md").read_text()
    tf_config = json.loads((tmp_path / "evaluator-0" / "tf_config.json").read_text())
    assert tf_config["task"] == {"type": "evaluator", "index": 0}


def test_a_parameter_server_bundle_names_each_role(tmp_path):
    cluster = ClusterSpec.from_dict(
        {"chief": ["10.0.0.1:2222"], "worker": ["10.0.0.2:2222", "10.0.0.3:2222"], "ps": ["10.0.0.4:2222"]}
    )
    export_bundle(cluster, CONFIG.replace(strategy="parameter_server"), tmp_path)
    readme = (tmp_path / "README.md").read_text()
    assert "| `ps-0/` | parameter server: holds variables | 10.0.0.4 | 2222 |" in readme
    assert "| `chief-0/` | coordinator: runs the training program |" in readme
    assert "reruns its steps" in readme
    start = (tmp_path / "ps-0" / "start.sh").read_text()
    assert "-m engine.cli train --config" in start  # every task runs the same command; TF_CONFIG picks the role


def test_a_cluster_with_errors_is_not_exported(tmp_path):
    bad = ClusterSpec.from_dict({"worker": ["127.0.0.1:1", "127.0.0.1:1"]})
    with pytest.raises(ClusterError, match="same machine and port"):
        export_bundle(bad, CONFIG, tmp_path)
    with pytest.raises(ClusterError, match="ignores the cluster"):
        export_bundle(local_cluster(2), CONFIG.replace(strategy="mirrored"), tmp_path)
    assert list(tmp_path.iterdir()) == []


def test_xla_the_all_reduce_and_the_pack_size_travel_to_every_task_and_what_no_machine_runs_is_refused(tmp_path):
    """The tasks' machines are not known here: what could run on a Linux GPU machine is exported (each
    task's trainer checks its own devices), what no machine runs is refused before any file is written."""
    fast = CONFIG.replace(jit_compile=True, all_reduce="nccl", bytes_per_pack=4 << 20)
    export_bundle(local_cluster(2), fast, tmp_path / "fast")
    for folder in ("worker-0", "worker-1"):
        loaded = RunConfig.load(tmp_path / "fast" / folder / "run.json")
        assert (loaded.jit_compile, loaded.all_reduce, loaded.bytes_per_pack) == (True, "nccl", 4 << 20)
    config_map = next(yaml.safe_load_all((tmp_path / "fast" / "tfjob.yaml").read_text()))
    assert RunConfig.from_json(config_map["data"]["run.json"]) == fast
    cluster = ClusterSpec.from_dict({"chief": ["10.0.0.1:2222"], "worker": ["10.0.0.2:2222"], "ps": ["10.0.0.4:2222"]})
    with pytest.raises(ClusterError, match="keeps them on the ps tasks"):
        export_bundle(cluster, CONFIG.replace(strategy="parameter_server", jit_compile=True), tmp_path / "ps")
    with pytest.raises(ClusterError, match="belongs to another strategy"):
        export_bundle(local_cluster(2), CONFIG.replace(all_reduce="hierarchical_copy"), tmp_path / "mirrored-op")
    assert not (tmp_path / "ps").exists() and not (tmp_path / "mirrored-op").exists()


@pytest.fixture
def fake_python(tmp_path) -> Path:
    """An "interpreter" that records where it ran, its TF_CONFIG and its arguments."""
    script = tmp_path / "fake python"
    script.write_text('#!/bin/sh\nprintf "%s\\n" "$PWD" "$TF_CONFIG" "$@" > "$FAKE_OUT"\n')
    script.chmod(0o755)
    return script


def run_start_sh(script: Path, fake_python: Path, *args: str, **env: str) -> list[str]:
    out = script.parent / "recorded.txt"
    environment = {k: v for k, v in os.environ.items() if not k.startswith("TFDD_")}
    environment.update(TFDD_PYTHON=str(fake_python), FAKE_OUT=str(out), **env)
    subprocess.run(["sh", str(script), *args], env=environment, check=True, timeout=30)
    return out.read_text().splitlines()


def test_start_sh_exports_tf_config_and_runs_the_installed_trainer(tmp_path, fake_python):
    """The script runs the installed engine (`python -m engine.cli`), from any folder: no checkout needed."""
    export_bundle(local_cluster(2), CONFIG, tmp_path / "bundle")
    folder = tmp_path / "bundle" / "worker-1"
    cwd, tf_config, *argv = run_start_sh(folder / "start.sh", fake_python, HOME="/home/someone")
    assert Path(cwd) == Path.cwd()  # started where the user stands
    assert json.loads(tf_config) == json.loads((folder / "tf_config.json").read_text())
    assert argv == [
        "-m",
        "engine.cli",
        "train",
        "--config",
        str(folder / "run.json"),
        "--run-dir",
        "/home/someone/tfdd-runs/tfdd-tiny-cluster-run",
    ]


def test_start_sh_takes_the_run_dir_from_arguments_or_environment(tmp_path, fake_python):
    export_bundle(local_cluster(2), CONFIG, tmp_path / "bundle")
    script = tmp_path / "bundle" / "worker-0" / "start.sh"
    odd = tmp_path / "my run's $HOME `x`"  # nothing in a path may be expanded
    _, _, *argv = run_start_sh(script, fake_python, TFDD_RUN_DIR="/shared/run 1")
    assert argv[-1] == "/shared/run 1"
    _, _, *argv = run_start_sh(script, fake_python, TFDD_RUNS_DIR=str(odd))
    assert argv[-1] == str(odd / "tfdd-tiny-cluster-run")
    _, _, *argv = run_start_sh(script, fake_python, str(odd), TFDD_RUN_DIR="/nonexistent")
    assert argv[-1] == str(odd)


@pytest.mark.parametrize("text", ["plain", "it's", "''", '$HOME `id` "q" \\ ;'])
def test_sh_quote_survives_the_shell(text):
    assert (
        subprocess.run(
            ["sh", "-c", f"printf %s {sh_quote(text)}"], capture_output=True, text=True, check=True, timeout=10
        ).stdout
        == text
    )


def test_start_ps1_sets_tf_config_in_single_quotes(tmp_path):
    export_bundle(local_cluster(2), CONFIG, tmp_path)
    script = (tmp_path / "worker-1" / "start.ps1").read_text()
    code = [line for line in script.splitlines() if line and not line.startswith("#")]
    assert code[0] == "param("  # PowerShell wants param() first
    (literal,) = re.findall(r"^\$env:TF_CONFIG = '(.*)'$", script, re.M)
    assert json.loads(literal.replace("''", "'")) == json.loads((tmp_path / "worker-1" / "tf_config.json").read_text())
    assert "& $Python -m engine.cli train --config (Join-Path $PSScriptRoot 'run.json') --run-dir $RunDir" in script
    assert ps_quote("it's \u2019") == "'it''s \u2019\u2019'"


# ---- the TFJob manifest ---------------------------------------------------------------


def load_manifest(text: str) -> list:
    """The manifest's documents, read by a real YAML parser (kubectl reads it the same way)."""
    return list(yaml.safe_load_all(text))


@pytest.mark.parametrize(
    "cluster, replicas",
    [
        (local_cluster(3), {"Worker": 3}),
        (WITH_CHIEF, {"Chief": 1, "Worker": 2}),
        (local_cluster(2, ps=2, chief=True, evaluator=True), {"Chief": 1, "Worker": 2, "PS": 2, "Evaluator": 1}),
    ],
)
def test_tfjob_has_the_structure_kubeflow_expects(cluster, replicas):
    """Replica types as the training operator's v1 API spells them (Chief, Worker, PS, Evaluator)."""
    config_map, tfjob = load_manifest(tfjob_yaml(cluster, CONFIG))
    assert (tfjob["apiVersion"], tfjob["kind"]) == ("kubeflow.org/v1", "TFJob")
    assert re.fullmatch(r"[a-z0-9]([-a-z0-9]*[a-z0-9])?", tfjob["metadata"]["name"])
    specs = tfjob["spec"]["tfReplicaSpecs"]
    assert {job: spec["replicas"] for job, spec in specs.items()} == replicas
    for spec in specs.values():
        assert spec["restartPolicy"] in ("Always", "OnFailure", "Never", "ExitCode")
        pod = spec["template"]["spec"]
        # SIGTERM makes the trainer checkpoint and save the model: Kubernetes must not SIGKILL it sooner
        assert pod["terminationGracePeriodSeconds"] >= CLUSTER_GRACE_S
        container = pod["containers"][0]
        assert container["name"] == "tensorflow" and container["image"]
        assert container["command"][:4] == ["python", "-m", "engine.cli", "train"]
        assert all(isinstance(arg, str) for arg in container["command"])
        config_path = container["command"][container["command"].index("--config") + 1]
        (mount,) = container["volumeMounts"]
        assert config_path == f"{mount['mountPath']}/run.json"
        (volume,) = [v for v in pod["volumes"] if v["name"] == mount["name"]]
        assert volume["configMap"]["name"] == config_map["metadata"]["name"]
    assert (config_map["apiVersion"], config_map["kind"]) == ("v1", "ConfigMap")
    assert RunConfig.from_json(config_map["data"]["run.json"]) == CONFIG


def test_tfjob_keeps_hostile_text_as_data():
    """PyYAML quotes what needs quoting: a run name cannot add keys or documents to the manifest."""
    config = CONFIG.replace(name="x: y\n---\nkind: Secret # \"quoted\" 'single' {a: [b]}")
    docs = load_manifest(tfjob_yaml(WITH_CHIEF, config))
    assert [d["kind"] for d in docs] == ["ConfigMap", "TFJob"]
    assert RunConfig.from_json(docs[0]["data"]["run.json"], check=False).name == config.name
    assert errors(validate(parse_tf_config({"cluster": WITH_CHIEF.to_dict()}))) == []


def test_user_files_travel_with_every_task_and_data_paths_are_named(tmp_path):
    from tests.data_factory import write_image_folder, write_python_model

    images = write_image_folder(tmp_path / "images", classes=2, per_class=2)
    (tmp_path / "src").mkdir()
    model_file = write_python_model(tmp_path / "src" / "my_model.py")
    config = RunConfig.from_dict(
        {
            "strategy": "multi_worker_mirrored",
            "data": {"kind": "image_folder", "path": str(images)},
            "model": {"kind": "python", "path": str(model_file)},
        }
    )
    export_bundle(local_cluster(2), config, tmp_path / "bundle")
    for task in ("worker-0", "worker-1"):
        folder = tmp_path / "bundle" / task
        assert (folder / "my_model.py").read_text() == model_file.read_text()
        assert json.loads((folder / "run.json").read_text())["model"]["path"] == "my_model.py"
        assert RunConfig.load(folder / "run.json").model.path == str(folder / "my_model.py")  # found beside it
    readme = (tmp_path / "bundle" / "README.md").read_text()
    assert "## Data every machine must see" in readme and f"- `{images}`" in readme and "`my_model.py`" in readme
    config_map, tfjob = load_manifest((tmp_path / "bundle" / "tfjob.yaml").read_text())
    assert "my_model.py" in config_map["data"]
    pod = tfjob["spec"]["tfReplicaSpecs"]["Worker"]["template"]["spec"]
    mounts = {m["mountPath"]: m["name"] for m in pod["containers"][0]["volumeMounts"]}
    assert str(images) in mounts and any(v["name"] == mounts[str(images)] for v in pod["volumes"])


def test_export_into_a_folder_of_the_users_files_is_refused_and_changes_nothing(tmp_path):
    out = tmp_path / "project"
    out.mkdir()
    (out / "README.md").write_text("my project's readme")
    with pytest.raises(OutputExists, match="not empty") as info:
        export_bundle(local_cluster(2), CONFIG, out)
    assert "nothing was written" in str(info.value)
    assert [p.name for p in out.iterdir()] == ["README.md"] and (out / "README.md").read_text() == "my project's readme"


def test_exporting_again_replaces_the_old_bundle_and_leaves_no_stale_task(tmp_path):
    out = tmp_path / "bundle"
    export_bundle(local_cluster(3), CONFIG, out)
    (out / "notes.txt").write_text("the user's own notes")
    export_bundle(local_cluster(2), CONFIG, out)
    assert not (out / "worker-2").exists()
    assert sorted(p.name for p in out.iterdir() if p.is_dir()) == ["worker-0", "worker-1"]
    assert (out / "notes.txt").read_text() == "the user's own notes"
    assert "2 task(s)" in (out / "README.md").read_text()


def test_the_readme_keeps_the_warning_and_gives_a_firewall_example_for_every_port(tmp_path):
    cluster = ClusterSpec.from_dict({"worker": ["10.0.0.1:2222", "10.0.0.2:2223"]})
    export_bundle(cluster, CONFIG, tmp_path / "b")
    readme = (tmp_path / "b" / "README.md").read_text()
    assert "no authentication or encryption" in readme
    assert "--dport 2222 -s 10.0.0.2 -j ACCEPT" in readme and "--dport 2223 -s 10.0.0.1 -j ACCEPT" in readme
    assert "--dport 2222 -j DROP" in readme and "New-NetFirewallRule" in readme


def test_export_script_refuses_to_overwrite_unless_asked(tmp_path):
    from engine.core.exports.script import export_script

    mine = tmp_path / "train.py"
    mine.write_text("mine")
    with pytest.raises(OutputExists):
        export_script(CONFIG, mine)
    assert mine.read_text() == "mine"
    export_script(CONFIG, mine, overwrite=True)
    assert "CONFIG = {" in mine.read_text()


def test_same_named_user_files_from_two_folders_both_travel_under_valid_configmap_keys(tmp_path):
    """A model A/common.py and a data source B/common.py are two files; a space is no ConfigMap key."""
    from tests.data_factory import write_python_data, write_python_model

    for folder in ("A", "B", "C"):
        (tmp_path / folder).mkdir()
    model_file = write_python_model(tmp_path / "A" / "common.py")
    data_file = write_python_data(tmp_path / "B" / "common.py")
    config = RunConfig.from_dict(
        {
            "strategy": "multi_worker_mirrored",
            "data": {"kind": "python", "path": str(data_file)},
            "model": {"kind": "python", "path": str(model_file)},
        }
    )
    export_bundle(local_cluster(2), config, tmp_path / "bundle")
    for task in ("worker-0", "worker-1"):
        loaded = RunConfig.load(tmp_path / "bundle" / task / "run.json")
        assert Path(loaded.model.path).read_text() == model_file.read_text()
        assert Path(loaded.data.path).read_text() == data_file.read_text()
    config_map, _ = load_manifest((tmp_path / "bundle" / "tfjob.yaml").read_text())
    run = RunConfig.from_json(config_map["data"]["run.json"], check=False)
    assert config_map["data"][run.model.path] == model_file.read_text()
    assert config_map["data"][run.data.path] == data_file.read_text()

    spaced = write_python_model(tmp_path / "C" / "my model.py")
    spaced_config = config.replace(model=dataclasses.replace(config.model, path=str(spaced)))
    config_map, _ = load_manifest(tfjob_yaml(WITH_CHIEF, spaced_config))
    assert all(re.fullmatch(r"[-._a-zA-Z0-9]+", key) for key in config_map["data"])
    run = RunConfig.from_json(config_map["data"]["run.json"], check=False)
    assert config_map["data"][run.model.path] == spaced.read_text()
