"""RunConfig: JSON round trip and every validation rule, reported all at once."""

from __future__ import annotations

import json

import pytest

from engine.core.config import RunConfig, nearest_valid_batch_sizes, validate
from engine.core.problems import ConfigError


def fields_of(problems) -> set[str]:
    return {p.field for p in problems}


def test_defaults_are_valid_and_round_trip():
    config = RunConfig()
    assert validate(config) == []
    again = RunConfig.from_json(config.to_json())
    assert again == config


def test_round_trip_keeps_every_section():
    raw = {
        "strategy": "one_device",
        "devices": ["GPU:1"],
        "loop": "fit",
        "steps_per_execution": 8,
        "data": {"kind": "synthetic", "num_samples": 500, "num_classes": 3},
        "model": {"hidden_units": [32, 16, 8], "activation": "tanh"},
        "checkpoint": {"every_epoch": False, "every_steps": 100, "keep": 2},
    }
    config = RunConfig.from_dict(raw)
    assert config.model.hidden_units == (32, 16, 8)
    assert config.devices == ("GPU:1",)
    assert json.loads(config.to_json())["model"]["hidden_units"] == [32, 16, 8]
    assert RunConfig.from_dict(config.to_dict()) == config


@pytest.mark.parametrize(
    "field, value, words",
    [
        ("strategy", "central_storage", "default, one_device, mirrored, multi_worker_mirrored, parameter_server"),
        ("variable_partitioner", "even", "min_size, fixed, none"),
        ("loop", "keras", "fit, custom"),
        ("optimizer", "lion", "adam, sgd, rmsprop"),
        ("mixed_precision", "float8", "off, float16, bfloat16"),
        ("epochs", 0, ">= 1"),
        ("global_batch_size", -4, ">= 1"),
        ("learning_rate", 0, "(0, 10]"),
        ("learning_rate", 100.0, "(0, 10]"),
        ("validation_split", 1.0, "[0, 1)"),
        ("steps_per_execution", 0, '"auto"'),
        ("steps_per_execution", "fast", '"auto"'),
        ("shuffle_buffer", -1, ">= 0"),
        ("virtual_devices", 0, ">= 1"),
        ("devices", ["TPU:0"], "GPU:0"),
        ("devices", ["GPU:0", "GPU:0"], "twice"),
        ("collective_timeout_s", 0, "seconds > 0"),
        ("collective_timeout_s", -5.0, "seconds > 0"),
    ],
)
def test_each_rule_names_field_value_and_what_is_allowed(field, value, words):
    with pytest.raises(ConfigError) as info:
        RunConfig.from_dict({field: value})
    problem = next(p for p in info.value.problems if p.field == field)
    assert words in problem.message
    shown = value if isinstance(value, list) else [value]
    assert all(str(v) in str(problem) for v in shown)


@pytest.mark.parametrize(
    "section, raw, field",
    [
        ("data", {"kind": "parquet"}, "data.kind"),
        ("data", {"kind": "csv", "path": "/no/such.csv", "label": "y"}, "data.path"),
        ("data", {"kind": "csv", "path": None}, "data.label"),
        ("data", {"num_classes": 1}, "data.num_classes"),
        ("model", {"hidden_units": []}, "model.hidden_units"),
        ("model", {"hidden_units": [16, 0]}, "model.hidden_units"),
        ("model", {"activation": "softplusplus"}, "model.activation"),
        ("checkpoint", {"every_steps": -1}, "checkpoint.every_steps"),
    ],
)
def test_section_rules(section, raw, field):
    with pytest.raises(ConfigError) as info:
        RunConfig.from_dict({section: raw})
    assert field in fields_of(info.value.problems)


def test_every_problem_is_reported_at_once():
    with pytest.raises(ConfigError) as info:
        RunConfig.from_dict({"strategy": "nope", "epochs": 0, "loop": "x", "colour": "red"})
    assert {"strategy", "epochs", "loop", "colour"} <= fields_of(info.value.problems)
    assert "unknown key" in str(info.value)


