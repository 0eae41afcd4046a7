"""The TF_CONFIG editor: a task table and its JSON, kept in step, with problems as you type.

TensorFlow checks little of a TF_CONFIG (a missing peer waits an hour), so
every edit runs engine.core.tfconfig.validate with the run form's strategy and
shows errors and warnings at once. Either side can be edited: the table
renders the JSON; valid JSON rebuilds the table, while JSON that does not
parse is only reported, so a half-typed bracket never wipes the tasks.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QT_TRANSLATE_NOOP, Qt, Signal
from PySide6.QtGui import QColor, QFont, QFontDatabase, QGuiApplication
from PySide6.QtWidgets import (
    QComboBox,
    QFileDialog,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPlainTextEdit,
    QPushButton,
    QSpinBox,
    QSplitter,
    QStyle,
    QVBoxLayout,
    QWidget,
)

from engine.core.hosts import parse_host
from engine.core.problems import ConfigError
from engine.core.tfconfig import (
    JOBS,
    ClusterError,
    ClusterProblem,
    ClusterSpec,
    Task,
    TFConfig,
    errors,
    is_loopback,
    local_cluster,
    parse_tf_config,
    render,
    validate,
)
from gui import theme
from gui.cluster.task_table import FIRST_PORT, ClusterTable
from gui.i18n import translate
from gui.statuses import severity_name, severity_tone
from gui.theme import WidgetRole, set_role

DEFAULT_CLUSTER = local_cluster(2, [FIRST_PORT, FIRST_PORT + 1])
EXPORT_TIP = QT_TRANSLATE_NOOP(
    "ClusterEditor", "Write start scripts, a README and a Kubeflow TFJob for each task, or a Slurm job"
)
START_TIP = QT_TRANSLATE_NOOP(
    "ClusterEditor", "Run these tasks on this machine with the run form's config; the Live tab shows each with its role"
)


MACHINES_TIP = QT_TRANSLATE_NOOP(
    "ClusterEditor",
    "Start each task over SSH on its machine (your keys, ssh config and known hosts apply; every machine is "
    "checked first), with the run form's config; the Live tab shows each with its role",
)


def _tasks(cluster: ClusterSpec) -> list[Task]:
    """The cluster's tasks; none while an address does not parse (validate() says why)."""
    try:
        return cluster.tasks()
    except ValueError:
        return []


