"""The scaling study runs real trainers with 1 and 2 replicas."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from engine.core import anatomy
from engine.core.config import RunConfig
from engine.core.config import with_replicas as variant
from engine.tools import scaling
from engine.tools.scaling import format_table, run_study


def test_variant_uses_gpus_when_listed_else_virtual_cpus():
    gpu = variant(RunConfig(devices=("GPU:0", "GPU:1", "GPU:2", "GPU:3"), epochs=1), 2)
    assert gpu.devices == ("GPU:0", "GPU:1") and gpu.virtual_devices == 1 and gpu.epochs == 2
    cpu = variant(RunConfig(strategy="one_device"), 4)
    assert cpu.strategy == "mirrored" and cpu.devices is None and cpu.virtual_devices == 4


@pytest.mark.slow
def test_study_reports_throughput_speedup_and_efficiency_and_a_failing_count_beside_the_others(tmp_path):
    config = RunConfig.from_dict({"epochs": 2, "global_batch_size": 64, "data": {"num_samples": 2048}})
    seen = []
    points = run_study(config, [3, 2, 1], tmp_path, on_point=seen.append)
    assert [p.replicas for p in points] == [1, 2, 3] and sorted(seen, key=lambda p: p.replicas) == points
    one, two, three = points
    assert not one.error and not two.error
    assert "3 replicas" in three.error  # 64 examples a step do not split over 3: the others still ran
    assert one.examples_per_sec > 0 and two.examples_per_sec > 0
    assert (one.speedup, one.efficiency) == (1.0, 1.0)
    assert two.speedup == pytest.approx(two.examples_per_sec / one.examples_per_sec)
    assert two.efficiency == pytest.approx(two.speedup / 2)
    assert "replicas" in format_table(points) and (tmp_path / "replicas-2" / "metrics.csv").is_file()


def test_a_study_into_the_same_folder_again_writes_new_runs_and_keeps_the_old(tmp_path, monkeypatch):
    """Run folders are never written into twice: a second study gets replicas-1-2, not replicas-1."""
    used = []

    def fake_measure(config, run_dir, **kwargs):
        used.append(run_dir.name)
        (run_dir / "config.json").write_text("{}")  # what a trainer leaves behind
        return 100.0, ""

    monkeypatch.setattr(scaling, "measure", fake_measure)
    run_study(RunConfig(), [1, 2], tmp_path)
    run_study(RunConfig(), [1], tmp_path)
    assert used == ["replicas-1", "replicas-2", "replicas-1-2"]


def test_a_parameter_server_study_counts_workers_each_a_local_cluster(tmp_path):
    from engine.tools.scaling import variant as count_variant

    config = RunConfig(strategy="parameter_server", epochs=1, name="x")
    counted, command_for = count_variant(config, 4)
    assert counted.strategy == "parameter_server" and counted.epochs == 2 and counted.name == "x-scaling-4w"
    command = command_for(tmp_path / "c.json", tmp_path / "run")
    assert command[3:5] == ["cluster", "launch"] and "--events" in command
    assert command[command.index("--workers") + 1] == "4" and command[command.index("--ps") + 1] == "1"
    mirrored, trainer_for = count_variant(RunConfig(strategy="mirrored"), 4)
    assert (
        mirrored.virtual_devices == 4 and trainer_for(tmp_path / "c.json", tmp_path / "run")[2] == "engine.train.worker"
    )


def test_each_count_reports_the_anatomy_of_its_steps_after_the_first_epoch(tmp_path, monkeypatch):
    """Each count's trainer (the GUI tests' fake trainer, a real process speaking the protocol) reports its step
    anatomy; the point carries the steady one and the table says what happened to a step."""
    fake = Path(__file__).parents[2] / "gui" / "fake_trainer.py"
    per_count = {1: "1,8,0,1", 4: "1,2,6,1"}  # compute falls 4×, synchronising grows from 0 to 60 %

    def variant(config, count):
        def command(config_path, run_dir):
            extra = ["--epochs", "2", "--steps", "3", "--delay", "0", "--anatomy", per_count[count]]
            return [sys.executable, str(fake), "normal", "--run-dir", str(run_dir), *extra]

        return config, command

    monkeypatch.setattr(scaling, "variant", variant)
    points = run_study(RunConfig(), [1, 4], tmp_path)
    one, four = (anatomy.from_plain(p.anatomy) for p in points)
    assert one is not None and four is not None
    assert (one.epoch, one.steps, one.compute_ms, one.sync_ms) == (2, 3, 8.0, 0.0)
    assert (four.compute_ms, four.sync_ms, four.step_ms) == (2.0, 6.0, 10.0)
    sentence = "From 1 to 4 replicas the computing time per step fell 4.0×, synchronising grew from 0 to 60 %."
    assert anatomy.study_sentence(points) == sentence
    assert format_table(points).endswith(sentence)
