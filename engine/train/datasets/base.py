"""What every input source gives the loops: batches of an epoch in a fixed order, distributed.

A source yields global batches (`train`), one fixed shuffle order per
epoch (seeded by run seed and epoch), so the fit and custom loops see the
same batches and a resumed run can skip the steps an interrupted epoch
already trained on. `distributed_train` is what both loops read (`model.fit` gets
it distributed, so it makes one iterator an epoch, not two); a python source
(the user shards) distributes with `strategy.distribute_datasets_from_function`.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from engine.core.config import RunConfig
from engine.core.messages import msg
from engine.core.problems import DataError
from engine.core.sources import SourceInfo, split_sizes, worker_examples
from engine.train.tf_runtime import tf

POLICIES = {
    "auto": tf.data.experimental.AutoShardPolicy.AUTO,
    "file": tf.data.experimental.AutoShardPolicy.FILE,
    "data": tf.data.experimental.AutoShardPolicy.DATA,
    "off": tf.data.experimental.AutoShardPolicy.OFF,
}


def epoch_seed(seed: int, epoch: int) -> int:
    return (seed * 1_000_003 + epoch) % (2**31 - 1)


def epoch_order(n: int, seed: int, epoch: int, shuffle: bool) -> np.ndarray:
    """Epoch `epoch`'s order of `n` examples held in memory: a permutation of all of them seeded by run seed
    and epoch (in memory, no buffer bounds the shuffle), or their own order when the run does not shuffle."""
    if not shuffle:
        return np.arange(n, dtype=np.int32)
    return np.random.default_rng(epoch_seed(seed, epoch)).permutation(n).astype(np.int32)


def gathered_batches(columns: tuple[Any, ...], order: np.ndarray, global_batch: int, skip_steps: int) -> Any:
    """Global batches of examples held in memory as `columns` (tensors, example i in row i) in `order`: the
    indices batched by tf.data, then one gather a batch (not one element an example through the pipeline)."""
    ds = tf.data.Dataset.from_tensor_slices(order).batch(global_batch, drop_remainder=True).skip(skip_steps)
    return ds.map(lambda index: tuple(tf.gather(column, index) for column in columns))


def label_tensor(y: Any, binary: bool) -> Any:
    """Binary labels are float (batch, 1), for one logit; multi-class labels int32 class ids."""
    return tf.cast(y, tf.float32)[..., None] if binary else tf.cast(y, tf.int32)


def class_label(y: Any, binary: bool, num_classes: int, where: str) -> Any:
    """`label_tensor(y)` after checking in the graph that every label is a class id below num_classes: labels
    read only as the run goes (a python source, TFRecords past the pre-check's sample) would otherwise train
    silently wrong (a label of 6 with num_classes 2 gave a negative loss)."""
    as_float = tf.reshape(tf.cast(y, tf.float64), [-1])  # one label or a batch of them
    is_class = (as_float >= 0) & (as_float < num_classes) & (as_float == tf.round(as_float))
    check = tf.debugging.Assert(
        tf.reduce_all(is_class),
        [
            f"{where}: label",
            tf.boolean_mask(tf.reshape(y, [-1]), ~is_class)[:1],  # the first that is not a class id
            f"is not a class id below data.num_classes = {num_classes}; raise num_classes or fix the labels",
        ],
    )
    with tf.control_dependencies([check]):
        return label_tensor(y, binary)


def with_policy(dataset: Any, policy: str) -> Any:
    options = tf.data.Options()
    options.experimental_distribute.auto_shard_policy = POLICIES[policy]
    return dataset.with_options(options)


READ_BATCH = 1024  # examples a batch while a cached source reads its data into memory


class InputSource:
    """Base: subclasses give `_examples(train: bool)` (unbatched, in file order) or override `train`."""

    def __init__(self, config: RunConfig, info: SourceInfo, shard_policy: str, workers: int):
        self.config = config
        self.info = info
        self.shard_policy = shard_policy
        self.workers = workers
        self.n_train, self.n_val = split_sizes(info.examples or 0, config.validation_split)
        per_worker = worker_examples(info, shard_policy, workers) if shard_policy == "file" else self.n_train
        # file sharding: every worker must run the same number of steps, so the worker with the fewest
        # examples sets them (each worker trains global / workers examples a step)
        self.steps_per_epoch = per_worker * (workers if shard_policy == "file" else 1) // config.global_batch_size
        self._last_distributed: tuple[tuple[int, int, int], Any] | None = None
        self._held: tuple[Any, Any] | None = None

    @property
    def num_classes(self) -> int:
        return self.info.num_classes

    @property
    def binary(self) -> bool:
        return self.info.binary

    @property
    def validation_steps(self) -> int | None:
        """Validation batches (the last one possibly short), or None when only reading them all can tell."""
        return -(-self.n_val // self.config.global_batch_size)

    def _arrays(self) -> tuple[np.ndarray, np.ndarray] | None:
        """The training examples as (features, labels as the loss takes them) when the source holds them in
        memory: each epoch then trains on a permutation of all of them (`order`). None: they stream, unless
        the config caches them (read once, here)."""
        if not self.config.data.cache:
            return None
        return self._read_into_memory(self._decode_batch(self._decode(self._examples(train=True)).batch(READ_BATCH)))

    def _read_into_memory(self, batches: Any) -> tuple[np.ndarray, np.ndarray]:
        """`batches` of (features, labels), the first n_train examples of them read into arrays."""
        features, labels = [], []
        for x, y in batches:
            features.append(x.numpy())
            labels.append(y.numpy())
        if sum(len(y) for y in labels) < self.n_train:
            raise DataError(
                msg("the data held fewer than the {n} training examples counted before training", n=self.n_train),
                "data.path",
                self.config.data.path,
            )
        return np.concatenate(features)[: self.n_train], np.concatenate(labels)[: self.n_train]

    def _host_tensors(self) -> tuple[Any, Any] | None:
        """`_arrays()` as tensors on the host, made once."""
        if self._held is None and (arrays := self._arrays()) is not None:
            with tf.device("/cpu:0"):
                self._held = (tf.constant(arrays[0]), tf.constant(arrays[1]))
        return self._held

    def in_memory(self) -> tuple[Any, Any] | None:
        """The training examples as (features, labels) host tensors when the source holds them in memory
        and this process trains on all of them; the custom loop then gathers each step's batch from them by
        `order` (no tf.data pipeline, no iterator per epoch). None: batches come from `train`."""
        return self._host_tensors() if self.workers == 1 else None  # workers each read their shard of `train`

    def order(self, epoch: int) -> np.ndarray:
        """The indices of epoch `epoch`'s training examples, a whole number of global batches, for a
        source `in_memory`: step i trains on order[i * global_batch_size : (i + 1) * global_batch_size]."""
        c = self.config
        used = self.steps_per_epoch * c.global_batch_size
        return epoch_order(self.n_train, c.seed, epoch, c.shuffle_buffer > 1)[:used]

    def input_shape(self) -> tuple[int, ...]:
        assert self.info.input_shape is not None
        return self.info.input_shape

    # ---- pipelines --------------------------------------------------------------------
    def _examples(self, train: bool) -> Any:
        raise NotImplementedError

    def _decode(self, dataset: Any) -> Any:
        """Examples -> (features, label) before batching (images are decoded here, in parallel)."""
        return dataset

    def _decode_batch(self, dataset: Any) -> Any:
        """Batches -> (features, labels) after batching (CSV lines and TFRecord floats, vectorised)."""
        return dataset

    def train(self, epoch: int, skip_steps: int = 0) -> Any:
        """Epoch `epoch`'s global batches in a fixed order, less the first `skip_steps`."""
        c = self.config
        if (held := self._host_tensors()) is not None:
            ds = gathered_batches(held, self.order(epoch), c.global_batch_size, skip_steps)
            return with_policy(ds.prefetch(tf.data.AUTOTUNE), self.shard_policy)
        ds = self._examples(train=True)
        if c.shuffle_buffer > 1:
            ds = ds.shuffle(c.shuffle_buffer, seed=epoch_seed(c.seed, epoch), reshuffle_each_iteration=False)
        if self.shard_policy == "file" and self.workers > 1:
            ds = ds.repeat()  # workers' files hold unequal counts; every worker runs steps_per_epoch steps
        ds = self._decode(ds).batch(c.global_batch_size, drop_remainder=True)
        ds = self._decode_batch(ds)
        if skip_steps:
            ds = ds.skip(skip_steps)
        return with_policy(ds.prefetch(tf.data.AUTOTUNE), self.shard_policy)

    def worker_dataset(self, context: Any) -> Any:
        """parameter_server: one worker's endless stream of per-replica batches (a `dataset_fn`).

        Its workers take steps independently, so each shuffles in its own
        unseeded order (with one seed they would all train on the same
        batches) and repeats without end: the coordinator counts the steps of
        an epoch. Built inside the function: it runs for each worker.
        """
        c = self.config
        ds = self._examples(train=True)
        if c.shuffle_buffer > 1:
            ds = ds.shuffle(c.shuffle_buffer)
        ds = self._decode(ds.repeat()).batch(context.get_per_replica_batch_size(c.global_batch_size), True)
        return self._decode_batch(ds).prefetch(tf.data.AUTOTUNE)

    def validation(self) -> Any | None:
        """Every validation example in global batches (the last one possibly short); data-sharded."""
        if not self.n_val:
            return None
        ds = self._decode(self._examples(train=False)).batch(self.config.global_batch_size)
        return with_policy(self._decode_batch(ds).prefetch(tf.data.AUTOTUNE), "data")

    # ---- what the loops get -----------------------------------------------------------------
    def distributed_train(self, strategy: Any, epoch: int, skip_steps: int = 0) -> Any:
        """The same object when asked again for the same epoch: the trainer reads the run's per-replica
        batch from the first epoch's dataset before the loop iterates it (distributing a dataset once
        more was 0.04 s of every start). Distributed datasets can be iterated again from the start."""
        key = (id(strategy), epoch, skip_steps)
        if self._last_distributed is None or self._last_distributed[0] != key:
            self._last_distributed = (key, self._distribute_train(strategy, epoch, skip_steps))
        return self._last_distributed[1]

    def _distribute_train(self, strategy: Any, epoch: int, skip_steps: int) -> Any:
        return strategy.experimental_distribute_dataset(self.train(epoch, skip_steps))

    def distributed_validation(self, strategy: Any) -> Any | None:
        val = self.validation()
        return None if val is None else strategy.experimental_distribute_dataset(val)

    def fit_validation(self, strategy: Any) -> Any | None:
        return self.validation()

    def describe(self) -> str:
        """One log line: what trains, from where."""
        return msg(
            "{kind}: {train} training and {validation} validation examples",
            kind=self.info.kind,
            train=f"{self.n_train:,}",
            validation=f"{self.n_val:,}",
        )

    def unreadable_file(self, exc: BaseException) -> DataError | None:
        """After `exc` was raised while reading the data: a DataError naming the file that caused it, when
        this source can find it (None: the error stays as it is)."""
        return None
