"""NVIDIA's management library (NVML), when it is there.

No TensorFlow and no Qt: the device probe uses it for names and memory sizes
(the window's GpuMonitor polls live utilisation itself, in the GUI process).
Where the library or the driver is missing, `status()` says why instead of
anyone showing zeros.
"""

from __future__ import annotations

from typing import Any

_state: dict[str, Any] = {}


def status() -> dict[str, Any]:
    """{"available": bool, "reason": str, "driver": str}; initialises NVML once."""
    if _state:
        return dict(_state)
    try:
        import pynvml

        pynvml.nvmlInit()
        driver = pynvml.nvmlSystemGetDriverVersion()
        _state.update(available=True, reason="", driver=driver if isinstance(driver, str) else driver.decode())
    except ImportError:
        _state.update(available=False, reason="the nvidia-ml-py package is not installed", driver="")
    except Exception as exc:  # pynvml.NVMLError and OSError: no driver, no library
        _state.update(available=False, reason=f"NVIDIA driver library not found ({exc})", driver="")
    return dict(_state)


def gpu_list() -> list[dict[str, Any]]:
    """Static facts per GPU: name and total memory."""
    if not status()["available"]:
        return []
    import pynvml

    out = []
    for i in range(pynvml.nvmlDeviceGetCount()):
        h = pynvml.nvmlDeviceGetHandleByIndex(i)
        name = pynvml.nvmlDeviceGetName(h)
        mem = pynvml.nvmlDeviceGetMemoryInfo(h)
        out.append(
            {
                "index": i,
                "name": name if isinstance(name, str) else name.decode(),
                "memory_total_mb": int(mem.total / 2**20),
            }
        )
    return out
