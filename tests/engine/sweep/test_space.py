"""A sweep's space and its device slots are checked before anything starts, every problem at once."""

from __future__ import annotations

import dataclasses
import json

import pytest

from engine.core.config import RunConfig
from engine.core.problems import ConfigError
from engine.core.sweep.slots import Slot, default_cpu_concurrency, per_replica_batches, plan_slots
from engine.core.sweep.space import apply, load_space, parse_space

BASE = RunConfig(strategy="mirrored", validation_split=0.2, global_batch_size=64)


def problems(raw, base=BASE) -> list[str]:
    with pytest.raises(ConfigError) as info:
        parse_space(raw, base)
    return [str(p) for p in info.value.problems]


def test_a_space_names_config_fields_and_how_each_varies():
    space = parse_space(
        {
            "parameters": {
                "learning_rate": {"log_uniform": [0.0001, 0.1]},
                "model.hidden_units": {"choice": [[16, 8], [64, 32]]},
                "epochs": {"int": [2, 4]},
            },
            "method": "random",
            "trials": 8,
        },
        BASE,
    )
    assert [p.name for p in space.parameters] == ["learning_rate", "model.hidden_units", "epochs"]
    assert space.parameters[1].values == ((16, 8), (64, 32))
    assert space.parameters[2].grid() == (2, 3, 4)
    assert not space.maximise and space.objective == "val_loss"
    assert apply(BASE, {"model.hidden_units": [64, 32], "learning_rate": 0.01}).model.hidden_units == (64, 32)


def test_a_bad_space_is_refused_one_line_per_problem():
    lines = problems(
        {
            "parameters": {
                "learning_rat": {"uniform": [0.1, 1]},
                "dropout": {"uniform": [0, 0.5]},
                "learning_rate": {"uniform": [0.1, 0.1]},
                "optimizer": {"choice": ["adam", "adamw"]},
                "epochs": {"choice": []},
                "model.kernel_size": {"log_uniform": [0, 5]},
            },
            "objective": "val_los",
            "trails": 3,
        }
    )
    assert len(lines) == 8, lines
    text = "\n".join(lines)
    assert "trails = 3: unknown key" in text
    assert "parameters.learning_rat = {'uniform': [0.1, 1]}: not a field of the run config" in text
    assert "parameters.dropout = {'uniform': [0, 0.5]}: not a field of the run config" in text
    assert "parameters.learning_rate = [0.1, 0.1]: an empty range" in text
    assert "parameters.optimizer = 'adamw': must be one of: adam, sgd, rmsprop, adagrad" in text
    assert "parameters.epochs = []: a choice needs a non-empty list" in text
    assert "parameters.model.kernel_size = [0, 5]: a log-uniform range must be above 0" in text
    assert "objective = 'val_los': must be one of" in text


def test_a_validation_objective_needs_validation_data_and_a_grid_needs_points():
    lines = problems(
        {"parameters": {"learning_rate": {"uniform": [0.001, 0.1]}}, "method": "grid"},
        RunConfig(validation_split=0.0),
    )
    assert any("a grid needs choices or int ranges; these are continuous: learning_rate" in line for line in lines)
    assert any("needs validation data" in line for line in lines)


def test_a_space_file_that_is_not_json_says_so(tmp_path):
    path = tmp_path / "space.json"
    path.write_text("{parameters: 1", encoding="utf-8")
    with pytest.raises(ConfigError, match="not valid JSON"):
        load_space(path, BASE)
    path.write_text(json.dumps({"parameters": {"seed": {"choice": [1, 2]}}}), encoding="utf-8")
    assert load_space(path, BASE).grid_size() == 2


# ---- slots ---------------------------------------------------------------------------


def space_with_batches(*sizes: int, gpus_per_trial: int = 1, concurrency=None):
    raw = {"parameters": {"global_batch_size": {"choice": list(sizes)}}, "gpus_per_trial": gpus_per_trial}
    if concurrency:
        raw["concurrency"] = concurrency
    return parse_space(raw, BASE)


