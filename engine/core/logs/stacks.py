"""A running process's Python stacks, every thread, without stopping it (py-spy dump).

What a stalled task is doing: blocked in a collective, in a generator, in a
lock. py-spy reads the process's memory through ptrace; where that is not
allowed (Yama's ptrace_scope, a container without CAP_SYS_PTRACE, another
user's process) the result says so and what to change.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from engine.core.messages import Message, msg

DUMP_TIMEOUT_S = 30.0  # py-spy reads every thread; a big process takes a few seconds


@dataclass(frozen=True)
class Stacks:
    """`text` is the dump when `ok`, else why there is none."""

    ok: bool
    text: str


def py_spy() -> str | None:
    """The py-spy program: beside this Python (its wheel installs it there), else on the PATH."""
    beside = Path(sys.executable).with_name("py-spy" + (".exe" if os.name == "nt" else ""))
    return str(beside) if beside.is_file() else shutil.which("py-spy")


def python_stacks(pid: int, host: str = "", there: Sequence[str] = ()) -> Stacks:
    """Every thread's Python stack in process `pid`, or a message saying why they cannot be read.

    A process on another machine (`host`): `there` is the command that runs py-spy on it there (ssh), empty
    when that machine has no py-spy."""
    program = py_spy()
    if host and not there:
        why = msg("py-spy is not installed on {host}; `pip install py-spy` there adds it", host=host)
        return Stacks(False, unavailable(pid, why))
    if program is None and not host:
        return Stacks(False, unavailable(pid, msg("py-spy is not installed; `pip install py-spy` adds it")))
    command = list(there) if host else [str(program), "dump", "--pid", str(pid)]
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=DUMP_TIMEOUT_S)
    except subprocess.TimeoutExpired:
        return Stacks(
            False, unavailable(pid, msg("py-spy did not answer within {seconds:g} s", seconds=DUMP_TIMEOUT_S))
        )
    except OSError as exc:
        return Stacks(False, unavailable(pid, msg("py-spy could not be run: {error}", error=str(exc))))
    if done.returncode == 0 and done.stdout.strip():
        return Stacks(True, done.stdout)
    said = _first_words(done.stderr or done.stdout)
    if "ermission" in said or "ptrace" in said.lower():
        why = msg(
            "py-spy may not attach to it ({error}); run as the same user with ptrace allowed "
            "(`sudo sysctl kernel.yama.ptrace_scope=0`, or a container with CAP_SYS_PTRACE), or as root",
            error=said,
        )
    else:
        why = msg("py-spy failed: {error}", error=said or f"exit code {done.returncode}")
    return Stacks(False, unavailable(pid, why))


def _first_words(text: str) -> str:
    """py-spy's error and its causes, without the backtrace that follows them."""
    head = text.split("Stack backtrace", 1)[0]
    return " ".join(head.split())[:300]


def unavailable(pid: int, why: Message) -> Message:
    return msg("No Python stacks of process {pid}: {why}", pid=pid, why=why)
