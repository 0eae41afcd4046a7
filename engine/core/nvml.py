"""NVIDIA's management library (NVML): the one owner of reading it, and of matching its GPUs to TensorFlow's.

TensorFlow numbers GPUs as CUDA does (fastest first, renumbered by CUDA_VISIBLE_DEVICES), NVML by PCI bus, so
they are matched by PCI bus id, never by position (`match_gpus`, pure). Under MIG NVML gives an instance's memory
but no utilisation. The device probe matches once; the window's GpuMonitor samples by bus id (`Nvml.sample`).
Without the library or driver, `status()` says why instead of anyone showing zeros.
"""

from __future__ import annotations

import re
import time
from dataclasses import dataclass, field
from typing import Any

_BUS_ID = re.compile(
    r"^(?:(?P<domain>[0-9a-fA-F]{1,8}):)?(?P<bus>[0-9a-fA-F]{1,2}):(?P<dev>[0-9a-fA-F]{1,2})\.(?P<fn>[0-7])$"
)
_DESC_BUS = re.compile(r"pci bus id: (?P<bus>[0-9a-fA-F:.]+)")
_DESC_NAME = re.compile(r"name: (?P<name>[^,]+)")


def normalise_bus_id(text: str | bytes) -> str:
    """One spelling of a PCI address: NVML writes "00000000:06:00.0", CUDA and TensorFlow "0000:06:00.0";
    both become "0000:06:00.0". Empty when `text` is not a PCI address."""
    if isinstance(text, bytes):
        text = text.decode("ascii", "replace")
    m = _BUS_ID.match(text.strip())
    if m is None:
        return ""
    domain = int(m["domain"] or "0", 16)
    return f"{domain:04x}:{int(m['bus'], 16):02x}:{int(m['dev'], 16):02x}.{m['fn']}"


@dataclass(frozen=True)
class TfGpu:
    """A GPU as TensorFlow lists it: "GPU:0", its PCI bus id, and whether it is a MIG instance."""

    name: str
    pci_bus_id: str = ""
    model: str = ""

    @property
    def is_mig(self) -> bool:
        return " MIG " in f" {self.model} "


def parse_device_description(name: str, description: str) -> TfGpu:
    """TensorFlow's physical_device_desc ("device: 0, name: NVIDIA H200, pci bus id: 0000:00:06.0,
    compute capability: 9.0") as a TfGpu."""
    bus = _DESC_BUS.search(description)
    model = _DESC_NAME.search(description)
    return TfGpu(name, normalise_bus_id(bus["bus"]) if bus else "", model["name"].strip() if model else "")


@dataclass(frozen=True)
class MigInstance:
    uuid: str
    memory_total_mb: int


@dataclass(frozen=True)
class NvmlGpu:
    """A physical GPU as NVML lists it (index in NVML's own order)."""

    index: int
    pci_bus_id: str
    name: str = ""
    uuid: str = ""
    memory_total_mb: int = 0
    mig: tuple[MigInstance, ...] = ()  # MIG mode on: its instances


@dataclass(frozen=True)
class GpuMatch:
    """A TensorFlow GPU and the NVML device it is (None, with the reason, when there is none)."""

    tf_name: str
    pci_bus_id: str
    nvml_index: int | None
    mig: bool = False  # a MIG instance: NVML has its memory (when `mig_uuid` is known), no utilisation
    mig_uuid: str = ""  # which instance, when that is known
    note: str = ""  # what a person should know: unmatched, or a MIG instance's limits

    @property
    def matched(self) -> bool:
        return self.nvml_index is not None


def match_gpus(
    tf_gpus: list[TfGpu], nvml_gpus: list[NvmlGpu], cuda_visible_devices: str | None = None
) -> list[GpuMatch]:
    """Match each TensorFlow GPU to NVML's device on the same PCI bus.

    A MIG instance shares its parent's bus id; which instance it is comes from
    CUDA_VISIBLE_DEVICES when that names MIG UUIDs (in the order CUDA numbers
    them), or from the parent having exactly one instance.
    """
    by_bus = {g.pci_bus_id: g for g in nvml_gpus if g.pci_bus_id}
    visible_migs = [t.strip() for t in (cuda_visible_devices or "").split(",") if t.strip().startswith("MIG-")]
    out = []
    mig_seen = 0
    for gpu in tf_gpus:
        parent = by_bus.get(gpu.pci_bus_id) if gpu.pci_bus_id else None
        if parent is None:
            why = (
                f"NVML lists no GPU at PCI bus {gpu.pci_bus_id} (it may have failed or been removed)"
                if gpu.pci_bus_id
                else "TensorFlow gave no PCI bus id for it"
            )
            out.append(GpuMatch(gpu.name, gpu.pci_bus_id, None, note=f"no live figures: {why}"))
            continue
        if not parent.mig:
            out.append(GpuMatch(gpu.name, gpu.pci_bus_id, parent.index))
            continue
        uuids = {m.uuid for m in parent.mig}
        uuid = ""
        if mig_seen < len(visible_migs) and visible_migs[mig_seen] in uuids:
            uuid = visible_migs[mig_seen]
        elif len(parent.mig) == 1:
            uuid = parent.mig[0].uuid
        mig_seen += 1
        note = "a MIG instance: NVML reports no utilisation per instance" + (
            "" if uuid else "; which instance is unknown, so memory is the whole GPU's"
        )
        out.append(GpuMatch(gpu.name, gpu.pci_bus_id, parent.index, True, uuid, note))
    return out


