"""Python stacks of a running process (py-spy), and what is said when there are none."""

from __future__ import annotations

import subprocess
import sys

import pytest

from engine.cluster.cli import print_stall
from engine.core import events as ev
from engine.core.logs.stacks import python_stacks

SLEEPER = (
    "import time\ndef sleeping_in_here():\n    print('ready', flush=True)\n    time.sleep(600)\nsleeping_in_here()\n"
)


@pytest.fixture
def sleeper():
    proc = subprocess.Popen([sys.executable, "-c", SLEEPER], stdout=subprocess.PIPE, text=True)
    try:
        assert proc.stdout.readline() == "ready\n"
        yield proc
    finally:
        proc.kill()
        proc.wait(timeout=10)


def test_a_stall_is_printed_with_the_task_s_python_stacks(sleeper, capsys) -> None:
    print_stall(ev.TaskStalled(worker="worker-1", pid=sleeper.pid, idle_s=42.2, step_s=0.31, threshold_s=30))
    out = capsys.readouterr().out
    assert out.startswith("warning: worker-1: no step for 42 s (its steps took 0.31 s); its Python stacks:\n")
    if "may not attach" in out:
        pytest.skip(f"py-spy cannot attach here (ptrace): {out}")
    assert "sleeping_in_here" in out
    print_stall(ev.TaskStalled(worker="worker-1", pid=sleeper.pid, resumed=True))
    assert capsys.readouterr().out == "worker-1: stepping again\n"


def test_without_py_spy_the_message_says_how_to_get_it(sleeper, monkeypatch, tmp_path) -> None:
    monkeypatch.setattr(sys, "executable", str(tmp_path / "python"))
    monkeypatch.setenv("PATH", str(tmp_path))
    stacks = python_stacks(sleeper.pid)
    assert not stacks.ok
    assert stacks.text == (
        f"No Python stacks of process {sleeper.pid}: py-spy is not installed; `pip install py-spy` adds it"
    )


def test_a_process_that_is_gone_is_said_so() -> None:
    proc = subprocess.Popen([sys.executable, "-c", "pass"])
    proc.wait(timeout=30)
    stacks = python_stacks(proc.pid)
    assert not stacks.ok and stacks.text.startswith(f"No Python stacks of process {proc.pid}: py-spy failed: ")
