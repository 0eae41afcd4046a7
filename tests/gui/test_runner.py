"""TrainingRunner against a fake trainer: normal run, stop, kill after grace, crash, garbage."""

from __future__ import annotations

from pathlib import Path

from engine.core import events as ev
from engine.core.protocol.commands import trainer_command as worker_command
from gui.runner import TrainingRunner


class Recorder:
    """Collects everything a runner emits (slots run in the GUI thread)."""

    def __init__(self, runner: TrainingRunner) -> None:
        self.events: list[ev.Event] = []
        self.logs: list[str] = []
        self.batches = 0
        self.end: tuple[str, str, str] | None = None
        runner.events_ready.connect(self.on_events)
        runner.log_lines.connect(self.logs.extend)
        runner.run_finished.connect(lambda status, run_dir: self.set_end("finished", status, run_dir))
        runner.run_failed.connect(lambda message, tail: self.set_end("failed", message, tail))

    def on_events(self, batch: list) -> None:
        self.batches += 1
        self.events.extend(batch)

    def set_end(self, kind: str, a: str, b: str) -> None:
        self.end = (kind, a, b)

    def of_type(self, cls: type) -> list:
        return [e for e in self.events if isinstance(e, cls)]


def run_to_end(qtbot, runner: TrainingRunner, timeout: int = 30_000) -> None:
    with qtbot.waitSignal(runner.finished, timeout=timeout):
        runner.start()


def test_normal_run_relays_all_events_in_batches(qtbot, fake_trainer_command):
    runner = TrainingRunner(fake_trainer_command("normal", "--epochs", "2", "--steps", "20", "--delay", "0"))
    rec = Recorder(runner)
    run_to_end(qtbot, runner)
    qtbot.waitUntil(lambda: rec.end is not None)
    assert rec.end == ("finished", "completed", "/tmp/fake-run")
    assert len(rec.of_type(ev.BatchEnd)) == 40
    assert len(rec.of_type(ev.EpochEnd)) == 2
    assert isinstance(rec.events[0], ev.RunStarted)
    assert isinstance(rec.events[-1], ev.RunFinished)
    assert rec.batches < len(rec.events), "events must arrive batched, not one signal each"
    assert any("goes to stderr" in line for line in rec.logs)
    assert any("epoch 1 done" in line for line in rec.logs), "log events are shown in the log"


def test_stop_is_cooperative(qtbot, fake_trainer_command):
    runner = TrainingRunner(fake_trainer_command("normal", "--epochs", "100", "--steps", "100", "--delay", "0.01"))
    rec = Recorder(runner)
    runner.events_ready.connect(lambda _batch: runner.request_stop())
    run_to_end(qtbot, runner)
    qtbot.waitUntil(lambda: rec.end is not None)
    assert rec.end[:2] == ("finished", "stopped")
    assert rec.of_type(ev.CheckpointSaved), "a stop leaves a checkpoint"


def test_a_trainer_terminated_after_its_checkpoint_ends_as_stopped(qtbot, fake_trainer_command):
    """SIGTERM from outside (a process manager): the trainer checkpoints, says stopped, exits 143."""
    runner = TrainingRunner(fake_trainer_command("terminated", "--epochs", "100", "--steps", "100"))
    rec = Recorder(runner)
    runner.events_ready.connect(lambda _batch: runner.request_stop())
    run_to_end(qtbot, runner)
    qtbot.waitUntil(lambda: rec.end is not None)
    assert rec.end[:2] == ("finished", "stopped")


def test_trainer_ignoring_stop_is_killed_after_grace(qtbot, fake_trainer_command):
    runner = TrainingRunner(
        fake_trainer_command("ignore_stop", "--epochs", "1000", "--steps", "100", "--delay", "0.01"), grace_seconds=0.5
    )
    rec = Recorder(runner)
    runner.events_ready.connect(lambda _batch: runner.request_stop())
    run_to_end(qtbot, runner)
    qtbot.waitUntil(lambda: rec.end is not None)
    assert rec.end[:2] == ("finished", "killed")
    assert any("killed it" in line for line in rec.logs)


