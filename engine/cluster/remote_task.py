"""One cluster task on its host, started over ssh: the trainer, and the guarantee that it ends with the link.

The launcher runs `python -m engine.cluster.remote_task --folder D` over ssh
(engine.cluster.remote). In D are the task's config.json, tf_config.json and
the user's Python files; the chief writes its run to D/run. This process
first says the trainer's pid (a task_process event); the trainer's
events go straight out through ssh's stdout, its log through stderr; this
process relays stdin ("stop") to it. The launcher also sends HEARTBEAT_LINE
every HEARTBEAT_S (not relayed): a link that goes silent without closing (a
closed laptop lid, a dead network: TCP would notice only after many minutes)
counts as dropped after LINK_TIMEOUT_S. When stdin ends or goes silent (the
launcher asked to stop, or the connection dropped) or ssh sends SIGHUP or
SIGTERM, the trainer is asked to stop (a checkpoint first), and
after CLUSTER_STOP_GRACE_S it is killed with everything it started, so no
process outlives the run. The trainer dies with this process (its parent)
too (engine.core.protocol.channel.die_with_parent).
"""

from __future__ import annotations

import argparse
import contextlib
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

from engine.core import events as ev
from engine.core.logs.stacks import py_spy
from engine.core.protocol import commands
from engine.core.protocol.codes import CLUSTER_STOP_GRACE_S
from engine.core.tfconfig import TF_CONFIG_ENV

CONFIG_FILE = "config.json"
TF_CONFIG_FILE = "tf_config.json"
RUN_FOLDER = "run"
HEARTBEAT_LINE = b"alive"
HEARTBEAT_S = 1.0  # how often the launcher says it is there
LINK_TIMEOUT_S = 10.0  # this long without a word from the launcher, the link counts as dropped


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m engine.cluster.remote_task")
    parser.add_argument("--folder", required=True, help="the task's folder: config.json, tf_config.json, files")
    parser.add_argument("--resume", action="store_true", help="continue the run in FOLDER/run")
    args = parser.parse_args(argv)
    folder = Path(args.folder).expanduser()  # it runs in the login's home, where relative data paths start
    env = dict(os.environ, **{TF_CONFIG_ENV: (folder / TF_CONFIG_FILE).read_text(encoding="utf-8").strip()})
    run = folder / RUN_FOLDER
    command = (
        commands.trainer_resume_command(run) if args.resume else commands.trainer_command(folder / CONFIG_FILE, run)
    )
    child = subprocess.Popen(command, env=env, stdin=subprocess.PIPE, start_new_session=True)
    # the trainer's pid here, for the launcher (one line, one write: never torn by the trainer's own lines)
    os.write(sys.stdout.fileno(), (ev.encode(ev.TaskProcess(pid=child.pid, py_spy=py_spy() or "")) + "\n").encode())
    ended = threading.Event()  # stdin closed, or a signal: the trainer is asked to stop
    for sig in (signal.SIGHUP, signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, lambda *_: _end(child, ended))
    heard = [time.monotonic()]  # when the launcher last said anything
    threading.Thread(target=_relay, args=(child, ended, heard), name="stdin-relay", daemon=True).start()
    while child.poll() is None:
        if not ended.is_set() and time.monotonic() - heard[0] > LINK_TIMEOUT_S:
            _end(child, ended)  # a silent link: as if it had closed
        if ended.wait(0.5):
            try:
                child.wait(timeout=CLUSTER_STOP_GRACE_S)
            except subprocess.TimeoutExpired:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(child.pid, signal.SIGKILL)
                child.wait()
    with contextlib.suppress(ProcessLookupError):  # anything the trainer left behind in its session
        os.killpg(child.pid, signal.SIGKILL)
    code = child.returncode
    return 128 - code if code < 0 else code


def _relay(child: subprocess.Popen[bytes], ended: threading.Event, heard: list[float]) -> None:
    """stdin's lines to the trainer, but the heartbeats; at its end, the trainer's stdin ends too (its stop)."""
    pending = b""
    with contextlib.suppress(OSError, ValueError):  # raw reads: no buffer lock left held at exit
        while data := os.read(sys.stdin.fileno(), 65536):
            heard[0] = time.monotonic()
            *lines, pending = (pending + data).split(b"\n")
            said = b"".join(line + b"\n" for line in lines if line.strip() != HEARTBEAT_LINE)
            if said and not ended.is_set():
                assert child.stdin is not None
                child.stdin.write(said)
                child.stdin.flush()
    _end(child, ended)


def _end(child: subprocess.Popen[bytes], ended: threading.Event) -> None:
    with contextlib.suppress(OSError, ValueError):
        assert child.stdin is not None
        child.stdin.close()
    ended.set()


if __name__ == "__main__":
    sys.exit(main())
