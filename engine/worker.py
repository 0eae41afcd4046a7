"""Child-process entry of one training run: `python -m engine.worker --config F --run-dir D`.

The protocol with the GUI runner and the cluster launcher:
- stdout carries only events, one JSON line each. At start-up the real
  stdout is moved to a private descriptor and fd 1 is pointed at stderr, so
  a print() from user code or a C++ log line from TensorFlow cannot corrupt
  the stream;
- stderr carries everything else (logs, tracebacks);
- the line "stop" on stdin, or stdin closing (the parent died), asks for a
  graceful stop: checkpoint, run_finished(stopped), exit 0; before training
  has begun it exits at once, and on Linux it dies with its parent even
  while TensorFlow blocks (see die_with_parent);
- exit codes: 0 completed or stopped, 1 failed, 2 bad config or arguments;
  a run_failed event always comes first.
"""
from __future__ import annotations

import argparse
import os
import signal
import sys
import threading
from typing import IO

from engine import events as ev
from engine.config import ConfigError
from engine.progress import StopSignal

EXIT_OK, EXIT_FAILED, EXIT_CONFIG = 0, 1, 2


def protect_stdout() -> IO[str]:
    """Return a private line-buffered channel to the real stdout; fd 1 becomes stderr."""
    sys.stdout.flush()
    channel = os.fdopen(os.dup(1), "w", buffering=1, encoding="utf-8")
    os.dup2(2, 1)
    return channel


class ChannelSink:
    """Writes events as JSON lines to the protected channel."""

    def __init__(self, channel: IO[str]):
        self._channel = channel
        self._lock = threading.Lock()

    def __call__(self, event: ev.Event) -> None:
        with self._lock:
            try:
                self._channel.write(ev.encode(event) + "\n")
            except (BrokenPipeError, ValueError):
                pass  # the reader is gone; the run directory still gets everything


def watch_stdin(stop: StopSignal) -> None:
    """A daemon thread: "stop" or EOF on stdin requests a stop."""

    def read() -> None:
        for line in sys.stdin:
            if line.strip().lower() == "stop":
                stop.request("stop requested")
                return
        stop.request("the parent process closed the control channel")

    threading.Thread(target=read, name="stop-listener", daemon=True).start()


def die_with_parent() -> None:
    """Linux: have the kernel end this process when its parent dies.

    The stdin EOF rule cannot help while TensorFlow holds the GIL, which it
    does while a multi-worker strategy waits for its peers; without this, a
    worker whose window or launcher was killed could wait there for an hour.
    SIGKILL because a Python-level handler would need the GIL too.
    """
    if not sys.platform.startswith("linux"):
        return
    import ctypes

    pr_set_pdeathsig = 1
    ctypes.CDLL(None, use_errno=True).prctl(pr_set_pdeathsig, signal.SIGKILL)
    if os.getppid() == 1:  # the parent died before prctl took effect
        os._exit(EXIT_FAILED)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m engine.worker", description=__doc__.splitlines()[0])
    parser.add_argument("--config", help="RunConfig JSON file")
    parser.add_argument("--run-dir", help="directory for this run's files")
    parser.add_argument("--resume", metavar="RUN_DIR", help="continue a stopped or killed run")
    args = parser.parse_args(argv)
    die_with_parent()
    sink = ChannelSink(protect_stdout())
    if not args.config and not args.resume:
        sink(ev.RunFailed(message="give --config FILE or --resume RUN_DIR", error_type="UsageError"))
        return EXIT_CONFIG
    def stop_before_training(reason: str) -> None:
        sink(ev.RunFinished(status="stopped", epochs_completed=0, run_dir=args.run_dir or args.resume or ""))
        os._exit(EXIT_OK)  # blocked in TensorFlow start-up, nothing to save

    stop = StopSignal(on_early_stop=stop_before_training)
    watch_stdin(stop)
    signal.signal(signal.SIGINT, lambda *_: stop.request("interrupted (Ctrl-C)"))
    if hasattr(signal, "SIGTERM"):
        signal.signal(signal.SIGTERM, lambda *_: stop.request("terminated"))
    from engine.rundir import open_run
    from engine.trainer import Trainer

    try:
        config, run_dir, resume = open_run(args.config, args.run_dir, args.resume)
        trainer = Trainer(config, run_dir, [sink], stop, resume=resume)
    except ConfigError as exc:
        sink(ev.RunFailed(message=str(exc), error_type="ConfigError"))
        return EXIT_CONFIG
    outcome = trainer.run()
    if outcome.status == "failed":
        return EXIT_CONFIG if outcome.config_error else EXIT_FAILED
    return EXIT_OK


if __name__ == "__main__":
    sys.exit(main())
