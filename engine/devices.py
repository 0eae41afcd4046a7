"""What hardware is there, and how a run uses it.

Two halves: `plan_devices` is pure (physical device names in, a plan out) so
GPU paths are tested with injected fake device lists on a machine without a
GPU; `apply_plan` and `probe` talk to TensorFlow and must run before anything
else initialises it (virtual devices are fixed at start-up, FACTS.md 3).
"""
from __future__ import annotations

import os
import platform
import sys
from dataclasses import dataclass
from typing import Any

from engine.config import ConfigError, Problem, RunConfig


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

    @property
    def num_local_replicas(self) -> int:
        return len(self.strategy_devices)

    @property
    def uses_gpu(self) -> bool:
        return bool(self.gpu_indices)


def _parse(name: str) -> tuple[str, int]:
    kind, _, index = name.upper().replace("/", "").replace("DEVICE", "").partition(":")
    return kind, int(index)


def choose_all_reduce(strategy: str, gpu_count: int, system: str | None = None) -> str:
    """NCCL is the fast path between GPUs on Linux; Windows has no NCCL, and
    CPUs reduce on one device (in-process) or over a ring (multi-worker)."""
    system = system or platform.system()
    if strategy == "multi_worker_mirrored":
        return "nccl" if gpu_count and system == "Linux" else "ring"
    if gpu_count > 1:
        return "nccl" if system == "Linux" else "hierarchical_copy"
    return "reduction_to_one_device"


def plan_devices(config: RunConfig, physical_gpus: list[str], system: str | None = None) -> DevicePlan:
    """Decide devices from the config and the machine's GPU names ("GPU:0", ...)."""
    available = {_parse(g)[1] for g in physical_gpus}
    wanted = list(config.devices) if config.devices else ([f"GPU:{i}" for i in sorted(available)] or ["CPU:0"])
    if config.strategy in ("default", "one_device"):
        wanted = wanted[:1]
    kinds = {_parse(d)[0] for d in wanted}
    problems: list[Problem] = []
    if len(kinds) > 1:
        problems.append(Problem("devices", wanted, "mix of CPU and GPU devices; choose either GPUs or the CPU"))
    missing = [d for d in wanted if _parse(d)[0] == "GPU" and _parse(d)[1] not in available]
    if missing:
        found = ", ".join(sorted(physical_gpus)) or "no GPU"
        problems.append(Problem("devices", missing, f"not on this machine (found: {found}); leave devices empty to use what is there"))
    if any(_parse(d) != ("CPU", 0) for d in wanted if _parse(d)[0] == "CPU"):
        problems.append(Problem("devices", wanted, 'the CPU is one device, "CPU:0"; split it with virtual_devices'))
    if problems:
        raise DeviceError(problems)

    split = config.virtual_devices
    if config.strategy in ("default", "one_device", "multi_worker_mirrored"):
        split = 1  # one replica per device (MWMS: per worker on CPU) whatever the split says
    gpu_indices = tuple(_parse(d)[1] for d in wanted) if "GPU" in kinds else ()
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
    )


def apply_plan(plan: DevicePlan, tf: Any) -> None:
    """Configure TensorFlow's devices; must run before TF initialises them."""
    gpus = tf.config.list_physical_devices("GPU")
    if gpus:
        chosen = [g for g in gpus if _parse(g.name.split("device:")[-1])[1] in plan.gpu_indices]
        tf.config.set_visible_devices(chosen, "GPU")
        for gpu in chosen:
            if plan.split > 1:
                tf.config.set_logical_device_configuration(
                    gpu, [tf.config.LogicalDeviceConfiguration(memory_limit=plan.gpu_memory_mb)] * plan.split
                )
            elif plan.memory_growth:
                tf.config.experimental.set_memory_growth(gpu, True)
    if not plan.uses_gpu and plan.split > 1:
        cpu = tf.config.list_physical_devices("CPU")[0]
        wanted = [tf.config.LogicalDeviceConfiguration()] * plan.split
        if tf.config.get_logical_device_configuration(cpu) != wanted:  # a second run in one process may match
            tf.config.set_logical_device_configuration(cpu, wanted)


# ---- probe ---------------------------------------------------------------------


def _cpu_model() -> str:
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def _memory_mb() -> int | None:
    try:
        return int(os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**20)
    except (ValueError, OSError, AttributeError):
        return None


def probe() -> dict[str, Any]:
    """Every device with the details TensorFlow and NVML give; the GUI shows this."""
    from engine import nvml
    from engine.tf_runtime import tf

    nvml_info = nvml.status()
    nvml_gpus = nvml.gpu_list() if nvml_info["available"] else []
    devices: list[dict[str, Any]] = [{
        "name": "CPU:0", "type": "CPU", "model": _cpu_model(),
        "cores": os.cpu_count(), "memory_mb": _memory_mb(),
    }]
    for i, gpu in enumerate(tf.config.list_physical_devices("GPU")):
        details = tf.config.experimental.get_device_details(gpu)
        entry: dict[str, Any] = {"name": f"GPU:{i}", "type": "GPU", "model": details.get("device_name", "GPU")}
        cc = details.get("compute_capability")
        if cc:
            entry["compute_capability"] = f"{cc[0]}.{cc[1]}"
        if i < len(nvml_gpus):
            entry.update({"memory_mb": nvml_gpus[i]["memory_total_mb"], "nvml_index": i})
            entry.setdefault("model", nvml_gpus[i]["name"])
        devices.append(entry)
    return {
        "tensorflow": tf.__version__,
        "python": sys.version.split()[0],
        "built_with_cuda": bool(tf.test.is_built_with_cuda()),
        "devices": devices,
        "nvml": nvml_info,
    }


def format_table(info: dict[str, Any]) -> str:
    """The `devices` command's human table."""
    rows = [("name", "type", "model", "compute", "memory")]
    for d in info["devices"]:
        mem = f"{d['memory_mb'] / 1024:.1f} GiB" if d.get("memory_mb") else "?"
        rows.append((d["name"], d["type"], str(d.get("model", "")), d.get("compute_capability", "-"), mem))
    widths = [max(len(r[i]) for r in rows) for i in range(5)]
    lines = ["  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip() for r in rows]
    lines.insert(1, "  ".join("-" * w for w in widths))
    gpus = sum(d["type"] == "GPU" for d in info["devices"])
    lines.append("")
    lines.append(f"TensorFlow {info['tensorflow']}; {gpus} GPU(s).")
    if not info["nvml"]["available"]:
        lines.append(f"NVML: not available ({info['nvml']['reason']}); no live GPU utilisation.")
    if not gpus:
        lines.append('No GPU: set "virtual_devices": N with strategy "mirrored" to practise on N logical CPUs.')
    return "\n".join(lines)
