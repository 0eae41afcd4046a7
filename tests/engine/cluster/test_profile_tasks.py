"""A local cluster's profile (tfdd cluster launch --profile-steps): every task's kept, each in its own session."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from engine.cluster.cli import main as cluster_main
from engine.core import events as ev
from engine.core.arguments import profiled_command
from engine.core.problems import ConfigError
from engine.core.protocol import commands
from engine.core.protocol.client import WorkerProcess
from engine.core.protocol.profile import StepRange, profile_line


def test_a_task_command_gets_the_steps_and_tasks_elsewhere_are_refused():
    def command(config, run_dir, resume):
        return ["trainer", str(config)]

    assert profiled_command(command, None, remote=True) is command
    assert profiled_command(command, StepRange(2, 3), remote=False)("c.json", "run", False) == [
        "trainer",
        "c.json",
        "--profile-steps",
        "2-3",
    ]
    with pytest.raises(ConfigError, match="--hosts"):
        profiled_command(command, StepRange(2, 3), remote=True)


@pytest.mark.slow
@pytest.mark.timeout(300)
def test_each_task_of_a_local_cluster_keeps_its_own_profile(tmp_path, write_run_config, capsys):
    run = tmp_path / "run"
    config = write_run_config(loop="custom", steps_per_execution=2)
    code = cluster_main(
        [
            "cluster",
            "launch",
            "--workers",
            "2",
            "--config",
            str(config),
            "--run-dir",
            str(run),
            "--profile-steps",
            "5-6",
        ]
    )
    out = capsys.readouterr().out
    assert code == 0, out
    sessions = sorted((run / "tensorboard" / "plugins" / "profile").iterdir())
    assert [s.name.rpartition("-worker-")[2] for s in sessions] == ["0", "1"], sessions
    for session in sessions:
        assert list(session.glob("*.xplane.pb")), list(session.iterdir())
    for task in ("worker-0", "worker-1"):
        assert f"profile of steps 5-6 ({task}) written to" in out, out


@pytest.mark.slow
@pytest.mark.timeout(300)
def test_a_launcher_passes_a_profile_request_on_its_stdin_to_every_training_task(tmp_path, write_run_config):
    """What the window's "Capture profile" sends a local cluster it started: "profile N" on the launcher's stdin
    (engine.core.protocol.profile), each training task writing its own session."""
    run = tmp_path / "run"
    config = write_run_config(num_samples=20_000, epochs=50, loop="custom", steps_per_execution=1)
    launcher = WorkerProcess(commands.cluster_command(config, run, 2))
    launcher.start()
    saved: dict[str, ev.ProfileSaved] = {}
    asked = False
    try:
        deadline = time.monotonic() + 240
        while len(saved) < 2 and time.monotonic() < deadline and launcher.alive():
            for out in launcher.poll(timeout=0.5):
                if isinstance(out.event, ev.BatchEnd) and not asked:
                    asked = launcher.send(profile_line(3))
                elif isinstance(out.event, ev.ProfileSaved):
                    saved[out.event.task] = out.event
    finally:
        launcher.request_stop()
        code = launcher.wait(timeout=120)
        launcher.close()
    assert asked and code == 0
    assert sorted(saved) == ["worker-0", "worker-1"], saved
    for task, event in saved.items():
        assert event.last_step - event.first_step == 2
        session = Path(event.path)
        assert session.parent == run / "tensorboard" / "plugins" / "profile" and session.name.endswith(task)
        assert list(session.glob("*.xplane.pb")), list(session.iterdir())
