"""Scratch folders of killed processes are swept away; those of live ones are left alone (issue item 11)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys

import pytest

from engine.core.runs.scratch import ScratchDir, sweep
from tests.engine.train.worker_process import REPO, env

HOLDER = """
import sys, time
from engine.core.runs.scratch import ScratchDir
scratch = ScratchDir(sys.argv[1])
(scratch.path / "model.keras").write_bytes(b"a worker's scratch save")
print(scratch.path, flush=True)
time.sleep(600)
"""


def hold(prefix: str) -> tuple[subprocess.Popen, str]:
    proc = subprocess.Popen(
        [sys.executable, "-c", HOLDER, prefix], cwd=REPO, env=env(), stdout=subprocess.PIPE, text=True
    )
    return proc, proc.stdout.readline().strip()


@pytest.mark.skipif(os.name != "posix", reason="kill -9")
def test_the_folder_of_a_killed_process_is_swept_and_a_live_ones_is_kept(tmp_path):
    prefix = f"tfdd-test-{os.getpid()}-"
    killed, killed_path = hold(prefix)
    alive, alive_path = hold(prefix)
    try:
        killed.send_signal(signal.SIGKILL)
        killed.wait(timeout=30)
        assert os.path.isdir(killed_path)  # kill -9: no clean-up ran
        mine = ScratchDir(prefix)  # making a new one sweeps first
        assert not os.path.exists(killed_path)
        assert os.path.isdir(alive_path)
        mine.cleanup()
        assert not mine.path.exists()
    finally:
        for proc in (killed, alive):
            proc.kill()
            proc.wait(timeout=30)
    sweep(prefix)
    assert not os.path.exists(alive_path)
