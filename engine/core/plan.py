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
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path
from typing import Protocol

from engine.core.messages import Message, msg
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
    @property
    def all_reduce(self) -> str: ...
    @property
    def bytes_per_pack(self) -> int: ...
    @property
    def mixed_precision(self) -> str: ...
    @property
    def jit_compile(self) -> bool: ...


MULTI_WORKER = Strategy.MULTI_WORKER_MIRRORED
PARAMETER_SERVER = Strategy.PARAMETER_SERVER
ONE_REPLICA_STRATEGIES = (Strategy.DEFAULT, Strategy.ONE_DEVICE)
AUTO = "auto"
# The all-reduce implementations each all-reducing strategy takes (MirroredStrategy's cross-device ops,
# MultiWorkerMirroredStrategy's CommunicationImplementation); the others all-reduce nothing.
ALL_REDUCE_BY_STRATEGY: dict[str, tuple[str, ...]] = {
    Strategy.MIRRORED: ("nccl", "hierarchical_copy", "reduction_to_one_device"),
    MULTI_WORKER: ("nccl", "ring"),
}
# CPU features (as /proc/cpuinfo names them) with which a CPU computes a mixed precision natively; without
# them TensorFlow converts to and from float32 and the run is no faster, usually slower. The device probe
# (engine.train.devices.probe) reports which of them the CPU has.
PRECISION_CPU_FEATURES: dict[str, tuple[str, ...]] = {
    "bfloat16": ("avx512_bf16", "amx_bf16", "bf16"),  # bf16: ARM's
    "float16": ("avx512_fp16", "amx_fp16"),
}
CPUINFO = Path("/proc/cpuinfo")


def cpu_info(path: Path = CPUINFO) -> dict[str, str]:
    """The first processor's lines of /proc/cpuinfo ({} where there is none: Windows, macOS)."""
    info: dict[str, str] = {}
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            for line in f:
                if not line.strip():
                    break
                key, _, value = line.partition(":")
                info[key.strip()] = value.strip()
    except OSError:
        pass
    return info


def precision_features(info: Mapping[str, str]) -> list[str] | None:
    """Which of PRECISION_CPU_FEATURES the CPU of `info` (cpu_info) has; None where the system does not say."""
    flags = info.get("flags") or info.get("Features")  # x86, ARM
    if flags is None:
        return None
    known = {f for features in PRECISION_CPU_FEATURES.values() for f in features}
    return sorted(known & set(flags.split()))


# The compute capability from which a GPU's tensor cores take each mixed precision (7.0 is Keras's own check)
PRECISION_MIN_COMPUTE: dict[str, tuple[int, int]] = {"float16": (7, 0), "bfloat16": (8, 0)}


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


def _layout(config: DeviceFields, physical_gpus: Sequence[str]) -> tuple[tuple[int, ...], int, tuple[str, ...]]:
    """(physical GPUs used, split, logical device names) of the config on this machine; DeviceError if impossible."""
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
    return gpu_indices, split, logical


def advised(reason: Message, advice: Message) -> Message:
    """Why a choice is refused, then what to do instead: where the refusal is quoted as the reason something
    is not offered (engine.core.remedies), `reason_of` takes the advice off."""
    return msg("{reason}; {advice}", reason=reason, advice=advice)


def reason_of(message: str) -> str:
    """An `advised` message's reason alone; any other message as it is."""
    if not isinstance(message, Message) or not {"reason", "advice"} <= message.params.keys():
        return message
    reason = message.params["reason"]
    return reason if message.template == advised(reason, message.params["advice"]).template else message


def choice_problems(config: DeviceFields, uses_gpu: bool, system: str | None = None) -> list[Problem]:
    """Why the config's all-reduce or XLA cannot run under its strategy on these devices (a choice that
    merely cannot help is a note: plan_notes)."""
    problems = _all_reduce_problems(config, uses_gpu, system or platform.system())
    if config.jit_compile is True:
        why = ""
        if config.strategy == PARAMETER_SERVER:
            why = advised(
                msg(
                    "XLA compiles a step whose variables are on its own device; parameter_server keeps them on "
                    "the ps tasks"
                ),
                msg("turn jit_compile off"),
            )
        elif config.strategy in ALL_REDUCE_BY_STRATEGY and not uses_gpu:
            why = advised(
                msg(
                    "{strategy} compiles its step with XLA only on GPUs (on CPU replicas TensorFlow cannot "
                    "all-reduce inside XLA)",
                    strategy=config.strategy,
                ),
                msg("on the CPU use one_device or default, or turn jit_compile off"),
            )
        if why:
            problems.append(Problem("jit_compile", True, why))
    return problems


