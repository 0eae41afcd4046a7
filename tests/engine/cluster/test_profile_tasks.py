"""A local cluster's profile (tfdd cluster launch --profile-steps): every task's kept, each in its own session.

A profile asked on the launcher's stdin while it trains is the window's Capture profile, tested with a real
cluster in tests/gui/live/test_local_cluster.py."""

from __future__ import annotations

import pytest

from engine.cluster.cli import main as cluster_main
from engine.core.arguments import profiled_command
from engine.core.problems import ConfigError
from engine.core.protocol.profile import StepRange


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
