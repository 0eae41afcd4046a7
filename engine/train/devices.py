"""Apply a device plan to TensorFlow, and probe what hardware there is.

The plan itself is decided by `engine.core.plan.plan_devices` (pure, shared with
the window); `apply_plan` must run before anything else initialises
TensorFlow's devices: after that, `set_logical_device_configuration` raises
"Virtual devices cannot be modified after being initialized".
"""

from __future__ import annotations

import os
import platform
import sys
from typing import Any

from engine.core.plan import DevicePlan, cpu_info, device_index, precision_features
from engine.train.tf_runtime import tf


def apply_plan(plan: DevicePlan) -> None:
    """Configure TensorFlow's devices; must run before TF initialises them."""
    gpus = tf.config.list_physical_devices("GPU")
    if gpus:
        chosen = [g for g in gpus if device_index(g.name)[1] in plan.gpu_indices]
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


def _cpu_model(info: dict[str, str]) -> str:
    return info.get("model name") or platform.processor() or platform.machine()


def _memory_mb() -> int | None:
    try:
        return int(os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**20)
    except (ValueError, OSError, AttributeError):
        return None


def probe() -> dict[str, Any]:
    """Every device with the details TensorFlow and NVML give; the GUI shows this.

    Each GPU is matched to its NVML device by PCI bus id (engine.core.nvml.match_gpus), never by
    position: TensorFlow's GPU:0 is NVML's device 0 only by coincidence.
    """
    from engine.core import nvml
    from engine.train.tf_runtime import gpu_descriptions

    reader = nvml.default()
    nvml_info = reader.status()
    cpuinfo = cpu_info()
    devices: list[dict[str, Any]] = [
        {
            "name": "CPU:0",
            "type": "CPU",
            "model": _cpu_model(cpuinfo),
            "features": precision_features(cpuinfo),
            "cores": os.cpu_count(),
            "memory_mb": _memory_mb(),
        }
    ]
    physical = tf.config.list_physical_devices("GPU")
    descriptions = gpu_descriptions() if physical else {}
    tf_gpus = [
        nvml.parse_device_description(f"GPU:{i}", descriptions.get(f"GPU:{i}", "")) for i in range(len(physical))
    ]
    nvml_gpus = reader.gpus()
    matches = nvml.match_gpus(tf_gpus, nvml_gpus, os.environ.get("CUDA_VISIBLE_DEVICES"))
    for gpu, tf_gpu, match in zip(physical, tf_gpus, matches, strict=True):
        details = tf.config.experimental.get_device_details(gpu)
        entry: dict[str, Any] = {
            "name": tf_gpu.name,
            "type": "GPU",
            "model": details.get("device_name") or tf_gpu.model or "GPU",
            "pci_bus_id": tf_gpu.pci_bus_id,
        }
        cc = details.get("compute_capability")
        if cc:
            entry["compute_capability"] = f"{cc[0]}.{cc[1]}"
        if match.matched:
            parent = next(g for g in nvml_gpus if g.index == match.nvml_index)
            instance = next((m for m in parent.mig if m.uuid == match.mig_uuid), None)
            entry.update(
                nvml_index=match.nvml_index,
                memory_mb=instance.memory_total_mb if instance else parent.memory_total_mb,
                mig=match.mig,
                mig_uuid=match.mig_uuid,
            )
        if match.note:
            entry["nvml_note"] = match.note
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
    lines = ["  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)).rstrip() for r in rows]
    lines.insert(1, "  ".join("-" * w for w in widths))
    gpus = sum(d["type"] == "GPU" for d in info["devices"])
    lines.append("")
    lines.append(f"TensorFlow {info['tensorflow']}; {gpus} GPU(s).")
    if not info["nvml"]["available"]:
        lines.append(f"NVML: not available ({info['nvml']['reason']}); no live GPU utilisation.")
    if not gpus:
        lines.append('No GPU: set "virtual_devices": N with strategy "mirrored" to practise on N logical CPUs.')
    return "\n".join(lines)
