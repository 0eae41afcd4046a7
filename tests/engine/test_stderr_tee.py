"""`tfdd train`'s stderr: TensorFlow's lines folded on the terminal, all of them kept in the run directory,
even when the process dies right after writing them."""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path

from engine.core.logs.stderr_tee import TerminalFolder
from tests.repo import REPO

CHATTER = (Path(__file__).with_name("tf_stderr") / "mw_stderr_unset_worker0.txt").read_text().splitlines()

WRITER = """
import os, sys
from pathlib import Path
from engine.core.protocol.paths import RunPaths
from engine.core.runs.runlock import RunLock
from engine.core.logs.stderr_tee import fold_stderr
lines = Path(sys.argv[1]).read_text().splitlines()
raw = Path(sys.argv[2])
with fold_stderr(raw, verbose=sys.argv[3] == "verbose") as terminal:
    terminal.write("progress bar and epoch lines go straight to the terminal\\n")
    os.write(2, (lines[0] + "\\n").encode())  # TensorFlow may speak before the run folder is claimed
    raw.parent.mkdir()
    lock = RunLock.acquire(RunPaths(raw.parent), "tfdd train")  # as the trainer claims its run
    lock.accept()
    for line in lines[1:]:
        os.write(2, (line + "\\n").encode())  # as TensorFlow's C++ does
    print("Traceback (most recent call last):", file=sys.stderr, flush=True)
    if sys.argv[4] == "crash":
        os.write(2, b"F0000 00:00:1.0 7 something.cc:1] Check failed: the last words\\n")
        os.abort()
"""


def run_writer(tmp_path: Path, verbose: str = "", crash: str = "") -> tuple[subprocess.CompletedProcess, Path]:
    lines = tmp_path / "lines.txt"
    lines.write_text("\n".join(CHATTER) + "\n")
    raw = tmp_path / "run" / "stderr.log"
    out = subprocess.run(
        [sys.executable, "-c", WRITER, str(lines), str(raw), verbose or "-", crash or "-"],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=60,
    )
    return out, raw


def test_terminal_shows_folded_lines_and_the_run_directory_keeps_every_line(tmp_path):
    out, raw = run_writer(tmp_path)
    assert out.returncode == 0, out.stderr
    shown = out.stderr.splitlines()
    assert "TensorFlow: No CUDA driver: training on the CPU (an error only if you expected a GPU)" in shown
    assert "TensorFlow: Joining the cluster: all workers connected; training can start" in shown
    assert not any("cuInit" in line or line.startswith("I0000") for line in shown)
    assert any(str(raw) in line for line in shown), "says where the raw lines are"
    assert "Traceback (most recent call last):" in shown, "lines that are not chatter pass unchanged"
    assert "progress bar and epoch lines go straight to the terminal" in shown
    assert raw.read_text().splitlines() == [*CHATTER, "Traceback (most recent call last):"]


def test_verbose_shows_everything(tmp_path):
    out, _ = run_writer(tmp_path, verbose="verbose")
    assert [line for line in out.stderr.splitlines() if line in CHATTER] == CHATTER


def test_a_crash_loses_no_line(tmp_path):
    out, raw = run_writer(tmp_path, crash="crash")
    assert out.returncode != 0
    assert raw.read_text().splitlines()[-1].endswith("Check failed: the last words")
    assert "TensorFlow fatal: Check failed: the last words (something.cc:1)" in out.stderr


def test_a_cluster_state_change_is_printed_again():
    out = io.StringIO()
    folder = TerminalFolder(out, None)
    for line in CHATTER:
        folder.feed(line)
    cluster = [line for line in out.getvalue().splitlines() if "Joining the cluster" in line]
    assert len(cluster) >= 3 and cluster[-1].endswith("training can start")
