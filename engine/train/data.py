"""Training data: the tutorial's synthetic set, CSV and NPZ files.

Loading is plain NumPy and happens before TensorFlow starts, so a CSV with a
text column or a missing file is reported in a second, not after TF's
start-up. `make_datasets` then builds the tf.data pipelines: one fixed
shuffle order per epoch (seeded by run seed and epoch), so the fit and
custom loops see the same batches and a resumed run can skip the steps an
interrupted epoch already trained on.
"""

from __future__ import annotations

import csv
import zipfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from engine.config import DataConfig, RunConfig


class DataError(ValueError):
    """The data cannot be used; the message says what to change."""


@dataclass(frozen=True)
class Arrays:
    """Features and labels in memory, split into training and validation."""

    x_train: np.ndarray
    y_train: np.ndarray
    x_val: np.ndarray | None
    y_val: np.ndarray | None
    num_classes: int  # 2 means binary (one logit), more means multi-class

    @property
    def num_features(self) -> int:
        return int(self.x_train.shape[1])

    @property
    def binary(self) -> bool:
        return self.num_classes == 2


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


def read_csv(path: str, label: str) -> tuple[np.ndarray, np.ndarray]:
    """A header row and numeric columns; errors name the column, line and value."""
    p = Path(path)
    if not p.is_file():
        raise DataError(f"CSV file {path} does not exist; check data.path")
    with p.open(newline="", encoding="utf-8-sig") as f:
        rows = list(csv.reader(f))
    rows = [r for r in rows if any(cell.strip() for cell in r)]
    if not rows:
        raise DataError(f"CSV file {path} is empty; it needs a header row and at least one data row")
    header = [h.strip() for h in rows[0]]
    if label not in header:
        raise DataError(f"CSV file {path} has no column {label!r} for the labels; its columns are: {', '.join(header)}")
    if len(rows) < 2:
        raise DataError(f"CSV file {path} has a header but no data rows")
    values = np.empty((len(rows) - 1, len(header)), dtype=np.float64)
    for line_no, row in enumerate(rows[1:], start=2):
        if len(row) != len(header):
            raise DataError(f"CSV file {path}, line {line_no}: {len(row)} values for {len(header)} columns")
        for col, cell in enumerate(row):
            try:
                values[line_no - 2, col] = float(cell)
            except ValueError:
                raise DataError(
                    f"CSV file {path}, line {line_no}: column {header[col]!r} holds text {cell.strip()!r}; "
                    "only numbers can train a model: encode that column as numbers or remove it"
                ) from None
    label_col = header.index(label)
    x = np.delete(values, label_col, axis=1).astype(np.float32)
    if x.shape[1] == 0:
        raise DataError(f"CSV file {path} has only the label column; it needs feature columns too")
    return x, values[:, label_col]


def read_npz(path: str, features_key: str, labels_key: str) -> tuple[np.ndarray, np.ndarray]:
    p = Path(path)
    if not p.is_file():
        raise DataError(f"NPZ file {path} does not exist; check data.path")
    try:
        with np.load(p, allow_pickle=False) as npz:
            names = list(npz.keys())
            missing = [k for k in (features_key, labels_key) if k not in names]
            if missing:
                raise DataError(
                    f"NPZ file {path} has no array {missing[0]!r}; its arrays are: {', '.join(names) or 'none'} "
                    "(set data.features_key and data.labels_key)"
                )
            x, y = np.asarray(npz[features_key]), np.asarray(npz[labels_key])
    except (zipfile.BadZipFile, ValueError, OSError) as exc:
        if isinstance(exc, DataError):
            raise
        raise DataError(f"NPZ file {path} cannot be read ({exc}); save it with numpy.savez") from None
    if x.ndim == 1:
        x = x[:, None]
    if x.ndim != 2 or y.ndim != 1 or len(x) != len(y):
        raise DataError(
            f"NPZ file {path}: features must be (samples, features) and labels (samples,); got {x.shape} and {y.shape}"
        )
    if not np.issubdtype(x.dtype, np.number):
        raise DataError(f"NPZ file {path}: features are {x.dtype}, not numbers")
    return x.astype(np.float32), y


