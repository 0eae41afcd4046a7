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
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from engine import events as ev
from engine.config import RunConfig

REPO = Path(__file__).resolve().parents[1]


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


def measure(config: RunConfig, run_dir: Path, python: str = sys.executable) -> tuple[float, str]:
    """Train one variant in a fresh worker; (examples/s after epoch 1, error message)."""
    run_dir.mkdir(parents=True, exist_ok=True)
    config_path = run_dir.parent / f"{run_dir.name}.json"
    config.save(config_path)
    control_read, control_write = os.pipe()  # stdin open for the whole run: its EOF means "stop"
    try:
        proc = subprocess.run([python, "-m", "engine.worker", "--config", str(config_path), "--run-dir", str(run_dir)],
                              cwd=REPO, stdin=control_read, capture_output=True, text=True,
                              env={**os.environ, "PYTHONUNBUFFERED": "1"})
    finally:
        os.close(control_read)
        os.close(control_write)
    rates, error = [], ""
    for line in proc.stdout.splitlines():
        try:
            event = ev.decode(line)
        except ev.EventDecodeError:
            continue
        if isinstance(event, ev.EpochEnd) and event.epoch > 1:
            rates.append(event.examples_per_sec)
        elif isinstance(event, ev.RunFailed):
            error = event.message
    if not rates and not error:
        error = f"the trainer exited with code {proc.returncode} before finishing an epoch after the first"
    return (sum(rates) / len(rates) if rates else 0.0), error


def run_study(config: RunConfig, replica_counts: list[int], root: Path | None = None,
              on_point: Callable[[ScalingPoint], None] | None = None) -> list[ScalingPoint]:
    """Measure each count in turn; a count that fails is reported, the others still run."""
    root = root or Path(tempfile.mkdtemp(prefix="tfdd-scaling-"))
    points: list[ScalingPoint] = []
    reference: tuple[int, float] | None = None  # (replicas, examples/s) of the smallest count that worked
    for replicas in sorted(replica_counts):
        rate, error = measure(variant(config, replicas), root / f"replicas-{replicas}")
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
