"""The device panel: what the probe found, live GPU figures, and what to do without a GPU."""

from __future__ import annotations

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication, Qt
from PySide6.QtWidgets import QLabel, QListWidget, QListWidgetItem, QVBoxLayout, QWidget

from engine.core.nvml import GpuMatch, GpuSample
from gui.form.device_probe import DeviceInfo, ProbeResult
from gui.i18n import translate

NO_GPU_EXPLANATION = QT_TRANSLATE_NOOP(
    "DevicesPanel",
    "<b>No GPU found: every strategy runs on the CPU.</b>"
    "<ul style='margin-left:-20px'>"
    "<li><b>default</b>: no distribution; one replica on the CPU.</li>"
    "<li><b>one_device</b>: all variables and steps placed on one device (CPU:0).</li>"
    "<li><b>mirrored</b>: a copy of the model per device, gradients averaged by all-reduce. "
    "One CPU is one replica, unless you split it.</li>"
    "<li><b>multi_worker_mirrored</b>: mirrored across worker processes that talk over the network; "
    "locally each worker is a process on this machine.</li>"
    "<li><b>parameter_server</b>: a coordinator hands steps to worker processes, which update "
    "variables held by parameter-server processes, asynchronously; locally all are processes here.</li>"
    "</ul>"
    "<b>Virtual devices</b> split the CPU into N logical devices before TensorFlow starts, so "
    "<i>mirrored</i> runs N replicas: practise all-reduce, per-replica batches and sharding "
    "without a GPU (it is not faster: the replicas share the same cores).",
)
MAX_LIST_HEIGHT = 260


def _gib(mb: int | None) -> str:
    return f"{mb / 1024:.1f} GiB" if mb else QCoreApplication.translate("DevicesPanel", "memory unknown")


def describe(device: DeviceInfo) -> str:
    """Two lines a person reads: name and model, then the figures that matter."""
    title = f"{device.name}   {device.model}".rstrip()
    if device.is_gpu:
        cc = QCoreApplication.translate("DevicesPanel", "compute capability {cc}").format(
            cc=device.compute_capability or "?"
        )
        return f"{title}\n{cc} · {_gib(device.memory_mb)}"
    count = device.cores
    cores = (
        QCoreApplication.translate("DevicesPanel", "%n cores", "", count)
        if count
        else QCoreApplication.translate("DevicesPanel", "cores unknown")
    )
    return f"{title}\n{cores} · {_gib(device.memory_mb)} RAM"


class DevicesPanel(QWidget):
    """Shows devices from a ProbeResult; live lines are added for GPUs NVML can see."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.list = QListWidget()
        self.list.setObjectName("deviceList")
        self.list.setSelectionMode(QListWidget.SelectionMode.NoSelection)
        self.list.setWordWrap(True)
        self.status = QLabel()
        self.status.setObjectName("deviceStatus")
        self.status.setWordWrap(True)
        self.status.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.explanation = QLabel(self.tr(NO_GPU_EXPLANATION))
        self.explanation.setObjectName("noGpuExplanation")
        self.explanation.setWordWrap(True)
        self.explanation.setVisible(False)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.list)
        layout.addWidget(self.status)
        layout.addWidget(self.explanation)
        self._items: dict[str, tuple[QListWidgetItem, str]] = {}  # TensorFlow's GPU name -> (item, its text)
        self._matches: list[GpuMatch] = []
        self.gpus: tuple[DeviceInfo, ...] = ()  # what the probe found
        self.set_probing()

    def set_probing(self) -> None:
        self.list.clear()
        self._items.clear()
        self._matches = []
        self.status.setText(self.tr("Looking for devices (TensorFlow starts in a child process)…"))
        self.explanation.setVisible(False)

    def set_probe_failed(self, message: str) -> None:
        self.list.clear()
        self._items.clear()
        self._matches = []
        self.status.setText(self.tr("<b>Could not list devices.</b> {message}").format(message=_html(message)))

    def set_probe(self, result: ProbeResult) -> None:
        self.list.clear()
        self._items.clear()
        self._matches = []
        self.gpus = result.gpus
        for device in result.gpus + result.cpus:
            text = describe(device)
            item = QListWidgetItem(text)
            bus = self.tr("PCI bus {bus}").format(bus=device.pci_bus_id)
            item.setToolTip(f"{text}\n{bus}" if device.pci_bus_id else text)
            self.list.addItem(item)
            if not device.is_gpu or not result.nvml_available:
                continue
            if device.nvml_index is None:
                item.setText(f"{text}\n{translate(device.nvml_note) or self.tr('no live figures')}")
                continue
            self._items[device.name] = (item, text)
            self._matches.append(device.gpu_match())
            item.setText(self.tr("{text}\nlive figures: waiting for NVML…").format(text=text))
        self._fit_list_height()
        version = f"TensorFlow {result.tensorflow}" if result.tensorflow else "TensorFlow"
        gpus = len(result.gpus)
        found = self.tr("%n GPU(s)", "", gpus)
        lines = [
            self.tr("{version} sees {found} and {cpus} CPU.").format(
                version=version, found=found, cpus=len(result.cpus)
            )
        ]
        if gpus and not result.nvml_available:
            lines.append(self._nvml_missing_text(result.nvml_reason))
        self.status.setText(" ".join(lines))
        self.explanation.setVisible(not gpus)

    def _fit_list_height(self) -> None:
        """As tall as its rows (up to a limit): one CPU should not leave a tall empty box."""
        rows = sum(self.list.sizeHintForRow(i) for i in range(self.list.count()))
        self.list.setFixedHeight(min(max(rows, 24) + 2 * self.list.frameWidth() + 4, MAX_LIST_HEIGHT))

    def set_nvml_unavailable(self, reason: str) -> None:
        for item, text in self._items.values():
            item.setText(self.tr("{text}\nno live figures").format(text=text))
        self.status.setText(f"{self.status.text()} {self._nvml_missing_text(reason)}")

    def update_samples(self, samples: list[GpuSample]) -> None:
        for s in samples:
            if s.tf_name in self._items:
                item, text = self._items[s.tf_name]
                item.setText(f"{text}\n{live_text(s)}")

    def gpu_matches(self) -> list[GpuMatch]:
        """The GPUs NVML can read, each matched to TensorFlow's by PCI bus id."""
        return list(self._matches)

    @staticmethod
    def _nvml_missing_text(reason: str) -> str:
        why = translate(reason) or QCoreApplication.translate("DevicesPanel", "NVML is not available")
        return QCoreApplication.translate("DevicesPanel", "No live GPU figures: {why}.").format(why=why)


def live_text(s: GpuSample) -> str:
    """e.g. "busy 37% · memory used 12.0 / 40.0 GiB"; what NVML cannot say is said so."""
    if s.error:
        return QCoreApplication.translate("DevicesPanel", "stopped answering ({error})").format(
            error=translate(s.error)
        )
    busy = (
        QCoreApplication.translate("DevicesPanel", "busy {percent}%").format(percent=s.utilisation_percent)
        if s.utilisation_percent is not None
        else QCoreApplication.translate("DevicesPanel", "busy: n/a (MIG instance)")
    )
    if s.memory_used_mb is None or not s.memory_total_mb:
        return busy
    return busy + QCoreApplication.translate("DevicesPanel", " · memory used {used:.1f} / {total:.1f} GiB").format(
        used=s.memory_used_mb / 1024, total=s.memory_total_mb / 1024
    )


def _html(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace("\n", "<br>")
