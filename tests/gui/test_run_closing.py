"""Closing the window while its run trains asks: keep the run going without the window, stop it, or stay open."""

from __future__ import annotations

import dataclasses
import os
import signal
from pathlib import Path

import pytest
from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QMessageBox, QWidget

from engine.core import events as ev
from engine.core.config import DataConfig, RunConfig
from engine.core.protocol.commands import background_resume_command
from engine.core.protocol.paths import RunPaths
from engine.core.runs.rundir import read_events, read_metrics
from engine.core.runs.runlock import holder
from gui.closing import Closing, continue_in_background
from tests.gui.closing_helpers import answer_closing, read_not_continued, wait_for_holder
from tests.gui.live.test_watch import watch_from_runs_tab
from tests.gui.test_end_to_end import real_window

WAIT_MS = 300_000
CONFIG = RunConfig(
    strategy="default",
    loop="fit",
    epochs=6,
    global_batch_size=32,
    steps_per_execution=1,
    data=DataConfig(num_samples=40_000),
)


@pytest.mark.slow
def test_a_run_kept_running_when_the_window_closes_finishes_without_it_and_a_later_window_watches_it(qtbot, tmp_path):
    window = real_window(qtbot, tmp_path, CONFIG)
    window.start_run()
    run_dir = window.session.launch.run_dir
    qtbot.waitUntil(lambda: window.plots.loss.plotted_points("epoch") >= 1, timeout=WAIT_MS)
    said: list[str] = []
    QTimer.singleShot(0, lambda: answer_closing("keepRunningButton", said))
    window.close()
    assert said, "closing did not ask what to do with the running run"
    assert str(run_dir) in said[0] and "launcher.log" in said[0]
    qtbot.waitUntil(lambda: not window.isVisible(), timeout=WAIT_MS)
    background = wait_for_holder(run_dir)
    try:
        assert background is not None and background.pid != os.getpid(), "nothing continues the run"
        assert "tfdd train" in background.command
        later = real_window(qtbot, tmp_path, CONFIG)
        watch_from_runs_tab(qtbot, later, run_dir)  # listed as training; Watch live follows it
        qtbot.waitUntil(later.controls.stop.isEnabled, timeout=WAIT_MS)  # it can be stopped from there
        qtbot.waitUntil(lambda: "completed" in later.watching.banner.label.text(), timeout=WAIT_MS)
        later.shutdown()
    finally:
        held = holder(RunPaths(run_dir))
        if held is not None and held.pid and held.pid != os.getpid():
            os.kill(held.pid, signal.SIGTERM)
    epochs = [r["epoch"] for r in read_metrics(RunPaths(run_dir).metrics)]
    assert epochs == ["1", "2", "3", "4", "5", "6"]  # continued from its checkpoint: every epoch once
    assert "completed" in RunPaths(run_dir).launcher_log.read_text(encoding="utf-8")


@pytest.mark.slow
def test_closing_asks_and_cancel_keeps_the_run_and_stop_stops_it_with_a_checkpoint(qtbot, tmp_path):
    window = real_window(qtbot, tmp_path, dataclasses.replace(CONFIG, epochs=50))
    window.start_run()
    run_dir = window.session.launch.run_dir
    qtbot.waitUntil(lambda: window.plots.loss.plotted_points("epoch") >= 1, timeout=WAIT_MS)
    cancelled: list[str] = []
    QTimer.singleShot(0, lambda: answer_closing("", cancelled))  # Escape: the Cancel button
    window.close()
    assert cancelled and str(run_dir) in cancelled[0]
    assert window.isVisible() and window.session.active  # still open, the run goes on
    said: list[str] = []
    QTimer.singleShot(0, lambda: answer_closing("stopOnCloseButton", said))
    window.close()
    assert said
    qtbot.waitUntil(lambda: not window.isVisible(), timeout=WAIT_MS)
    assert "stopped" in window.status_labels["state"].text(), window.log.tail()
    assert holder(RunPaths(run_dir)) is None and not RunPaths(run_dir).launcher_log.exists()  # nothing goes on


def stepping_again(run_dir: Path) -> bool:
    """The background process trains the run: it started again and measured its steps (stopped before that, a
    step compiled for the measurement may outlast the stop's grace; test_watch says more)."""
    events = read_events(run_dir)
    again = [i for i, e in enumerate(events) if isinstance(e, ev.RunStarted)][1:]
    return bool(again) and any(isinstance(e, ev.StepAnatomy) for e in events[again[0] :])


