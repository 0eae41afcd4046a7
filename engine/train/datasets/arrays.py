"""Sources held in memory as NumPy arrays: the tutorial's synthetic set and NPZ files.

They are small by nature (an NPZ file is read whole by NumPy anyway);
files larger than memory are CSV or TFRecord sources, which stream.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from engine.core.config import DataConfig, RunConfig
from engine.core.data_kinds.labels import labels_to_classes
from engine.core.sources import SourceInfo
from engine.train.datasets.base import InputSource
from engine.train.tf_runtime import tf


def synthetic(data: DataConfig, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """The tutorial's data: normal features, labels from a noisy random linear rule."""
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((data.num_samples, data.num_features), dtype=np.float32)
    if data.num_classes == 2:
        coeffs = rng.standard_normal((data.num_features, 1), dtype=np.float32)
        logits = x @ coeffs + rng.normal(0.0, 0.1, (data.num_samples, 1)).astype(np.float32)
        return x, (logits[:, 0] > 0).astype(np.int64)
    coeffs = rng.standard_normal((data.num_features, data.num_classes), dtype=np.float32)
    logits = x @ coeffs + rng.normal(0.0, 0.1, (data.num_samples, data.num_classes)).astype(np.float32)
    return x, logits.argmax(axis=1).astype(np.int64)


def read_npz(data: DataConfig) -> tuple[np.ndarray, np.ndarray]:
    """The arrays engine.core.sources checked; features (n, f) float32, labels class ids."""
    with np.load(str(data.path), allow_pickle=False) as npz:
        x, y = np.asarray(npz[data.features_key]), np.asarray(npz[data.labels_key])
    x = x[:, None] if x.ndim == 1 else x
    if not np.all(np.isfinite(x)):
        from engine.core.problems import DataError

        row = int(np.argwhere(~np.isfinite(x))[0][0])
        raise DataError(f"NPZ file {data.path}: example {row} has a missing or infinite feature value; fill or drop it")
    return x.astype(np.float32), labels_to_classes(y, f"NPZ file {data.path}")[0]


class ArraysSource(InputSource):
    """Features and labels in memory; the last `validation_split` share validates.

    Each epoch trains on a permutation of every training example (InputSource.order)."""

    def __init__(self, config: RunConfig, info: SourceInfo, shard_policy: str, workers: int, x: Any, y: Any):
        super().__init__(config, info, shard_policy, workers)
        self.x, self.y = x, y

    def _labels(self, part: slice) -> np.ndarray:
        return self.y[part].astype(np.float32)[:, None] if self.binary else self.y[part].astype(np.int32)

    def _examples(self, train: bool) -> Any:
        part = slice(0, self.n_train) if train else slice(self.n_train, None)
        return tf.data.Dataset.from_tensor_slices((self.x[part], self._labels(part)))

    def _arrays(self) -> tuple[np.ndarray, np.ndarray]:
        part = slice(0, self.n_train)
        return self.x[part], self._labels(part)


def arrays_source(config: RunConfig, info: SourceInfo, shard_policy: str, workers: int) -> ArraysSource:
    d = config.data
    x, y = synthetic(d, config.seed) if d.kind == "synthetic" else read_npz(d)
    return ArraysSource(config, info, shard_policy, workers, x, y)