def _labels_to_classes(y: np.ndarray, source: str) -> tuple[np.ndarray, int]:
    """Binary labels are 0/1; multi-class labels are class numbers 0..K-1."""
    if y.size == 0:
        raise DataError(f"{source} has no examples")
    if not np.issubdtype(y.dtype, np.number):
        raise DataError(f"{source}: labels are {y.dtype}, not class numbers 0, 1, 2, ...")
    bad = ~np.isfinite(y) | (y < 0) | (y != np.round(y))
    if bad.any():
        i = int(np.argmax(bad))
        raise DataError(
            f"{source}: example {i} has label {y[i]!r}; labels must be class numbers 0, 1, 2, ... (0/1 for binary)"
        )
    y = y.astype(np.int64)
    return y, max(int(y.max()) + 1, 2)


def load_arrays(config: RunConfig) -> Arrays:
    """Read the configured source and split off the validation share (the last rows, as Keras does)."""
    d = config.data
    if d.kind == "synthetic":
        x, y = synthetic(d, config.seed)
        source = "synthetic data"
    elif d.kind == "csv":
        x, y = read_csv(str(d.path), str(d.label))
        source = f"CSV file {d.path}"
    else:
        x, y = read_npz(str(d.path), d.features_key, d.labels_key)
        source = f"NPZ file {d.path}"
    if not np.all(np.isfinite(x)):
        row = int(np.argwhere(~np.isfinite(x))[0][0])
        raise DataError(f"{source}: example {row} has a missing or infinite feature value; fill or drop it")
    y, num_classes = _labels_to_classes(y, source)
    n_val = int(len(x) * config.validation_split)
    n_train = len(x) - n_val
    if n_train < config.global_batch_size:
        raise DataError(
            f"{source}: {n_train} training examples are fewer than one global batch of "
            f"{config.global_batch_size}; use more data or a smaller global_batch_size"
        )
    if n_val:
        return Arrays(x[:n_train], y[:n_train], x[n_train:], y[n_train:], num_classes)
    return Arrays(x, y, None, None, num_classes)


def steps_per_epoch(arrays: Arrays, global_batch_size: int) -> int:
    """Full global batches only: every replica gets exactly global / replicas examples."""
    return len(arrays.x_train) // global_batch_size


def epoch_seed(seed: int, epoch: int) -> int:
    return (seed * 1_000_003 + epoch) % (2**31 - 1)


class Datasets:
    """tf.data pipelines over `Arrays`; `tf` is passed in so this module imports no TF."""

    def __init__(self, arrays: Arrays, config: RunConfig, tf: Any):
        self._tf = tf
        self._config = config
        labels = arrays.y_train.astype(np.float32)[:, None] if arrays.binary else arrays.y_train.astype(np.int32)
        self._arrays = (arrays.x_train, labels)
        self._train = tf.data.Dataset.from_tensor_slices(self._arrays)
        self._val = None
        if arrays.x_val is not None:
            vl = arrays.y_val.astype(np.float32)[:, None] if arrays.binary else arrays.y_val.astype(np.int32)
            self._val = (
                tf.data.Dataset.from_tensor_slices((arrays.x_val, vl))
                .batch(config.global_batch_size)
                .prefetch(tf.data.AUTOTUNE)
            )

    def train(self, epoch: int, skip_steps: int = 0) -> Any:
        """Epoch `epoch`'s batches in a fixed order, less the first `skip_steps`."""
        tf, c = self._tf, self._config
        ds = self._train
        if c.shuffle_buffer > 1:
            ds = ds.shuffle(c.shuffle_buffer, seed=epoch_seed(c.seed, epoch), reshuffle_each_iteration=False)
        ds = ds.batch(c.global_batch_size, drop_remainder=True)
        if skip_steps:
            ds = ds.skip(skip_steps)
        return ds.prefetch(tf.data.AUTOTUNE)

    def worker_dataset(self, input_context: Any) -> Any:
        """parameter_server: one worker's endless stream of batches (a `dataset_fn`).

        Its workers take steps independently, so each shuffles in its own
        unseeded order (with one seed they would all train on the same batches)
        and repeats without end: the coordinator counts the steps of an epoch.
        Built from the arrays inside the function because it runs on each
        worker, where the chief's datasets do not exist.
        """
        tf, c = self._tf, self._config
        ds = tf.data.Dataset.from_tensor_slices(self._arrays)
        if c.shuffle_buffer > 1:
            ds = ds.shuffle(c.shuffle_buffer)
        batch = input_context.get_per_replica_batch_size(c.global_batch_size)
        return ds.repeat().batch(batch, drop_remainder=True).prefetch(tf.data.AUTOTUNE)

    @property
    def validation(self) -> Any | None:
        return self._val