def test_wrong_types_are_named():
    with pytest.raises(ConfigError) as info:
        RunConfig.from_dict({"epochs": "five", "memory_growth": "yes", "data": []})
    assert {"epochs", "memory_growth", "data"} <= fields_of(info.value.problems)


def test_malformed_json_and_missing_file_are_config_errors(tmp_path):
    with pytest.raises(ConfigError, match="not valid JSON"):
        RunConfig.from_json("{epochs: 3")
    with pytest.raises(ConfigError, match="no such config file"):
        RunConfig.load(tmp_path / "absent.json")


def test_indivisible_batch_names_both_numbers_and_nearest_sizes():
    config = RunConfig(strategy="mirrored", virtual_devices=3, global_batch_size=64)
    problems = validate(config, replicas=3)
    assert len(problems) == 1
    message = problems[0].message
    assert "3 replicas" in message and "63 or 66" in message and problems[0].value == 64


def test_nearest_valid_batch_sizes():
    assert nearest_valid_batch_sizes(10, 4) == [8, 12]
    assert nearest_valid_batch_sizes(3, 4) == [4]


@pytest.mark.parametrize(
    "name",
    ["two\nlines", "nul\x00byte", "x" * 10_000, "../..", "a/b", "back\\slash", "..", "esc\x1b[31m", 'quote"d', "a:b"],
)
def test_a_name_that_cannot_be_part_of_a_folder_name_is_refused_before_tensorflow(name):
    """The name becomes part of the run folder's name: say so up front, not with a raw OS error later."""
    with pytest.raises(ConfigError) as info:
        RunConfig.from_dict({"name": name})
    (problem,) = info.value.problems
    assert problem.field == "name" and "folder" in problem.message
    assert len(str(problem)) < 400 and "\x1b" not in str(problem) and "\x00" not in str(problem)


@pytest.mark.parametrize("name", ["lr-sweep", "Tiny 'cluster' run", "ResNet 50 (bs=64)", "étude №1", ""])
def test_ordinary_names_are_fine(name):
    assert RunConfig.from_dict({"name": name}).name == name


@pytest.mark.parametrize(
    "field, value, words",
    [
        ("seed", -1, ">= 0"),
        ("seed", 2**32, "at most 4,294,967,295"),
        ("shuffle_buffer", 2**31, "at most 2,147,483,647"),
        ("epochs", 10**30, "at most 1,000,000"),
        ("global_batch_size", 10**12, "at most"),
        ("virtual_devices", 65, "at most 64"),
        ("checkpoint.keep", 10**9, "at most"),
        ("steps_per_execution", 10**20, "at most"),
        ("model.hidden_units", [10**9], "at most"),
        ("data.num_samples", 10**30, "at most"),
    ],
)
def test_numbers_have_upper_bounds_checked_before_tensorflow(field, value, words):
    """A value TensorFlow or NumPy would overflow on (or a form cannot show) is a config problem."""
    section, _, key = field.rpartition(".")
    raw = {section: {key: value}} if section else {field: value}
    with pytest.raises(ConfigError) as info:
        RunConfig.from_dict(raw)
    problem = next(p for p in info.value.problems if p.field == field)
    assert words in problem.message


def test_a_binary_file_is_a_config_error(tmp_path):
    path = tmp_path / "photo.json"
    path.write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\xff\xfe")
    with pytest.raises(ConfigError, match="not UTF-8 text"):
        RunConfig.load(path)


def test_a_deeply_nested_document_is_a_config_error():
    with pytest.raises(ConfigError, match="nested too deeply"):
        RunConfig.from_json("[" * 100_000 + "]" * 100_000)
    with pytest.raises(ConfigError) as info:  # deep, but parseable: the value is named, briefly
        RunConfig.from_json('{"model": {"hidden_units": ' + "[" * 500 + "]" * 500 + "}}")
    assert len(str(info.value)) < 400


