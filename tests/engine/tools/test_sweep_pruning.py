"""A pruned trial says why: its objective, the epoch and what it lost to, in the events, `--status` and the report;
a sweep folder written before trials said why still reads."""

from __future__ import annotations

import math

import optuna

from engine.core import events as ev
from engine.core.config import DataConfig, RunConfig
from engine.core.messages import to_plain
from engine.core.sweep import SweepPaths, TrialStatus
from engine.core.sweep.space import parse_space
from engine.tools import sweep
from engine.tools.sweep_cli import report
from engine.tools.sweep_pruning import why_pruned
from tests.sweep_fixtures import make_study

BASE = RunConfig(strategy="default", epochs=4, validation_split=0.25, data=DataConfig(num_samples=256))
RAW = {"parameters": {"learning_rate": {"log_uniform": [0.001, 10.0]}}, "trials": 4, "pruner": "median"}


def test_a_trial_pruned_by_the_median_says_its_best_value_and_the_median_it_lost_to(tmp_path):
    study = sweep.study_for(parse_space(RAW, BASE), SweepPaths(tmp_path), BASE.epochs)
    for curve in ({1: 0.5, 2: 0.4}, {1: 0.6, 2: 0.5}):
        done = study.ask()
        for epoch, value in curve.items():
            done.report(value, epoch)
        study.tell(done, curve[2])
    diverging = study.ask()
    values = {1: 3.0, 2: 2.5}
    for epoch, value in values.items():
        diverging.report(value, epoch)
    assert diverging.should_prune()  # the pruner's own verdict, which the words explain
    said = why_pruned(study, "median", "val_loss", values, 2)
    assert said == "its best val_loss so far, 2.5, is worse than the median 0.45 of the 2 completed trials at epoch 2"
    diverged = why_pruned(study, "median", "val_loss", {1: 3.0, 2: math.nan}, 2)
    assert diverged == "its val_loss is not a number at epoch 2: it diverged"
    assert "not among the best" in why_pruned(study, "halving", "val_loss", values, 2)


def test_the_status_of_a_sweep_says_why_a_trial_was_pruned_and_an_older_sweep_folder_still_reads(tmp_path):
    why = why_pruned(optuna.create_study(), "median", "val_loss", {1: 9.0}, 1)
    make_study(tmp_path / "new", BASE, RAW, pruned_why=to_plain(why))
    make_study(tmp_path / "old", BASE, RAW)  # written before trials said why
    for folder, expected in ((tmp_path / "new", str(why)), (tmp_path / "old", "")):
        said: list[ev.Event] = []
        sweep.status(folder, said.append)
        pruned = [e for e in said if isinstance(e, ev.SweepTrial) and e.state == TrialStatus.PRUNED]
        assert [(e.number, e.epoch, e.message) for e in pruned] == [(1, 1, expected)]
        assert pruned[0].message_template == to_plain(why) if expected else pruned[0].message_template == {}
        line = next(line for line in report(folder).splitlines() if line.split()[:2] == ["1", "pruned"])
        assert line.endswith(f"(pruned: {why})") if expected else line.rstrip().endswith("{'learning_rate': 5.0}")
