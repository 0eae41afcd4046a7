"""`tfdd train`'s stderr, folded as the window folds it; the raw stream kept in the run directory.

TensorFlow writes from C++ straight to fd 2, so `fold_stderr` points fd 2 at a pipe read by a small child
(`python -m engine.core.logs.stderr_tee`): it appends every line to RUN_DIR/stderr.log (engine.core.runs.raw_log)
and prints the folded lines (engine.core.logs.tf_log). A separate process still drains the pipe when the trainer
crashes, so a crash's last words are kept; it ignores Ctrl-C and SIGTERM and ends with the pipe.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import IO

from engine.core.logs.tf_log import Entry, LogFolder
from engine.core.runs.raw_log import RawLog

DRAIN_S = 5.0


@contextlib.contextmanager
def fold_stderr(raw_log: Path, own_file: bool = False, verbose: bool = False) -> Iterator[IO[str]]:
    """While inside: fd 2 goes through the folding child; yields a text stream to the terminal itself.
    `raw_log` is the run's, written once the run is this process's, or with `own_file` the task's own
    (engine.core.runs.raw_log.task_raw_log)."""
    sys.stderr.flush()
    terminal_fd = os.dup(2)
    terminal = os.fdopen(os.dup(terminal_fd), "w", buffering=1, encoding="utf-8", errors="replace")
    command = [sys.executable, "-m", "engine.core.logs.stderr_tee", "--raw", str(raw_log)]
    command += [] if own_file else ["--owner", str(os.getpid())]
    command += ["--verbose"] if verbose else []
    child: subprocess.Popen[bytes] | None = None
    try:
        child = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=terminal_fd, stderr=terminal_fd)
        assert child.stdin is not None
        os.dup2(child.stdin.fileno(), 2)
        child.stdin.close()
    except OSError:
        child = None  # no folding rather than no training
    try:
        yield terminal
    finally:
        sys.stderr.flush()
        os.dup2(terminal_fd, 2)  # the last writer's end of the pipe closes: the child sees EOF
        os.close(terminal_fd)
        if child is not None:
            with contextlib.suppress(subprocess.TimeoutExpired):
                child.wait(timeout=DRAIN_S)
            if child.poll() is None:
                child.kill()
        terminal.close()


class TerminalFolder:
    """Prints each folded entry once, and again when its topic's state changes (a cluster joining)."""

    def __init__(self, out: IO[str], raw_log: Path | None) -> None:
        self.out = out
        self.raw_log = raw_log
        self._folder = LogFolder()
        self._shown: dict[int, str] = {}
        self._told = False

    def feed(self, line: str) -> None:
        folded = self._folder.feed([line])
        for entry in [*folded.new, *folded.grown]:
            if self._shown.get(id(entry)) != entry.text:
                self._shown[id(entry)] = entry.text
                self._print(entry)

    def _print(self, entry: Entry) -> None:
        self.out.write(entry.text + "\n")
        if entry.topic and not self._told and self.raw_log is not None:
            self._told = True
            self.out.write(
                f"  (TensorFlow's own lines are folded; all of them are in {self.raw_log}, or use --verbose)\n"
            )
        self.out.flush()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m engine.core.logs.stderr_tee", description=__doc__.splitlines()[0])
    parser.add_argument("--raw", help="append every line here")
    parser.add_argument(
        "--owner", type=int, help="pid of the trainer whose run the raw lines belong to (none: a file of its own)"
    )
    parser.add_argument("--verbose", action="store_true", help="print every line as it came")
    args = parser.parse_args(argv)
    for sig in (signal.SIGINT, getattr(signal, "SIGTERM", None)):
        if sig is not None:
            signal.signal(sig, signal.SIG_IGN)
    # the owner's pid is given, not os.getppid(): a trainer that crashed at once may already be gone
    raw = RawLog(Path(args.raw), owner_pid=args.owner) if args.raw else None
    out = sys.stdout
    folder = TerminalFolder(out, Path(args.raw) if raw else None)
    for line in sys.stdin.buffer:
        text = line.decode("utf-8", "replace").rstrip("\r\n")
        if raw is not None:
            raw.write([text])  # a full disk: the terminal still gets every line
        try:
            if args.verbose:
                out.write(text + "\n")
                out.flush()
            else:
                folder.feed(text)
        except (BrokenPipeError, ValueError):
            out = open(os.devnull, "w")  # noqa: SIM115 - the terminal is gone; keep the raw log
            folder.out = out
    if raw is not None:
        raw.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