def test_four_gpus_give_four_slots_of_one_or_two_of_two():
    gpus = ["GPU:0", "GPU:1", "GPU:2", "GPU:3"]
    one = plan_slots(space_with_batches(64, 128), BASE, gpus)
    assert [s.devices for s in one] == [("GPU:0",), ("GPU:1",), ("GPU:2",), ("GPU:3",)]
    two = plan_slots(space_with_batches(64, 128, gpus_per_trial=2), BASE, gpus)
    assert [(s.devices, s.replicas) for s in two] == [(("GPU:0", "GPU:1"), 2), (("GPU:2", "GPU:3"), 2)]
    assert per_replica_batches(space_with_batches(64, 128, gpus_per_trial=2), BASE, two[0]) == [32, 64]
    assert len(plan_slots(space_with_batches(64, concurrency=3), BASE, gpus)) == 3


def test_a_cuda_visible_devices_subset_is_what_the_probe_reports_and_what_trials_use():
    """CUDA_VISIBLE_DEVICES=1,3 leaves TensorFlow two GPUs, numbered 0 and 1: the slots name those."""
    slots = plan_slots(space_with_batches(64), BASE, ["GPU:1", "GPU:0"])
    assert [s.label() for s in slots] == ["GPU:0", "GPU:1"]


def test_a_batch_the_replicas_do_not_divide_is_refused_before_anything_starts():
    with pytest.raises(ConfigError) as info:
        plan_slots(space_with_batches(64, 102, 30, gpus_per_trial=4), BASE, ["GPU:0", "GPU:1", "GPU:2", "GPU:3"])
    lines = [str(p) for p in info.value.problems]
    assert len(lines) == 2
    assert lines[0].startswith("parameters.global_batch_size = 102: must be divisible by the 4 replicas")


def test_too_few_gpus_and_a_cluster_strategy_are_refused():
    with pytest.raises(ConfigError, match="this machine has 1 GPU"):
        plan_slots(space_with_batches(64, gpus_per_trial=2), BASE, ["GPU:0"])
    with pytest.raises(ConfigError, match="a sweep's trials train on this machine"):
        plan_slots(space_with_batches(64), BASE.replace(strategy="multi_worker_mirrored"), [])


def test_on_the_cpu_trials_share_it_half_the_cores_at_once_unless_told():
    assert default_cpu_concurrency(8) == 4 and default_cpu_concurrency(1) == 1
    cpu = BASE.replace(virtual_devices=2)
    slots = plan_slots(space_with_batches(64, concurrency=2), cpu, [])
    assert slots == [Slot(0, None, 2), Slot(1, None, 2)]


def test_a_python_models_keyword_arguments_vary_by_name_and_are_checked_before_start(tmp_path):
    model_file = tmp_path / "wide.py"
    model_file.write_text("def build_model(input_shape, num_classes, width=8, act='relu'):\n    pass\n")
    base = BASE.replace(
        model=dataclasses.replace(BASE.model, kind="python", path=str(model_file), kwargs={"act": "relu"})
    )
    space = parse_space({"parameters": {"model.kwargs.width": {"choice": [4, 16]}}, "trials": 2}, base)
    assert space.parameters[0].grid() == (4, 16)
    assert apply(base, {"model.kwargs.width": 16}).model.kwargs == {"act": "relu", "width": 16}
    assert problems({"parameters": {"model.kwargs.width": {"choice": [4]}}}) == [
        "parameters.model.kwargs.width = {'choice': [4]}: keyword arguments go to a python model's function; "
        "the base config's model is mlp"
    ]
    assert problems({"parameters": {"model.kwargs.2wide": {"int": [1, 3]}}}, base) == [
        "parameters.model.kwargs.2wide = {'int': [1, 3]}: a keyword argument's name must be a Python identifier"
    ]
    assert problems({"parameters": {"model.kwargs.width": {"choice": [{"a": 1}]}}}, base) == [
        "parameters.model.kwargs.width = {'a': 1}: a keyword argument must be a number, text, true/false or a "
        "list of those"
    ]
