"""Sweeps with real trainers on tiny data: a grid on two slots, pruning, and a sweep killed and resumed."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from pathlib import Path

import optuna
import pytest
from optuna.trial import TrialState

from engine.core import events as ev
from engine.core.config import CheckpointConfig, RunConfig
from engine.core.protocol.paths import RunPaths
from engine.core.runs.rundir import read_metrics
from engine.core.runs.runlock import holder
from engine.core.sweep import SweepPaths, TrialStatus
from engine.core.sweep.space import parse_space
from engine.tools import sweep

pytestmark = pytest.mark.slow

BASE = RunConfig.from_dict(
    {
        "strategy": "default",
        "epochs": 2,
        "global_batch_size": 32,
        "validation_split": 0.25,
        "data": {"kind": "synthetic", "num_samples": 512, "num_features": 8},
    }
)
UNCONTINUED = BASE.replace(checkpoint=CheckpointConfig(every_epoch=False))  # for sweeps no test continues
GRID = {
    "parameters": {"learning_rate": {"choice": [0.001, 0.01]}, "model.hidden_units": {"choice": [[8], [16]]}},
    "method": "grid",
    "trials": 4,
    "concurrency": 2,
    "pruner": "none",
}


def completed_params(sweep_dir) -> list[dict]:
    study = optuna.load_study(study_name="sweep", storage=f"sqlite:///{SweepPaths(sweep_dir).study}")
    return [t.params for t in study.get_trials(states=(TrialState.COMPLETE,))]


def test_a_grid_of_four_on_two_slots_gives_four_runs_and_the_best_trial(tmp_path):
    said = []
    trials = sweep.start(tmp_path / "sweep", UNCONTINUED, parse_space(GRID, BASE), [], on_event=said.append)
    events = [e for e in said if isinstance(e, ev.SweepTrial)]
    assert sorted(t.state.name for t in trials) == ["COMPLETE"] * 4
    points = sorted((p["learning_rate"], p["model.hidden_units"]) for p in completed_params(tmp_path / "sweep"))
    assert points == [(0.001, "[16]"), (0.001, "[8]"), (0.01, "[16]"), (0.01, "[8]")]
    final = {}
    for t in trials:
        run = RunPaths(Path(t.user_attrs["run_dir"]))
        rows = read_metrics(run.metrics)
        assert [r["epoch"] for r in rows] == ["1", "2"]
        final[t.number] = float(rows[-1]["val_loss"])
        assert t.value == pytest.approx(final[t.number])
    best = min(final, key=final.get)
    study = optuna.load_study(study_name="sweep", storage=f"sqlite:///{SweepPaths(tmp_path / 'sweep').study}")
    assert study.best_trial.number == best
    summaries = [e for e in said if isinstance(e, ev.SweepSummary)]
    assert [s.finished for s in summaries] == [1, 2, 3, 4]  # one after each finished trial
    assert summaries[0].importance == {} and summaries[0].importance_note
    last = summaries[-1]
    assert (last.best_number, last.budget) == (best, 4)
    assert last.best_value == pytest.approx(final[best])
    assert last.best_run_dir == str(tmp_path / "sweep" / f"trial-{best:03d}")
    assert isinstance(last.best_params["model.hidden_units"], list)  # as the config holds it
    assert last.importance_method == "PED-ANOVA"
    assert set(last.importance) == {"learning_rate", "model.hidden_units"}
    assert sum(last.importance.values()) == pytest.approx(1.0)
    started = [e for e in events if e.state == TrialStatus.RUNNING and not e.epoch]
    assert len(started) == 4 and {e.devices for e in started} == {"CPU"}
    running_at_once = max(
        sum(1 for e in events[: i + 1] if e.state == TrialStatus.RUNNING and not e.epoch)
        - sum(1 for e in events[: i + 1] if e.state == TrialStatus.COMPLETED)
        for i in range(len(events))
    )
    assert running_at_once == 2
    assert "_hparams_/experiment" in summary_tags(tmp_path / "sweep")  # TensorBoard's HParams dashboard
    assert "_hparams_/session_start_info" in summary_tags(RunPaths(tmp_path / "sweep" / "trial-000").tensorboard)


def summary_tags(folder: Path) -> set[str]:
    from tensorboard.backend.event_processing.event_file_loader import EventFileLoader

    tags = set()
    for events in folder.glob("events.out.tfevents.*"):
        for event in EventFileLoader(str(events)).Load():
            tags |= {v.tag for v in event.summary.value}
    return tags


def test_a_trial_whose_learning_rate_diverges_is_pruned_once_its_first_quarter_of_epochs_is_over(tmp_path):
    space = parse_space(
        {
            "parameters": {"learning_rate": {"choice": [0.01, 0.02, 8.0]}},
            "method": "grid",
            "trials": 3,
            "concurrency": 1,
            "pruner": "median",
        },
        BASE,
    )
    said = []
    trials = sweep.start(tmp_path / "sweep", UNCONTINUED.replace(epochs=8), space, [], on_event=said.append)
    by_rate = {t.params["learning_rate"]: t for t in trials}
    assert by_rate[0.01].state == by_rate[0.02].state == TrialState.COMPLETE
    diverged = by_rate[8.0]
    assert diverged.state == TrialState.PRUNED and diverged.last_step == 3  # epochs 1-2 of 8 are not judged
    pruned = [e for e in said if isinstance(e, ev.SweepTrial) and e.state == TrialStatus.PRUNED]
    assert len(pruned) == 1 and pruned[0].message_template, pruned  # why, in words the window translates
    assert "val_loss" in pruned[0].message and "median" in pruned[0].message and "epoch 3" in pruned[0].message
    assert pruned[0].epoch == 3
    rows = read_metrics(RunPaths(Path(diverged.user_attrs["run_dir"])).metrics)
    # it stops at the first chance after the verdict; epochs of milliseconds may finish one or two more first
    assert 3 <= len(rows) < 8


def test_a_trial_that_finished_its_epochs_as_the_sweep_stopped_counts_as_completed(tmp_path):
    """A stop that reaches the trainer after its last epoch: the run is complete, so the trial is (a resume would
    find nothing to train, and failed it as "the objective is not a number")."""
    space = parse_space({**GRID, "trials": 2, "concurrency": 1}, BASE)
    said: list = []

    def last_epoch_seen() -> bool:
        return any(isinstance(e, ev.SweepTrial) and e.epoch == BASE.epochs for e in said)

    sweep.start(tmp_path / "sweep", BASE, space, [], on_event=said.append, should_stop=last_epoch_seen)
    study = optuna.load_study(study_name="sweep", storage=f"sqlite:///{SweepPaths(tmp_path / 'sweep').study}")
    first = study.get_trials()[0]
    assert first.state == TrialState.COMPLETE, [
        (e.number, e.state, e.epoch) for e in said if isinstance(e, ev.SweepTrial)
    ]
    assert {t.state for t in study.get_trials()[1:]} == {TrialState.WAITING}  # the grid's rest, none started
    last = [e for e in said if isinstance(e, ev.SweepTrial)][-1]
    assert last.number == 0 and last.state == TrialStatus.COMPLETED


class SweepKilled(Exception):
    """Raised from the sweep's sink: the sweep process dies there, its trainer goes on."""


