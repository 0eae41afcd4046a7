"""The example configs in resources/examples: each parses, and its only problems are the user's data paths."""

from __future__ import annotations

import json

import pytest

from engine.config import RunConfig, validate
from engine.kinds import DATA_KINDS
from engine.problems import ConfigError
from engine.resources import resource_path

EXAMPLES = sorted(resource_path("examples").glob("*.json"))
USER_DATA_MESSAGES = ("no such folder", "no file matches", "no such file")


@pytest.mark.parametrize("path", EXAMPLES, ids=[p.name for p in EXAMPLES])
def test_example_config_is_valid_but_for_the_users_data(path):
    try:
        config = RunConfig.load(path)
        problems = []
    except ConfigError as exc:
        problems = exc.problems
        config = RunConfig.load(path, check=False)
    assert all(any(m in p.message for m in USER_DATA_MESSAGES) for p in problems), problems
    assert all(p.field in ("data.path", "model.path") for p in problems), problems
    assert validate(config) == problems or problems == []
    assert json.loads(path.read_text())  # plain JSON, no comments


def test_every_model_and_data_kind_has_an_example():
    configs = [RunConfig.load(p, check=False) for p in EXAMPLES]
    assert {c.model.kind for c in configs} == {"mlp", "cnn", "keras_application", "python", "saved"}
    assert {c.data.kind for c in configs} == set(DATA_KINDS)


def test_the_python_examples_are_found_beside_their_configs():
    assert validate(RunConfig.load(resource_path("examples", "data-python.json"))) == []
    model = RunConfig.load(resource_path("examples", "model-python.json"), check=False).model
    assert model.path == str(resource_path("examples", "my_model.py"))
