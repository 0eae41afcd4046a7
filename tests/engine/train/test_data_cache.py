"""`data.cache`: a streamed source read into memory once, before training; unshuffled, the same batches as
streamed, so the same losses (real trainers, small files)."""

from __future__ import annotations

import numpy as np
import pytest

from engine.core import events as ev
from tests.data_factory import write_float_tfrecords
from tests.engine.train.worker_process import base_config, train_all

pytestmark = pytest.mark.slow


def write_csv(path, rows: int = 512, features: int = 6) -> str:
    rng = np.random.default_rng(3)
    x = rng.standard_normal((rows, features))
    y = (x[:, 0] + x[:, 1] > 0).astype(int)
    header = ",".join([*(f"f{i}" for i in range(features)), "label"])
    lines = [header, *(",".join([*(f"{v:.5f}" for v in row), str(label)]) for row, label in zip(x, y, strict=True))]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return str(path)


def test_cached_csv_and_tfrecords_train_the_batches_they_stream(tmp_path):
    sources = {
        "csv": {"kind": "csv", "path": write_csv(tmp_path / "d.csv"), "label": "label"},
        "tfrecord": {
            "kind": "tfrecord",
            "path": str(write_float_tfrecords(tmp_path / "records") / "*.tfrecord"),
            "feature_shape": [6],
            "num_classes": 2,
        },
    }
    configs = {
        f"{kind}-{cache}": base_config(data={**data, "cache": cache}, shuffle_buffer=0, global_batch_size=32)
        for kind, data in sources.items()
        for cache in (False, True)
    }
    runs = train_all(tmp_path, configs)
    for name, run in runs.items():
        assert run.returncode == 0, (name, run.stderr[-3000:])
    for kind in sources:
        streamed, cached = (runs[f"{kind}-{c}"].of(ev.EpochEnd) for c in (False, True))
        assert len(cached) == 2 and [e.loss for e in cached] == [e.loss for e in streamed], kind


def test_a_cached_csv_is_held_in_memory_and_a_streamed_one_is_not(tmp_path):
    from engine.core.config import RunConfig
    from engine.core.sources import inspect
    from engine.train.datasets.csv_stream import CsvSource

    path = write_csv(tmp_path / "d.csv", rows=100)
    for cache in (False, True):
        config = RunConfig.from_dict(
            {"data": {"kind": "csv", "path": path, "label": "label", "cache": cache}, "validation_split": 0.2}
        )
        held = CsvSource(config, inspect(config), "off", 1).in_memory()
        if cache:
            assert held is not None and held[0].shape == (80, 6) and held[1].shape == (80, 1), "binary: (n, 1)"
        else:
            assert held is None