def _all_reduce_problems(config: DeviceFields, uses_gpu: bool, system: str) -> list[Problem]:
    choice, allowed = config.all_reduce, ALL_REDUCE_BY_STRATEGY.get(config.strategy)
    if allowed is None or choice not in {a for names in ALL_REDUCE_BY_STRATEGY.values() for a in names}:
        return []  # a strategy that all-reduces nothing, "auto", or a name validate() refuses
    why = ""
    if choice not in allowed:
        why = msg(
            "{strategy} all-reduces with {allowed} or auto; {choice} belongs to another strategy",
            strategy=config.strategy,
            allowed=", ".join(allowed),
            choice=choice,
        )
    elif choice == "nccl" and system != "Linux":
        why = msg("NCCL does not exist on {system} (TensorFlow has it on Linux only); choose auto", system=system)
    elif choice == "nccl" and not uses_gpu:
        why = msg("NCCL all-reduces between GPUs and this run is on the CPU; choose auto")
    return [Problem("all_reduce", choice, why)] if why else []


def _all_reduce(config: DeviceFields, gpu_count: int, system: str | None) -> str:
    """The config's all-reduce where its strategy takes one, else the automatic choice."""
    if config.all_reduce in ALL_REDUCE_BY_STRATEGY.get(config.strategy, ()):
        return config.all_reduce
    return choose_all_reduce(config.strategy, gpu_count, system)


def _workers(config: DeviceFields, workers: int) -> int:
    """Processes training in sync: only multi-worker has more than one."""
    return workers if config.strategy == MULTI_WORKER else 1


def plan_devices(
    config: DeviceFields, physical_gpus: Sequence[str], system: str | None = None, workers: int = 1
) -> DevicePlan:
    """Decide devices from the config and the machine's GPU names ("GPU:0", ...); DeviceError if impossible."""
    gpu_indices, split, logical = _layout(config, physical_gpus)
    problems = choice_problems(config, bool(gpu_indices), system)
    if problems:
        raise DeviceError(problems)
    return DevicePlan(
        gpu_indices=gpu_indices,
        split=split,
        gpu_memory_mb=config.virtual_gpu_memory_mb,
        memory_growth=config.memory_growth and split == 1,
        strategy_devices=logical,
        all_reduce=_all_reduce(config, len(gpu_indices), system),
        workers=_workers(config, workers),
    )


def replica_count(config: DeviceFields, physical_gpus: Sequence[str] | None, workers: int | None = None) -> int | None:
    """Replicas in sync, or None while they cannot be known yet.

    `physical_gpus` None means the machine's GPUs are not known yet (the
    window before its device probe answers): the count is known only where
    the config fixes it. `workers` None means the worker count is not known
    (a multi-worker config outside a cluster). A config whose devices the
    plan refuses (DeviceError) has no count; its problems come from `plan_problems`.
    """
    if config.strategy == MULTI_WORKER and workers is None:
        return None
    if physical_gpus is None:
        if config.strategy not in ONE_REPLICA_STRATEGIES and not config.devices:
            return None  # the default is "every GPU", and how many there are is not known yet
        physical_gpus = [d for d in (config.devices or ()) if str(d).upper().startswith("GPU")]
    try:
        logical = _layout(config, physical_gpus)[2]
    except (DeviceError, ValueError, TypeError, AttributeError):  # malformed values: validate() reports them
        return None
    return len(logical) * _workers(config, workers or 1)