def test_a_folder_or_unreadable_file_is_a_config_error(tmp_path):
    with pytest.raises(ConfigError, match="cannot be read"):
        RunConfig.load(tmp_path)


def test_an_unknown_keys_huge_value_is_not_echoed_in_full():
    key = "k" * 1_000_000
    with pytest.raises(ConfigError) as info:
        RunConfig.from_dict({"colour": "x" * 50_000_000, key: 1})
    assert len(str(info.value)) < 1000 and "50,000,000 characters" in str(info.value)


def test_a_device_or_fifo_is_refused_before_it_is_read(tmp_path):
    """/dev/zero would be read until memory runs out and a FIFO blocks for ever: neither is a regular file."""
    import os

    with pytest.raises(ConfigError, match="not a regular file"):
        RunConfig.load("/dev/zero")
    fifo = tmp_path / "run.json"
    os.mkfifo(fifo)  # no writer: opening it would block
    with pytest.raises(ConfigError, match="not a regular file"):
        RunConfig.load(fifo)


def test_an_integer_of_thousands_of_digits_is_a_config_problem(tmp_path):
    text = '{"epochs": ' + "9" * 5000 + "}"
    with pytest.raises(ConfigError, match="digits"):
        RunConfig.from_json(text)
    path = tmp_path / "run.json"
    path.write_text(text)
    with pytest.raises(ConfigError, match="digits"):
        RunConfig.load(path)


def test_the_all_reduce_the_xla_switch_and_the_pack_size_are_checked_with_the_rest():
    """all_reduce names one of TensorFlow's implementations, jit_compile is true or false, bytes_per_pack >= 0."""
    good = RunConfig.from_dict({"all_reduce": "ring", "jit_compile": True, "bytes_per_pack": 4 << 20})
    assert (good.all_reduce, good.jit_compile, good.bytes_per_pack) == ("ring", True, 4 << 20)
    with pytest.raises(ConfigError) as caught:
        RunConfig.from_dict({"all_reduce": "fastest", "jit_compile": "yes", "bytes_per_pack": -1})
    fields = {p.field for p in caught.value.problems}
    assert {"all_reduce", "jit_compile", "bytes_per_pack"} <= fields


@pytest.mark.parametrize(
    "text, field",
    [
        ('{"learning_rate": 1' + "0" * 400 + "}", "learning_rate"),  # a float field given a 401-digit integer
        ('{"collective_timeout_s": 1' + "0" * 400 + "}", "collective_timeout_s"),
        ('{"model": {"kind": "mlp", "filters": ["32"]}}', "model.filters"),  # a field the kind does not read
        ('{"data": {"kind": "synthetic", "image_size": ["a", 2]}}', "data.image_size"),
    ],
)
def test_every_value_is_checked_against_its_declared_type_items_too(text, field):
    """A number too big for a float is a problem, not a crash; a list's items have the type the field declares,
    also in a field the chosen kind ignores (else the config is saved, and shown again, with it)."""
    with pytest.raises(ConfigError) as info:
        RunConfig.from_json(text)
    (problem,) = [p for p in info.value.problems if p.field == field]
    assert "wrong type; expected" in problem.message
    kept = RunConfig.from_dict(json.loads(text), check=False)  # the form's reading: the bad value is left out
    assert kept.to_dict() == RunConfig(model=kept.model, data=kept.data).to_dict()  # the top level: defaults
    assert (kept.model.filters, kept.data.image_size) == (RunConfig().model.filters, None)


