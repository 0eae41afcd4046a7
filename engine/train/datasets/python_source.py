"""A dataset from the user's Python file, fed through `strategy.distribute_datasets_from_function`.

The contract (README, "Your data", `python`): `make_dataset(input_context)` returns
a tf.data.Dataset of (features, label) examples, not batches. It is called
once per input pipeline (one per worker), and may shard with
`input_context.input_pipeline_id` / `num_input_pipelines`, which is why this
is the path TensorFlow recommends when the user controls sharding. The
engine batches each pipeline at `input_context.get_per_replica_batch_size`,
repeats it (an epoch is data.num_samples examples), skips the steps an
interrupted epoch already trained on, and prefetches. Labels are class ids
(0..num_classes-1). An optional `validation_function` is called the same way.
With `data.cache` (a run of one process) an epoch's examples are read once, before training, and every
epoch trains on them from memory, in the order the pipeline made them.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from engine.core.config import RunConfig
from engine.core.messages import msg
from engine.core.problems import DataError
from engine.core.sources import SourceInfo
from engine.train.datasets.base import READ_BATCH, InputSource, class_label
from engine.train.tf_runtime import tf
from engine.train.user_code import call_user, load_function


class PythonSource(InputSource):
    def __init__(self, config: RunConfig, info: SourceInfo, shard_policy: str, workers: int):
        super().__init__(config, info, shard_policy, workers)
        d = config.data
        self.where = f"{d.path}:{d.function}"
        self.make = load_function(str(d.path), d.function, "data")
        self.make_val = load_function(str(d.path), d.validation_function, "data") if d.validation_function else None
        self.n_val = 1 if self.make_val else 0
        probe = self._examples_of(self.make, tf.distribute.InputContext(1, 0, 1), self.where)
        self.element_spec = probe.element_spec

    def _examples_of(self, make: Any, context: Any, where: str) -> Any:
        ds = call_user(make, (context,), where)
        if not isinstance(ds, tf.data.Dataset):
            raise DataError(
                f"{where} returned {type(ds).__name__}, not a tf.data.Dataset; return a dataset of "
                "(features, label) examples",
                "data.function",
            )
        spec = ds.element_spec
        if not (isinstance(spec, tuple) and len(spec) == 2 and all(isinstance(s, tf.TensorSpec) for s in spec)):
            raise DataError(
                f"{where} returned a dataset of {spec}; each element must be a (features, label) pair of tensors",
                "data.function",
            )
        features, label = spec
        if label.shape.rank not in (0, None) or not (label.dtype.is_integer or label.dtype.is_floating):
            raise DataError(
                f"{where}: labels are {label.dtype.name} of shape {label.shape}; return one class id per example "
                "(examples, not batches: the engine batches them)",
                "data.function",
            )
        if features.shape.rank is not None and None in features.shape.as_list():
            raise DataError(
                f"{where}: features have shape {features.shape}; every dimension must be known (examples, not "
                "batches: the engine batches them)",
                "data.function",
            )
        binary, k = self.binary, self.num_classes
        return ds.map(lambda x, y: (tf.cast(x, tf.float32), class_label(y, binary, k, where)))

    @property
    def validation_steps(self) -> int | None:
        return None

    def input_shape(self) -> tuple[int, ...]:
        return tuple(self.element_spec[0].shape.as_list())

    def _pipeline(self, make: Any, where: str, skip_steps: int, train: bool, steps: int | None = None) -> Any:
        global_batch = self.config.global_batch_size

        def dataset_fn(context: Any) -> Any:
            ds = self._examples_of(make, context, where)
            ds = ds.repeat() if train else ds
            ds = ds.batch(context.get_per_replica_batch_size(global_batch), drop_remainder=train)
            # every replica's batch count: a pipeline serves its worker's local replicas in turn
            local = context.num_replicas_in_sync // context.num_input_pipelines
            ds = ds.skip(skip_steps * local) if skip_steps else ds
            ds = ds.take(steps * local) if steps is not None else ds
            return ds.prefetch(tf.data.AUTOTUNE)

        return dataset_fn

    def _arrays(self) -> tuple[np.ndarray, np.ndarray] | None:
        """Cached: an epoch's examples of the user's pipeline (repeated, as streamed), read once into memory."""
        if not self.config.data.cache:
            return None
        ds = self._examples_of(self.make, tf.distribute.InputContext(1, 0, 1), self.where)
        return self._read_into_memory(ds.repeat().take(self.n_train).batch(READ_BATCH))

    def order(self, epoch: int) -> np.ndarray:
        """Cached: the examples in the order the user's pipeline made them, every epoch, as streamed."""
        return np.arange(self.steps_per_epoch * self.config.global_batch_size, dtype=np.int32)

    def _distribute_train(self, strategy: Any, epoch: int, skip_steps: int) -> Any:
        if self.config.data.cache:
            return super()._distribute_train(strategy, epoch, skip_steps)
        steps = self.steps_per_epoch - skip_steps  # a pipeline that ends with the epoch: none is cut off mid-way
        pipeline = self._pipeline(self.make, self.where, skip_steps, True, steps=steps)
        return strategy.distribute_datasets_from_function(pipeline)

    def train(self, epoch: int, skip_steps: int = 0) -> Any:
        """Global batches in one pipeline (the output check of a user's model runs on its first)."""
        if self.config.data.cache:
            return super().train(epoch, skip_steps)
        ds = self._examples_of(self.make, tf.distribute.InputContext(1, 0, 1), self.where)
        return ds.repeat().batch(self.config.global_batch_size, drop_remainder=True).skip(skip_steps)

    def worker_dataset(self, context: Any) -> Any:
        """parameter_server: the user's pipeline for one worker, repeated without end (the coordinator
        counts an epoch's steps)."""
        return self._pipeline(self.make, self.where, 0, True)(context)

    def validation(self) -> Any | None:
        """Global batches of the validation function's examples, in one pipeline (the coordinator's and
        the evaluator task's validation)."""
        if self.make_val is None:
            return None
        where = f"{self.config.data.path}:{self.config.data.validation_function}"
        ds = self._examples_of(self.make_val, tf.distribute.InputContext(1, 0, 1), where)
        return ds.batch(self.config.global_batch_size).prefetch(tf.data.AUTOTUNE)

    def distributed_validation(self, strategy: Any) -> Any | None:
        if self.make_val is None:
            return None
        where = f"{self.config.data.path}:{self.config.data.validation_function}"
        return strategy.distribute_datasets_from_function(self._pipeline(self.make_val, where, 0, False))

    def fit_validation(self, strategy: Any) -> Any | None:
        return self.distributed_validation(strategy)

    def describe(self) -> str:
        val = (
            msg(", validation from {function}", function=self.config.data.validation_function) if self.make_val else ""
        )
        return msg(
            "python: {function}(input_context), {examples} examples per epoch{validation}; features {shape}",
            function=self.where,
            examples=f"{self.info.examples:,}",
            validation=val,
            shape=str(tuple(self.input_shape())),
        )
