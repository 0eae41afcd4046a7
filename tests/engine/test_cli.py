"""The headless command line, as another machine of a cluster runs it."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from engine.core import events as ev
from engine.core.plan import PRECISION_CPU_FEATURES
from engine.core.runs.history import load_curves, summarize
from engine.core.runs.rundir import read_events, read_metrics
from tests.engine.train.worker_process import REPO, base_config, env, write_config


def cli(*args: str, timeout: float = 300) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "main.py", *args], cwd=REPO, env=env(), capture_output=True, text=True, timeout=timeout
    )


def test_help_lists_the_commands():
    out = cli("--help")
    assert out.returncode == 0
    for command in ("train", "devices", "gui"):
        assert command in out.stdout


def test_bad_config_is_one_clear_error_without_traceback(tmp_path):
    config = write_config(tmp_path, {"strategy": "mirrored", "global_batch_size": "big"})
    out = cli("train", "--config", str(config))
    assert out.returncode == 2
    assert "global_batch_size" in out.stderr and "Traceback" not in out.stderr


def test_missing_config_file(tmp_path):
    out = cli("train", "--config", str(tmp_path / "nope.json"))
    assert out.returncode == 2 and "no such config file" in out.stderr


@pytest.mark.slow
def test_devices_json_lists_the_cpu_with_details():
    out = cli("devices", "--json")
    assert out.returncode == 0, out.stderr
    info = json.loads(out.stdout)
    cpu = info["devices"][0]
    assert cpu["type"] == "CPU" and cpu["cores"] >= 1 and cpu["model"]
    if sys.platform == "linux":  # which mixed-precision features the CPU has (engine.core.plan.plan_notes)
        known = {f for features in PRECISION_CPU_FEATURES.values() for f in features}
        assert isinstance(cpu["features"], list) and set(cpu["features"]) <= known
    assert info["nvml"]["available"] in (True, False) and info["tensorflow"].startswith("2.")
    table = cli("devices")
    assert "CPU:0" in table.stdout and table.returncode == 0


@pytest.fixture(scope="module")
def trained(tmp_path_factory) -> tuple[subprocess.CompletedProcess, Path]:
    """`tfdd train` of a 2-replica run, once for the tests that read its output and its run folder."""
    tmp_path = tmp_path_factory.mktemp("train")
    config = write_config(tmp_path, base_config(virtual_devices=2))
    out = cli("train", "--config", str(config), "--run-dir", str(tmp_path / "run"))
    assert out.returncode == 0, out.stderr[-2000:]
    return out, tmp_path


@pytest.mark.slow
def test_train_succeeds_with_progress_and_run_dir(trained):
    out, tmp_path = trained
    assert "2 replica(s)" in out.stderr and "epoch 2/2: loss" in out.stderr
    assert "checkpoint saved after epoch 2" in out.stderr, "one line per checkpoint"
    assert len(read_metrics(tmp_path / "run" / "metrics.csv")) == 2
    assert "TensorFlow: No CUDA driver: training on the CPU" in out.stderr
    assert "cuInit" not in out.stderr, "TensorFlow's chatter is folded"
    assert "failed call to cuInit" in (tmp_path / "run" / "stderr.log").read_text(), "and kept in the run dir"


@pytest.mark.slow
def test_train_prints_each_epochs_step_anatomy_and_keeps_it_in_the_run_dir(trained):
    out, tmp_path = trained
    lines = [line for line in out.stderr.replace("\r", "\n").splitlines() if line.strip() and "%|" not in line]
    for epoch in (1, 2):
        at = next(i for i, line in enumerate(lines) if line.startswith(f"epoch {epoch}/2: loss"))
        assert re.match(r"  step [\d.]+ ms: input \d+ %, compute \d+ %, sync \d+ %, rest \d+ % \(", lines[at + 1])
        assert "-bound: " in lines[at + 1]
    kept = [e for e in read_events(tmp_path / "run") if isinstance(e, ev.StepAnatomy)]
    assert {e.epoch for e in kept} == {1, 2}
    assert summarize(tmp_path / "run").status == "completed" and load_curves(tmp_path / "run").epochs


@pytest.mark.slow
def test_train_verbose_shows_tensorflow_lines_unfolded(tmp_path):
    config = write_config(tmp_path, base_config(epochs=1))
    out = cli("train", "--config", str(config), "--run-dir", str(tmp_path / "run"), "--verbose")
    assert out.returncode == 0, out.stderr[-2000:]
    assert "failed call to cuInit" in out.stderr and "TensorFlow: No CUDA driver" not in out.stderr


# Ctrl-C and SIGTERM to `tfdd train`: tests/engine/train/test_interruptions.py


def one_error_line(out: subprocess.CompletedProcess) -> str:
    lines = [line for line in out.stderr.splitlines() if line.strip()]
    assert "Traceback" not in out.stderr, out.stderr
    return lines[-1]


@pytest.mark.parametrize(
    "content, words",
    [
        (b"\x89PNG\r\n\x1a\n\x00\x00\xff", "not UTF-8 text"),
        (b"[" * 100_000 + b"]" * 100_000, "nested too deeply"),
        (b'{"name": "../../etc"}', "run folder's name"),
        (b'{"epochs": 1000000000000000000000000000000}', "at most 1,000,000"),
        (b'{"seed": -3}', "seed"),
    ],
    ids=["binary", "deeply-nested", "name", "huge-epochs", "seed"],
)
def test_a_config_problem_exits_2_with_a_clear_line(tmp_path, content, words):
    path = tmp_path / "run.json"
    path.write_bytes(content)
    out = cli("train", "--config", str(path))
    assert out.returncode == 2
    assert words in out.stderr and "Traceback" not in out.stderr


@pytest.mark.parametrize("value", ["-5", "nan", "inf", "0"])
def test_join_timeout_must_be_a_positive_number_of_seconds(tmp_path, value):
    config = write_config(tmp_path, {"strategy": "multi_worker_mirrored"})
    out = cli("cluster", "launch", "--workers", "2", "--config", str(config), "--join-timeout", value)
    assert out.returncode == 2 and "--join-timeout" in out.stderr and "seconds" in one_error_line(out)


@pytest.mark.parametrize("flag, value", [("--workers", "0"), ("--workers", "-2")])
def test_workers_must_be_at_least_one(tmp_path, flag, value):
    config = write_config(tmp_path, {"strategy": "multi_worker_mirrored"})
    out = cli("cluster", "launch", flag, value, "--config", str(config))
    assert out.returncode == 2 and "whole number >= 1" in one_error_line(out)


@pytest.mark.parametrize("replicas", [["0"], ["1", "-2"], ["two"]])
def test_scaling_replicas_must_be_positive_whole_numbers(tmp_path, replicas):
    config = write_config(tmp_path, {})
    out = cli("scaling", "--config", str(config), "--replicas", *replicas)
    assert out.returncode == 2 and "--replicas" in out.stderr and "whole number >= 1" in one_error_line(out)


def test_export_script_does_not_overwrite_a_file_without_force(tmp_path):
    config = write_config(tmp_path, {})
    mine = tmp_path / "train.py"
    mine.write_text("my own script\n")
    out = cli("export-script", "--config", str(config), "--out", str(mine))
    assert out.returncode == 2 and "already exists" in one_error_line(out) and "--force" in out.stderr
    assert mine.read_text() == "my own script\n"
    assert cli("export-script", "--config", str(config), "--out", str(mine), "--force").returncode == 0
    assert "CONFIG = {" in mine.read_text()


def test_escape_sequences_in_a_job_name_do_not_reach_the_terminal(tmp_path):
    path = tmp_path / "cluster.json"
    path.write_text(json.dumps({"cluster": {"work\x1b[2J\x1b]0;pwned\x07er": ["127.0.0.1:1"]}}))
    out = cli("cluster", "validate", str(path))
    assert "\x1b" not in out.stderr + out.stdout and "\x07" not in out.stderr + out.stdout
    assert "\\x1b[2J" in out.stderr


@pytest.mark.parametrize(
    "strategy, cluster, task, words",
    [
        ("multi_worker_mirrored", {"worker": ["127.0.0.1:20001", "127.0.0.1:20002"]}, 5, "task.index"),
        ("multi_worker_mirrored", {"worker": ["127.0.0.1:0", "127.0.0.1:20002"]}, 1, "port must be 1-65535"),
        ("parameter_server", {"worker": ["127.0.0.1:20001"], "ps": ["127.0.0.1:20002"]}, 0, "needs a chief"),
    ],
    ids=["index-out-of-range", "port-0", "no-chief"],
)
def test_train_checks_tf_config_as_cluster_validate_does_before_anything_starts(
    tmp_path, strategy, cluster, task, words
):
    config = write_config(tmp_path, base_config(strategy=strategy))
    tf_config = json.dumps({"cluster": cluster, "task": {"type": "worker", "index": task}})
    out = subprocess.run(
        [sys.executable, "main.py", "train", "--config", str(config), "--run-dir", str(tmp_path / "run")],
        cwd=REPO,
        env={**env(), "TF_CONFIG": tf_config},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert out.returncode == 2, out.stderr[-2000:]
    assert words in out.stderr and "TF_CONFIG" in out.stderr and "Traceback" not in out.stderr
    assert not (tmp_path / "run").exists()  # refused before a run directory was made


def test_a_runs_folder_that_is_a_file_is_one_clear_error(tmp_path):
    config = write_config(tmp_path, base_config())
    runs = tmp_path / "runs"
    runs.write_text("not a folder")
    out = subprocess.run(
        [sys.executable, "main.py", "train", "--config", str(config)],
        cwd=REPO,
        env={**env(), "TFDD_RUNS_DIR": str(runs)},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert out.returncode == 2, out.stderr[-2000:]
    assert f"TFDD_RUNS_DIR = {runs} is a file" in out.stderr and "Traceback" not in out.stderr


def _latin1_csv(folder):
    path = folder / "latin.csv"
    path.write_bytes("a,b,label\n1,2,0\n3,\xe9,1\n".encode("latin-1"))
    return {"kind": "csv", "path": str(path), "label": "label"}, path


def _csv_with_a_huge_field(folder):
    path = folder / "huge.csv"
    path.write_text("a,b,label\n1," + "2" * 200_000 + ",0\n3,4,1\n", encoding="utf-8")
    return {"kind": "csv", "path": str(path), "label": "label"}, path


def _decompression_bomb(folder):
    from PIL import Image

    for label in ("a", "b"):
        (folder / "images" / label).mkdir(parents=True)
        for i in range(2):
            Image.new("RGB", (8, 8)).save(folder / "images" / label / f"{i}.png")
    bomb = folder / "images" / "a" / "bomb.png"
    Image.new("1", (20_000, 20_000)).save(bomb)  # 400 million pixels in a few kilobytes
    return {"kind": "image_folder", "path": str(folder / "images")}, bomb


@pytest.mark.parametrize("make", [_latin1_csv, _csv_with_a_huge_field, _decompression_bomb])
def test_a_bad_data_file_exits_2_naming_it(tmp_path, make):
    """Read before TensorFlow starts: not UTF-8 text, a value beyond the CSV reader's field limit, an image
    too large to decode safely each end as a data problem naming the file, not an uncaught error."""
    data, bad = make(tmp_path)
    config = write_config(tmp_path, {"strategy": "one_device", "global_batch_size": 2, "data": data})
    out = cli("train", "--config", str(config), "--run-dir", str(tmp_path / "run"), timeout=120)
    assert out.returncode == 2, out.stderr[-2000:]
    assert str(bad) in out.stderr and "Traceback" not in out.stderr
    assert not (tmp_path / "run").exists()


def what_to_try(monkeypatch, config, run_dir: str, compute_ms: float, sync_ms: float) -> str:
    """What `tfdd train` prints after a completed run of `config` on its CPU devices whose last anatomy has
    these compute and sync times (of a 10 ms step)."""
    import io

    import tqdm

    from engine.cli import ConsoleProgress
    from engine.core.plan import plan_devices

    monkeypatch.setattr(tqdm.tqdm, "monitor_interval", 0)  # no monitor thread left behind
    devices = list(plan_devices(config, []).strategy_devices)
    out = io.StringIO()
    progress = ConsoleProgress(out, config=config)
    progress(
        ev.RunStarted(
            strategy=config.strategy,
            num_replicas=len(devices),
            devices=devices,
            global_batch_size=64,
            per_replica_batch_size=64 // len(devices),
            loop="custom",
            epochs=1,
            steps_per_epoch=10,
            steps_per_execution=4,
            run_dir=run_dir,
        )
    )
    rest_ms = 10.0 - compute_ms - sync_ms - 0.5
    progress(
        ev.StepAnatomy(
            epoch=1, global_step=10, steps=10, step_ms=10.0, input_ms=0.5, compute_ms=compute_ms, sync_ms=sync_ms,
            rest_ms=rest_ms,
        )
    )  # fmt: skip
    progress(ev.EpochEnd(epoch=1, loss=0.5, accuracy=0.8, seconds=0.1, examples_per_sec=6400.0))
    progress(ev.RunFinished(status="completed", epochs_completed=1, run_dir=run_dir))
    return out.getvalue()


def test_train_ends_with_what_to_try_for_its_verdict_each_a_tfdd_try_command(tmp_path, monkeypatch):
    """The headless twin of the Live tab's Try buttons: after a run, the changes its last verdict offers, each
    as the `tfdd try` command that measures it, and advice the config cannot express as a plain line."""
    from engine.core.config import RunConfig

    run_dir = str(tmp_path / "run")
    text = what_to_try(monkeypatch, RunConfig(strategy="one_device", steps_per_execution=4), run_dir, 9.0, 0.0)
    assert "compute-bound" in text
    assert f"tfdd try --config {run_dir}/config.json --change jit_compile=true" in text
    assert """--change 'steps_per_execution="auto"'""" in text, "quoted for the shell"


def test_train_on_logical_cpu_devices_offers_one_replica_and_else_says_why_nothing_is_offered(tmp_path, monkeypatch):
    """The tutorial's mirrored run over logical CPU devices: compute- or sync-bound, it is offered one replica;
    on one device with bfloat16 already chosen, it says in one line why XLA is not offered."""
    from engine.core.config import RunConfig
    from engine.core.resources import resource_path

    tutorial = RunConfig.load(resource_path("examples", "mirrored-2-virtual-cpus.json"))
    run_dir = str(tmp_path / "run")
    for compute_ms, sync_ms in ((8.0, 1.0), (1.0, 8.0)):
        text = what_to_try(monkeypatch, tutorial, run_dir, compute_ms, sync_ms)
        assert f"tfdd try --config {run_dir}/config.json --change virtual_devices=1\n" in text, text
        assert "share its cores" in text
    one = tutorial.replace(virtual_devices=1, mixed_precision="bfloat16")
    lines = what_to_try(monkeypatch, one, run_dir, 9.0, 0.0).splitlines()
    said = [line for line in lines if "no change on offer" in line]
    assert len(said) == 1 and "jit_compile=true: mirrored compiles its step with XLA only on GPUs" in said[0], lines