def plan_problems(
    config: DeviceFields, physical_gpus: Sequence[str] | None, system: str | None = None
) -> list[Problem]:
    """What the plan would refuse on this machine (no problems while its GPUs are unknown)."""
    if physical_gpus is None:
        return []
    try:
        plan_devices(config, physical_gpus, system)
    except DeviceError as exc:
        return exc.problems
    except (ValueError, TypeError, AttributeError):
        return []  # malformed values: validate() says so
    return []


def plan_notes(
    config: DeviceFields,
    physical_gpus: Sequence[str] | None,
    cpu_features: Collection[str] | None = None,
    compute_capabilities: Mapping[str, str] | None = None,
) -> list[Problem]:
    """Choices that are valid but cannot help this run on this machine: the window shows them under their
    fields and runs the config as it is. `physical_gpus`, `cpu_features` (the CPU's PRECISION_CPU_FEATURES)
    and `compute_capabilities` ({"GPU:0": "8.0"}) None: not known yet, and no note depends on them."""
    notes: list[Problem] = []
    strategy = config.strategy
    if config.all_reduce != AUTO and strategy not in ALL_REDUCE_BY_STRATEGY:
        notes.append(
            Problem(
                "all_reduce",
                config.all_reduce,
                msg("{strategy} all-reduces no gradients, so this choice is not used", strategy=strategy),
            )
        )
    if config.bytes_per_pack and strategy != MULTI_WORKER:
        notes.append(
            Problem(
                "bytes_per_pack",
                config.bytes_per_pack,
                msg(
                    "only multi_worker_mirrored packs its gradients (CommunicationOptions); {strategy} does not use it",
                    strategy=strategy,
                ),
            )
        )
    if physical_gpus is None:
        return notes
    try:
        gpu_indices, _, logical = _layout(config, physical_gpus)
    except (DeviceError, ValueError, TypeError, AttributeError):
        return notes  # plan_problems and validate() say what is wrong
    if config.all_reduce != AUTO and strategy == Strategy.MIRRORED:
        if len(logical) == 1:
            notes.append(
                Problem("all_reduce", config.all_reduce, msg("one replica has nothing to all-reduce with; not used"))
            )
        elif config.jit_compile is True and gpu_indices:
            notes.append(
                Problem(
                    "all_reduce",
                    config.all_reduce,
                    msg("under XLA (jit_compile) mirrored all-reduces with collectives; this choice is not used"),
                )
            )
    return notes + _precision_notes(config.mixed_precision, gpu_indices, cpu_features, compute_capabilities)


def _precision_notes(
    precision: str,
    gpu_indices: tuple[int, ...],
    cpu_features: Collection[str] | None,
    compute_capabilities: Mapping[str, str] | None,
) -> list[Problem]:
    """Mixed precision on hardware that computes it no faster than float32."""
    if precision not in PRECISION_CPU_FEATURES:
        return []
    low, high = PRECISION_MIN_COMPUTE[precision]
    if not gpu_indices:
        wanted = PRECISION_CPU_FEATURES[precision]
        if cpu_features is None or set(wanted) & set(cpu_features):
            return []
        return [
            Problem(
                "mixed_precision",
                precision,
                msg(
                    "this CPU lacks {features}: it converts {precision} to and from float32, so the run is no "
                    "faster, usually slower; mixed precision pays on GPUs of compute capability {low}.{high} "
                    "or more",
                    features=", ".join(wanted),
                    precision=precision,
                    low=low,
                    high=high,
                ),
            )
        ]
    slow = [
        f"GPU:{i} ({cc})"
        for i in gpu_indices
        if (cc := (compute_capabilities or {}).get(f"GPU:{i}")) and _capability(cc) < (low, high)
    ]
    if not slow:
        return []
    return [
        Problem(
            "mixed_precision",
            precision,
            msg(
                "{gpus}: {precision} runs fast from compute capability {low}.{high}; expect little or no gain",
                gpus=", ".join(slow),
                precision=precision,
                low=low,
                high=high,
            ),
        )
    ]


def _capability(text: str) -> tuple[int, int]:
    """(8, 0) for "8.0"; (0, 0) for what is not one."""
    major, _, minor = text.partition(".")
    return (int(major), int(minor or 0)) if major.isdigit() and (minor or "0").isdigit() else (0, 0)