def test_a_run_that_reported_its_end_and_was_killed_later_ends_as_it_reported(qtbot, fake_trainer_command):
    """A process that lingers after run_finished (a thread of the user's code) is killed after Stop, but its
    run completed: it is not shown as killed."""
    runner = TrainingRunner(fake_trainer_command("linger", "--steps", "3", "--delay", "0"), grace_seconds=0.5)
    rec = Recorder(runner)
    runner.events_ready.connect(
        lambda batch: runner.request_stop() if any(isinstance(e, ev.RunFinished) for e in batch) else None
    )
    run_to_end(qtbot, runner)
    qtbot.waitUntil(lambda: rec.end is not None)
    assert rec.end[:2] == ("finished", "completed")


def test_crash_reports_failure_with_log_tail(qtbot, fake_trainer_command):
    runner = TrainingRunner(fake_trainer_command("crash"))
    rec = Recorder(runner)
    run_to_end(qtbot, runner)
    qtbot.waitUntil(lambda: rec.end is not None)
    kind, message, tail = rec.end
    assert kind == "failed"
    assert "signal" in message
    assert "fake crash" in tail


def test_reported_failure_uses_the_engine_message(qtbot, fake_trainer_command):
    runner = TrainingRunner(fake_trainer_command("fail"))
    rec = Recorder(runner)
    run_to_end(qtbot, runner)
    qtbot.waitUntil(lambda: rec.end is not None)
    assert rec.end[:2] == ("failed", "Out of memory on GPU:0; lower the batch size")


def test_garbage_on_stdout_is_logged_not_fatal(qtbot, fake_trainer_command):
    runner = TrainingRunner(fake_trainer_command("garbage"))
    rec = Recorder(runner)
    run_to_end(qtbot, runner)
    qtbot.waitUntil(lambda: rec.end is not None)
    assert rec.end[:2] == ("finished", "completed")
    garbage = [line for line in rec.logs if "garbage" in line]
    assert len(garbage) == 2


def test_missing_executable_fails_cleanly(qtbot):
    runner = TrainingRunner(["/nonexistent/python", "-c", "pass"])
    rec = Recorder(runner)
    run_to_end(qtbot, runner)
    qtbot.waitUntil(lambda: rec.end is not None)
    assert rec.end[0] == "failed" and "Could not start" in rec.end[1]


def test_worker_command_follows_the_protocol(tmp_path: Path):
    assert worker_command(Path("c.json"), tmp_path)[1:4] == ["-m", "engine.train.worker", "--config"]


def test_the_first_step_is_not_held_back_by_the_pace(qtbot, fake_trainer_command, monkeypatch):
    """Until the run's first batch_end has gone to the window, the runner never sleeps out its interval: a
    first step that follows run_started within EMIT_INTERVAL_S is shown at once, not at the next turn."""
    import threading

    import gui.runner as runner_module

    steps_sent = 0  # both counted in the runner's own thread, so the order is exact
    steps_sent_at_sleeps: list[int] = []
    flush, sleep = TrainingRunner._flush, runner_module.time.sleep
    runner_thread: list[int] = []

    def counting_flush(self, events, logs, raw):
        nonlocal steps_sent
        runner_thread[:] = [threading.get_ident()]
        steps_sent += sum(type(e) is ev.BatchEnd for e in events)
        flush(self, events, logs, raw)

    def noting_sleep(seconds: float) -> None:
        if runner_thread == [threading.get_ident()]:
            steps_sent_at_sleeps.append(steps_sent)
        sleep(seconds)

    monkeypatch.setattr(TrainingRunner, "_flush", counting_flush)
    monkeypatch.setattr(runner_module.time, "sleep", noting_sleep)
    command = fake_trainer_command("normal", "--steps", "30", "--delay", "0.005", "--first-step-after", "0.03")
    runner = TrainingRunner(command)
    rec = Recorder(runner)
    run_to_end(qtbot, runner)
    qtbot.waitUntil(lambda: rec.end is not None)
    assert len(rec.of_type(ev.BatchEnd)) == 60
    assert steps_sent_at_sleeps, "once steps stream, the runner paces what it hands the window"
    assert steps_sent_at_sleeps[0] > 0, "the runner slept out its interval before the run's first step went out"
