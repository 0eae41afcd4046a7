"""synthetic: the tutorial's data, random normal features with labels from a random linear rule.

Deterministic under the run's seed (engine.train.datasets.arrays makes it);
num_classes 2 gives binary labels, more gives multi-class labels.
"""

from __future__ import annotations

from engine.core.data_kinds.base import DataConfig, DataKind, SourceInfo, classes_problems, samples_problems
from engine.core.messages import msg
from engine.core.problems import Problem


def check(data: DataConfig, validation_split: float) -> list[Problem]:
    p = classes_problems(data) + samples_problems(data, msg("examples"))
    if not isinstance(data.num_features, int) or isinstance(data.num_features, bool) or data.num_features < 1:
        p.append(Problem("data.num_features", data.num_features, msg("must be a number >= 1")))
    return p


def inspect(data: DataConfig, quick: bool) -> SourceInfo:
    return SourceInfo("synthetic", data.num_samples, (data.num_features,), max(data.num_classes, 2))


KIND = DataKind(
    name="synthetic",
    hint=msg("the tutorial's random data"),
    fields=("num_samples", "num_features", "num_classes"),
    check=check,
    inspect=inspect,
    limited=("num_samples", "num_features", "num_classes"),
)
