"""The warm trainer: kept ready, handed to a run at Start, replaced after the run's first step,
discarded when the environment changes, turned off from the Run menu. A fake trainer stands in
(tests/gui/fake_trainer.py `warm_trainer`); tests/engine/train/test_warm_start.py runs the real one."""

from __future__ import annotations

import os
import sys

import pytest

from engine.core.protocol.commands import assignment_line, trainer_args
from engine.core.protocol.paths import RunPaths
from gui import settings
from gui.live.warm_trainer import WarmState, WarmTrainer
from gui.runner import TrainingRunner


@pytest.fixture
def warm_trainer_command(fake_trainer_command):
    return fake_trainer_command("warm_trainer", "--epochs", "2", "--steps", "5")


def ready_warm_trainer(qtbot, command: list[str]) -> WarmTrainer:
    warm = WarmTrainer(command)
    warm.start_next()
    qtbot.waitUntil(lambda: warm.state == WarmState.READY, timeout=10_000)
    return warm


def test_a_ready_warm_trainer_is_handed_over_with_what_it_printed_while_waiting(qtbot, warm_trainer_command):
    warm = ready_warm_trainer(qtbot, warm_trainer_command)
    assert warm.rss_mb == 42.0 and "ready (42 MB)" in warm.describe()
    taken = warm.take(dict(os.environ))
    assert taken is not None and taken.process.alive()
    assert any("cuda drivers" in line for line in taken.early_output)
    assert warm.state == WarmState.NONE and warm.take(dict(os.environ)) is None, "a warm trainer serves one run"
    taken.process.close()


def test_a_changed_environment_discards_the_warm_trainer(qtbot, warm_trainer_command, monkeypatch):
    warm = ready_warm_trainer(qtbot, warm_trainer_command)
    process = warm._process
    monkeypatch.setenv("CUDA_VISIBLE_DEVICES", "1")
    assert warm.take(dict(os.environ)) is None
    assert "CUDA_VISIBLE_DEVICES" in warm.declined
    assert not process.alive(), "ended at once, not kept for a run it cannot serve"
    warm.start_next()
    qtbot.waitUntil(lambda: warm.state == WarmState.READY, timeout=10_000)
    taken = warm.take(dict(os.environ))
    assert taken is not None, "the next warm trainer has the new environment"
    taken.process.close()


def test_a_warm_trainer_that_keeps_dying_is_given_up_and_runs_start_cold(qtbot):
    warm = WarmTrainer([sys.executable, "-c", "import sys; print('no TensorFlow here', file=sys.stderr); sys.exit(3)"])
    warm.start_next()
    qtbot.waitUntil(lambda: warm.state == WarmState.BROKEN, timeout=10_000)
    assert "no TensorFlow here" in warm.describe()
    assert warm.take(dict(os.environ)) is None and "no TensorFlow here" in warm.declined
    warm.shutdown()


def test_runner_hands_the_run_to_the_warm_trainer_and_keeps_the_raw_stream(qtbot, warm_trainer_command, tmp_path):
    warm = ready_warm_trainer(qtbot, warm_trainer_command)
    taken = warm.take(dict(os.environ))
    run_dir = tmp_path / "run"
    runner = TrainingRunner(
        ["/nonexistent/cold/trainer"],
        stderr_log=RunPaths(run_dir).stderr_log,
        warm=taken,
        assignment=assignment_line(trainer_args(tmp_path / "c.json", run_dir)),
    )
    lines: list[str] = []
    runner.log_lines.connect(lines.extend)
    ends: list[tuple[str, str]] = []
    runner.run_finished.connect(lambda status, d: ends.append((status, d)))
    with qtbot.waitSignal(runner.finished, timeout=20_000):
        runner.start()
    qtbot.waitUntil(lambda: bool(ends))
    assert ends == [("completed", str(run_dir))], "the warm trainer trained the run it was handed"
    raw = RunPaths(run_dir).stderr_log.read_text().splitlines()
    assert raw[0].startswith("WARNING: All log messages before absl"), "its start-up lines come first"
    assert any("failed call to cuInit" in line for line in raw)
    assert any(line.startswith("epoch 2/2: loss") for line in lines), "one summary line per epoch"


def test_runner_starts_cold_when_the_warm_trainer_died_after_it_was_taken(
    qtbot, warm_trainer_command, fake_trainer_command
):
    warm = ready_warm_trainer(qtbot, warm_trainer_command)
    taken = warm.take(dict(os.environ))
    taken.process.kill()
    taken.process.wait(5)
    runner = TrainingRunner(fake_trainer_command("normal"), warm=taken, assignment='["--run-dir", "x"]\n')
    ends: list[str] = []
    runner.run_finished.connect(lambda status, d: ends.append(status))
    with qtbot.waitSignal(runner.finished, timeout=20_000):
        runner.start()
    qtbot.waitUntil(lambda: bool(ends))
    assert ends == ["completed"] and not runner.warm_start


def test_window_starts_warm_shows_the_first_step_and_replaces_the_warm_trainer(
    qtbot, make_window, warm_trainer_command, tmp_path
):
    window = make_window("normal", warm_trainer_command=warm_trainer_command)
    window.show()
    qtbot.waitUntil(lambda: window.warm_trainer.state == WarmState.READY, timeout=10_000)
    first_pid = window.warm_trainer._process.pid
    window.start_run()
    qtbot.waitUntil(lambda: window.runner is None, timeout=20_000)
    log = window.log.shown_text()
    assert f"(warm trainer, pid {first_pid})" in log
    assert "TensorFlow: No CUDA driver: training on the CPU" in log and "cuInit" not in log
    assert "completed" in window.status_labels["state"].text()
    assert window.first_step.text().startswith("first step after") and "(warm trainer)" in window.first_step.text()
    qtbot.waitUntil(lambda: window.warm_trainer.state == WarmState.READY, timeout=10_000)
    assert window.warm_trainer._process.pid != first_pid, "a new warm trainer waits for the next run"
    (stderr_log,) = (tmp_path / "runs").glob("*/stderr.log")
    assert "failed call to cuInit" in stderr_log.read_text(), "the raw stream is kept in the run directory"


def test_turning_the_warm_trainer_off_ends_it_and_runs_start_cold(qtbot, make_window, warm_trainer_command):
    window = make_window("normal", warm_trainer_command=warm_trainer_command)
    window.show()
    qtbot.waitUntil(lambda: window.warm_trainer.state == WarmState.READY, timeout=10_000)
    process = window.warm_trainer._process
    window.menus.warm_action.setChecked(False)
    assert window.warm_trainer.state == WarmState.OFF and not process.alive()
    assert settings.load_warm_trainer() is False, "remembered for the next launch"
    assert "off" in window.warm_label.text()
    window.start_run()
    qtbot.waitUntil(lambda: window.runner is None, timeout=20_000)
    assert "a fresh trainer: the warm trainer is off" in window.log.shown_text()
    assert "(cold trainer)" in window.first_step.text()
    assert window.warm_trainer.state == WarmState.OFF, "no warm trainer comes back while it is off"
