"""TFRecord files of tf.train.Example records, read by TensorFlow's TFRecordDataset.

The description (which key holds the features, float values or an encoded
image, their shape, which key holds the int64 label) was checked against
the first records by engine.core.sources before TensorFlow started. Records are
shuffled while still serialized (cheap), then parsed: float features a batch
at a time, images one by one in parallel (decoding is not vectorised).
"""

from __future__ import annotations

from typing import Any

from engine.train.datasets.base import InputSource, class_label
from engine.train.datasets.images import decode_to_channels
from engine.train.tf_runtime import tf


class TFRecordSource(InputSource):
    def _records(self) -> Any:
        files = tf.data.Dataset.from_tensor_slices(list(self.info.files))
        return files.interleave(tf.data.TFRecordDataset, cycle_length=1)  # in file order; file-shardable

    def _examples(self, train: bool) -> Any:
        records = self._records()
        return records.take(self.n_train) if train else records.skip(self.n_train)

    def _spec(self) -> dict[str, Any]:
        d = self.config.data
        feature = (
            tf.io.FixedLenFeature([], tf.string)
            if d.feature_type == "image"
            else tf.io.FixedLenFeature(list(d.feature_shape), tf.float32)
        )
        return {d.features_key: feature, d.labels_key: tf.io.FixedLenFeature([], tf.int64)}

    def _where(self) -> str:
        return f"TFRecord files {self.config.data.path}"

    def _decode(self, dataset: Any) -> Any:
        d = self.config.data
        if d.feature_type != "image":
            return dataset
        spec, binary, k, where = self._spec(), self.binary, self.num_classes, self._where()
        height, width, channels = d.feature_shape

        def parse(record: Any) -> tuple[Any, Any]:
            example = tf.io.parse_single_example(record, spec)
            image = decode_to_channels(example[d.features_key], channels)
            image = tf.image.resize(tf.cast(image, tf.float32), [height, width]) / 255.0
            label = class_label(example[d.labels_key], binary, k, where)
            return tf.ensure_shape(image, [height, width, channels]), label

        return dataset.map(parse, num_parallel_calls=tf.data.AUTOTUNE)

    def _decode_batch(self, dataset: Any) -> Any:
        d = self.config.data
        if d.feature_type == "image":
            return dataset
        spec, binary, k, where = self._spec(), self.binary, self.num_classes, self._where()

        def parse(records: Any) -> tuple[Any, Any]:
            examples = tf.io.parse_example(records, spec)
            return examples[d.features_key], class_label(examples[d.labels_key], binary, k, where)

        return dataset.map(parse, num_parallel_calls=tf.data.AUTOTUNE)
