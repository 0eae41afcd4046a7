"""An image folder (one subfolder per class) decoded by tf.data, in parallel, cached where it fits.

engine.core.sources listed the files and checked every header before TensorFlow
started. The file order is shuffled once with the run's seed (the files are
listed class by class, and the last validation share must hold every class),
then each epoch trains on a permutation of all of them (InputSource.order),
decoding the paths in that order in parallel. When the decoded images fit in
CACHE_BUDGET_BYTES (or the config caches the data) they are decoded once, up front, and each epoch gathers
its batches from memory: the same permutation of the same examples either
way, so caching never changes the losses.
Pixels are float32 in [0, 1].
"""

from __future__ import annotations

import math
import time
from typing import Any

import numpy as np

from engine.core.config import RunConfig
from engine.core.messages import msg
from engine.core.problems import DataError
from engine.core.sources import SourceInfo
from engine.train.datasets.base import InputSource, label_tensor, with_policy
from engine.train.tf_runtime import tf

CACHE_BUDGET_BYTES = 512 * 2**20  # decoded images kept in memory up to this size (float32 pixels)


def decode_to_channels(data: Any, channels: int) -> Any:
    """An encoded image (PNG, JPEG, BMP, GIF's first frame) as uint8 pixels of `channels` channels.

    TensorFlow decodes a GIF to RGB only: its grayscale is computed, as Pillow's would be."""
    decode = lambda n: tf.io.decode_image(data, channels=n, expand_animations=False)  # noqa: E731
    if channels != 1:
        return decode(channels)
    is_gif = tf.strings.substr(data, 0, 3) == b"GIF"
    return tf.cond(is_gif, lambda: tf.image.rgb_to_grayscale(decode(3)), lambda: decode(1))


class ImageFolderSource(InputSource):
    def __init__(self, config: RunConfig, info: SourceInfo, shard_policy: str, workers: int):
        super().__init__(config, info, shard_policy, workers)
        assert info.labels is not None
        order = np.random.default_rng(config.seed).permutation(len(info.files))
        self.paths = np.asarray(info.files, dtype=object)[order].astype(str)
        self.labels = info.labels[order]
        self.cached: tuple[np.ndarray, np.ndarray] | None = None
        self.cache_note: str = ""
        if config.data.cache or self.decoded_bytes() <= CACHE_BUDGET_BYTES:
            t0 = time.perf_counter()
            self.cached = self._decode_all()
            self.cache_note = msg(
                "decoded {images} images into memory ({mb} MB) in {seconds} s",
                images=f"{len(self.paths):,}",
                mb=f"{self.decoded_bytes() / 2**20:,.0f}",
                seconds=f"{time.perf_counter() - t0:.1f}",
            )
        else:
            self.cache_note = msg(
                "decoding images every epoch: {mb} MB decoded exceed the {budget} MB cache",
                mb=f"{self.decoded_bytes() / 2**20:,.0f}",
                budget=f"{CACHE_BUDGET_BYTES / 2**20:,.0f}",
            )

    def decoded_bytes(self) -> int:
        return len(self.paths) * math.prod(self.input_shape()) * 4

    def _load(self, path: Any) -> Any:
        height, width, channels = self.input_shape()
        image = tf.cast(decode_to_channels(tf.io.read_file(path), channels), tf.float32)
        if self.config.data.image_size is not None:
            image = tf.image.resize(image, [height, width])
        return tf.ensure_shape(image / 255.0, [height, width, channels])

    def _decode_all(self) -> tuple[np.ndarray, np.ndarray]:
        images = np.empty((len(self.paths), *self.input_shape()), np.float32)
        ds = tf.data.Dataset.from_tensor_slices(self.paths).map(self._load, num_parallel_calls=tf.data.AUTOTUNE)
        at = 0
        try:
            for batch in ds.batch(256).prefetch(2):
                images[at : at + len(batch)] = batch.numpy()
                at += len(batch)
        except tf.errors.OpError as exc:
            raise self.unreadable_file(exc) or exc from None
        return images, self.labels

    def unreadable_file(self, exc: BaseException) -> DataError | None:
        """The first image TensorFlow cannot decode (a truncated JPEG passes the header check), decoded one
        by one: run only after decoding failed."""
        if not isinstance(exc, (tf.errors.InvalidArgumentError, tf.errors.DataLossError)):
            return None
        for path in self.paths:
            try:
                self._load(tf.constant(path))
            except tf.errors.OpError as bad:
                said = bad.message.strip().splitlines()[0] if bad.message.strip() else type(bad).__name__
                return DataError(
                    msg("image {path} cannot be decoded ({said}); replace or delete it", path=path, said=said),
                    "data.path",
                    self.config.data.path,
                )
        return None

    def _examples(self, train: bool) -> Any:
        part = slice(0, self.n_train) if train else slice(self.n_train, None)
        if self.cached is not None:
            images, labels = self.cached
            y = labels[part].astype(np.float32)[:, None] if self.binary else labels[part].astype(np.int32)
            return tf.data.Dataset.from_tensor_slices((images[part], y))
        return tf.data.Dataset.from_tensor_slices((self.paths[part], self.labels[part]))

    def _arrays(self) -> tuple[np.ndarray, np.ndarray] | None:
        if self.cached is None:
            return None
        images, labels = self.cached
        part = slice(0, self.n_train)
        return images[part], labels[part].astype(np.float32)[:, None] if self.binary else labels[part].astype(np.int32)

    def train(self, epoch: int, skip_steps: int = 0) -> Any:
        """Decoded: the images in memory, gathered (InputSource.train). Else the same permutation of the
        files (`order`), each decoded as it comes: so caching never changes the batches."""
        if self.cached is not None:
            return super().train(epoch, skip_steps)
        batch, order = self.config.global_batch_size, self.order(epoch)
        ds = tf.data.Dataset.from_tensor_slices((self.paths[order], self.labels[order])).skip(skip_steps * batch)
        ds = self._decode(ds).batch(batch, drop_remainder=True)
        return with_policy(ds.prefetch(tf.data.AUTOTUNE), self.shard_policy)

    def _decode(self, dataset: Any) -> Any:
        if self.cached is not None:
            return dataset
        binary = self.binary
        return dataset.map(
            lambda path, y: (self._load(path), label_tensor(y, binary)), num_parallel_calls=tf.data.AUTOTUNE
        )

    def describe(self) -> str:
        return msg("{source}; {cache}", source=super().describe(), cache=self.cache_note)
