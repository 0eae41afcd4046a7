"""Export a cluster for other machines: pick a folder, write the bundle, read what to copy where.

The files are engine.exports.bundle's, so the window writes exactly what
`python main.py cluster export` writes. Export is refused while the cluster
or the run config has errors: a bundle that cannot train is found out only
after it has been copied to every machine.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QUrl
from PySide6.QtGui import QDesktopServices
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QMessageBox,
    QPushButton,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from engine.config import RunConfig
from engine.exports.bundle import BUNDLE_MARKER, check_bundle_folder, export_bundle
from engine.problems import OutputExists, Problem
from engine.tfconfig import TRAINING_JOBS, ClusterError, ClusterSpec, TFConfig, errors, validate


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
        self.setWindowTitle("Export the cluster for other machines")
        self.resize(760, 620)
        self._cluster = cluster
        self._config = config
        self.written: list[Path] = []
        blockers = [f"{p.location}: {p.message}" for p in errors(validate(TFConfig(cluster), config.strategy))]
        blockers += [f"run form, {p.field}: {p.message}" for p in config_problems]
        tasks = sum(len(cluster.addresses(job)) for job in TRAINING_JOBS)
        intro = QLabel(
            f"Writes start scripts (sh, PowerShell), the run config and a Kubeflow TFJob for the "
            f"{tasks} training task{'s' if tasks != 1 else ''} of the Cluster tab, with the run form's "
            f"config ({config.strategy}, {config.epochs} epochs, global batch {config.global_batch_size})."
        )
        intro.setWordWrap(True)
        self.blockers = QLabel(
            "Fix these first:\n" + "\n".join(f"• {b}" for b in blockers) if blockers else "",
            objectName="exportBlockers",
        )
        self.blockers.setProperty("role", "problem")
        self.blockers.setWordWrap(True)
        self.blockers.setVisible(bool(blockers))
        self.folder = QLineEdit(str(default_folder), objectName="exportFolderEdit")
        browse = QPushButton("Browse…")
        browse.clicked.connect(self._browse)
        self.export_button = QPushButton("Export", objectName="exportBundleButton")
        self.export_button.setProperty("role", "primary")
        self.export_button.setEnabled(not blockers)
        self.export_button.clicked.connect(self.export)
        row = QHBoxLayout()
        row.addWidget(QLabel("Folder:"))
        row.addWidget(self.folder, 1)
        row.addWidget(browse)
        row.addWidget(self.export_button)
        self.result = QLabel(objectName="exportResult")
        self.result.setWordWrap(True)
        self.files = QListWidget(objectName="exportedFiles")
        self.files.setVisible(False)
        self.readme = QTextBrowser(objectName="exportReadme")
        self.readme.setPlaceholderText("After the export: what to copy to which machine, and how to start it.")
        self.open_folder = QPushButton("Open folder", objectName="openExportFolderButton")
        self.open_folder.setEnabled(False)
        self.open_folder.clicked.connect(self._open_folder)
        close = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        close.rejected.connect(self.reject)
        close.addButton(self.open_folder, QDialogButtonBox.ButtonRole.ActionRole)
        layout = QVBoxLayout(self)
        layout.addWidget(intro)
        layout.addWidget(self.blockers)
        layout.addLayout(row)
        layout.addWidget(self.result)
        layout.addWidget(self.files, 1)
        layout.addWidget(self.readme, 3)
        layout.addWidget(close)

    def export(self) -> bool:
        """Write the bundle into the folder (asking before mixing it into one that has other files)."""
        out = Path(self.folder.text().strip()).expanduser()
        if not self.folder.text().strip():
            return self._fail("Choose a folder to write the bundle to.")
        try:
            check_bundle_folder(out)
        except OutputExists:  # the user's own files are never mixed with a bundle: propose a fresh folder
            fresh = _fresh_folder(out)
            self.folder.setText(str(fresh))
            return self._fail(
                f"{out} holds other files, so nothing was written there. Proposed instead: {fresh} "
                "(Export writes it; or choose another folder)."
            )
        if (out / BUNDLE_MARKER).is_file() and not self._confirm_replace(out):
            return False
        try:
            self.written = export_bundle(self._cluster, self._config, out)
        except ClusterError as exc:
            return self._fail("\n".join(str(p) for p in exc.problems))
        except (OSError, OutputExists) as exc:
            return self._fail(f"Could not write the bundle: {exc}")
        self.files.clear()
        self.files.addItems([str(path.relative_to(out)) for path in self.written])
        self.files.setVisible(True)
        self.readme.setMarkdown((out / "README.md").read_text(encoding="utf-8"))
        self.result.setProperty("role", "")
        self.result.setText(f"Wrote {len(self.written)} files to {out}. Next: what to copy where (README.md):")
        self._repolish()
        self.open_folder.setEnabled(True)
        return True

    def _confirm_replace(self, out: Path) -> bool:
        answer = QMessageBox.question(
            self,
            "Replace the bundle?",
            f"{out} holds a bundle exported before. It is replaced (task folders it no longer has are "
            "removed); files of your own in it stay. Export there?",
        )
        return answer == QMessageBox.StandardButton.Yes

    def _fail(self, text: str) -> bool:
        self.result.setProperty("role", "problem")
        self.result.setText(text)
        self._repolish()
        return False

    def _repolish(self) -> None:
        self.result.style().unpolish(self.result)
        self.result.style().polish(self.result)

    def _browse(self) -> None:
        folder = QFileDialog.getExistingDirectory(self, "Export the bundle to", self.folder.text())
        if folder:
            self.folder.setText(folder)

    def _open_folder(self) -> None:
        QDesktopServices.openUrl(QUrl.fromLocalFile(self.folder.text().strip()))


def _fresh_folder(taken: Path) -> Path:
    """taken-2, taken-3 …: the first that does not exist or is empty."""
    for n in range(2, 1000):
        candidate = taken.with_name(f"{taken.name}-{n}")
        if not candidate.exists() or (candidate.is_dir() and not any(candidate.iterdir())):
            return candidate
    return taken.with_name(f"{taken.name}-new")