@pytest.mark.slow
def test_a_run_kept_running_is_stopped_with_a_checkpoint_from_a_later_window(qtbot, tmp_path, monkeypatch):
    monkeypatch.setattr(QMessageBox, "question", staticmethod(lambda *a, **k: QMessageBox.StandardButton.Yes))
    window = real_window(qtbot, tmp_path, dataclasses.replace(CONFIG, epochs=50))
    window.start_run()
    run_dir = window.session.launch.run_dir
    qtbot.waitUntil(lambda: window.plots.loss.plotted_points("epoch") >= 1, timeout=WAIT_MS)
    QTimer.singleShot(0, lambda: answer_closing("keepRunningButton", []))
    window.close()
    background = wait_for_holder(run_dir)
    try:
        assert background is not None and background.pid != os.getpid(), "nothing continues the run"
        later = real_window(qtbot, tmp_path, CONFIG)
        watch_from_runs_tab(qtbot, later, run_dir)
        qtbot.waitUntil(later.controls.stop.isEnabled, timeout=WAIT_MS)
        qtbot.waitUntil(lambda: stepping_again(run_dir), timeout=WAIT_MS)
        qtbot.mouseClick(later.controls.stop, Qt.MouseButton.LeftButton)
        qtbot.waitUntil(lambda: holder(RunPaths(run_dir)) is None, timeout=WAIT_MS)
        qtbot.waitUntil(lambda: "stopped" in later.watching.banner.label.text(), timeout=WAIT_MS)
        later.shutdown()
    finally:
        held = holder(RunPaths(run_dir))
        if held is not None and held.pid and held.pid != os.getpid():
            os.kill(held.pid, signal.SIGTERM)
    events = read_events(run_dir)
    assert isinstance(events[-1], ev.RunFinished) and events[-1].status == "stopped"
    assert RunPaths(run_dir).has_checkpoint()
    assert "stopped" in RunPaths(run_dir).launcher_log.read_text(encoding="utf-8")


@pytest.mark.slow
def test_closing_while_the_run_stops_asks_nothing_and_keeps_nothing_running(qtbot, tmp_path, monkeypatch):
    """Stop, then close before the trainer has gone: the run was asked to stop, so there is nothing to keep going
    (the question offered "Keep running", and keeping it restarted the stopped run in the background)."""
    asked: list[Path | None] = []
    monkeypatch.setattr("gui.main_window.ask_about_closing", lambda _, run, sweeps: asked.append(run) or Closing.KEEP)
    monkeypatch.setattr(QMessageBox, "question", staticmethod(lambda *a, **k: QMessageBox.StandardButton.Yes))  # Stop?
    window = real_window(qtbot, tmp_path, CONFIG)
    window.start_run()
    run_dir = window.session.launch.run_dir
    qtbot.waitUntil(lambda: window.plots.plotted_points() > 0, timeout=WAIT_MS)
    qtbot.mouseClick(window.controls.stop, Qt.MouseButton.LeftButton)
    window.close()  # in the same turn of the event loop: the trainer is still stopping
    qtbot.waitUntil(lambda: not window.isVisible(), timeout=WAIT_MS)
    assert asked == [], asked
    assert holder(RunPaths(run_dir)) is None, "something continues the run the user stopped"
    assert not RunPaths(run_dir).launcher_log.exists()
    (finished,) = [e for e in read_events(run_dir) if isinstance(e, ev.RunFinished)]
    assert finished.status == "stopped"


def test_work_that_cannot_go_on_in_the_background_is_said_in_the_window_with_the_command_that_continues_it(
    qtbot, tmp_path
):
    """Keep running, but the background process cannot start (here its log is a folder): the window says so before
    it goes, and how to continue by hand (this was only printed to stderr, which a window started from a desktop
    icon has nowhere to show)."""
    parent = QWidget()
    qtbot.addWidget(parent)
    log = tmp_path / "launcher.log"
    log.mkdir()
    shown: list[str] = []
    QTimer.singleShot(0, lambda: read_not_continued(shown))
    run_dir = tmp_path / "a run"
    assert continue_in_background(parent, background_resume_command(run_dir), log) is None
    (said,) = shown
    assert "not continued in the background" in said and "Is a directory" in said, said
    assert f"<code>tfdd train --resume '{run_dir}'</code>" in said and "Nothing finished is lost" in said, said
