"""Which devices each concurrent trial of a sweep trains on, decided before anything starts.

A slot is a place where one trial at a time trains: `gpus_per_trial` GPUs of this machine (their own
Mirrored replicas), or the CPU. GPUs are named as TensorFlow numbers them in the sweep's environment
(the device probe), and every trial inherits that environment, so a `CUDA_VISIBLE_DEVICES` subset stays
the subset. Each slot's config goes through the engine's device plan, and every global batch the space can
give is checked against the slot's replica count, so a batch the replicas do not divide is refused here.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass

from engine.core.config import RunConfig, Strategy, batch_problem, per_replica_batch
from engine.core.messages import msg
from engine.core.plan import DeviceError, plan_devices
from engine.core.problems import ConfigError, Problem
from engine.core.sweep.space import SweepSpace

TRIAL_STRATEGIES = (Strategy.DEFAULT, Strategy.ONE_DEVICE, Strategy.MIRRORED)  # local clusters are not trials


@dataclass(frozen=True)
class Slot:
    """One place a trial trains: its GPUs (TensorFlow's names) or, with none, the CPU."""

    index: int
    devices: tuple[str, ...] | None  # None: the CPU (with the base config's virtual devices)
    replicas: int

    def label(self) -> str:
        return ", ".join(self.devices) if self.devices else "CPU"


def default_cpu_concurrency(cores: int | None = None) -> int:
    """Trials at once on the CPU: half the cores, so the machine stays usable; at least one."""
    return max(1, (cores if cores is not None else os.cpu_count() or 1) // 2)


def plan_slots(space: SweepSpace, base: RunConfig, physical_gpus: Sequence[str]) -> list[Slot]:
    """The sweep's slots on a machine with `physical_gpus` ("GPU:0", ...); ConfigError with every problem."""
    problems: list[Problem] = []
    if base.strategy not in TRIAL_STRATEGIES:
        allowed = ", ".join(TRIAL_STRATEGIES)
        problems.append(
            Problem(
                "strategy",
                base.strategy,
                msg("a sweep's trials train on this machine: use one of {allowed}", allowed=allowed),
            )
        )
        raise ConfigError(problems)
    gpus = sorted(physical_gpus, key=lambda g: int(g.rpartition(":")[2]))
    if gpus:
        per_trial = space.gpus_per_trial
        count = len(gpus) // per_trial
        if count == 0:
            problems.append(Problem("gpus_per_trial", per_trial, msg("this machine has {n} GPU(s)", n=len(gpus))))
            raise ConfigError(problems)
        if space.concurrency:
            count = min(count, space.concurrency)
        groups: list[tuple[str, ...] | None] = [tuple(gpus[i * per_trial : (i + 1) * per_trial]) for i in range(count)]
    else:
        groups = [None] * (space.concurrency or default_cpu_concurrency())
    slots = []
    for index, devices in enumerate(groups):
        try:
            plan = plan_devices(base.replace(devices=devices), gpus)
        except DeviceError as exc:
            problems += exc.problems
            continue
        slots.append(Slot(index, devices, plan.replicas))
    problems += _batch_problems(space, base, slots)
    if problems:
        raise ConfigError(problems)
    return slots


def _batch_problems(space: SweepSpace, base: RunConfig, slots: list[Slot]) -> list[Problem]:
    """Every global batch the space can give must split evenly over every slot's replicas."""
    batch = next((p for p in space.parameters if p.name == "global_batch_size"), None)
    if batch is not None and batch.distribution == "choice":
        batches = batch.values
    elif batch is not None:
        return [
            Problem(
                "parameters.global_batch_size",
                list(batch.values),
                msg("vary the global batch as a choice of sizes, so each can be checked against the replicas"),
            )
        ]
    else:
        batches = (base.global_batch_size,)
    problems = []
    for replicas in sorted({s.replicas for s in slots}):
        for size in batches:
            problem = batch_problem(size, replicas)
            if problem:
                problems.append(Problem("parameters.global_batch_size", size, problem.message))
    return problems


def per_replica_batches(space: SweepSpace, base: RunConfig, slot: Slot) -> list[int]:
    """The per-replica batch of each global batch the space can give, on `slot`: what the plan shows."""
    batch = next((p for p in space.parameters if p.name == "global_batch_size"), None)
    sizes = batch.values if batch is not None else (base.global_batch_size,)
    return [b for b in (per_replica_batch(size, slot.replicas) for size in sizes) if b is not None]
