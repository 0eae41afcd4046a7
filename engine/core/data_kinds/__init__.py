"""The kinds of data a run can read, one module each; `data_kind` picks the one a config names.

Each module holds its kind's fields, checks, inspection, preview and form (base.DataKind), all TensorFlow-free;
its input pipeline is engine.train.datasets. NumPy is imported inside the readers, never at module load:
`tfdd cluster launch` imports these modules and must stay one thread to isolate its workers' network (unshare
needs a single thread; NumPy's BLAS starts threads on import).
"""

from __future__ import annotations

from engine.core.data_kinds import csv, image_folder, npz, python, synthetic, tfrecord
from engine.core.data_kinds.base import SHARD_POLICIES, DataConfig, DataKind
from engine.core.messages import msg
from engine.core.problems import Problem

KINDS: dict[str, DataKind] = {
    kind.name: kind for kind in (synthetic.KIND, csv.KIND, npz.KIND, image_folder.KIND, tfrecord.KIND, python.KIND)
}
DATA_KINDS = tuple(KINDS)


def data_kind(name: object) -> DataKind | None:
    """The kind called `name`; None for a name that is not one."""
    return KINDS.get(name) if isinstance(name, str) else None


def validate_data(data: DataConfig, validation_split: float) -> list[Problem]:
    """Every problem of the data section that needs no look inside the files (the form runs it per keystroke)."""
    kind = data_kind(data.kind)
    if kind is None:
        return [Problem("data.kind", data.kind, msg("must be one of: {data_kinds}", data_kinds=", ".join(DATA_KINDS)))]
    return _shard_problems(data, kind, validation_split) + kind.check(data, validation_split)


def _shard_problems(data: DataConfig, kind: DataKind, validation_split: float) -> list[Problem]:
    if data.shard_policy not in SHARD_POLICIES:
        return [
            Problem(
                "data.shard_policy",
                data.shard_policy,
                msg("must be one of: {shard_policies}", shard_policies=", ".join(SHARD_POLICIES)),
            )
        ]
    if data.shard_policy == "file" and not kind.file_readers:
        return [
            Problem(
                "data.shard_policy",
                "file",
                msg(
                    "a {kind} source is not read by TensorFlow's file readers, so it cannot be split by "
                    "file; use data or auto (file works for csv and tfrecord)",
                    kind=data.kind,
                ),
            )
        ]
    if data.shard_policy == "file" and validation_split > 0:
        return [
            Problem(
                "data.shard_policy",
                "file",
                msg(
                    "with file sharding each worker reads different files, so a validation split cannot be "
                    "cut the same on every worker; use data, or validation_split 0"
                ),
            )
        ]
    return []
