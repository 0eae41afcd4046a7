"""CSV files streamed by tf.data: memory stays bounded whatever the file's size.

Lines are read by TensorFlow's TextLineDataset (one file after another, so
`file` sharding can give each worker its own files), shuffled as lines
(the shuffle buffer is the only memory that grows with shuffle_buffer) and
parsed a batch at a time by `tf.io.decode_csv`. engine.core.data_kinds.csv_rows has already
read every row once before TensorFlow started, by this reader's rules, so a
text cell, a line this reader would misread or a label that is not a class
id is reported with its line, not as a TensorFlow error.
"""

from __future__ import annotations

from typing import Any

from engine.core.config import RunConfig
from engine.core.data_kinds.csv_rows import header_of
from engine.core.sources import SourceInfo
from engine.train.datasets.base import InputSource, label_tensor
from engine.train.tf_runtime import tf


class CsvSource(InputSource):
    def __init__(self, config: RunConfig, info: SourceInfo, shard_policy: str, workers: int):
        super().__init__(config, info, shard_policy, workers)
        header = header_of(info.files[0])
        self.columns = len(header)
        self.label_col = header.index(str(config.data.label))

    def _lines(self) -> Any:
        files = tf.data.Dataset.from_tensor_slices(list(self.info.files))
        lines = files.interleave(lambda f: tf.data.TextLineDataset(f).skip(1), cycle_length=1)  # in file order
        lines = lines.map(tf.strings.strip)
        return lines.filter(lambda line: tf.strings.length(line) > 0)

    def _examples(self, train: bool) -> Any:
        lines = self._lines()
        return lines.take(self.n_train) if train else lines.skip(self.n_train)

    def _decode_batch(self, dataset: Any) -> Any:
        defaults = [[0.0]] * self.columns
        label_col, binary = self.label_col, self.binary

        def parse(lines: Any) -> tuple[Any, Any]:
            columns = tf.io.decode_csv(lines, record_defaults=defaults)
            features = tf.stack([c for i, c in enumerate(columns) if i != label_col], axis=1)
            return features, label_tensor(columns[label_col], binary)

        return dataset.map(parse, num_parallel_calls=tf.data.AUTOTUNE)
