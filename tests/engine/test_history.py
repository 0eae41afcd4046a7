"""Run history read back from run directories written by the real RunDir sink."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from engine.core import events as ev
from engine.core.runs.history import export_metrics, list_runs, load_curves, summarize, tensorboard_command
from engine.core.sweep import SweepPaths
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


def test_a_sweeps_trials_are_listed_with_the_runs_named_after_their_sweep(root):
    sweep = root / "20261204-150000-sweep-lr"
    sweep.mkdir()
    SweepPaths(sweep).spec.write_text("{}", encoding="utf-8")
    write_run(
        sweep,
        "trial-000",
        ev.RunFinished(status="completed", epochs_completed=1, run_dir="", time=5010.0),
        1,
        t0=5000.0,
    )
    write_run(root / "not-a-run", "inside", None, 1, t0=6000.0)  # only a sweep's folder is looked into
    runs = list_runs(root)
    assert [r.name for r in runs][:2] == ["20261204-150000-sweep-lr/trial-000", "d-killed"]
    assert summarize(sweep / "trial-000").name == "20261204-150000-sweep-lr/trial-000"
    assert len(runs) == 5


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
    from engine.core.config import DataConfig, RunConfig

    run = write_run(tmp_path, "moved-data", ev.RunFinished(status="completed", epochs_completed=2, run_dir=""))
    RunConfig(epochs=7, data=DataConfig(kind="csv", path=str(tmp_path / "gone.csv"), label="y")).save(
        run / "config.json"
    )
    assert summarize(run).epochs_planned == 7


def test_a_growing_events_file_is_read_from_where_the_last_read_stopped(tmp_path, monkeypatch):
    from engine.core.runs import events_file
    from engine.core.runs.history import RunHistory

    run = write_run(tmp_path, "live", None, 1)
    history = RunHistory(tmp_path)
    assert history.summary(run).epochs_completed == 1
    starts: list[int] = []
    lines = events_file._lines
    monkeypatch.setattr(events_file, "_lines", lambda f, start, stop: starts.append(start) or lines(f, start, stop))
    size = (run / "events.jsonl").stat().st_size
    with open(run / "events.jsonl", "a", encoding="utf-8") as f:
        f.write(ev.encode(ev.RunFinished(status="completed", epochs_completed=1, run_dir="", time=2000.0)) + "\n")
    summary = history.summary(run)
    assert starts == [size], "only the appended bytes are read"
    assert summary.status == "completed" and summary.duration == pytest.approx(1000.0)


def test_a_huge_events_file_is_read_at_its_head_and_tail_only(tmp_path, monkeypatch):
    from engine.core.runs import events_file

    monkeypatch.setattr(events_file, "CAP_BYTES", 50_000)
    monkeypatch.setattr(events_file, "HEAD_BYTES", 5_000)
    monkeypatch.setattr(events_file, "TAIL_BYTES", 10_000)
    monkeypatch.setattr(events_file, "MAX_POINTS", 100)
    run = write_run(tmp_path, "huge", None, 1)
    with open(run / "events.jsonl", "a", encoding="utf-8") as f:
        for step in range(3, 3000):
            f.write(
                ev.encode(
                    ev.BatchEnd(
                        epoch=1,
                        step=step,
                        global_step=step,
                        loss=1.0,
                        accuracy=0.5,
                        examples_per_sec=1.0,
                        time=1001.0 + step / 1000,
                    )
                )
                + "\n"
            )
        f.write(ev.encode(ev.RunFailed(message="out of memory", time=5000.0)) + "\n")
    summary = summarize(run)
    assert summary.status == "failed" and summary.message == "out of memory"
    assert summary.strategy == "mirrored" and summary.duration == pytest.approx(4000.0)
    assert any("was not read" in p for p in summary.problems)
    curves = load_curves(run)
    assert 50 <= len(curves.global_step) <= 250 and curves.thinned > 1


def test_bad_lines_and_cells_are_left_out_and_named(tmp_path):
    run = write_run(tmp_path, "edited", ev.RunFinished(status="completed", epochs_completed=2, run_dir=""), 2)
    with open(run / "events.jsonl", "a", encoding="utf-8") as f:
        f.write('{"type": "run_started", "time": "yesterday"}\n')
    (run / "metrics.csv").write_text((run / "metrics.csv").read_text().replace("0.5,", "abc,", 1))
    summary = summarize(run)
    assert summary.status == "completed" and summary.epochs_completed == 2
    assert any("not events" in p for p in summary.problems)
    assert any("holds 'abc'" in p for p in load_curves(run).problems)


def test_a_run_whose_parameter_server_died_can_be_resumed(tmp_path):
    """A killed ps task fails the chief with UnavailableError: the run was sound and its checkpoints are kept."""
    from engine.core import events as ev
    from engine.core.runs.history import summarize
    from engine.core.runs.rundir import RunDir

    def run(name: str, error_type: str) -> bool:
        run_dir = RunDir(tmp_path / name, validation=False)
        (run_dir.checkpoints / "ckpt-1.index").write_text("")
        run_dir(ev.RunFailed(message="ps 0 stopped responding", error_type=error_type))
        run_dir.close()
        return summarize(tmp_path / name).resumable

    assert run("lost-ps", "UnavailableError")
    assert not run("diverged", "NonFiniteLoss")


def test_duration_counts_the_runs_active_segments_not_the_pauses_between_resumes(tmp_path):
    """Stopped at 1003 and resumed at 5000; killed (last event 6001.5) and resumed at 9000: the hours
    between are not the run's duration, also when the resume is read after the first part."""
    from engine.core.runs.history import RunHistory

    stopped = ev.RunFinished(status="stopped", epochs_completed=1, run_dir="", time=1003.0)
    run = write_run(tmp_path, "resumed", stopped, 1, t0=1000.0)
    history = RunHistory(tmp_path)
    assert history.summary(run).duration == pytest.approx(3.0)
    write_run(tmp_path, "resumed", None, 1, t0=5000.0)  # killed: its last event is its epoch's end, 5001.5
    write_run(
        tmp_path,
        "resumed",
        ev.RunFinished(status="completed", epochs_completed=3, run_dir="", time=9010.0),
        3,
        t0=9000.0,
    )
    expected = 3.0 + 1.5 + 10.0
    assert history.summary(run).duration == pytest.approx(expected)
    assert summarize(run).duration == pytest.approx(expected)


def test_a_long_run_is_thinned_for_plotting_whatever_its_files_size(tmp_path, monkeypatch):
    """Every point reaches pyqtgraph on the GUI thread, where a plot's first paint costs about its points:
    a run of more batches than MAX_POINTS is thinned evenly, also when its file is under CAP_BYTES."""
    from engine.core.runs import events_file

    monkeypatch.setattr(events_file, "MAX_POINTS", 500)
    run = write_run(tmp_path, "long", None, 1)
    with open(run / "events.jsonl", "a", encoding="utf-8") as f:
        for step in range(3, 3000):
            batch = ev.BatchEnd(
                epoch=1, step=step, global_step=step, loss=1.0, accuracy=0.5, examples_per_sec=1.0, time=1001.0 + step
            )
            f.write(ev.encode(batch) + "\n")
    assert (run / "events.jsonl").stat().st_size < events_file.CAP_BYTES
    curves = load_curves(run)
    assert 250 <= len(curves.global_step) <= 750 and curves.thinned > 1
    assert not curves.problems  # a long run is thinned for plotting: nothing is wrong with it
