"""Scaling study: the same run with 1, 2, 4 … replicas, and whether more devices helped.

Each replica count is a fresh trainer process (devices are fixed at start-up,
FACTS.md 3) with the same global batch and data, so every count trains the
same number of steps (strong scaling). Replicas are GPUs when the config
lists enough GPUs, else virtual CPU devices, which share the same cores and
so show the cost of distribution rather than a speed-up. The throughput of a
count is the mean examples/s of the epochs after the first (the first holds
tracing and start-up). Speed-up is relative to the smallest count measured
(normally 1), and efficiency = speed-up / (replicas / that count).
"""
from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from engine import events as ev
from engine.config import RunConfig

REPO = Path(__file__).resolve().parents[1]
POLL_S = 0.2


@dataclass(frozen=True)
class ScalingPoint:
    replicas: int
    examples_per_sec: float
    speedup: float
    efficiency: float
    run_dir: str
    error: str = ""


def variant(config: RunConfig, replicas: int) -> RunConfig:
    """The config with `replicas` replicas, and at least two epochs to measure past the first."""
    gpus = [d for d in (config.devices or ()) if d.upper().startswith("GPU")]
    base = config.replace(strategy="mirrored", epochs=max(config.epochs, 2),
                          name=f"{config.name + '-' if config.name else ''}scaling-{replicas}")
    if len(gpus) >= replicas:
        return base.replace(devices=tuple(gpus[:replicas]), virtual_devices=1)
    return base.replace(devices=None, virtual_devices=replicas)


def measure(config: RunConfig, run_dir: Path, python: str = sys.executable,
            should_stop: Callable[[], bool] = lambda: False, grace_s: float = 10.0) -> tuple[float, str]:
    """Train one variant in a fresh worker; (examples/s after epoch 1, error message).

    `should_stop` is polled while the worker trains: when it turns true the
    worker is asked to stop (the protocol's "stop" line) and killed after
    `grace_s` if it has not ended; the error then says the count was cancelled.
    """
    run_dir.mkdir(parents=True, exist_ok=True)
    config_path = run_dir.parent / f"{run_dir.name}.json"
    config.save(config_path)
    proc = subprocess.Popen([python, "-m", "engine.worker", "--config", str(config_path), "--run-dir", str(run_dir)],
                            cwd=REPO, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                            text=True, env={**os.environ, "PYTHONUNBUFFERED": "1"})
    lines: list[str] = []
    reader = threading.Thread(target=lambda: lines.extend(proc.stdout or []), daemon=True)
    reader.start()
    cancelled_at = None
    try:
        while proc.poll() is None:
            if cancelled_at is None and should_stop():
                cancelled_at = time.monotonic()
                _send_stop(proc)
            if cancelled_at is not None and time.monotonic() - cancelled_at > grace_s:
                proc.kill()
            time.sleep(POLL_S)
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.wait()
        reader.join(timeout=5)
    rates, error = [], "cancelled" if cancelled_at is not None else ""
    for line in lines:
        try:
            event = ev.decode(line)
        except ev.EventDecodeError:
            continue
        if isinstance(event, ev.EpochEnd) and event.epoch > 1:
            rates.append(event.examples_per_sec)
        elif isinstance(event, ev.RunFailed) and not error:
            error = event.message
    if not rates and not error:
        error = f"the trainer exited with code {proc.returncode} before finishing an epoch after the first"
    return (sum(rates) / len(rates) if rates else 0.0), error


def _send_stop(proc: subprocess.Popen[str]) -> None:
    try:
        assert proc.stdin is not None
        proc.stdin.write("stop\n")
        proc.stdin.close()
    except OSError:
        pass  # already gone


def run_study(config: RunConfig, replica_counts: list[int], root: Path | None = None,
              on_point: Callable[[ScalingPoint], None] | None = None,
              should_stop: Callable[[], bool] = lambda: False) -> list[ScalingPoint]:
    """Measure each count in turn; a count that fails is reported, the others still run.

    When `should_stop` turns true the count in flight is stopped and no
    further count starts; the points measured so far are returned.
    """
    root = root or Path(tempfile.mkdtemp(prefix="tfdd-scaling-"))
    points: list[ScalingPoint] = []
    reference: tuple[int, float] | None = None  # (replicas, examples/s) of the smallest count that worked
    for replicas in sorted(replica_counts):
        if should_stop():
            break
        rate, error = measure(variant(config, replicas), root / f"replicas-{replicas}", should_stop=should_stop)
        if should_stop():
            break  # a count cut short measured nothing
        if reference is None and rate:
            reference = (replicas, rate)
        speedup = rate / reference[1] if reference else 0.0
        efficiency = speedup / (replicas / reference[0]) if reference else 0.0
        point = ScalingPoint(replicas, rate, speedup, efficiency, str(root / f"replicas-{replicas}"), error)
        points.append(point)
        if on_point:
            on_point(point)
    return points


def format_table(points: list[ScalingPoint]) -> str:
    lines = ["replicas  examples/s  speed-up  efficiency", "--------  ----------  --------  ----------"]
    for p in points:
        if p.error:
            lines.append(f"{p.replicas:>8}  failed: {p.error}")
        else:
            lines.append(f"{p.replicas:>8}  {p.examples_per_sec:>10,.0f}  {p.speedup:>7.2f}x  {p.efficiency:>9.0%}")
    return "\n".join(lines)
