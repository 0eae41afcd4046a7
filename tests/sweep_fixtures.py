"""A sweep's folder as a sweep process leaves it, written with Optuna directly (no trainer runs)."""

from __future__ import annotations

import json
from pathlib import Path

from engine.core.config import RunConfig
from engine.core.sweep import SweepPaths
from engine.core.sweep.space import parse_space


def make_study(sweep_dir: Path, base: RunConfig, raw_space: dict, pruned_why: dict | None = None) -> None:
    """A sweep's folder as a sweep process leaves it: its spec and its study, two trials finished, one training.
    Trial 1 is pruned; `pruned_why` is why (engine.core.messages.to_plain), none in a folder of an earlier sweep."""
    import optuna
    from optuna.distributions import FloatDistribution
    from optuna.trial import TrialState, create_trial

    from engine.tools.sweep import study_for

    sweep_dir.mkdir()
    paths = SweepPaths(sweep_dir)
    paths.spec.write_text(json.dumps({"base": base.to_dict(), "space": raw_space}), encoding="utf-8")
    study = study_for(parse_space(raw_space, base), paths, base.epochs)
    rate = {"learning_rate": FloatDistribution(0.001, 10.0, log=True)}
    for number, (lr, state, values) in enumerate(
        [(0.01, TrialState.COMPLETE, [0.9, 0.5]), (5.0, TrialState.PRUNED, [9.0]), (0.02, TrialState.RUNNING, [0.8])]
    ):
        study.add_trial(
            create_trial(
                params={"learning_rate": lr},
                distributions=rate,
                value=values[-1] if state == TrialState.COMPLETE else None,
                intermediate_values=dict(enumerate(values, start=1)),
                state=state,
                user_attrs={
                    "run_dir": str(paths.trial_dir(number)),
                    "devices": "CPU",
                    **({"pruned": pruned_why} if pruned_why and state == TrialState.PRUNED else {}),
                },
            )
        )
    assert len(study.trials) == 3 and optuna.__version__
