"""The example configs in resources/examples: each is valid with the small data shipped beside it."""

from __future__ import annotations

import json

import pytest

from engine.core.config import RunConfig
from engine.core.data_kinds import DATA_KINDS
from engine.core.model_kinds import MODEL_KINDS
from engine.core.resources import resource_path
from engine.core.sources import inspect

EXAMPLES = sorted(resource_path("examples").glob("*.json"))


@pytest.mark.parametrize("path", EXAMPLES, ids=[p.name for p in EXAMPLES])
def test_example_config_is_valid_and_its_data_readable(path):
    config = RunConfig.load(path)  # raises with every problem
    info = inspect(config)
    assert info.num_classes >= 2
    assert json.loads(path.read_text())  # plain JSON, no comments


def test_every_model_and_data_kind_has_an_example():
    configs = [RunConfig.load(p) for p in EXAMPLES]
    assert {c.model.kind for c in configs} == set(MODEL_KINDS)
    assert {c.data.kind for c in configs} == set(DATA_KINDS)


def test_relative_paths_are_found_beside_the_config():
    model = RunConfig.load(resource_path("examples", "model-python.json")).model
    assert model.path == str(resource_path("examples", "my_model.py"))
    data = RunConfig.load(resource_path("examples", "model-cnn-image-folder.json")).data
    assert data.path == str(resource_path("examples", "data", "images"))
