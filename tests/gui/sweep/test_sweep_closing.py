"""Closing the window while a sweep runs asks: keep it running without the window, stop it, or stay open."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import optuna
import pytest
from optuna.trial import TrialState
from PySide6.QtCore import QTimer

from engine.core.config import DataConfig, RunConfig
from engine.core.protocol.commands import sweep_command
from engine.core.protocol.paths import RunPaths
from engine.core.runs.rundir import read_metrics
from engine.core.runs.runlock import holder
from engine.core.sweep import SweepPaths
from engine.core.sweep.space import parse_space
from tests.gui.closing_helpers import answer_closing, read_not_continued

FAKE_SWEEP = Path(__file__).parents[1] / "fake_sweep.py"
BASE = RunConfig(
    strategy="default",
    epochs=3,
    global_batch_size=32,
    validation_split=0.25,
    data=DataConfig(num_samples=512, num_features=8),
)
SPACE = {
    "parameters": {"learning_rate": {"choice": [0.001, 0.01]}},
    "method": "grid",
    "trials": 2,
    "concurrency": 1,
    "pruner": "none",
}


def sweep_view(window, sweep_dir: Path, command: list[str]):
    dialog = window.open_sweep()
    view = dialog._view(sweep_dir, BASE, parse_space(SPACE, BASE))
    view.start(command)
    return view


def test_closing_the_window_asks_and_cancel_keeps_it_open_and_stop_stops_the_sweep(qtbot, make_window, tmp_path):
    window = make_window()
    sweep_dir = tmp_path / "runs" / "sweep"
    view = sweep_view(window, sweep_dir, [sys.executable, str(FAKE_SWEEP), "start", str(sweep_dir)])
    qtbot.waitUntil(lambda: view.summary is not None, timeout=30_000)
    said: list[str] = []
    cancel: list[str] = []

    QTimer.singleShot(0, lambda: answer_closing("", cancel))  # Escape: the Cancel button
    window.close()
    assert cancel and str(sweep_dir) in cancel[0]
    assert window.isVisible() and view.training  # still open, the sweep goes on
    QTimer.singleShot(0, lambda: answer_closing("stopOnCloseButton", said))
    window.close()
    assert said and not window.isVisible()
    assert view.runner is None or view.runner.isFinished()  # stopped, not left behind
    assert not SweepPaths(sweep_dir).log.exists()  # nothing continues it


@pytest.mark.slow
def test_a_sweep_kept_running_when_the_window_closes_finishes_without_it_and_loses_no_epoch(
    qtbot, make_window, tmp_path
):
    base, space, sweep_dir = tmp_path / "base.json", tmp_path / "space.json", tmp_path / "runs" / "sweep"
    BASE.save(base)
    space.write_text(json.dumps(SPACE), encoding="utf-8")
    window = make_window()
    view = sweep_view(window, sweep_dir, sweep_command(base, space, sweep_dir))
    first = lambda: view.trials.rows.get(0)  # noqa: E731
    qtbot.waitUntil(lambda: first() is not None and first().epoch >= 1, timeout=300_000)
    said: list[str] = []
    QTimer.singleShot(0, lambda: answer_closing("keepRunningButton", said))
    window.close()
    assert said, "closing did not ask what to do with the running sweep"
    assert str(sweep_dir) in said[0] and "tfdd sweep --status" in said[0] and "sweep.log" in said[0]
    assert not window.isVisible()
    background = None
    try:
        deadline = time.monotonic() + 60
        while background is None and time.monotonic() < deadline:
            background = holder(RunPaths(sweep_dir))  # the sweep goes on in a process of its own
            time.sleep(0.2)
        assert background is not None and background.pid != os.getpid()
        deadline = time.monotonic() + 600
        while holder(RunPaths(sweep_dir)) is not None and time.monotonic() < deadline:
            time.sleep(0.5)
        assert holder(RunPaths(sweep_dir)) is None, "the background sweep did not finish"
    finally:
        if background is not None and background.pid and holder(RunPaths(sweep_dir)) is not None:
            os.kill(background.pid, signal.SIGTERM)
    study = optuna.load_study(study_name="sweep", storage=f"sqlite:///{SweepPaths(sweep_dir).study}")
    completed = study.get_trials(states=(TrialState.COMPLETE,))
    assert sorted(t.params["learning_rate"] for t in completed) == [0.001, 0.01]
    epochs = [r["epoch"] for r in read_metrics(RunPaths(sweep_dir / "trial-000").metrics)]
    assert epochs == ["1", "2", "3"]  # continued from its checkpoint: every epoch once
    assert "trial 1 completed" in SweepPaths(sweep_dir).log.read_text(encoding="utf-8")


HOLDS_THE_SWEEP = """
import sys
from pathlib import Path
from engine.core.protocol.channel import StopSignal, handle_stop_signals
from engine.core.protocol.paths import RunPaths
from engine.core.runs.runlock import RunLock
stop = StopSignal()
handle_stop_signals(stop)  # as `tfdd sweep` does: SIGTERM asks it to stop
with RunLock.acquire(RunPaths(Path(sys.argv[1])), command="tfdd sweep"):
    print("held", flush=True)
    stop.wait(120)
"""


def test_a_sweep_kept_running_is_stopped_from_its_view_in_a_window_opened_later(qtbot, tmp_path):
    from gui.sweep.setup_dialog import SweepDialog
    from tests.sweep_fixtures import make_study

    raw = {"parameters": {"learning_rate": {"log_uniform": [0.001, 10.0]}}, "trials": 4, "method": "random"}
    sweep_dir = tmp_path / "sweep"
    make_study(sweep_dir, BASE, raw)
    background = subprocess.Popen(
        [sys.executable, "-c", HOLDS_THE_SWEEP, str(sweep_dir)], stdout=subprocess.PIPE, text=True
    )  # a sweep process of this machine, as the window's Keep running leaves one
    try:
        assert background.stdout.readline().strip() == "held"
        dialog = SweepDialog(tmp_path)
        qtbot.addWidget(dialog)
        view = dialog.open_sweep(sweep_dir)
        qtbot.waitUntil(lambda: view.elsewhere and not view.running, timeout=60_000)
        assert view.stop_button.isEnabled(), "a sweep trained by another process of this machine cannot be stopped"
        view.stop_button.click()
        assert background.wait(timeout=30) is not None  # asked to stop, it stopped
        qtbot.waitUntil(lambda: view.ended == "stopped" and not view.running, timeout=60_000)
        assert view.continue_button.isEnabled()
    finally:
        if background.poll() is None:
            background.kill()
        view.follow_timer.stop()


def test_a_sweep_that_cannot_go_on_in_the_background_says_how_to_continue_it(qtbot, tmp_path):
    from gui.sweep.view import SweepView

    view = SweepView(tmp_path, BASE, parse_space(SPACE, BASE))
    qtbot.addWidget(view)
    view.start([sys.executable, str(FAKE_SWEEP), "start", str(tmp_path)])
    qtbot.waitUntil(lambda: view.summary is not None, timeout=30_000)
    SweepPaths(tmp_path).log.mkdir()  # the background sweep's log cannot be opened: it cannot start
    shown: list[str] = []
    QTimer.singleShot(0, lambda: read_not_continued(shown))
    assert view.shutdown(keep_running=True) is None
    (said,) = shown
    assert "not continued in the background" in said and f"<code>tfdd sweep --resume {tmp_path}</code>" in said
