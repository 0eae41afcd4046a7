"""Scaling study: the same run with 1, 2, 4 … replicas, and whether more devices helped.

Each replica count is a fresh trainer process (devices are fixed at
start-up) with the same global batch and data, so every count trains the
same number of steps (strong scaling). Replicas are GPUs when the config
lists enough GPUs, else virtual CPU devices, which share the same cores and
so show the cost of distribution rather than a speed-up
(engine.core.config.with_replicas). The throughput of a count is the mean
examples/s of the epochs after the first (the first holds tracing and
start-up), and its step anatomy (where a step's time goes) is theirs too.
Speed-up is relative to the smallest count measured (normally 1), and
efficiency = speed-up / (replicas / that count).

parameter_server is studied by workers instead: a count is that many worker
processes (with one ps task and the chief), launched as a local cluster
(`cluster launch --events` speaks the same protocol as a trainer), since
its steps run on workers and its replicas are per worker.

`serve` runs a study as a protocol process (`tfdd scaling --events`): one
scaling_point event per count, "stop" on stdin cancels. That is how the
window runs it, like any other background job.
"""

from __future__ import annotations

import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from engine.core import anatomy
from engine.core import events as ev
from engine.core.config import RunConfig, Strategy, with_replicas
from engine.core.problems import ConfigError
from engine.core.protocol import commands
from engine.core.protocol.client import WorkerProcess
from engine.core.protocol.codes import CLUSTER_GRACE_S, STOP_GRACE_S, ExitCode, RunStatus
from engine.core.runs.rundir import claim_new_dir

ScalingPoint = ev.ScalingPoint
POLL_S = 0.2


CommandFactory = Callable[[Path, Path], list[str]]  # (config file, run dir) -> command
PS_PER_COUNT = 1  # parameter servers beside each worker count of a parameter_server study


def variant(config: RunConfig, count: int) -> tuple[RunConfig, CommandFactory]:
    """The config and command of one count: mirrored replicas, or (parameter_server) worker processes."""
    if config.strategy == Strategy.PARAMETER_SERVER:
        workers = config.replace(
            epochs=max(config.epochs, 2), name=f"{config.name + '-' if config.name else ''}scaling-{count}w"
        )
        return workers, lambda c, d: commands.cluster_command(c, d, workers=count, ps=PS_PER_COUNT)
    return with_replicas(config, count), commands.trainer_command


def measure(
    config: RunConfig,
    run_dir: Path,
    should_stop: Callable[[], bool] = lambda: False,
    grace_s: float = STOP_GRACE_S,
    on_event: ev.Sink | None = None,
    command_for: CommandFactory = commands.trainer_command,
) -> tuple[float, str]:
    """Train one variant in a fresh trainer; (examples/s after epoch 1, error message).

    `should_stop` is polled while the trainer runs: when it turns true the
    trainer is asked to stop and killed after `grace_s` if it has not ended;
    the error then says the count was cancelled. `on_event` sees every event
    of the trainer.
    """
    run_dir.mkdir(parents=True, exist_ok=True)
    config_path = run_dir.parent / f"{run_dir.name}.json"
    config.save(config_path)
    worker = WorkerProcess(command_for(config_path, run_dir))
    rates: list[float] = []
    error = ""
    cancelled_at: float | None = None
    worker.start()
    try:
        while worker.streams_open or worker.alive():
            if cancelled_at is None and should_stop():
                cancelled_at = time.monotonic()
                worker.request_stop()
            if cancelled_at is not None and time.monotonic() - cancelled_at > grace_s:
                worker.kill()
            for out in worker.poll(timeout=POLL_S):
                event = out.event
                if event is not None and on_event is not None:
                    on_event(event)
                if isinstance(event, ev.EpochEnd) and event.epoch > 1:
                    rates.append(event.examples_per_sec)
                elif isinstance(event, ev.RunFailed) and not error:
                    error = event.message
    finally:
        worker.close()
    if cancelled_at is not None:
        error = "cancelled"
    if not rates and not error:
        error = f"the trainer {ExitCode.describe(worker.returncode or 0)} before finishing an epoch after the first"
    return (sum(rates) / len(rates) if rates else 0.0), error


