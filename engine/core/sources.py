"""What a data source holds, found without TensorFlow, and how a run splits it across workers.

The trainer checks every row, header and record before TensorFlow starts (`inspect(config)`), so a bad file is
named in a second; the window's preview reads a bounded sample as the user types (`quick=True`). Files are
streamed, never loaded whole; each kind reads its own source (engine.core.data_kinds.<kind>).
"""

from __future__ import annotations

from pathlib import Path

from engine.core.config import RunConfig
from engine.core.data_kinds import data_kind
from engine.core.data_kinds.base import SourceInfo
from engine.core.messages import msg
from engine.core.problems import DataError, Problem


def inspect(config: RunConfig, *, quick: bool = False) -> SourceInfo:
    """The source of `config.data`; DataError with one clear line when it cannot train."""
    data = config.data
    kind = data_kind(data.kind)
    if kind is None:
        raise DataError(msg("unknown data.kind {kind!r}", kind=data.kind), "data.kind", data.kind)
    return kind.inspect(data, quick)


def split_sizes(examples: int, validation_split: float) -> tuple[int, int]:
    """(training, validation) examples: the last share validates, as Keras's validation_split does."""
    n_val = int(examples * validation_split)
    return examples - n_val, n_val


def check_fits_batch(info: SourceInfo, validation_split: float, global_batch: int) -> None:
    if info.examples is None:
        return
    n_train, _ = split_sizes(info.examples, validation_split)
    if n_train < global_batch:
        raise DataError(
            msg(
                "{info}: {n_train} training examples are fewer than one global batch of {global_batch}; "
                "use more data or a smaller global_batch_size",
                info=describe(info),
                n_train=n_train,
                global_batch=global_batch,
            ),
            "global_batch_size",
            global_batch,
        )


def describe(info: SourceInfo) -> str:
    """The source as a message names it: its file, its files' folder, or its kind when it has no files."""
    if not info.files:
        return msg("{kind} data", kind=info.kind)
    return f"{info.kind} {info.files[0] if len(info.files) == 1 else Path(info.files[0]).parent}"


# ---- sharding -----------------------------------------------------------------------------


def resolve_shard_policy(policy: str, info: SourceInfo, workers: int, validation_split: float) -> str:
    """The policy a run uses: "auto" is decided here, before TensorFlow, so it is the same on every
    worker and can be explained (file when every worker gets a file and no validation split must be
    cut from the same rows, else data)."""
    kind = data_kind(info.kind)
    if kind is not None and kind.shards_itself:
        return "off"
    if policy != "auto":
        return policy
    if kind is not None and kind.file_readers and len(info.files) >= workers > 1 and validation_split == 0:
        return "file"
    return "data"


def sharding_workers(strategy: str, workers: int) -> int:
    """Across how many workers the data is split. parameter_server: none; each worker streams the whole
    set in its own order and the coordinator counts an epoch's steps (so the set is read as for one)."""
    return 1 if strategy == "parameter_server" else workers


def shard_problem(policy: str, info: SourceInfo, workers: int) -> Problem | None:
    """`file` needs at least as many files as workers (TensorFlow gives each worker whole files)."""
    if policy == "file" and workers > len(info.files):
        return Problem(
            "data.shard_policy",
            "file",
            msg(
                "{workers} workers need at least {workers} files to split by file, and data.path matches "
                "{n_files}; split the data into more files, or use data",
                workers=workers,
                n_files=len(info.files),
            ),
        )
    return None


def worker_examples(info: SourceInfo, policy: str, workers: int) -> int:
    """Examples of the worker with the fewest (file sharding gives file i to worker i mod workers)."""
    if policy != "file" or workers <= 1:
        return info.examples or 0
    return min(sum(info.file_examples[w::workers]) for w in range(workers))
