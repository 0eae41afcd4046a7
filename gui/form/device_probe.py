"""What hardware TensorFlow sees, asked of a child process so the GUI never imports it.

`tfdd devices --json` (engine.core.protocol.commands.probe_command) prints one JSON document; `parse_probe_output`
turns it into plain dataclasses (a pure function, so tests inject fake GPU
lists), and `DeviceProbe` runs the command with a QProcess without blocking
the window while TensorFlow takes its seconds to start.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from PySide6.QtCore import QObject, QProcess, QTimer, Signal

from engine.core.nvml import GpuMatch
from engine.core.protocol.commands import probe_command

PROBE_TIMEOUT_MS = 120_000


class ProbeError(ValueError):
    """The probe's output is not the JSON document the engine promises."""


@dataclass(frozen=True)
class DeviceInfo:
    """One physical device as TensorFlow names it ("GPU:0", "CPU:0")."""

    name: str
    type: str
    model: str = ""
    memory_mb: int | None = None
    cores: int | None = None
    compute_capability: str = ""
    nvml_index: int | None = None  # NVML's device, matched by PCI bus id (engine.core.nvml.match_gpus)
    pci_bus_id: str = ""
    mig: bool = False
    mig_uuid: str = ""
    nvml_note: str = ""  # why there are no live figures, or what they lack (a MIG instance)
    features: tuple[str, ...] | None = None  # a CPU's mixed-precision features (engine.core.plan); None: unknown

    @property
    def is_gpu(self) -> bool:
        return self.type.upper() == "GPU"

    def gpu_match(self) -> GpuMatch:
        """What the NVML reader needs to sample this GPU."""
        return GpuMatch(self.name, self.pci_bus_id, self.nvml_index, self.mig, self.mig_uuid, self.nvml_note)


@dataclass(frozen=True)
class ProbeResult:
    tensorflow: str = ""
    devices: tuple[DeviceInfo, ...] = ()
    nvml_available: bool = False
    nvml_reason: str = ""
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def gpus(self) -> tuple[DeviceInfo, ...]:
        return tuple(d for d in self.devices if d.is_gpu)

    @property
    def cpus(self) -> tuple[DeviceInfo, ...]:
        return tuple(d for d in self.devices if not d.is_gpu)


def _int_or_none(value: Any) -> int | None:
    return int(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else None


def _names_or_none(value: Any) -> tuple[str, ...] | None:
    return tuple(str(v) for v in value) if isinstance(value, list) else None


def parse_probe_output(text: str) -> ProbeResult:
    """Parse the probe's stdout; tolerate stray lines before the JSON document."""
    raw: Any = None
    for candidate in (text, *reversed([ln for ln in text.splitlines() if ln.lstrip().startswith("{")])):
        try:
            raw = json.loads(candidate)
            break
        except json.JSONDecodeError:
            continue
    if not isinstance(raw, dict) or not isinstance(raw.get("devices"), list):
        raise ProbeError(f"the device probe printed no device list: {text.strip()[:200]!r}")
    devices = []
    for d in raw["devices"]:
        if not isinstance(d, dict) or "name" not in d:
            raise ProbeError(f"a device entry has no name: {d!r}")
        devices.append(
            DeviceInfo(
                name=str(d["name"]),
                type=str(d.get("type") or str(d["name"]).partition(":")[0]),
                model=str(d.get("model") or ""),
                memory_mb=_int_or_none(d.get("memory_mb")),
                cores=_int_or_none(d.get("cores")),
                compute_capability=str(d.get("compute_capability") or ""),
                nvml_index=_int_or_none(d.get("nvml_index")),
                pci_bus_id=str(d.get("pci_bus_id") or ""),
                mig=bool(d.get("mig")),
                mig_uuid=str(d.get("mig_uuid") or ""),
                nvml_note=str(d.get("nvml_note") or ""),
                features=_names_or_none(d.get("features")),
            )
        )
    nvml = raw.get("nvml") if isinstance(raw.get("nvml"), dict) else {}
    known = {"tensorflow", "devices", "nvml"}
    return ProbeResult(
        tensorflow=str(raw.get("tensorflow") or ""),
        devices=tuple(devices),
        nvml_available=bool(nvml.get("available")),
        nvml_reason=str(nvml.get("reason") or ""),
        extra={k: v for k, v in raw.items() if k not in known},
    )


class DeviceProbe(QObject):
    """Runs the probe once in a child process; emits exactly one of its two signals."""

    probe_ready = Signal(object)
    """The probe finished: a ProbeResult."""
    probe_failed = Signal(str)
    """The probe failed: a message with the tail of its stderr."""

    def __init__(self, command: list[str] | None = None, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._command = command or probe_command()
        self._process = QProcess(self)
        self._process.finished.connect(self._on_finished)
        self._process.errorOccurred.connect(self._on_error)
        self._timeout = QTimer(self, singleShot=True, interval=PROBE_TIMEOUT_MS)
        self._timeout.timeout.connect(self._on_timeout)
        self._done = False

    def start(self) -> None:
        self._done = False
        self._process.start(self._command[0], self._command[1:])
        self._timeout.start()

    def is_running(self) -> bool:
        return self._process.state() != QProcess.ProcessState.NotRunning

    def cancel(self) -> None:
        """Kill a probe still running (window closing); emits nothing."""
        self._done = True
        self._timeout.stop()
        if self.is_running():
            self._process.kill()
            self._process.waitForFinished(5000)

    def _finish(self, ok: bool, payload: object) -> None:
        if self._done:
            return
        self._done = True
        self._timeout.stop()
        (self.probe_ready if ok else self.probe_failed).emit(payload)

    def _on_finished(self, code: int, status: QProcess.ExitStatus) -> None:
        out = bytes(self._process.readAllStandardOutput().data()).decode("utf-8", "replace")
        err = bytes(self._process.readAllStandardError().data()).decode("utf-8", "replace")
        tail = "\n".join(err.strip().splitlines()[-8:])
        if status != QProcess.ExitStatus.NormalExit or code != 0:
            said = self.tr("The device probe exited with code {code}.").format(code=code)
            self._finish(False, f"{said}\n{tail}".strip())
            return
        try:
            self._finish(True, parse_probe_output(out))
        except ProbeError as exc:
            self._finish(False, f"{exc}\n{tail}".strip())

    def _on_error(self, error: QProcess.ProcessError) -> None:
        if error == QProcess.ProcessError.FailedToStart:
            self._finish(
                False, self.tr("The device probe could not start: {error}").format(error=self._process.errorString())
            )

    def _on_timeout(self) -> None:
        self.cancel()
        self._done = False
        self._finish(
            False,
            self.tr("The device probe gave no answer within {seconds} s.").format(seconds=PROBE_TIMEOUT_MS // 1000),
        )
