"""Run history read back from run directories written by the real RunDir sink."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from engine import events as ev
from engine.history import export_metrics, list_runs, load_curves, summarize, tensorboard_command
from tests.run_fixtures import write_run


@pytest.fixture
def root(tmp_path):
    write_run(tmp_path, "a-done", ev.RunFinished(status="completed", epochs_completed=3, run_dir="", time=1010.0), 3)
    write_run(
        tmp_path,
        "b-stopped",
        ev.RunFinished(status="stopped", epochs_completed=1, run_dir="", time=2010.0),
        1,
        t0=2000.0,
    )
    write_run(tmp_path, "c-failed", ev.RunFailed(message="loss became nan", time=3010.0), 2, t0=3000.0)
    write_run(tmp_path, "d-killed", None, 1, t0=4000.0)
    (tmp_path / "not-a-run").mkdir()
    return tmp_path


def test_list_runs_newest_first_with_status(root):
    runs = list_runs(root)
    assert [r.name for r in runs] == ["d-killed", "c-failed", "b-stopped", "a-done"]
    assert [r.status for r in runs] == ["interrupted", "failed", "stopped", "completed"]
    failed = runs[1]
    assert failed.message == "loss became nan" and failed.epochs_completed == 2
    done = runs[3]
    assert (done.strategy, done.replicas, done.loop, done.epochs_planned) == ("mirrored", 2, "fit", 3)
    assert done.final["loss"] == pytest.approx(1 / 3) and done.duration == pytest.approx(10.0)


def test_resumable_needs_a_checkpoint(root):
    stopped = summarize(root / "b-stopped")
    assert not stopped.resumable
    (root / "b-stopped" / "checkpoints" / "ckpt-1.index").write_bytes(b"")
    assert summarize(root / "b-stopped").resumable


def test_curves_have_batch_and_epoch_series(root):
    curves = load_curves(root / "a-done")
    assert curves.global_step == [1, 2, 3, 4, 5, 6]
    assert curves.time[0] == pytest.approx(1.1) and len(curves.epochs) == 3
    assert curves.epochs[1]["val_loss"] == pytest.approx(0.55)


def test_export_metrics_of_several_runs(root, tmp_path):
    out = export_metrics([root / "a-done", root / "b-stopped"], tmp_path / "all.csv")
    with open(out, newline="") as f:
        rows = list(csv.DictReader(f))
    assert [r["run"] for r in rows] == ["a-done"] * 3 + ["b-stopped"]
    assert rows[0].keys() >= {"run", "epoch", "loss", "val_loss"}


def test_tensorboard_command_is_quoted():
    assert tensorboard_command([Path("/r/my run")]) == "tensorboard --logdir '/r/my run/tensorboard'"
    both = tensorboard_command([Path("/r/a"), Path("/r/b")])
    assert both == "tensorboard --logdir_spec a:/r/a/tensorboard,b:/r/b/tensorboard"


def test_a_run_whose_data_file_has_moved_keeps_its_planned_epochs(tmp_path):
    """Its config no longer validates (no such CSV file), but it is still read as it was written."""
    from engine.config import DataConfig, RunConfig

    run = write_run(tmp_path, "moved-data", ev.RunFinished(status="completed", epochs_completed=2, run_dir=""))
    RunConfig(epochs=7, data=DataConfig(kind="csv", path=str(tmp_path / "gone.csv"), label="y")).save(
        run / "config.json"
    )
    assert summarize(run).epochs_planned == 7


def test_a_run_whose_parameter_server_died_can_be_resumed(tmp_path):
    """A killed ps task fails the chief with UnavailableError: the run was sound and its checkpoints are kept."""
    from engine import events as ev
    from engine.history import summarize
    from engine.rundir import RunDir

    def run(name: str, error_type: str) -> bool:
        run_dir = RunDir(tmp_path / name, validation=False)
        (run_dir.checkpoints / "ckpt-1.index").write_text("")
        run_dir(ev.RunFailed(message="ps 0 stopped responding", error_type=error_type))
        run_dir.close()
        return summarize(tmp_path / name).resumable

    assert run("lost-ps", "UnavailableError")
    assert not run("diverged", "NonFiniteLoss")