@pytest.mark.parametrize(
    "raw, field, expected",
    [
        ({"devices": [1]}, "devices", "expected a list of texts or null"),
        ({"model": {"hidden_units": ["a"]}}, "model.hidden_units", "expected a list of whole numbers"),
        ({"epochs": "5"}, "epochs", "expected a whole number"),
        ({"learning_rate": "x"}, "learning_rate", "expected a number"),
        ({"jit_compile": "yes"}, "jit_compile", "expected true or false"),
        ({"name": 3}, "name", "expected text in quotes"),
        ({"collective_timeout_s": "1"}, "collective_timeout_s", "expected a number or null"),
    ],
)
def test_a_wrong_type_is_named_in_json_words(raw, field, expected):
    """The config is JSON: a person who wrote [1] for devices reads "a list of texts", not tuple[str, ...]."""
    with pytest.raises(ConfigError) as info:
        RunConfig.from_dict(raw)
    (problem,) = [p for p in info.value.problems if p.field == field]
    assert problem.message.endswith(expected), problem.message


def test_the_data_cache_is_for_runs_of_one_process():
    """Cached examples are one process's memory; workers of a cluster each read their own shard as it streams."""
    assert RunConfig.from_dict({"virtual_devices": 2, "data": {"cache": True}}).data.cache is True
    for strategy in ("multi_worker_mirrored", "parameter_server"):
        with pytest.raises(ConfigError) as caught:
            RunConfig.from_dict({"strategy": strategy, "data": {"cache": True}})
        assert [p.field for p in caught.value.problems] == ["data.cache"], strategy
    with pytest.raises(ConfigError) as caught:
        RunConfig.from_dict({"data": {"cache": "yes"}})
    assert [p.field for p in caught.value.problems] == ["data.cache"]


def test_a_python_models_keyword_arguments_are_checked(tmp_path):
    model_file = tmp_path / "m.py"
    model_file.write_text("def build_model(input_shape, num_classes, **kwargs):\n    pass\n")
    python = {"kind": "python", "path": str(model_file)}
    fine = {"width": 8, "rate": 0.5, "act": "relu", "bn": True, "units": [16, 8]}
    assert RunConfig.from_dict({"model": {**python, "kwargs": fine}}).model.kwargs == fine
    assert RunConfig().model.kwargs == {}
    for kwargs, words in [
        ([8], "wrong type"),
        ({"2x": 1}, "must be a Python identifier"),
        ({"num_classes": 3}, "the engine passes it"),
        ({"width": None}, "must be a number, text"),
        ({"width": {"a": 1}}, "must be a number, text"),
    ]:
        with pytest.raises(ConfigError) as info:
            RunConfig.from_dict({"model": {**python, "kwargs": kwargs}})
        assert [p.field for p in info.value.problems][0].startswith("model.kwargs"), kwargs
        assert words in str(info.value), (kwargs, str(info.value))


def test_a_python_models_misspelt_keyword_argument_is_refused_naming_the_file_function_and_accepted_names(tmp_path):
    model_file = tmp_path / "wide.py"
    model_file.write_text(
        "def build_model(input_shape, num_classes, width=3, *, activation='relu'):\n    pass\n\n\n"
        "def flexible(input_shape, num_classes, **more):\n    pass\n"
    )
    python = {"kind": "python", "path": str(model_file)}
    with pytest.raises(ConfigError) as info:
        RunConfig.from_dict({"model": {**python, "kwargs": {"widht": 8, "activation": "tanh"}}})
    assert [p.field for p in info.value.problems] == ["model.kwargs.widht"]
    said = str(info.value)
    assert "wide.py" in said and "build_model()" in said and "'widht'" in said, said
    assert "width, activation" in said, said  # what it does take by name (not what the engine passes)
    fine = RunConfig.from_dict({"model": {**python, "kwargs": {"width": 8, "activation": "tanh"}}})
    assert fine.model.kwargs == {"width": 8, "activation": "tanh"}
    anything = {**python, "function": "flexible", "kwargs": {"widht": 8}}  # **more takes any name
    assert RunConfig.from_dict({"model": anything}).model.kwargs == {"widht": 8}