def run_study(
    config: RunConfig,
    replica_counts: list[int],
    root: Path | None = None,
    on_point: Callable[[ScalingPoint], None] | None = None,
    should_stop: Callable[[], bool] = lambda: False,
    on_event: ev.Sink | None = None,
) -> list[ScalingPoint]:
    """Measure each count in turn; a count that fails is reported, the others still run.

    When `should_stop` turns true the count in flight is stopped and no
    further count starts; the points measured so far are returned.
    `on_event` sees every event of every count's trainer.
    """
    root = root or Path(tempfile.mkdtemp(prefix="tfdd-scaling-"))
    points: list[ScalingPoint] = []
    reference: tuple[int, float] | None = None  # (replicas, examples/s) of the smallest count that worked
    for replicas in sorted(replica_counts):
        if should_stop():
            break
        count_config, command_for = variant(config, replicas)
        run_dir = claim_new_dir(root, f"replicas-{replicas}")  # a study run again never writes into an old run
        anatomies: list[ev.StepAnatomy] = []
        rate, error = measure(
            count_config,
            run_dir,
            should_stop=should_stop,
            on_event=collecting(anatomies, on_event),
            command_for=command_for,
            grace_s=CLUSTER_GRACE_S if config.strategy == Strategy.PARAMETER_SERVER else STOP_GRACE_S,
        )
        if should_stop():
            break  # a count cut short measured nothing
        if reference is None and rate:
            reference = (replicas, rate)
        speedup = rate / reference[1] if reference else 0.0
        efficiency = speedup / (replicas / reference[0]) if reference else 0.0
        point = ScalingPoint(
            replicas=replicas,
            examples_per_sec=rate,
            speedup=speedup,
            efficiency=efficiency,
            run_dir=str(run_dir),
            error=error,
            anatomy=steady_anatomy(anatomies),
        )
        points.append(point)
        if on_point:
            on_point(point)
    return points


def collecting(anatomies: list[ev.StepAnatomy], then: ev.Sink | None) -> ev.Sink:
    """A sink that keeps the step anatomies it sees in `anatomies` and passes every event on to `then`."""

    def sink(event: ev.Event) -> None:
        if isinstance(event, ev.StepAnatomy):
            anatomies.append(event)
        if then is not None:
            then(event)

    return sink


def steady_anatomy(anatomies: list[ev.StepAnatomy]) -> dict | None:
    """The anatomy of the steps after the first epoch (as the throughput), else of all, as event data."""
    steady = anatomy.combine(a for a in anatomies if a.epoch > 1) or anatomy.combine(anatomies)
    return None if steady is None else ev.to_dict(steady)


def serve(config_path: str, replica_counts: list[int], out_dir: str | None) -> int:
    """The study as a protocol process: each count's run_started (its replicas), a scaling_point per
    count, run_finished at the end; "stop" on stdin cancels."""
    from engine.core.protocol.channel import EventChannel, StopSignal, handle_stop_signals, protect_stdout, watch_stdin

    emit = EventChannel(protect_stdout())
    stop = StopSignal()
    watch_stdin(stop)
    handle_stop_signals(stop)
    try:
        config = RunConfig.load(config_path)
    except ConfigError as exc:
        emit(ev.RunFailed(message=str(exc), error_type="ConfigError"))
        return ExitCode.CONFIG
    root = Path(out_dir) if out_dir else None

    def relay(event: ev.Event) -> None:
        if isinstance(event, ev.RunStarted):
            emit(event)  # a count has begun training

    points = run_study(
        config, sorted(set(replica_counts)), root, on_point=emit, should_stop=lambda: stop.requested, on_event=relay
    )
    status = RunStatus.STOPPED if stop.requested else RunStatus.COMPLETED
    emit(ev.RunFinished(status=status, epochs_completed=len(points), run_dir=str(root or "")))
    return ExitCode.OK


def format_table(points: list[ScalingPoint]) -> str:
    """The study as a table for a terminal, and what happened to a step under it."""
    lines = ["replicas  examples/s  speed-up  efficiency", "--------  ----------  --------  ----------"]
    for p in points:
        if p.error:
            lines.append(f"{p.replicas:>8}  failed: {p.error}")
        else:
            lines.append(f"{p.replicas:>8}  {p.examples_per_sec:>10,.0f}  {p.speedup:>7.2f}x  {p.efficiency:>9.0%}")
    sentence = anatomy.study_sentence(points)
    return "\n".join([*lines, *([sentence] if sentence else [])])
