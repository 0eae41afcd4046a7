"""Input pipelines, one module per data kind; `make_source` picks the one a config asks for."""

from __future__ import annotations

from engine.core.config import RunConfig
from engine.core.sources import SourceInfo
from engine.train.datasets.base import InputSource, epoch_seed


def make_source(config: RunConfig, info: SourceInfo, shard_policy: str, workers: int) -> InputSource:
    """The source of `config.data`, as engine.core.sources found it (checked before TensorFlow started)."""
    kind = config.data.kind
    if kind in ("synthetic", "npz"):
        from engine.train.datasets.arrays import arrays_source

        return arrays_source(config, info, shard_policy, workers)
    if kind == "csv":
        from engine.train.datasets.csv_stream import CsvSource

        return CsvSource(config, info, shard_policy, workers)
    if kind == "image_folder":
        from engine.train.datasets.images import ImageFolderSource

        return ImageFolderSource(config, info, shard_policy, workers)
    if kind == "tfrecord":
        from engine.train.datasets.tfrecords import TFRecordSource

        return TFRecordSource(config, info, shard_policy, workers)
    from engine.train.datasets.python_source import PythonSource

    return PythonSource(config, info, shard_policy, workers)


__all__ = ["InputSource", "epoch_seed", "make_source"]
