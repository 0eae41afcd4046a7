"""The model's summary before Start, computed by a child process: `tfdd model-summary --json`.

Building a model needs TensorFlow and may run the user's model file; the
window does neither. A QProcess runs the command (started through
engine.core.protocol.commands, read when it finishes, never waited for), and the
table shows each layer, its output shape and parameters, with the total and
a per-replica memory estimate. A change to the form marks the summary out
of date; a new request ends the one still running.
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path

from PySide6.QtCore import QProcess, Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QHeaderView,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from engine.core.config import RunConfig
from engine.core.protocol.commands import cli_command
from gui.form.rows import hint_label

KILL_WAIT_MS = 2000


def megabytes(n: float) -> str:
    return f"{n / 2**20:,.1f} MB" if n < 2**30 else f"{n / 2**30:,.2f} GB"


class ModelSummary(QWidget):
    """A Summarize button, a status line and the layer table."""

    summary_ready = Signal(dict)
    """The child process's summary document (see engine.train.summary)."""
    summary_failed = Signal(str, str)
    """(message, config field) when the model or data cannot be built."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.button = QPushButton(self.tr("Summarize model"), objectName="summarizeButton")
        self.button.setToolTip(self.tr("Build the model in a separate process: layers, parameters, memory per replica"))
        self.status = hint_label("summaryStatus")
        self.table = QTableWidget(0, 3, objectName="summaryTable")
        self.table.setHorizontalHeaderLabels([self.tr("layer"), self.tr("output"), self.tr("parameters")])
        self.table.verticalHeader().setVisible(False)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.table.horizontalHeader().setStretchLastSection(True)
        self.table.setMaximumHeight(190)
        self.table.setVisible(False)
        row = QHBoxLayout()
        row.addWidget(self.button)
        row.addWidget(self.status, 1)
        column = QVBoxLayout(self)
        column.setContentsMargins(0, 0, 0, 0)
        column.addLayout(row)
        column.addWidget(self.table)
        self.process: QProcess | None = None
        self._config_file: Path | None = None
        self._shown_for: RunConfig | None = None
        self.last: dict | None = None
        self.error: tuple[str, str] | None = None

    # ---- running --------------------------------------------------------------------
    def request(self, config: RunConfig, replicas: int | None) -> None:
        """Start a summary of `config` (ending one still running)."""
        self.cancel()
        fd, name = tempfile.mkstemp(prefix="tfdd-summary-", suffix=".json")
        os.close(fd)
        self._config_file = Path(name)
        config.save(self._config_file)
        command = cli_command("model-summary", "--config", name, "--json")
        if replicas:
            command += ["--replicas", str(replicas)]
        process = QProcess(self)
        process.setProcessChannelMode(QProcess.ProcessChannelMode.SeparateChannels)
        process.finished.connect(self._on_finished)
        process.errorOccurred.connect(self._on_error)
        self.process = process
        self._shown_for = config
        self.button.setEnabled(False)
        self.status.setText(self.tr("Building the model in a separate process…"))
        process.start(command[0], command[1:])

    def cancel(self) -> None:
        """End a running summary (the window closes, or a new one is asked for)."""
        process, self.process = self.process, None
        if process is not None:
            process.finished.disconnect(self._on_finished)
            process.errorOccurred.disconnect(self._on_error)
            if process.state() != QProcess.ProcessState.NotRunning:
                process.kill()
                process.waitForFinished(KILL_WAIT_MS)
            process.deleteLater()
        self._remove_config_file()
        self.button.setEnabled(True)

    def running(self) -> bool:
        return self.process is not None

    def _remove_config_file(self) -> None:
        if self._config_file is not None:
            self._config_file.unlink(missing_ok=True)
            self._config_file = None

    def _on_error(self, error: QProcess.ProcessError) -> None:
        if error == QProcess.ProcessError.FailedToStart:
            self._finish_with_error(
                self.tr("could not start the summary process ({error})").format(
                    error=self.process and self.process.errorString()
                ),
                "",
            )

    def _on_finished(self, code: int, status: QProcess.ExitStatus) -> None:
        process = self.process
        if process is None:
            return
        out = bytes(process.readAllStandardOutput()).decode("utf-8", "replace").strip().splitlines()
        err = bytes(process.readAllStandardError()).decode("utf-8", "replace").strip().splitlines()
        document: dict | None = None
        for line in reversed(out):
            try:
                document = json.loads(line)
                break
            except json.JSONDecodeError:
                continue
        self.process = None
        process.deleteLater()
        self._remove_config_file()
        self.button.setEnabled(True)
        if document is None:
            self._finish_with_error(
                self.tr("the summary process ended with code {code}: {error}").format(
                    code=code, error=err[-1] if err else self.tr("no output")
                ),
                "",
            )
        elif "error" in document:
            self._finish_with_error(document["error"], document.get("field", ""))
        else:
            self.show_summary(document)

    def _finish_with_error(self, message: str, field: str) -> None:
        self.process = None
        self.button.setEnabled(True)
        self.last, self.error = None, (message, field)
        self.table.setVisible(False)
        self.status.setText(self.tr("Cannot build the model: {message}").format(message=message))
        self.summary_failed.emit(message, field)

    # ---- showing ---------------------------------------------------------------------
    def show_summary(self, summary: dict) -> None:
        self.last, self.error = summary, None
        layers = summary["layers"]
        self.table.setRowCount(len(layers))
        for row, layer in enumerate(layers):
            shape = "×".join("N" if d is None else str(d) for d in layer["output_shape"])
            for col, text in enumerate((layer["name"], shape, f"{layer['params']:,}")):
                item = QTableWidgetItem(text)
                item.setToolTip(f"{layer['name']}: {layer['type']}")
                self.table.setItem(row, col, item)
        self.table.setVisible(True)
        memory = summary["memory_bytes"]
        output = "logits" if summary["from_logits"] else self.tr("probabilities (softmax/sigmoid detected)")
        self.status.setText(
            self.tr(
                "{model}: {total_params:,} parameters ({trainable_params:,} trainable) · input "
                "{input_shape} → {output_units} {output} · ≈ {total} per replica at "
                "{per_replica_batch} examples (weights {weights}, activations {activations})"
            ).format(
                model=summary["model"],
                total_params=summary["total_params"],
                trainable_params=summary["trainable_params"],
                input_shape="×".join(map(str, summary["input_shape"])),
                output_units=summary["output_units"],
                output=output,
                total=megabytes(memory["total"]),
                per_replica_batch=summary["per_replica_batch"],
                weights=megabytes(memory["weights"]),
                activations=megabytes(memory["activations"]),
            )
        )
        self.summary_ready.emit(summary)

    def mark_stale(self, config: RunConfig) -> None:
        """The form changed: say so if the shown summary was of another model or data."""
        if self._shown_for is None or self.process is not None:
            return
        old = self._shown_for
        if (old.model, old.data, old.global_batch_size, old.mixed_precision) != (
            config.model,
            config.data,
            config.global_batch_size,
            config.mixed_precision,
        ) and not self.status.text().startswith(stale := self.tr("Out of date: Summarize again. ")):
            self.status.setText(stale + self.status.text())
