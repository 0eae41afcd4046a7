"""What every data kind shares: the `data` section, what a source holds, and what a kind declares.

A kind's module (engine.core.data_kinds.<kind>) fills in one `DataKind`: the
fields it reads, its cheap checks (a stat, no file opened: the form runs
them on every keystroke), its inspection (a look inside the files, before
TensorFlow starts and for the preview), and what the form needs to show
its fields. engine.core.data_kinds picks a kind by name.
"""

from __future__ import annotations

import zipfile
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from engine.core.data_kinds.tfrecord_reader import RecordError
from engine.core.messages import Message, msg
from engine.core.problems import DataError, Problem
from engine.core.user_code import matching_files

if TYPE_CHECKING:
    import numpy as np  # at run time numpy is imported where it is used: see engine/core/data_kinds/__init__.py

SHARD_POLICIES = ("auto", "file", "data", "off")
SHARD_HINTS = {
    "auto": msg("file when the source is several files and each worker can have one, else data"),
    "file": msg("each worker reads its own files (CSV or TFRecord shards); needs at least one file per worker"),
    "data": msg("every worker reads everything and keeps every N-th example: works for any source"),
    "off": msg("no sharding: every worker trains on every example (for sources that shard themselves)"),
}
THUMBNAILS = 12


@dataclass(frozen=True, kw_only=True)
class DataConfig:
    """Where the examples come from: the `data` section of a run config.

    One record holds every kind's fields; each kind reads some of them (its
    module's `KIND.fields`, README "Your data" has one section per kind).
    `shard_policy` says how multi-worker runs split the data; `cache` holds the examples in memory.
    """

    kind: str = "synthetic"
    num_samples: int = 10000
    num_features: int = 10
    num_classes: int = 2
    path: str | None = None
    label: str | None = None
    features_key: str = "x"
    labels_key: str = "y"
    image_size: tuple[int, ...] | None = None
    color_mode: str = "auto"
    feature_type: str = "float"
    feature_shape: tuple[int, ...] | None = None
    function: str = "make_dataset"
    validation_function: str | None = None
    shard_policy: str = "auto"
    # read (and decode) the training examples into memory once, before training; every epoch then gathers its
    # batches from memory. Runs of one process only (engine.core.config.validate)
    cache: bool = False


@dataclass(frozen=True)
class SourceInfo:
    """A data source as the trainer and the preview see it."""

    kind: str
    examples: int | None  # None: known only once the run starts (python sources)
    input_shape: tuple[int, ...] | None  # one example's features; None: known once the run starts
    num_classes: int
    class_names: tuple[str, ...] = ()
    class_counts: tuple[int, ...] = ()  # per class (of the sample, when `sampled`)
    files: tuple[str, ...] = field(default=(), repr=False)  # images, or the NPZ/CSV/TFRecord files
    file_examples: tuple[int, ...] = ()  # examples per file (CSV/TFRecord), for file sharding
    labels: np.ndarray | None = field(default=None, repr=False)  # image_folder: one label per file
    channels: int = 0  # images: channels after decoding
    sampled: bool = False  # counts or classes come from a sample (the preview)
    notes: tuple[str, ...] = ()  # said beside the numbers, e.g. "counted from the first 2,000 rows"
    examples_estimated: bool = False  # `examples` is estimated from the files' sizes (a sampled CSV)
    classes_known: bool = True  # False: the classes are seen only once the run starts (python sources)

    @property
    def binary(self) -> bool:
        return self.num_classes == 2

    def thumbnails(self, n: int = THUMBNAILS) -> list[str]:
        """Up to n image files, taken round-robin across classes (none for a source without image labels)."""
        if self.labels is None:
            return []
        per_class = [
            [f for f, y in zip(self.files, self.labels, strict=True) if y == k] for k in range(self.num_classes)
        ]
        out: list[str] = []
        for i in range(n):
            for files in per_class:
                if i < len(files) and len(out) < n:
                    out.append(files[i])
        return out


@dataclass(frozen=True)
class DataKind:
    """One kind of data source, as everything without TensorFlow sees it."""

    name: str
    hint: Message  # one line under the kind menu
    fields: tuple[str, ...]  # DataConfig fields it reads besides kind and shard_policy: the form shows their rows
    check: Callable[[DataConfig, float], list[Problem]]  # (data, validation_split): cheap, no file opened
    inspect: Callable[[DataConfig, bool], SourceInfo]  # (data, quick): DataError naming the file and field
    file_readers: bool = False  # read by TensorFlow's file readers, so "file" sharding can split it
    shards_itself: bool = False  # shards with input_context; the run's shard policy is "off"
    limited: tuple[str, ...] = ()  # number fields held to engine.core.config.LIMITS
    labels: Mapping[str, Message] = field(default_factory=dict)  # a field's own label for this kind
    folder: bool = False  # `path` names a folder, not a file or a glob
    file_filter: Message | None = None  # the Browse dialog's file types
    names: Callable[[str], list[str]] | None = None  # column or key names in the file, for the form's choices
    user_code: bool = False  # `path` is the user's Python file (an export copies it); else data every task reads


def names_in(kind: DataKind, path: str) -> list[str]:
    """The column or key names the file at `path` holds (none when the kind has no names or no file matches);
    DataError when it cannot be read."""
    if kind.names is None or not path or not matching_files(path):
        return []
    try:
        return kind.names(path)
    except (OSError, zipfile.BadZipFile, RecordError) as exc:
        raise DataError(msg("cannot read the file: {error}", error=exc), "data.path", path) from None


def _count_ok(value: object, low: int) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= low


def classes_problems(data: DataConfig) -> list[Problem]:
    """`num_classes` of a kind that is told its classes."""
    if _count_ok(data.num_classes, 2):
        return []
    return [Problem("data.num_classes", data.num_classes, msg("must be a number >= 2 (labels are 0 .. classes-1)"))]


def samples_problems(data: DataConfig, what: str) -> list[Problem]:
    """`num_samples` of a kind that is told its examples; `what` says what they count."""
    if _count_ok(data.num_samples, 2):
        return []
    return [Problem("data.num_samples", data.num_samples, msg("must be a number >= 2: {what}", what=what))]


def files_problems(data: DataConfig, what: str) -> list[Problem]:
    """`path` of a kind read from a file or a glob of several."""
    if not data.path:
        return [Problem("data.path", data.path, msg("give the path of {what}", what=what))]
    if not matching_files(data.path):
        return [Problem("data.path", data.path, msg("no file matches ({what})", what=what))]
    return []
