"""One `train` command for every task of a cluster: TF_CONFIG's role picks the program.

Under parameter_server the chief trains while workers and ps tasks serve,
and an evaluator task validates checkpoints beside either cluster strategy
(engine.core.tfconfig.task_program). Deciding here, from TF_CONFIG, lets the
launcher, exported start scripts, a Slurm job and a Kubernetes TFJob start
every task with the same command and the same run config.
"""

from __future__ import annotations

import sys
from pathlib import Path

from engine.core import events as ev
from engine.core.config import RunConfig
from engine.core.protocol.channel import StopSignal
from engine.core.protocol.profile import ProfileRequests
from engine.core.sources import SourceInfo
from engine.core.tfconfig import Program, role_from_environment, task_program
from engine.train.ending import exit_now, user_threads_left
from engine.train.retire import retiring
from engine.train.trainer import Outcome, Trainer


def end_process(code: int, outcome: Outcome) -> int:
    """`code` for sys.exit, or end the process now: when the outcome says everything is written, when a
    finished data iterator is still being destroyed (the run's files are closed by now; engine.train.retire),
    or when the user's code left threads that are not daemons (the interpreter would wait for them forever)."""
    threads = user_threads_left()
    if threads:
        print(
            f"ending the process although threads of the user's code still run: {', '.join(threads)}", file=sys.stderr
        )
    if outcome.exit_at_once or retiring() or threads:
        exit_now(code)
    return code


def run_task(
    config: RunConfig,
    run_dir: Path,
    sinks: list[ev.Sink],
    stop: StopSignal,
    resume: bool = False,
    print_tracebacks: bool = True,
    source_info: SourceInfo | None = None,
    profile: ProfileRequests | None = None,
) -> Outcome:
    """Run this process's task to its end; ConfigError for a malformed TF_CONFIG (nothing was started).
    `profile`: the steps a trainer profiles (engine.train.profile)."""
    role = role_from_environment(config.strategy)
    program = task_program(role.job, config.strategy) if role.job else Program.TRAINER
    if program == Program.SERVER:
        from engine.train.server import Server

        return Server(config, role, sinks, stop).run()
    if program == Program.EVALUATOR:
        from engine.train.evaluator import Evaluator

        return Evaluator(config, run_dir, sinks, stop, role).run()
    return Trainer(
        config,
        run_dir,
        sinks,
        stop,
        resume=resume,
        print_tracebacks=print_tracebacks,
        source_info=source_info,
        profile=profile,
    ).run()
