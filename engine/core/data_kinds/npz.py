"""npz: arrays `features_key` (examples x features) and `labels_key` (examples) in one numpy.savez file.

The features' shape and type come from the array header, not the array;
the labels are read whole (one number per example) and checked as class
numbers. The trainer reads the file into memory (engine.train.datasets.arrays).
"""

from __future__ import annotations

import zipfile
from pathlib import Path
from typing import TYPE_CHECKING

from engine.core.data_kinds.base import DataConfig, DataKind, SourceInfo
from engine.core.data_kinds.labels import labels_to_classes
from engine.core.messages import msg
from engine.core.problems import DataError, Problem
from engine.core.user_code import file_problem

if TYPE_CHECKING:
    import numpy as np  # at run time numpy is imported where it is used: see engine/core/data_kinds/__init__.py

NPY_MAGIC = b"\x93NUMPY"  # numpy.save's files start with it; numpy.savez writes a zip of them


def check(data: DataConfig, validation_split: float) -> list[Problem]:
    problem = file_problem("data.path", data.path, msg("an .npz file"))
    return [problem] if problem else []


def inspect(data: DataConfig, quick: bool) -> SourceInfo:
    import numpy as np

    path = str(Path(str(data.path)).expanduser())
    source = msg("NPZ file {path}", path=data.path)
    try:
        with open(path, "rb") as f:
            single_array = f.read(len(NPY_MAGIC)) == NPY_MAGIC
    except OSError as exc:
        raise DataError(
            msg("{source} cannot be read ({value}); check data.path", source=source, value=exc.strerror or exc)
        ) from None
    if single_array:
        raise DataError(
            msg(
                "{source} holds a single array (.npy), not named arrays of features and labels; save "
                "them with numpy.savez(path, x=features, y=labels)",
                source=source,
            )
        )
    shape, dtype, y = _read(path, data, source)
    if not np.issubdtype(dtype, np.number):
        raise DataError(
            msg("{source}: features are {dtype}, not numbers", source=source, dtype=dtype),
            "data.features_key",
            data.features_key,
        )
    shape = tuple(shape) if len(shape) > 1 else (shape[0], 1)
    if y.ndim != 1 or shape[0] != len(y) or len(shape) != 2:
        raise DataError(
            msg(
                "{source}: features must be (samples, features) and labels (samples,); got {shape} and {shape2}",
                source=source,
                shape=shape,
                shape2=y.shape,
            )
        )
    y, k = labels_to_classes(y, source, "data.labels_key")
    counts = np.bincount(y, minlength=k)
    names = tuple(map(str, range(k)))
    return SourceInfo("npz", len(y), (shape[1],), k, names, tuple(int(c) for c in counts), files=(path,))


def _read(path: str, data: DataConfig, source: str) -> tuple[tuple[int, ...], np.dtype, np.ndarray]:
    """(features' shape, features' type, labels): the features' header only, the labels whole."""
    import numpy as np

    try:
        with zipfile.ZipFile(path) as z, np.load(path, allow_pickle=False) as npz:
            names = _array_names(z)
            missing = [k for k in (data.features_key, data.labels_key) if k not in names]
            if missing:
                raise DataError(
                    msg(
                        "{source} has no array {missing!r}; its arrays are: {value} (set data.features_key and "
                        "data.labels_key)",
                        source=source,
                        missing=missing[0],
                        value=", ".join(names) or msg("none"),
                    ),
                    "data.features_key" if missing[0] == data.features_key else "data.labels_key",
                    missing[0],
                )
            with z.open(data.features_key + ".npy") as f:
                major, _ = np.lib.format.read_magic(f)
                read_header = np.lib.format.read_array_header_1_0 if major == 1 else np.lib.format.read_array_header_2_0
                shape, _, dtype = read_header(f)  # the header only, not the array
            return shape, dtype, np.asarray(npz[data.labels_key])
    except DataError:
        raise
    except (zipfile.BadZipFile, ValueError, OSError, KeyError) as exc:
        raise DataError(
            msg("{source} cannot be read ({exc}); save it with numpy.savez", source=source, exc=exc)
        ) from None


def _array_names(z: zipfile.ZipFile) -> list[str]:
    return [n[:-4] if n.endswith(".npy") else n for n in z.namelist()]


def keys(path: str) -> list[str]:
    """Array names in an .npz file, read from the zip directory without loading arrays."""
    with zipfile.ZipFile(path) as z:
        return _array_names(z)


KIND = DataKind(
    name="npz",
    hint=msg("NumPy arrays of features and labels, read into memory"),
    fields=("path", "features_key", "labels_key"),
    check=check,
    inspect=inspect,
    file_filter=msg("NumPy archives (*.npz);;All files (*)"),
    names=keys,
)
