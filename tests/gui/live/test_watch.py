"""Watching a run another process trains, from the Runs tab: the Live tab follows its folder as it grows."""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QMessageBox

from engine.core import events as ev
from engine.core.protocol.paths import RunPaths
from engine.core.runs.rundir import read_events
from engine.core.runs.runlock import RunLock
from engine.core.runs.safe_files import atomic_write_bytes
from gui.main_window import MainWindow
from tests.engine.train.worker_process import REPO, base_config, env, write_config
from tests.gui.runs.panel_helpers import refresh

FAKE_TRAINER = Path(__file__).parents[1] / "fake_trainer.py"
WAIT_MS = 180_000


class Trainer:
    """A process training a run into its folder, as a terminal's `tfdd train` does; ended after the test."""

    def __init__(self, command: list[str], run_dir: Path, events_to_file: bool = False) -> None:
        self.run_dir = run_dir
        run_dir.mkdir(parents=True, exist_ok=True)
        out = open(RunPaths(run_dir).events, "ab") if events_to_file else subprocess.DEVNULL  # noqa: SIM115
        self.proc = subprocess.Popen(
            command, cwd=REPO, env=env(), stdin=subprocess.PIPE, stdout=out, stderr=subprocess.DEVNULL
        )
        if events_to_file:
            out.close()

    def end(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait(30)
        if self.proc.stdin is not None:
            self.proc.stdin.close()


@pytest.fixture
def trainers():
    started: list[Trainer] = []
    yield started
    for trainer in started:
        trainer.end()


def tfdd_train(tmp_path: Path, runs: Path, trainers: list[Trainer], **config) -> Trainer:
    path = write_config(tmp_path, base_config(**config))
    trainer = Trainer(
        [sys.executable, "main.py", "train", "--config", str(path), "--run-dir", str(runs / "cli")], runs / "cli"
    )
    trainers.append(trainer)
    return trainer


def fake_run(runs: Path, trainers: list[Trainer], name: str, *args: str) -> Trainer:
    """The fake trainer writing its events into its run folder (it holds the run's lock, as a trainer does)."""
    run_dir = runs / name
    command = [sys.executable, str(FAKE_TRAINER), "normal", "--run-dir", str(run_dir), *args]
    trainer = Trainer(command, run_dir, events_to_file=True)
    trainers.append(trainer)
    return trainer


def watch_from_runs_tab(qtbot, window: MainWindow, run_dir: Path, double_click: bool = False) -> None:
    """Select the run in the Runs tab once it shows as training, and click Watch live (or double-click it)."""
    window.tabs.setCurrentWidget(window.runs)

    def training() -> bool:
        refresh(qtbot, window.runs)
        row = window.runs.summary_of(run_dir)
        return row is not None and row.holder is not None

    qtbot.waitUntil(training, timeout=WAIT_MS)
    window.runs.select_paths([run_dir])
    assert window.runs.watch_button.isEnabled(), window.runs.watch_button.toolTip()
    if double_click:
        table = window.runs.table
        row = table.visualRect(table.selectionModel().selectedRows()[0]).center()
        qtbot.mouseClick(table.viewport(), Qt.MouseButton.LeftButton, pos=row)  # a double-click begins as one
        qtbot.mouseDClick(table.viewport(), Qt.MouseButton.LeftButton, pos=row)
    else:
        qtbot.mouseClick(window.runs.watch_button, Qt.MouseButton.LeftButton)
    assert window.tabs.currentWidget() is window.live_tab
    assert window.watching.banner.isVisible() and run_dir.name in window.watching.banner.label.text()


@pytest.mark.slow
def test_a_tfdd_train_in_a_terminal_is_watched_live_to_its_end(qtbot, make_window, tmp_path, trainers):
    window = make_window()
    runs = tmp_path / "runs"
    trainer = tfdd_train(
        tmp_path, runs, trainers, epochs=3, global_batch_size=32, steps_per_execution=1, data={"num_samples": 12000}
    )
    watch_from_runs_tab(qtbot, window, trainer.run_dir)
    qtbot.waitUntil(lambda: window.plots.plotted_points() > 0, timeout=WAIT_MS)
    first = window.plots.plotted_points()
    qtbot.waitUntil(lambda: window.plots.plotted_points() > first, timeout=WAIT_MS)  # it follows the run
    assert (
        "on this machine" in window.watching.banner.label.text() and "tfdd train" in window.watching.banner.label.text()
    )
    assert window.controls.stop.isEnabled(), "a run of this machine can be stopped from here"
    qtbot.waitUntil(lambda: "completed" in window.watching.banner.label.text(), timeout=WAIT_MS)
    assert trainer.proc.wait(60) == 0
    qtbot.waitUntil(lambda: window.plots.loss.plotted_points("epoch") == 3)
    steps = [e.global_step for e in read_events(trainer.run_dir) if isinstance(e, ev.BatchEnd)]
    assert window.plots.plotted_points() == len(steps), "every batch event of the file, once"
    assert window.controls.progress_bar.text().startswith("run completed")
    assert "state: completed" in window.status_labels["state"].text()
    assert not window.controls.stop.isEnabled() and window.watching.follower is None
    assert any("checkpoint saved after epoch 3" in e.text for e in window.log.entries())


@pytest.mark.slow
def test_stop_of_a_watched_local_run_ends_it_after_its_checkpoint(qtbot, make_window, tmp_path, trainers, monkeypatch):
    monkeypatch.setattr(QMessageBox, "question", staticmethod(lambda *a, **k: QMessageBox.StandardButton.Yes))
    window = make_window()
    runs = tmp_path / "runs"
    trainer = tfdd_train(tmp_path, runs, trainers, epochs=50, global_batch_size=32, data={"num_samples": 20000})
    watch_from_runs_tab(qtbot, window, trainer.run_dir)
    qtbot.waitUntil(lambda: window.plots.plotted_points() > 0 and window.controls.stop.isEnabled(), timeout=WAIT_MS)
    # Stop once the run steps: its first step-anatomy probe compiles a step of its own right after the first
    # points, which no stop interrupts, and on a loaded host that outlasts the trainer's stop grace (it then
    # ends itself, as "killed", without a checkpoint)
    qtbot.waitUntil(lambda: any(isinstance(e, ev.StepAnatomy) for e in read_events(trainer.run_dir)), timeout=WAIT_MS)
    qtbot.mouseClick(window.controls.stop, Qt.MouseButton.LeftButton)
    assert trainer.proc.wait(120) == 143, "SIGTERM: the trainer checkpoints, then exits 143"
    events = read_events(trainer.run_dir)
    assert any(isinstance(e, ev.CheckpointSaved) for e in events)
    assert isinstance(events[-1], ev.RunFinished) and events[-1].status == "stopped"
    assert RunPaths(trainer.run_dir).has_checkpoint()
    qtbot.waitUntil(lambda: "stopped" in window.watching.banner.label.text(), timeout=30_000)
    assert window.controls.progress_bar.text().startswith("run stopped")


def test_starting_a_run_while_watching_stops_watching_and_shows_only_the_new_run(
    qtbot, make_window, tmp_path, trainers
):
    window = make_window("normal", "--epochs", "1", "--steps", "7")
    watched = fake_run(
        tmp_path / "runs", trainers, "elsewhere", "--epochs", "1000", "--steps", "100", "--delay", "0.01"
    )
    watch_from_runs_tab(qtbot, window, watched.run_dir)
    qtbot.waitUntil(lambda: window.plots.plotted_points() > 10, timeout=WAIT_MS)
    window.start_run()
    assert window.watching.follower is None and not window.watching.banner.isVisible()
    qtbot.waitUntil(lambda: window.runner is None, timeout=WAIT_MS)
    qtbot.waitUntil(lambda: window.plots.plotted_points() == 7)
    qtbot.wait(300)  # a batch the follower had queued would land here
    assert window.plots.plotted_points() == 7, "the watched run's points are gone, and none came after"
    assert watched.proc.poll() is None, "the watched run trains on"
    assert any("stopped watching" in e.text for e in window.log.entries())


def test_a_run_training_on_another_machine_offers_no_stop_and_says_where(qtbot, make_window, tmp_path, trainers):
    window = make_window()
    run_dir = tmp_path / "runs" / "remote"
    run_dir.mkdir(parents=True)
    lock = RunLock.acquire(RunPaths(run_dir), "tfdd train")
    try:
        os.ftruncate(lock.fd, 0)
        os.pwrite(lock.fd, json.dumps({"pid": 4242, "host": "gpu-box-7", "command": "tfdd train"}).encode(), 0)
        RunPaths(run_dir).events.write_text(ev.encode(ev.Log(level="info", message="hello")) + "\n")
        watch_from_runs_tab(qtbot, window, run_dir)
        qtbot.waitUntil(lambda: "gpu-box-7" in window.controls.stop.toolTip())
        assert not window.controls.stop.isEnabled()
        assert "pid 4242 on gpu-box-7" in window.watching.banner.label.text()
        assert socket.gethostname() != "gpu-box-7"
    finally:
        lock.release()
    qtbot.waitUntil(lambda: "let go of its lock" in window.watching.banner.label.text(), timeout=10_000)
    assert any("let go of its lock" in e.text for e in window.log.entries())
    assert window.controls.progress_bar.text().startswith("run interrupted")


def test_a_killed_watched_run_is_said_to_be_cut_short(qtbot, make_window, tmp_path, trainers):
    window = make_window()
    watched = fake_run(tmp_path / "runs", trainers, "killed", "--epochs", "1000", "--steps", "100", "--delay", "0.01")
    watch_from_runs_tab(qtbot, window, watched.run_dir, double_click=True)
    qtbot.waitUntil(lambda: window.plots.plotted_points() > 0, timeout=WAIT_MS)
    watched.proc.send_signal(signal.SIGKILL)
    qtbot.waitUntil(lambda: window.watching.follower is None, timeout=10_000)
    assert window.controls.progress_bar.text().startswith("run interrupted")


def test_the_status_bar_keeps_the_watched_runs_plan_when_the_form_changes(qtbot, make_window, tmp_path, trainers):
    """The device probe ends, or the user edits the form for the next run: the watched run's replicas stay."""
    window = make_window()
    watched = fake_run(tmp_path / "runs", trainers, "plan", "--epochs", "1000", "--steps", "100", "--delay", "0.01")
    watch_from_runs_tab(qtbot, window, watched.run_dir)
    qtbot.waitUntil(lambda: window.status_labels["replicas"].text() == "replicas: 2", timeout=WAIT_MS)
    window.form.epochs.setValue(window.form.epochs.value() + 1)
    assert window.status_labels["replicas"].text() == "replicas: 2"
    assert window.status_labels["per_replica"].text() == "per-replica batch: 32"


def batch_lines(steps: range) -> bytes:
    return b"".join(
        (
            ev.encode(ev.BatchEnd(epoch=1, step=i, global_step=i, loss=1.0, accuracy=0.5, examples_per_sec=1.0)) + "\n"
        ).encode()
        for i in steps
    )


def test_a_rewritten_events_file_is_shown_anew_and_a_vanished_folder_ends_the_watch(qtbot, make_window, tmp_path):
    """A resume rewrites events.jsonl without what came after its checkpoint: the plots show the new file, not
    both. A folder deleted while watched ends the watch, saying so."""
    window = make_window()
    paths = RunPaths(tmp_path / "runs" / "resumed")
    paths.root.mkdir(parents=True)
    lock = RunLock.acquire(paths, "tfdd train")
    try:
        paths.events.write_bytes(batch_lines(range(1, 9)))
        watch_from_runs_tab(qtbot, window, paths.root)
        qtbot.waitUntil(lambda: window.plots.plotted_points() == 8)
        atomic_write_bytes(paths.events, batch_lines(range(1, 4)))
        qtbot.waitUntil(lambda: any("rewritten" in e.text for e in window.log.entries()))
        qtbot.waitUntil(lambda: window.plots.plotted_points() == 3)
        shutil.rmtree(paths.root)  # the lock stays held: it is the folder that is gone
        qtbot.waitUntil(lambda: window.watching.follower is None, timeout=10_000)
    finally:
        lock.release()
    assert any("is gone" in e.text for e in window.log.entries())
    assert "is gone" in window.watching.banner.label.text()


def test_a_watched_cluster_shows_every_tasks_state(qtbot, make_window, tmp_path):
    """The chief's events.jsonl holds only its own events; the launcher keeps every task's state beside it."""
    window = make_window()
    paths = RunPaths(tmp_path / "runs" / "cluster")
    paths.workers.mkdir(parents=True)
    lock = RunLock.acquire(paths, "tfdd cluster launch")
    try:
        paths.events.write_bytes(batch_lines(range(1, 4)))
        states = [("worker-0", "training", "chief"), ("worker-1", "training", "worker"), ("ps-0", "lost", "ps")]
        paths.worker_states.write_text(
            "".join(ev.encode(ev.WorkerState(worker=w, state=s, pid=7, role=r)) + "\n" for w, s, r in states)
        )
        watch_from_runs_tab(qtbot, window, paths.root)
        qtbot.waitUntil(lambda: window.workers.workers() == ["worker-0", "worker-1", "ps-0"])
        assert window.workers.isVisible() and window.workers.state("ps-0") == "lost"
    finally:
        lock.release()