class ClusterEditor(QWidget):
    """Edits one TF_CONFIG; `tf_config()` and `problems()` describe what is shown."""

    export_requested = Signal()
    """The user asked to export this cluster for other machines."""
    start_requested = Signal()
    """The user asked to run this cluster's tasks here, on 127.0.0.1, with the run form's config."""
    start_on_machines_requested = Signal()
    """The user asked to start each task over SSH on the machine its row names (machine_rows())."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("tfConfigEditor")
        self._strategy: str | None = None
        self._problems: list[ClusterProblem] = []
        self._syncing = False
        self.table = ClusterTable()
        self.table.cluster_edited.connect(self._on_form_edited)
        self.task_type = QComboBox(objectName="taskTypeCombo")
        no_task = self.tr("(none)")
        self.task_type.addItems([no_task, *JOBS])  # item 0: no task (a cluster description for every task)
        self.task_type.setToolTip(
            self.tr(
                "The job of the process this TF_CONFIG is for; {no_task}: a cluster description "
                "shared by all tasks (what export uses)"
            ).format(no_task=no_task)
        )
        self.task_index = QSpinBox(objectName="taskIndexSpin")
        self.task_index.setRange(-1, 999)
        self.task_index.setSpecialValueText(no_task)
        self.task_type.currentTextChanged.connect(self._on_form_edited)
        self.task_index.valueChanged.connect(self._on_form_edited)
        self.json = QPlainTextEdit(objectName="tfConfigJson")
        font = QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont)
        font.setStyleHint(QFont.StyleHint.Monospace)
        self.json.setFont(font)
        self.json.textChanged.connect(self._on_json_edited)
        self.json_error = QLabel(objectName="tfConfigJsonError")
        set_role(self.json_error, WidgetRole.PROBLEM)
        self.json_error.setWordWrap(True)
        self.json_error.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.problem_list = QListWidget(objectName="clusterProblems")
        self.problem_list.setWordWrap(True)
        self.problem_summary = QLabel(objectName="clusterProblemSummary")
        self.status = QLabel(objectName="clusterEditorStatus")
        set_role(self.status, WidgetRole.HINT)
        self._build_layout()
        self.set_tf_config(TFConfig(DEFAULT_CLUSTER))
        theme.manager().changed.connect(self._restyle)

    def _restyle(self, _theme: theme.Theme) -> None:
        self._show_problems()

    def _build_layout(self) -> None:
        buttons = self._button_row()
        tasks = QGroupBox(self.tr("Tasks"))
        add = QPushButton(self.tr("Add task"), objectName="addTaskButton")
        add.clicked.connect(self.table.add_task)
        remove = QPushButton(
            self.tr("Remove"), objectName="removeTaskButton", toolTip=self.tr("Remove the selected tasks")
        )
        remove.clicked.connect(self.table.remove_selected)
        row = QHBoxLayout()
        row.addWidget(add)
        row.addWidget(remove)
        row.addStretch(1)
        row.addWidget(QLabel(self.tr("This process:")))
        row.addWidget(self.task_type)
        row.addWidget(QLabel(self.tr("index")))
        row.addWidget(self.task_index)
        column = QVBoxLayout(tasks)
        column.addWidget(self.table)
        column.addLayout(row)
        json_box = QGroupBox(self.tr("TF_CONFIG (JSON)"))
        column = QVBoxLayout(json_box)
        column.addWidget(self.json, 1)
        column.addWidget(self.json_error)
        top = QSplitter(Qt.Orientation.Horizontal)
        top.addWidget(tasks)
        top.addWidget(json_box)
        top.setSizes([560, 400])
        problems = QGroupBox(self.tr("Problems"))
        column = QVBoxLayout(problems)
        column.addWidget(self.problem_summary)
        column.addWidget(self.problem_list)
        hint = QLabel(
            self.tr(
                "Every role runs: chief, worker, ps (parameter_server) and evaluator. Start here "
                "runs these tasks on this machine (127.0.0.1, the ports above) with the run "
                "form's config, each shown in the Live tab with its role; the run form's Start "
                "does the same on free ports. Start on these machines starts each task over SSH on "
                "the machine its row names (the Machine column). Or export the cluster (start "
                "scripts and a Kubeflow TFJob, or a Slurm job) and start each task there."
            )
        )
        hint.setWordWrap(True)
        set_role(hint, WidgetRole.HINT)
        splitter = QSplitter(Qt.Orientation.Vertical)
        splitter.addWidget(top)
        splitter.addWidget(problems)
        splitter.setSizes([470, 230])
        layout = QVBoxLayout(self)
        layout.addLayout(buttons)
        layout.addWidget(hint)
        layout.addWidget(splitter, 1)

    def _button_row(self) -> QHBoxLayout:
        """Import, paste and copy; the status; the three ways to start or export the cluster."""
        buttons = QHBoxLayout()
        for text, name, tip, slot in (
            (
                self.tr("&Import file…"),
                "importClusterButton",
                self.tr("Read a TF_CONFIG or cluster.json file"),
                self.import_file_dialog,
            ),
            (
                self.tr("&Paste"),
                "pasteClusterButton",
                self.tr("Read a TF_CONFIG from the clipboard"),
                self.paste_from_clipboard,
            ),
            (
                self.tr("&Copy"),
                "copyClusterButton",
                self.tr("Copy the TF_CONFIG as one line, as the environment variable wants it"),
                self.copy_to_clipboard,
            ),
        ):
            button = QPushButton(text, objectName=name, toolTip=tip)
            button.clicked.connect(slot)
            buttons.addWidget(button)
        buttons.addWidget(self.status, 1)
        self.start_button = QPushButton(self.tr("Start here"), objectName="startClusterButton")
        self.start_button.clicked.connect(self.start_requested)
        buttons.addWidget(self.start_button)
        self.machines_button = QPushButton(self.tr("Start on these machines"), objectName="startOnMachinesButton")
        self.machines_button.clicked.connect(self.start_on_machines_requested)
        buttons.addWidget(self.machines_button)
        self.export_button = QPushButton(self.tr("Export for other machines…"), objectName="exportClusterButton")
        set_role(self.export_button, WidgetRole.PRIMARY)
        self.export_button.clicked.connect(self.export_requested)
        buttons.addWidget(self.export_button)

        return buttons

    # ---- the document ---------------------------------------------------------------
    def tf_config(self) -> TFConfig:
        """What the table and task fields say (the last valid JSON while the text does not parse)."""
        task_type = self.task_type.currentText() if self.task_type.currentIndex() > 0 else None
        index = self.task_index.value()
        return TFConfig(self.table.cluster(), task_type, None if index < 0 else index)

    def cluster(self) -> ClusterSpec:
        return self.table.cluster()

    def cluster_json(self) -> str:
        """The cluster as a file for `cluster launch --cluster` (TF_CONFIG without a task)."""
        return render(TFConfig(self.cluster()), indent=2) + "\n"

    def problems(self) -> list[ClusterProblem]:
        return list(self._problems)

    def machine_rows(self) -> list[str]:
        """Each task's machine (an engine.core.hosts row), in the cluster's task order."""
        return self.table.machines()

    def _machines_blocker(self) -> str:
        """Why the tasks cannot start on their machines yet ("" when they can)."""
        rows = self.machine_rows()
        if not any(rows):
            return self.tr("Name the machine of each task in the Machine column (user@host or an ssh alias)")
        tasks = _tasks(self.cluster())
        for task, row in zip(tasks, rows, strict=False):
            if not row:
                return self.tr("{task} has no machine: name one for every task").format(task=task.name)
            try:
                parse_host(row)
            except ConfigError as exc:
                return f"{task.name}: {translate(exc.problems[0].message)}"
        return ""

    def set_tf_config(self, tf_config: TFConfig) -> None:
        """Show `tf_config` in the table, the task fields and the JSON."""
        self._show_in_form(tf_config)
        self._render_json()
        self._revalidate()

    def set_strategy(self, strategy: str) -> None:
        """Judge the cluster by the rules of the run form's strategy."""
        if strategy != self._strategy:
            self._strategy = strategy
            self._revalidate()

    # ---- import and copy --------------------------------------------------------------
    def import_text(self, text: str, source: str) -> bool:
        """Replace the document with `text` if it is a TF_CONFIG; otherwise say why and keep everything."""
        try:
            tf_config = parse_tf_config(text.strip())
        except ClusterError as exc:
            self._say(
                self.tr("{source} holds no TF_CONFIG: {problem}").format(
                    source=source, problem=translate(exc.problems[0].message)
                ),
                ok=False,
            )
            return False
        self.set_tf_config(tf_config)
        self._say(self.tr("Imported {source}.").format(source=source))
        return True

    def import_file(self, path: str | Path) -> bool:
        try:
            text = Path(path).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            self._say(self.tr("Cannot read {path}: {error}").format(path=path, error=exc), ok=False)
            return False
        return self.import_text(text, str(path))

    def import_file_dialog(self) -> None:
        path, _ = QFileDialog.getOpenFileName(
            self, self.tr("Import TF_CONFIG"), "", self.tr("JSON files (*.json);;All files (*)")
        )
        if path:
            self.import_file(path)

    def paste_from_clipboard(self) -> bool:
        return self.import_text(QGuiApplication.clipboard().text(), self.tr("the clipboard"))

    def copy_to_clipboard(self) -> None:
        QGuiApplication.clipboard().setText(render(self.tf_config()))
        self._say(self.tr("Copied the TF_CONFIG (one line) to the clipboard."))

    # ---- keeping the two sides in step --------------------------------------------------
    def _on_form_edited(self) -> None:
        if not self._syncing:
            self._render_json()
            self._revalidate()

    def _on_json_edited(self) -> None:
        if self._syncing:
            return
        try:
            tf_config = parse_tf_config(self.json.toPlainText())
        except ClusterError as exc:
            self.json_error.setText(
                "\n".join(
                    translate(p.message) if p.location == "(document)" else f"{p.location}: {translate(p.message)}"
                    for p in exc.problems
                )
                + "\n"
                + self.tr("The table keeps the last valid cluster.")
            )
            self.json_error.setVisible(True)
            return
        self._show_in_form(tf_config)
        self._revalidate()

    def _show_in_form(self, tf_config: TFConfig) -> None:
        self._syncing = True
        self.table.set_cluster(tf_config.cluster)
        task_type = tf_config.task_type
        if task_type is None:
            self.task_type.setCurrentIndex(0)
        else:
            if self.task_type.findText(task_type) < 1:  # an unknown job: shown so validate can name it
                self.task_type.addItem(task_type)
            self.task_type.setCurrentIndex(self.task_type.findText(task_type, Qt.MatchFlag.MatchExactly))
        self.task_index.setValue(-1 if tf_config.task_index is None else tf_config.task_index)
        self.json_error.setVisible(False)
        self._syncing = False

    def _render_json(self) -> None:
        self._syncing = True
        self.json.setPlainText(render(self.tf_config(), indent=2))
        self.json_error.setVisible(False)
        self._syncing = False

    def _revalidate(self) -> None:
        tf_config = self.tf_config()
        self.table.set_current_task(tf_config.task_type, tf_config.task_index)
        self._problems = validate(tf_config, self._strategy)
        self.table.mark_problems(self._problems)
        self._show_problems()

    def _show_problems(self) -> None:
        self.problem_list.clear()
        icons = {
            "error": QStyle.StandardPixmap.SP_MessageBoxCritical,
            "warning": QStyle.StandardPixmap.SP_MessageBoxWarning,
        }
        for p in sorted(self._problems, key=lambda p: p.severity != "error"):
            item = QListWidgetItem(
                self.style().standardIcon(icons[p.severity]), f"{p.location}: {translate(p.message)}"
            )
            item.setForeground(QColor(severity_tone(p.severity, theme.current()).foreground))
            item.setToolTip(f"{severity_name(p.severity)}: {p.location}: {translate(p.message)}")
            item.setData(Qt.ItemDataRole.UserRole, p.severity)
            self.problem_list.addItem(item)
        n_errors = len(errors(self._problems))
        n_warnings = len(self._problems) - n_errors
        against = (
            self.tr(" (checked for strategy {strategy})").format(strategy=self._strategy) if self._strategy else ""
        )
        if self._problems:
            self.problem_summary.setText(
                self.tr("%n error(s)", "", n_errors) + self.tr(", %n warning(s)", "", n_warnings) + against
            )
        else:
            self.problem_summary.setText(self.tr("No problems{against}.").format(against=against))
        self.problem_list.setVisible(bool(self._problems))
        self.export_button.setEnabled(not n_errors)
        self.export_button.setToolTip(self.tr("Fix the errors first") if n_errors else self.tr(EXPORT_TIP))
        remote = [t for t in _tasks(self.cluster()) if not is_loopback(t.host)]
        start_blocker = (
            self.tr("Fix the errors first")
            if n_errors
            else self.tr("Tasks on other machines ({address}) are started there: export the cluster").format(
                address=remote[0].address
            )
            if remote
            else ""
        )
        self.start_button.setEnabled(not start_blocker)
        self.start_button.setToolTip(start_blocker or self.tr(START_TIP))
        machines_blocker = self.tr("Fix the errors first") if n_errors else self._machines_blocker()
        self.machines_button.setEnabled(not machines_blocker)
        self.machines_button.setToolTip(machines_blocker or self.tr(MACHINES_TIP))

    def _say(self, text: str, ok: bool = True) -> None:
        self.status.setText(text)
        set_role(self.status, WidgetRole.HINT if ok else WidgetRole.PROBLEM)
