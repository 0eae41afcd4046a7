"""Child-process entry of one training run: `python -m engine.train.worker --config F --run-dir D`.

In a cluster TF_CONFIG's role picks the program (engine.train.task); --wait-for-config makes a warm trainer
(engine.train.warm_start). It speaks the worker protocol (engine.core.protocol): events on stdout, the rest on
stderr; "profile N" on stdin profiles the next N steps; "stop", EOF, SIGINT or SIGTERM stop it gracefully (a
checkpoint, then run_finished "stopped"; "killed" after TRAINER_STOP_GRACE_S if the user's code never lets it).
A run_failed event always precedes a non-zero exit code (engine.core.protocol.codes.ExitCode).
"""

from __future__ import annotations

import argparse
import sys

from engine.core import events as ev
from engine.core.arguments import add_profile_steps
from engine.core.problems import ConfigError, RunDirError, failure_message
from engine.core.protocol.channel import (
    EventChannel,
    StopSignal,
    die_with_parent,
    handle_stop_signals,
    protect_stdout,
    watch_stdin,
)
from engine.core.protocol.codes import ExitCode, RunStatus
from engine.core.protocol.commands import WAIT_FOR_CONFIG
from engine.core.protocol.profile import ProfileRequests
from engine.train.ending import exit_now


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m engine.train.worker", description=__doc__.splitlines()[0])
    parser.add_argument("--config", help="RunConfig JSON file")
    parser.add_argument("--run-dir", help="directory for this run's files")
    parser.add_argument("--resume", metavar="RUN_DIR", help="continue a stopped or killed run")
    parser.add_argument(
        WAIT_FOR_CONFIG, action="store_true", help="a warm trainer: import TensorFlow, then read the run's arguments"
    )
    add_profile_steps(parser)
    args = parser.parse_args(argv)
    die_with_parent()
    sink = EventChannel(protect_stdout())
    if args.wait_for_config:
        from engine.train.warm_start import wait_for_assignment

        args = parser.parse_args(wait_for_assignment(sink))
    if not args.config and not args.resume:
        sink(ev.RunFailed(message="give --config FILE or --resume RUN_DIR", error_type="UsageError"))
        return ExitCode.CONFIG

    def stop_before_training(reason: str) -> None:
        sink(ev.RunFinished(status=RunStatus.STOPPED, epochs_completed=0, run_dir=args.run_dir or args.resume or ""))
        exit_now(ExitCode.OK)  # blocked in TensorFlow start-up, nothing to save

    stop = StopSignal(on_early_stop=stop_before_training)
    profile = ProfileRequests(args.profile_steps)  # and "profile N" on stdin
    watch_stdin(stop, profile)
    handle_stop_signals(stop, ctrl_c_code=ExitCode.OK, main_thread_may_block=True)
    from engine.core.runs.rundir import open_run
    from engine.train.task import end_process, run_task

    try:
        config, run_dir, resume = open_run(args.config, args.run_dir, args.resume)
        outcome = run_task(config, run_dir, [sink], stop, resume=resume, profile=profile)
    except (ConfigError, RunDirError) as exc:  # a bad config; a run folder that is not ours, or in use
        message = failure_message(exc) if isinstance(exc, ConfigError) else str(exc)
        sink(ev.RunFailed(message=message, error_type=type(exc).__name__))
        return ExitCode.CONFIG
    if outcome.status == RunStatus.FAILED:
        return end_process(ExitCode.CONFIG if outcome.config_error else ExitCode.FAILED, outcome)
    # stopped by SIGTERM: 143 after the checkpoint, as process managers expect; a Stop or Ctrl-C: 0
    return end_process(stop.exit_code if outcome.status == RunStatus.STOPPED else ExitCode.OK, outcome)


if __name__ == "__main__":
    sys.exit(main())