@dataclass(frozen=True)
class GpuSample:
    """One reading of one matched GPU."""

    tf_name: str
    time: float
    utilisation_percent: int | None  # None: NVML has none (a MIG instance) or the GPU is lost
    memory_used_mb: int | None
    memory_total_mb: int | None
    error: str = ""  # e.g. "GPU is lost": this GPU stopped answering; the others go on

    @property
    def memory_percent(self) -> float | None:
        if self.memory_used_mb is None or not self.memory_total_mb:
            return None
        return 100.0 * self.memory_used_mb / self.memory_total_mb


def _text(value: str | bytes) -> str:
    return value.decode("utf-8", "replace") if isinstance(value, bytes) else str(value)


@dataclass
class Nvml:
    """NVML, initialised once: `module` is pynvml (loaded on first use) or a test double."""

    module: Any = None
    _state: dict[str, Any] = field(default_factory=dict)

    def status(self) -> dict[str, Any]:
        """{"available": bool, "reason": str, "driver": str}."""
        if self._state:
            return dict(self._state)
        try:
            if self.module is None:
                import pynvml

                self.module = pynvml
            self.module.nvmlInit()
            driver = _text(self.module.nvmlSystemGetDriverVersion())
            self._state.update(available=True, reason="", driver=driver)
        except ImportError:
            self._state.update(available=False, reason="the nvidia-ml-py package is not installed", driver="")
        except Exception as exc:  # pynvml.NVMLError and OSError: no driver, no library
            self._state.update(available=False, reason=f"NVIDIA driver library not found ({exc})", driver="")
        return dict(self._state)

    def gpus(self) -> list[NvmlGpu]:
        """Every physical GPU NVML sees, with its bus id and MIG instances."""
        if not self.status()["available"]:
            return []
        nv = self.module
        out = []
        for i in range(nv.nvmlDeviceGetCount()):
            h = nv.nvmlDeviceGetHandleByIndex(i)
            out.append(
                NvmlGpu(
                    index=i,
                    pci_bus_id=normalise_bus_id(nv.nvmlDeviceGetPciInfo(h).busId),
                    name=_text(nv.nvmlDeviceGetName(h)),
                    uuid=_text(nv.nvmlDeviceGetUUID(h)),
                    memory_total_mb=int(nv.nvmlDeviceGetMemoryInfo(h).total) >> 20,
                    mig=tuple(self._mig_instances(h)),
                )
            )
        return out

    def _mig_instances(self, handle: Any) -> list[MigInstance]:
        nv = self.module
        try:
            current, _pending = nv.nvmlDeviceGetMigMode(handle)
        except Exception:  # NOT_SUPPORTED: a GPU without MIG
            return []
        if not current:
            return []
        out = []
        for slot in range(nv.nvmlDeviceGetMaxMigDeviceCount(handle)):
            try:
                mig = nv.nvmlDeviceGetMigDeviceHandleByIndex(handle, slot)
            except Exception:  # NOT_FOUND: an empty slot
                continue
            out.append(MigInstance(_text(nv.nvmlDeviceGetUUID(mig)), int(nv.nvmlDeviceGetMemoryInfo(mig).total) >> 20))
        return out

    def sample(self, matches: list[GpuMatch]) -> list[GpuSample]:
        """Utilisation and memory of each matched GPU now. A GPU that stopped answering gets a sample
        with `error` and no figures; the others are read as usual."""
        nv, now = self.module, time.time()
        out = []
        for m in matches:
            if not m.matched:
                continue
            try:
                handle = nv.nvmlDeviceGetHandleByPciBusId(_nvml_bus_id(m.pci_bus_id))
                if m.mig_uuid:
                    handle = nv.nvmlDeviceGetHandleByUUID(m.mig_uuid)
                mem = nv.nvmlDeviceGetMemoryInfo(handle)
                util = None if m.mig else int(nv.nvmlDeviceGetUtilizationRates(handle).gpu)
                out.append(GpuSample(m.tf_name, now, util, int(mem.used) >> 20, int(mem.total) >> 20))
            except Exception as exc:  # NVMLError_GpuIsLost and friends: this GPU only
                out.append(GpuSample(m.tf_name, now, None, None, None, error=str(exc) or type(exc).__name__))
        return out


def _nvml_bus_id(bus_id: str) -> str:
    """NVML's own spelling (8-digit domain), which nvmlDeviceGetHandleByPciBusId accepts."""
    domain, _, rest = bus_id.partition(":")
    return f"{int(domain, 16):08x}:{rest}".upper()


_default = Nvml()


def status() -> dict[str, Any]:
    """The process-wide NVML's status (see Nvml.status)."""
    return _default.status()


def default() -> Nvml:
    """The process-wide NVML reader: one initialisation per process."""
    return _default
