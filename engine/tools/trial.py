"""A trial: is a changed config faster than the current one? Measured before the change is adopted.

The current config and the changed one run in turn as short real trainings, current first, alternating
(A B A B for two rounds), each a fresh trainer process and never two at once: runs side by side would
share the cores and measure each other. A run trains one epoch more than it measures; its examples/s is
the trainer's own figure of the epochs after the first (the first holds tracing and start-up), as in the
scaling study (engine.tools.scaling.measure). The speed-up pairs each changed run with the current runs
beside it (engine.core.remedies.speedup), so a host that grows busier during the trial shows as spread,
not as an effect. Runs write into a scratch folder removed at the end, unless an output folder is given:
a trial never lands in the user's run list by itself.

`serve` runs a trial as a protocol process (`tfdd try --events`): run_started per run, a trial_arm per run,
run_finished at the end; "stop" on stdin cancels. That is how the window runs it.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from engine.core import events as ev
from engine.core.config import RunConfig
from engine.core.messages import msg
from engine.core.problems import ConfigError, Problem
from engine.core.protocol.codes import ExitCode, RunStatus
from engine.core.remedies import (
    CHANGED,
    CURRENT,
    TRIAL_EPOCHS,
    TRIAL_ROUNDS,
    changed_problems,
    parse_change,
    speedup,
    speedup_line,
    trial_refusal,
)
from engine.core.runs.rundir import claim_new_dir
from engine.core.runs.scratch import ScratchDir
from engine.core.sweep.space import apply
from engine.tools.scaling import collecting, measure, steady_anatomy


def parse_changes(texts: list[str]) -> tuple[dict[str, Any], list[Problem]]:
    """`field=value` texts as a change set, and a problem for each that is not one."""
    changes: dict[str, Any] = {}
    problems: list[Problem] = []
    for text in texts:
        parsed = parse_change(text)
        if parsed is None:
            problems.append(Problem("--change", text, msg("write a change as field=value, e.g. jit_compile=true")))
        else:
            changes[parsed[0]] = parsed[1]
    return changes, problems


def change_problems(config: RunConfig, changes: dict[str, Any]) -> list[Problem]:
    """What stops a trial of `changes` on `config` before anything starts: no change, an unknown field, a
    value the config refuses, a change to what it already is."""
    if not changes:
        return [Problem("--change", "", msg("give at least one change, e.g. --change jit_compile=true"))]
    problems = changed_problems(config, changes, None)
    if problems:
        return problems
    changed = apply(config, changes)
    if changed == config:
        values = list(changes.values())
        value = values[0] if len(values) == 1 else values
        return [Problem(", ".join(changes), value, msg("the config already has these values"))]
    return []


def arm_config(config: RunConfig, epochs: int) -> RunConfig:
    """A run of the trial: one epoch to trace and warm up, then `epochs` measured."""
    return config.replace(epochs=1 + epochs)


def run_trial(
    config: RunConfig,
    changes: dict[str, Any],
    root: Path,
    rounds: int = TRIAL_ROUNDS,
    epochs: int = TRIAL_EPOCHS,
    on_arm: Callable[[ev.TrialArm], None] | None = None,
    should_stop: Callable[[], bool] = lambda: False,
    on_event: ev.Sink | None = None,
) -> list[ev.TrialArm]:
    """The runs of a trial in `root`, current and changed in turn, `rounds` of each; a run that fails is
    reported and the others still run. When `should_stop` turns true the run in flight is stopped and no
    other starts. `on_event` sees every event of every run's trainer."""
    arms = {CURRENT: arm_config(config, epochs), CHANGED: arm_config(apply(config, changes), epochs)}
    measured: list[ev.TrialArm] = []
    for round_ in range(1, rounds + 1):
        for arm, arm_cfg in arms.items():
            if should_stop():
                return measured
            run_dir = claim_new_dir(root, f"{arm}-{round_}")
            anatomies: list[ev.StepAnatomy] = []
            rate, error = measure(arm_cfg, run_dir, should_stop=should_stop, on_event=collecting(anatomies, on_event))
            if should_stop():
                return measured  # a run cut short measured nothing
            result = ev.TrialArm(
                arm=arm,
                round=round_,
                examples_per_sec=rate,
                run_dir=str(run_dir),
                error=error,
                anatomy=steady_anatomy(anatomies),
            )
            measured.append(result)
            if on_arm:
                on_arm(result)
    return measured


def format_table(arms: list[ev.TrialArm], change: str) -> str:
    """The trial's runs as a table for a terminal, and the speed-up in one line."""
    lines = ["run       round  examples/s  run folder", "--------  -----  ----------  ----------"]
    for a in arms:
        figure = f"{a.examples_per_sec:>10,.0f}" if not a.error else "    failed"
        lines.append(f"{a.arm:<8}  {a.round:>5}  {figure}  {a.error or a.run_dir}")
    return "\n".join([*lines, speedup_line(change, speedup(arms))])


def run_in(out: str | None, body: Callable[[Path], int]) -> int:
    """`body` with the trial's folder: `out` (kept), else a scratch folder removed when it returns."""
    if out:
        root = Path(out)
        root.mkdir(parents=True, exist_ok=True)
        return body(root)
    scratch = ScratchDir("tfdd-trial-")
    try:
        return body(scratch.path)
    finally:
        scratch.cleanup()


def serve(config: RunConfig, changes: dict[str, Any], root: Path, rounds: int, epochs: int) -> int:
    """The trial as a protocol process: each run's run_started, a trial_arm per run, run_finished at the end;
    "stop" on stdin cancels."""
    from engine.core.protocol.channel import EventChannel, StopSignal, handle_stop_signals, protect_stdout, watch_stdin

    emit = EventChannel(protect_stdout())
    stop = StopSignal()
    watch_stdin(stop)
    handle_stop_signals(stop)

    def relay(event: ev.Event) -> None:
        if isinstance(event, ev.RunStarted):
            emit(event)  # a run of the trial has begun training

    arms = run_trial(
        config, changes, root, rounds, epochs, on_arm=emit, should_stop=lambda: stop.requested, on_event=relay
    )
    status = RunStatus.STOPPED if stop.requested else RunStatus.COMPLETED
    emit(ev.RunFinished(status=status, epochs_completed=len(arms), run_dir=str(root)))
    return ExitCode.OK


def load_checked(config_path: str, texts: list[str]) -> tuple[RunConfig, dict[str, Any]]:
    """The config and its changes, or ConfigError with every problem (before anything starts)."""
    config = RunConfig.load(config_path)
    elsewhere = trial_refusal(Path(config_path).parent)  # the config of a run folder: where did that run train?
    if elsewhere:
        raise ConfigError([Problem("--config", config_path, elsewhere)])
    changes, problems = parse_changes(texts)
    problems = problems or change_problems(config, changes)
    if problems:
        raise ConfigError(problems)
    return config, changes
