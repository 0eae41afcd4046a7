"""Labels as class numbers: every number 0..K-1 used, and at least two classes."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from engine.core.messages import msg
from engine.core.problems import DataError

if TYPE_CHECKING:
    import numpy as np  # at run time numpy is imported where it is used: see engine/core/data_kinds/__init__.py


def check_every_class(present: Sequence[int], source: str, field_name: str = "data.path") -> None:
    """A file's labels use every class number 0..K-1, and at least two: labels {3, 7} would otherwise
    train an 8-class model with six classes that never occur, and one class trains nothing."""
    present = sorted(present)
    if len(present) < 2:
        raise DataError(
            msg(
                "{source}: only one class ({present}) in the labels; a classifier needs at least two",
                source=source,
                present=present[0] if present else msg("none"),
            ),
            field_name,
        )
    if len(present) < present[-1] + 1:
        shown = ", ".join(str(c) for c in present[:10]) + (" …" if len(present) > 10 else "")
        wanted = ", ".join(str(c) for c in range(min(len(present), 10))) + (" …" if len(present) > 10 else "")
        raise DataError(
            msg(
                "{source}: the labels are {shown}, but classes are numbered 0, 1, 2 … with every number "
                "used; renumber them {wanted} (otherwise the model gets {present} outputs, {unused} of "
                "them for classes without an example)",
                source=source,
                shown=shown,
                wanted=wanted,
                present=present[-1] + 1,
                unused=present[-1] + 1 - len(present),
            ),
            field_name,
        )


def labels_to_classes(y: np.ndarray, source: str, field_name: str = "data.path") -> tuple[np.ndarray, int]:
    """Binary labels are 0/1; multi-class labels are class numbers 0..K-1, every one of them used."""
    import numpy as np

    if y.size == 0:
        raise DataError(msg("{source} has no examples", source=source))
    if not np.issubdtype(y.dtype, np.number):
        raise DataError(
            msg("{source}: labels are {dtype}, not class numbers 0, 1, 2, ...", source=source, dtype=y.dtype),
            field_name,
        )
    bad = ~np.isfinite(y) | (y < 0) | (y != np.round(y))
    if bad.any():
        i = int(np.argmax(bad))
        raise DataError(
            msg(
                "{source}: example {i} has label {y!r}; labels must be class numbers 0, 1, 2, ... (0/1 for binary)",
                source=source,
                i=i,
                y=y[i],
            ),
            field_name,
        )
    y = y.astype(np.int64)
    check_every_class(np.unique(y).tolist(), source, field_name)
    return y, max(int(y.max()) + 1, 2)