def test_a_resumed_trial_whose_run_folder_is_complete_is_completed_with_the_objective_from_its_metrics(tmp_path):
    """The trainer finished its last epoch but the sweep died before it recorded the trial: the resume reads the
    objective from the run folder (a trainer would find nothing to train) and the epochs go to Optuna too."""
    out = tmp_path / "sweep"
    space = parse_space({**GRID, "parameters": {"learning_rate": {"choice": [0.01]}}, "trials": 1}, BASE)

    def dies_at_the_last_epoch(event: ev.Event) -> None:
        if isinstance(event, ev.SweepTrial) and event.epoch == BASE.epochs:
            raise SweepKilled

    with pytest.raises(SweepKilled):
        sweep.start(out, BASE, space, [], on_event=dies_at_the_last_epoch)
    deadline = time.monotonic() + 60
    while holder(RunPaths(out / "trial-000")) is not None:  # its trainer ends its run on its own
        assert time.monotonic() < deadline, "the trainer still holds trial 0"
        time.sleep(0.05)
    said: list = []
    sweep.resume(out, [], on_event=said.append)
    trials = [e for e in said if isinstance(e, ev.SweepTrial)]
    assert [(e.number, e.state) for e in trials] == [(0, TrialStatus.INTERRUPTED), (1, TrialStatus.COMPLETED)]
    rows = read_metrics(RunPaths(out / "trial-000").metrics)
    study = optuna.load_study(study_name="sweep", storage=f"sqlite:///{SweepPaths(out).study}")
    continued = study.get_trials()[1]
    assert continued.state == TrialState.COMPLETE and continued.value == float(rows[-1]["val_loss"])
    assert continued.intermediate_values == {int(r["epoch"]): float(r["val_loss"]) for r in rows}
    assert trials[-1].value == continued.value and trials[-1].epoch == BASE.epochs


