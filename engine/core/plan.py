"""Which devices a run uses, and so how many replicas it has: decided here, once.

`plan_devices` is pure (the config and the machine's GPU names in, a plan
out): the trainer applies its plan to TensorFlow, the window calls the same
function to show the replica count and the per-replica batch before Start,
and tests inject fake GPU lists. No TensorFlow here. The plan reads a run
config's device fields (`DeviceFields`); engine.core.config builds on the plan
(its validation counts replicas), so the plan does not import it.
"""

from __future__ import annotations

import platform
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Protocol

from engine.core.messages import msg
from engine.core.problems import ConfigError, Problem


class Strategy(StrEnum):
    """The `strategy` key: which tf.distribute strategy trains the run."""

    DEFAULT = "default"
    ONE_DEVICE = "one_device"
    MIRRORED = "mirrored"
    MULTI_WORKER_MIRRORED = "multi_worker_mirrored"
    PARAMETER_SERVER = "parameter_server"


class DeviceFields(Protocol):
    """The fields of a run config (engine.core.config.RunConfig) that decide its devices."""

    @property
    def strategy(self) -> str: ...
    @property
    def devices(self) -> tuple[str, ...] | None: ...
    @property
    def virtual_devices(self) -> int: ...
    @property
    def virtual_gpu_memory_mb(self) -> int: ...
    @property
    def memory_growth(self) -> bool: ...


MULTI_WORKER = Strategy.MULTI_WORKER_MIRRORED
PARAMETER_SERVER = Strategy.PARAMETER_SERVER
ONE_REPLICA_STRATEGIES = (Strategy.DEFAULT, Strategy.ONE_DEVICE)


class DeviceError(ConfigError):
    """The config asks for devices this machine does not have."""


@dataclass(frozen=True)
class DevicePlan:
    """Which physical devices a run uses and the logical devices its strategy sees."""

    gpu_indices: tuple[int, ...]  # physical GPUs made visible; () for a CPU run
    split: int  # logical devices per physical device
    gpu_memory_mb: int  # memory limit of each logical GPU when split > 1
    memory_growth: bool  # only without a split: TF forbids both on one GPU
    strategy_devices: tuple[str, ...]  # logical names the strategy runs on
    all_reduce: str  # "nccl", "hierarchical_copy", "reduction_to_one_device" or "ring"
    workers: int = 1  # processes training in sync (multi-worker); replicas = local replicas x workers

    @property
    def num_local_replicas(self) -> int:
        return len(self.strategy_devices)

    @property
    def replicas(self) -> int:
        """Replicas in sync across every worker: what the global batch is divided by."""
        return self.num_local_replicas * self.workers

    @property
    def uses_gpu(self) -> bool:
        return bool(self.gpu_indices)


def device_index(name: str) -> tuple[str, int]:
    """("GPU", 1) for "GPU:1", "/gpu:1" or "/physical_device:GPU:1"."""
    kind, _, index = name.upper().replace("/", "").replace("PHYSICAL_DEVICE:", "").replace("DEVICE:", "").partition(":")
    return kind, int(index)


def choose_all_reduce(strategy: str, gpu_count: int, system: str | None = None) -> str:
    """NCCL is the fast path between GPUs on Linux; Windows has no NCCL, and
    CPUs reduce on one device (in-process) or over a ring (multi-worker)."""
    system = system or platform.system()
    if strategy == MULTI_WORKER:
        return "nccl" if gpu_count and system == "Linux" else "ring"
    if gpu_count > 1:
        return "nccl" if system == "Linux" else "hierarchical_copy"
    return "reduction_to_one_device"


def plan_devices(
    config: DeviceFields, physical_gpus: Sequence[str], system: str | None = None, workers: int = 1
) -> DevicePlan:
    """Decide devices from the config and the machine's GPU names ("GPU:0", ...); DeviceError if impossible."""
    available = {device_index(g)[1] for g in physical_gpus}
    wanted = list(config.devices) if config.devices else ([f"GPU:{i}" for i in sorted(available)] or ["CPU:0"])
    if config.strategy in ONE_REPLICA_STRATEGIES:
        wanted = wanted[:1]
    kinds = {device_index(d)[0] for d in wanted}
    problems: list[Problem] = []
    if len(kinds) > 1:
        problems.append(Problem("devices", wanted, msg("mix of CPU and GPU devices; choose either GPUs or the CPU")))
    missing = [d for d in wanted if device_index(d)[0] == "GPU" and device_index(d)[1] not in available]
    if missing:
        found = ", ".join(sorted(physical_gpus)) or "no GPU"
        problems.append(
            Problem(
                "devices",
                missing,
                msg("not on this machine (found: {found}); leave devices empty to use what is there", found=found),
            )
        )
    if any(device_index(d) != ("CPU", 0) for d in wanted if device_index(d)[0] == "CPU"):
        problems.append(
            Problem("devices", wanted, msg('the CPU is one device, "CPU:0"; split it with virtual_devices'))
        )
    if problems:
        raise DeviceError(problems)

    split = config.virtual_devices
    if config.strategy in (*ONE_REPLICA_STRATEGIES, MULTI_WORKER, PARAMETER_SERVER):
        split = 1  # one replica per device (MWMS: per worker on CPU; PS: per step on a worker) whatever the split says
    gpu_indices = tuple(device_index(d)[1] for d in wanted) if "GPU" in kinds else ()
    if gpu_indices:
        # set_visible_devices renumbers: the chosen GPUs become logical 0..n-1
        logical = tuple(f"/gpu:{k}" for k in range(len(gpu_indices) * split))
    else:
        logical = tuple(f"/cpu:{k}" for k in range(split))
    return DevicePlan(
        gpu_indices=gpu_indices,
        split=split,
        gpu_memory_mb=config.virtual_gpu_memory_mb,
        memory_growth=config.memory_growth and split == 1,
        strategy_devices=logical,
        all_reduce=choose_all_reduce(config.strategy, len(gpu_indices), system),
        workers=workers if config.strategy == MULTI_WORKER else 1,
    )


def replica_count(config: DeviceFields, physical_gpus: Sequence[str] | None, workers: int | None = None) -> int | None:
    """Replicas in sync, or None while they cannot be known yet.

    `physical_gpus` None means the machine's GPUs are not known yet (the
    window before its device probe answers): the count is known only where
    the config fixes it. `workers` None means the worker count is not known
    (a multi-worker config outside a cluster). A config the plan refuses
    (DeviceError) has no count; its problems come from `plan_problems`.
    """
    if config.strategy == MULTI_WORKER and workers is None:
        return None
    if physical_gpus is None:
        if config.strategy not in ONE_REPLICA_STRATEGIES and not config.devices:
            return None  # the default is "every GPU", and how many there are is not known yet
        physical_gpus = [d for d in (config.devices or ()) if str(d).upper().startswith("GPU")]
    try:
        return plan_devices(config, physical_gpus, workers=workers or 1).replicas
    except (DeviceError, ValueError, TypeError, AttributeError):  # malformed values: validate() reports them
        return None


def plan_problems(config: DeviceFields, physical_gpus: Sequence[str] | None) -> list[Problem]:
    """What the plan would refuse on this machine (no problems while its GPUs are unknown)."""
    if physical_gpus is None:
        return []
    try:
        plan_devices(config, physical_gpus)
    except DeviceError as exc:
        return exc.problems
    except (ValueError, TypeError, AttributeError):
        return []  # malformed values: validate() says so
    return []
