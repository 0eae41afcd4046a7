"""Why the sweep's pruner stopped a trial, in words: the objective, the epoch and what it was compared with.

Optuna's pruners answer yes or no; a person looking at a pruned trial wants to know what it lost to. The
comparison is worked out here the way the pruner makes it (MedianPruner: the trial's best value so far against
the median of the completed trials at that step, a value that is not a number always loses).
"""

from __future__ import annotations

import math

import numpy as np
import optuna
from optuna.trial import TrialState

from engine.core.messages import Message, msg

PRUNED = "pruned"  # user attribute of a pruned trial: why, as engine.core.messages.to_plain gives it


def why_pruned(study: optuna.Study, pruner: str, objective: str, values: dict[int, float], epoch: int) -> Message:
    """Why the trial that reported `values` (epoch -> objective) was pruned at `epoch`, by the space's `pruner`."""
    value = values.get(epoch, math.nan)
    if not math.isfinite(value):
        return msg("its {objective} is not a number at epoch {epoch}: it diverged", objective=objective, epoch=epoch)
    if pruner == "median":
        finite = [v for v in values.values() if math.isfinite(v)]
        best = max(finite) if study.direction == optuna.study.StudyDirection.MAXIMIZE else min(finite)
        completed = study.get_trials(deepcopy=False, states=(TrialState.COMPLETE,))
        at_epoch = [t.intermediate_values[epoch] for t in completed if epoch in t.intermediate_values]
        if at_epoch:
            return msg(
                "its best {objective} so far, {value:.4g}, is worse than the median {median:.4g} of the {count} "
                "completed trials at epoch {epoch}",
                objective=objective,
                value=best,
                median=float(np.nanmedian(at_epoch)),
                count=len(at_epoch),
                epoch=epoch,
            )
    return msg(
        "its {objective} {value:.4g} at epoch {epoch} is not among the best of the trials that reached that epoch",
        objective=objective,
        value=value,
        epoch=epoch,
    )
