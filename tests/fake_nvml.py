"""A fake of the pynvml calls engine.core.nvml makes: GPUs on PCI buses, MIG instances, a GPU that is lost.

NVML numbers GPUs by PCI bus, CUDA (and so TensorFlow) fastest first or as
CUDA_VISIBLE_DEVICES lists them; these fakes let tests build machines where
the two orders differ. Bus ids are written as NVML writes them (8-digit domain).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from types import SimpleNamespace


class NVMLError(Exception):
    pass


class NVMLError_GpuIsLost(NVMLError):  # noqa: N801 - pynvml's name
    def __str__(self) -> str:
        return "GPU is lost"


class NVMLError_NotFound(NVMLError):  # noqa: N801 - pynvml's name
    pass


@dataclass
class FakeMig:
    uuid: str
    total_mb: int
    used_mb: int = 0


@dataclass
class FakeGpu:
    bus_id: str  # NVML's spelling, e.g. "00000000:3B:00.0"
    name: str = "NVIDIA H200"
    total_mb: int = 143_771
    used_mb: int = 0
    busy: int = 0
    uuid: str = ""
    migs: list[FakeMig] = field(default_factory=list)
    lost: bool = False


class FakeNvml:
    """GPUs in NVML's order (by PCI bus). `fail_init` makes nvmlInit raise, as without a driver."""

    def __init__(self, gpus: list[FakeGpu], fail_init: str = "") -> None:
        self.gpus = gpus
        self.fail_init = fail_init
        self.inits = 0

    # ---- library --------------------------------------------------------------------
    def nvmlInit(self) -> None:
        self.inits += 1
        if self.fail_init:
            raise NVMLError(self.fail_init)

    def nvmlSystemGetDriverVersion(self) -> str:
        return "580.95.05"

    def nvmlDeviceGetCount(self) -> int:
        return len(self.gpus)

    # ---- handles ------------------------------------------------------------------------
    def nvmlDeviceGetHandleByIndex(self, i: int) -> FakeGpu:
        return self._alive(self.gpus[i])

    def nvmlDeviceGetHandleByPciBusId(self, bus_id: str) -> FakeGpu:
        for gpu in self.gpus:
            if gpu.bus_id.lower() == bus_id.lower():
                return self._alive(gpu)
        raise NVMLError_NotFound(bus_id)

    def nvmlDeviceGetHandleByUUID(self, uuid: str) -> FakeGpu | FakeMig:
        for gpu in self.gpus:
            if gpu.uuid == uuid:
                return self._alive(gpu)
            for mig in gpu.migs:
                if mig.uuid == uuid:
                    self._alive(gpu)
                    return mig
        raise NVMLError_NotFound(uuid)

    def _alive(self, gpu: FakeGpu) -> FakeGpu:
        if gpu.lost:
            raise NVMLError_GpuIsLost()
        return gpu

    # ---- facts ----------------------------------------------------------------------------
    def nvmlDeviceGetPciInfo(self, h: FakeGpu) -> SimpleNamespace:
        return SimpleNamespace(busId=h.bus_id)

    def nvmlDeviceGetName(self, h: FakeGpu) -> bytes:
        return h.name.encode()  # older pynvml returns bytes

    def nvmlDeviceGetUUID(self, h: FakeGpu | FakeMig) -> str:
        return h.uuid

    def nvmlDeviceGetMemoryInfo(self, h: FakeGpu | FakeMig) -> SimpleNamespace:
        if isinstance(h, FakeGpu):
            self._alive(h)
        return SimpleNamespace(used=h.used_mb << 20, total=h.total_mb << 20)

    def nvmlDeviceGetUtilizationRates(self, h: FakeGpu) -> SimpleNamespace:
        self._alive(h)
        if h.migs:
            raise NVMLError("Not Supported")  # NVML gives no utilisation for a GPU in MIG mode
        return SimpleNamespace(gpu=h.busy, memory=0)

    def nvmlDeviceGetMigMode(self, h: FakeGpu) -> tuple[int, int]:
        if not h.migs:
            raise NVMLError("Not Supported")
        return 1, 1

    def nvmlDeviceGetMaxMigDeviceCount(self, h: FakeGpu) -> int:
        return 7

    def nvmlDeviceGetMigDeviceHandleByIndex(self, h: FakeGpu, slot: int) -> FakeMig:
        if slot >= len(h.migs):
            raise NVMLError_NotFound(slot)
        return h.migs[slot]


def four_gpus() -> FakeNvml:
    """A 4-GPU server; in NVML's (PCI) order."""
    return FakeNvml(
        [
            FakeGpu("00000000:18:00.0", uuid="GPU-aaaa", busy=10, used_mb=1000),
            FakeGpu("00000000:3B:00.0", uuid="GPU-bbbb", busy=20, used_mb=2000),
            FakeGpu("00000000:86:00.0", uuid="GPU-cccc", busy=30, used_mb=3000),
            FakeGpu("00000000:AF:00.0", uuid="GPU-dddd", busy=40, used_mb=4000),
        ]
    )
