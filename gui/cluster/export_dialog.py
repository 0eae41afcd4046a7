"""Export a cluster for other machines: pick a folder, write the bundle, read what to copy where.

Two targets, written by the engine's own exporters so the window writes what `tfdd cluster export [--slurm]`
writes: the machines the cluster names (engine.core.exports.bundle) or a Slurm job (engine.core.exports.slurm).
Export is refused while the cluster or the run config has errors: a broken bundle would be found out only on
every machine.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QT_TRANSLATE_NOOP, QUrl
from PySide6.QtGui import QDesktopServices
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QMessageBox,
    QPushButton,
    QSpinBox,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from engine.core.config import RunConfig
from engine.core.exports.bundle import BUNDLE_MARKER, check_bundle_folder, export_bundle
from engine.core.exports.slurm import DEFAULT_PORT_BASE, export_slurm
from engine.core.problems import OutputExists, Problem
from engine.core.tfconfig import ClusterError, ClusterSpec, errors, local_cluster_like, run_problems
from gui.i18n import translate
from gui.keyboard import plain_label
from gui.theme import WidgetRole, set_role

MACHINES, SLURM = "machines", "slurm"
TARGETS = {
    MACHINES: QT_TRANSLATE_NOOP(
        "ClusterExportDialog", "The machines in the table: start scripts (sh, PowerShell) and a Kubeflow TFJob"
    ),
    SLURM: QT_TRANSLATE_NOOP(
        "ClusterExportDialog", "A Slurm job: an sbatch script; Slurm picks the nodes, one per task"
    ),
}


class ClusterExportDialog(QDialog):
    """Writes the bundle of `cluster` and `config` into a chosen folder, then shows its README."""

    def __init__(
        self,
        cluster: ClusterSpec,
        config: RunConfig,
        config_problems: list[Problem],
        default_folder: Path,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.setObjectName("clusterExportDialog")
        self.setWindowTitle(self.tr("Export the cluster for other machines"))
        self.resize(760, 620)
        self._cluster = cluster
        self._config = config
        self.written: list[Path] = []
        self._config_problems = [
            self.tr("run form, {field}: {problem}").format(field=p.field, problem=translate(p.message))
            for p in config_problems
        ]
        self.target = QComboBox(objectName="exportTargetCombo")
        for key, text in TARGETS.items():
            self.target.addItem(self.tr(text), key)
        target_row = QHBoxLayout()
        _labelled(target_row, self.tr("F&or:"), self.target, 1)
        self.slurm_row = self._build_slurm_row()
        self.blockers = QLabel(objectName="exportBlockers")
        set_role(self.blockers, WidgetRole.PROBLEM)
        self.blockers.setWordWrap(True)
        self.result = QLabel(objectName="exportResult")
        self.result.setWordWrap(True)
        self.files = QListWidget(objectName="exportedFiles")
        self.files.setVisible(False)
        self.readme = QTextBrowser(objectName="exportReadme")
        self.readme.setPlaceholderText(self.tr("After the export: what to copy where, and how to start it."))
        layout = QVBoxLayout(self)
        for item, stretch in (
            (self._intro(), 0),
            (target_row, 0),
            (self.slurm_row, 0),
            (self.blockers, 0),
            (self._build_folder_row(default_folder), 0),
            (self.result, 0),
            (self.files, 1),
            (self.readme, 3),
            (self._build_buttons(), 0),
        ):
            (layout.addLayout if isinstance(item, QHBoxLayout) else layout.addWidget)(item, stretch)
        self.target.currentIndexChanged.connect(self._on_target)
        self._on_target()

    def _intro(self) -> QLabel:
        """What the export writes: for how many tasks, with which of the form's settings."""
        config = self._config
        tasks = sum(len(addresses) for _, addresses in self._cluster.jobs)
        intro = QLabel(
            self.tr(
                "Writes what the %n task(s) of the Cluster tab need, with the run "
                "form's config ({strategy}, {epochs} epochs, global batch {global_batch_size}). "
                "Every task runs the same train command; its TF_CONFIG says what it is.",
                "",
                tasks,
            ).format(
                strategy=config.strategy,
                epochs=config.epochs,
                global_batch_size=config.global_batch_size,
            )
        )
        intro.setWordWrap(True)
        return intro

    def _build_slurm_row(self) -> QWidget:
        """GPUs per node and the tasks' port: shown for a Slurm job only."""
        self.gpus = QSpinBox(objectName="slurmGpusSpin")
        self.gpus.setRange(0, 64)
        self.gpus.setSpecialValueText(self.tr("none (CPU nodes)"))
        self.gpus.setToolTip(self.tr("GPUs each node asks Slurm for (#SBATCH --gpus-per-node)"))
        self.port = QSpinBox(objectName="slurmPortSpin")
        self.port.setRange(1024, 65535)
        self.port.setValue(DEFAULT_PORT_BASE)
        self.port.setToolTip(self.tr("The port every task listens on, on its node"))
        row = QWidget()
        slurm = QHBoxLayout(row)
        slurm.setContentsMargins(0, 0, 0, 0)
        _labelled(slurm, self.tr("&GPUs per node:"), self.gpus)
        _labelled(slurm, self.tr("P&ort:"), self.port)
        slurm.addStretch(1)
        return row

    def _build_folder_row(self, default_folder: Path) -> QHBoxLayout:
        """The folder to write to, Browse, and Export."""
        self.folder = QLineEdit(str(default_folder), objectName="exportFolderEdit")
        browse = QPushButton(self.tr("Browse…"))
        browse.clicked.connect(self._browse)
        self.export_button = QPushButton(self.tr("Export"), objectName="exportBundleButton")
        set_role(self.export_button, WidgetRole.PRIMARY)
        self.export_button.clicked.connect(self.export)
        row = QHBoxLayout()
        _labelled(row, self.tr("&Folder:"), self.folder, 1)
        row.addWidget(browse)
        row.addWidget(self.export_button)
        return row

    def _build_buttons(self) -> QDialogButtonBox:
        """Close, and Open folder once the bundle is written."""
        self.open_folder = QPushButton(self.tr("Open folder"), objectName="openExportFolderButton")
        self.open_folder.setEnabled(False)
        self.open_folder.clicked.connect(self._open_folder)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        buttons.addButton(self.open_folder, QDialogButtonBox.ButtonRole.ActionRole)
        return buttons

    @property
    def slurm(self) -> bool:
        return self.target.currentData() == SLURM

    def _on_target(self) -> None:
        """Slurm picks the nodes, so only the cluster's shape is judged there, not its hosts."""
        self.slurm_row.setVisible(self.slurm)
        try:
            judged = local_cluster_like(self._cluster) if self.slurm else self._cluster
            blockers = [f"{p.location}: {translate(p.message)}" for p in errors(run_problems(judged, self._config))]
        except ValueError as exc:  # no worker or chief at all
            blockers = [translate(exc.args[0])]
        blockers += self._config_problems
        listed = "\n".join(f"• {b}" for b in blockers)
        self.blockers.setText(self.tr("Fix these first:") + "\n" + listed if blockers else "")
        self.blockers.setVisible(bool(blockers))
        self.export_button.setEnabled(not blockers)

    def export(self) -> bool:
        """Write the bundle into the folder (asking before mixing it into one that has other files)."""
        out = Path(self.folder.text().strip()).expanduser()
        if not self.folder.text().strip():
            return self._fail(self.tr("Choose a folder to write the bundle to."))
        try:
            check_bundle_folder(out)
        except OutputExists:  # the user's own files are never mixed with a bundle: propose a fresh folder
            fresh = _fresh_folder(out)
            self.folder.setText(str(fresh))
            return self._fail(
                self.tr(
                    "{out} holds other files, so nothing was written there. Proposed instead: {fresh} "
                    "(Export writes it; or choose another folder)."
                ).format(out=out, fresh=fresh)
            )
        if (out / BUNDLE_MARKER).is_file() and not self._confirm_replace(out):
            return False
        try:
            if self.slurm:
                self.written = export_slurm(self._cluster, self._config, out, self.gpus.value(), self.port.value())
            else:
                self.written = export_bundle(self._cluster, self._config, out)
        except ClusterError as exc:
            return self._fail("\n".join(f"{p.location}: {translate(p.message)}" for p in exc.problems))
        except (OSError, OutputExists) as exc:
            return self._fail(self.tr("Could not write the bundle: {error}").format(error=exc))
        self.files.clear()
        self.files.addItems([str(path.relative_to(out)) for path in self.written])
        self.files.setVisible(True)
        self.readme.setMarkdown((out / "README.md").read_text(encoding="utf-8"))
        set_role(self.result, WidgetRole.PLAIN)
        what = self.tr("how to submit it") if self.slurm else self.tr("what to copy where")
        self.result.setText(
            self.tr("Wrote %n file(s) to {out}. Next: {what} (README.md):", "", len(self.written)).format(
                out=out, what=what
            )
        )
        self.open_folder.setEnabled(True)
        return True

    def _confirm_replace(self, out: Path) -> bool:
        answer = QMessageBox.question(
            self,
            self.tr("Replace the bundle?"),
            self.tr(
                "{out} holds a bundle exported before. It is replaced (task folders it no longer "
                "has are removed); files of your own in it stay. Export there?"
            ).format(out=out),
        )
        return answer == QMessageBox.StandardButton.Yes

    def _fail(self, text: str) -> bool:
        set_role(self.result, WidgetRole.PROBLEM)
        self.result.setText(text)
        return False

    def _browse(self) -> None:
        folder = QFileDialog.getExistingDirectory(self, self.tr("Export the bundle to"), self.folder.text())
        if folder:
            self.folder.setText(folder)

    def _open_folder(self) -> None:
        QDesktopServices.openUrl(QUrl.fromLocalFile(self.folder.text().strip()))


def _labelled(row: QHBoxLayout, label: str, widget: QWidget, stretch: int = 0) -> None:
    """`widget` after its caption in `row`: Alt with the caption's underlined letter focuses it, and a screen
    reader names it by the caption."""
    caption = QLabel(label)
    caption.setBuddy(widget)
    widget.setAccessibleName(plain_label(label))
    row.addWidget(caption)
    row.addWidget(widget, stretch)


def _fresh_folder(taken: Path) -> Path:
    """taken-2, taken-3 …: the first that does not exist or is empty."""
    for n in range(2, 1000):
        candidate = taken.with_name(f"{taken.name}-{n}")
        if not candidate.exists() or (candidate.is_dir() and not any(candidate.iterdir())):
            return candidate
    return taken.with_name(f"{taken.name}-new")