def test_a_sweep_killed_mid_way_continues_with_resume_and_finishes_every_trial_once(tmp_path):
    base, space, out = tmp_path / "base.json", tmp_path / "space.json", tmp_path / "sweep"
    BASE.replace(epochs=3).save(base)
    three = {"learning_rate": {"choice": [0.001, 0.003, 0.01]}}
    space.write_text(json.dumps({**GRID, "parameters": three, "trials": 3, "concurrency": 1}), encoding="utf-8")
    command = [sys.executable, "-m", "engine.cli", "sweep", "--config", str(base), "--space", str(space)]
    process = subprocess.Popen(
        [*command, "--out", str(out), "--events"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )
    try:
        for line in process.stdout:  # kill it while its second trial trains, once that has a checkpoint
            event = json.loads(line)
            if event["type"] == "sweep_trial" and event["number"] == 1 and event["epoch"] >= 2:
                break
        process.send_signal(signal.SIGKILL)
    finally:
        process.wait(timeout=60)
    assert len(completed_params(out)) == 1
    deadline = time.monotonic() + 60
    while holder(RunPaths(out / "trial-001")) is not None:  # its trainer dies with the sweep, a moment later
        assert time.monotonic() < deadline, "the killed sweep's trainer still holds trial 1"
        time.sleep(0.05)
    done = subprocess.run(
        [sys.executable, "-m", "engine.cli", "sweep", "--resume", str(out)], capture_output=True, text=True, timeout=600
    )
    assert done.returncode == 0, done.stderr
    params = completed_params(out)
    assert sorted(p["learning_rate"] for p in params) == [0.001, 0.003, 0.01]  # each exactly once
    study = optuna.load_study(study_name="sweep", storage=f"sqlite:///{SweepPaths(out).study}")
    continued = [t for t in study.get_trials() if "continues" in t.user_attrs]
    assert [t.user_attrs["continues"] for t in continued] == [1]
    assert continued[0].user_attrs["run_dir"].endswith("trial-001")  # resumed from its checkpoint
    assert set(continued[0].intermediate_values) == {1, 2, 3}, "its folder's epochs, then the resumed one, judged"
    assert "already reported" not in done.stderr, "an epoch trained again after the checkpoint is reported once"
    assert {r["epoch"] for r in read_metrics(RunPaths(out / "trial-001").metrics)} == {"1", "2", "3"}
    assert "trial 1 interrupted" in done.stderr
    assert "trial 0 completed" in done.stderr  # the resumed sweep says first what it already holds


def test_a_sweep_of_eight_with_one_diverging_trial_prunes_that_one_and_not_half_the_good_ones(tmp_path):
    """The two best trials come first, so every good trial after them starts behind: judged against the median of
    two finished trials, nearly all were pruned at their first epoch."""
    best, slower = [0.03, 0.02], [0.01, 0.012, 0.014, 0.016, 0.018]  # all converge; the larger rates faster
    space = parse_space(
        {
            "parameters": {"learning_rate": {"choice": [*best, *slower[:3], 8.0, *slower[3:]]}},
            "method": "grid",
            "trials": 8,
            "concurrency": 2,
            "pruner": "median",
        },
        BASE,
    )
    trials = sweep.start(tmp_path / "sweep", UNCONTINUED.replace(epochs=4), space, [])
    by_rate = {t.params["learning_rate"]: t for t in trials}
    assert by_rate[8.0].state == TrialState.PRUNED
    pruned_good = [rate for rate in best + slower if by_rate[rate].state == TrialState.PRUNED]
    assert len(pruned_good) < len(best + slower) / 2, pruned_good
