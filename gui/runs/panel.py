"""The Runs tab: every run under the runs root, compared, reopened, resumed and exported.

Runs are read from their folders, so command-line runs appear too, by the history loader (gui.runs.loader),
which re-reads only what changed. The table refreshes on F5, when the window's run ends and every few seconds
while shown; an unreadable run is a row saying why. Reopening and resuming are requests the window carries out.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QItemSelection, QModelIndex, QSortFilterProxyModel, Qt, QTimer, Signal
from PySide6.QtGui import QAction, QCloseEvent, QHideEvent, QKeySequence, QShowEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QMenu,
    QPushButton,
    QSplitter,
    QToolButton,
    QTreeView,
    QVBoxLayout,
    QWidget,
)

from engine.core.exports.script import export_script
from engine.core.problems import ConfigError
from engine.core.protocol.codes import RunStatus
from engine.core.runs.history import Curves, RunSummary, export_metrics
from gui import theme
from gui.exports import TensorBoardCommand, export_run_config, load_run_config, save_as
from gui.i18n import problem_text, translate
from gui.runs.compare_plots import MAX_COMPARED, ComparedRun, ComparePlots, colour
from gui.runs.loader import HistoryLoader
from gui.runs.table_model import COLUMNS, SORT_ROLE, RunsTableModel, display_name
from gui.theme import WidgetRole, set_role

AUTO_REFRESH_MS = 3000
MAX_NAME_WIDTH = 280
SWATCH_ROOM = 24
SIZE_FROM_ROWS = 40  # column widths come from the first rows
CELL_PADDING = 24


def watchable(run: RunSummary | None, active: Path | None) -> bool:
    """A run the Live tab can follow: it trains (its lock is held), it is this window's own, or it recorded no
    end (it may train where its lock cannot be seen from here)."""
    if run is None:
        return False
    return run.path == active or run.status in (RunStatus.RUNNING, RunStatus.INTERRUPTED)


class RunsPanel(QWidget):
    """Runs table, actions on the selected runs, and their curves compared below."""

    reopen_requested = Signal(object)
    """Load this config (an engine RunConfig) into the run form, to run again with changes."""
    resume_requested = Signal(object)
    """Continue the stopped or killed run in this directory (a Path) from its checkpoint."""
    watch_requested = Signal(object)
    """Follow the run in this directory (a Path) in the Live tab as it trains."""
    scaling_requested = Signal()
    """Open the scaling study for the run form's config."""
    runs_loaded = Signal()
    """A scan has ended and the table shows every run it found."""
    sweep_requested = Signal(object)
    """Open the view of the sweep in this folder (a Path): a double-click on its row."""
    curves_shown = Signal()
    """The compare plots show the selected runs' curves as they are on disk now."""

    def __init__(self, root: Path, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.root = root
        self.loader = HistoryLoader(root, self)
        self.loader.runs_ready.connect(self._on_runs_ready)
        self.loader.curves_ready.connect(self._on_curves_ready)
        self._active: Path | None = None
        self._compared: list[tuple[Path, Curves]] = []
        self._sized = False
        self.model = RunsTableModel()
        self.proxy = QSortFilterProxyModel(self)
        self.proxy.setSourceModel(self.model)
        self.proxy.setSortRole(SORT_ROLE)
        self.table = self._build_table()
        self.compare = ComparePlots()
        self.tensorboard = TensorBoardCommand()
        self.refresh_action = QAction(self.tr("&Refresh runs"), self, shortcut=QKeySequence(Qt.Key.Key_F5))
        self.refresh_action.setToolTip(self.tr("Read the runs folder again (F5)"))
        self.refresh_action.triggered.connect(self.refresh)
        self._build_layout()
        theme.manager().changed.connect(self._recolour)
        self.timer = QTimer(self)
        self.timer.setInterval(AUTO_REFRESH_MS)
        self.timer.timeout.connect(self._auto_refresh)
        self.table.selectionModel().selectionChanged.connect(self._on_selection)

    # ---- assembly -------------------------------------------------------------
    def _build_table(self) -> QTreeView:
        """A table whose sweeps' rows fold their trials away (a tree of one level)."""
        table = QTreeView(objectName="runsTable")
        table.setModel(self.proxy)
        table.setSortingEnabled(True)
        table.sortByColumn(COLUMNS.index("Started"), Qt.SortOrder.DescendingOrder)
        table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        table.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        table.setAlternatingRowColors(True)
        table.setRootIsDecorated(True)
        table.setUniformRowHeights(True)  # one height for every row: no row's size is asked
        table.setExpandsOnDoubleClick(False)  # a double-click opens a sweep's view, or a run in the form
        table.setAllColumnsShowFocus(True)
        table.setWordWrap(False)
        table.setTextElideMode(Qt.TextElideMode.ElideMiddle)
        header = table.header()
        header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        header.setStretchLastSection(True)
        table.doubleClicked.connect(self._double_clicked)
        return table

    def _build_layout(self) -> None:
        self.refresh_button = QToolButton(objectName="refreshRunsButton")
        self.refresh_button.setDefaultAction(self.refresh_action)
        self.reopen_button = QPushButton(self.tr("Open in form"), objectName="reopenButton")
        self.reopen_button.setToolTip(
            self.tr(
                "Load the selected run's config into the run form, to run it again with changes "
                "(double-click does the same; on a run that is training it watches it live)"
            )
        )
        self.reopen_button.clicked.connect(self.reopen_selected)
        self.resume_button = QPushButton(self.tr("Resume"), objectName="resumeButton")
        self.resume_button.clicked.connect(self.resume_selected)
        self.watch_button = QPushButton(self.tr("Watch live"), objectName="watchButton")
        self.watch_button.clicked.connect(self.watch_selected)
        self.export_button = QPushButton(self.tr("Export"), objectName="exportRunsButton")
        menu = QMenu(self.export_button)
        self.export_csv = menu.addAction(self.tr("Metrics as CSV…"), self.export_metrics_dialog)
        self.export_json = menu.addAction(self.tr("Config as JSON…"), self.export_config_dialog)
        self.export_script = menu.addAction(self.tr("As a Python script…"), self.export_script_dialog)
        self.export_button.setMenu(menu)
        self.scaling_button = QPushButton(self.tr("Scaling study…"), objectName="scalingButton")
        self.scaling_button.setToolTip(
            self.tr("Run the run form's config with 1, 2, 4 … replicas and compare throughput")
        )
        self.scaling_button.clicked.connect(self.scaling_requested)
        self.count = QLabel(objectName="runsCount")
        set_role(self.count, WidgetRole.HINT)
        self.count.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.status = QLabel(objectName="runsStatus")
        set_role(self.status, WidgetRole.HINT)
        self.status.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        bar = QHBoxLayout()
        for widget in (
            self.refresh_button,
            self.watch_button,
            self.reopen_button,
            self.resume_button,
            self.export_button,
        ):
            bar.addWidget(widget)
        bar.addWidget(self.status, 1)
        bar.addWidget(self.scaling_button)
        below = QHBoxLayout()
        below.addWidget(self.tensorboard, 1)
        below.addWidget(self.count)
        top = QWidget()
        top_layout = QVBoxLayout(top)
        top_layout.setContentsMargins(0, 0, 0, 0)
        top_layout.addLayout(bar)
        top_layout.addWidget(self.table, 1)
        top_layout.addLayout(below)
        splitter = QSplitter(Qt.Orientation.Vertical)
        splitter.addWidget(top)
        splitter.addWidget(self.compare)
        splitter.setStretchFactor(1, 1)
        splitter.setSizes([300, 560])
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 6, 6, 0)
        layout.addWidget(splitter)

    # ---- refreshing -------------------------------------------------------------
    def refresh(self) -> None:
        """Read the runs folder again (by the loader's reader process); the table follows as rows arrive."""
        self.loader.request_scan()
        if not self.model.runs:
            self.count.setText(self.tr("reading the runs in {root}…").format(root=self.root))

    def _auto_refresh(self) -> None:
        if not self.loader.scanning:  # a slow disk: never queue scans behind one another
            self.refresh()

    def _on_runs_ready(self, runs: list[RunSummary], done: bool) -> None:
        """Rows read so far (all of them once `done`); rows are updated in place, so the selection stays."""
        self.model.set_runs(runs, complete=done)
        if runs and not self._sized:  # once: later the user's column widths stay as they are
            self._size_columns()
            self._sized = True
        if done:  # the count only at the end: a label that changes size re-lays out the tab, plots and all
            problem = self.loader.problem
            self.count.setText(
                translate(problem) or self.tr("%n run(s) in {root}", "", len(runs)).format(root=self.root)
            )
            self._on_selection()  # the selected runs' files may have changed: their curves are asked again
            self.runs_loaded.emit()

    def _size_columns(self) -> None:
        """Widths from the texts of the first rows (Qt's resizeColumnsToContents asks every cell's size
        through the style sheet: a third of a second for a few hundred rows)."""
        metrics = self.table.fontMetrics()
        header = self.table.header().fontMetrics()
        rows = self.model.runs[:SIZE_FROM_ROWS]
        for column, title in enumerate(COLUMNS):
            texts = [self.model.data(self.model.index(r, column)) or "" for r in range(len(rows))]
            width = (
                max([header.horizontalAdvance(title)] + [metrics.horizontalAdvance(t) for t in texts]) + CELL_PADDING
            )
            if column == 0:
                width = min(width + SWATCH_ROOM, MAX_NAME_WIDTH)  # the compare colour appears on selection
            self.table.setColumnWidth(column, width)

    def summary_of(self, run_dir: Path) -> RunSummary | None:
        """The row of a run as last read."""
        return next((r for r in self.model.runs if r.path == run_dir), None)

    def shutdown(self) -> None:
        """Stop the timer, the loader's thread and its reader process (the window's last word)."""
        self.timer.stop()
        self.loader.stop()

    def set_active_run(self, run_dir: Path | None) -> None:
        """The run this window is training (None: none); it shows as running and cannot be resumed."""
        self._active = run_dir
        self.model.set_active(run_dir)
        self._update_actions()

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        self.refresh()
        self.timer.start()

    def hideEvent(self, event: QHideEvent) -> None:
        self.timer.stop()
        super().hideEvent(event)

    def closeEvent(self, event: QCloseEvent) -> None:
        self.shutdown()
        super().closeEvent(event)

    # ---- selection ------------------------------------------------------------------
    def selected_runs(self) -> list[RunSummary]:
        """The selected runs in the order the table shows them (which also orders their colours)."""
        # from the selection's ranges of whole rows (selectedRows() asks every cell: 30 ms for 300 runs); a
        # trial's place is its sweep's row, then its own
        shown: dict[tuple[int, int], RunSummary] = {}
        for r in self.table.selectionModel().selection():
            parent = r.parent()
            for row in range(r.top(), r.bottom() + 1):
                run = self.model.run_at(self.proxy.mapToSource(self.proxy.index(row, 0, parent)))
                if run is not None:
                    shown[(parent.row(), row) if parent.isValid() else (row, -1)] = run
        return [shown[key] for key in sorted(shown)]

    def select_paths(self, paths: list[Path]) -> None:
        self.table.clearSelection()
        self._select(set(paths))

    def _select(self, paths: set[Path]) -> None:
        selection = QItemSelection()
        for path in paths:
            left = self.proxy.mapFromSource(self.model.index_of(path))
            if left.isValid():
                right = self.proxy.mapFromSource(self.model.index_of(path, self.model.columnCount() - 1))
                selection.select(left, right)
                if left.parent().isValid():  # a trial: its sweep's row unfolds
                    self.table.expand(left.parent())
        self.table.selectionModel().select(selection, self.table.selectionModel().SelectionFlag.Select)

    def _recolour(self, _theme: theme.Theme) -> None:
        """The compared runs' colours come from the theme: draw them (and the table's swatches) again."""
        self._compared = []
        self._on_selection()

    def _on_selection(self) -> None:
        runs = self.selected_runs()
        self.tensorboard.set_runs([r.path for r in runs[:MAX_COMPARED]])  # the runs the plots show
        self._update_actions(runs)
        self.loader.request_curves([r.path for r in runs[:MAX_COMPARED]], self.compare.smoothing_weight())

    def _on_curves_ready(self, loaded: list[tuple[Path, Curves]]) -> None:
        """Draw the first MAX_COMPARED selected runs' curves, unless they are the ones already drawn."""
        runs = [self.summary_of(path) for path, _ in loaded]
        selected = self.selected_runs()
        if any(r is None for r in runs) or [r.path for r in runs] != [r.path for r in selected[:MAX_COMPARED]]:
            return  # the selection moved on meanwhile: its own answer follows
        key = list(loaded)
        same = len(key) == len(self._compared) and all(
            p == q and c is d for (p, c), (q, d) in zip(key, self._compared, strict=True)
        )
        if not same:  # the same runs and the same (cached) curves: the periodic refresh must not redraw
            self._compared = key
            compared = [
                ComparedRun(self._label(r, runs), c, colour(i), r.anatomy)
                for i, (r, (_, c)) in enumerate(zip(runs, loaded, strict=True))
            ]
            self.model.set_colours({r.path: c.colour for r, c in zip(runs, compared, strict=True)})
            self.compare.set_runs(compared)
            problems = [f"{r.name}: {p}" for r, (_, c) in zip(runs, loaded, strict=True) for p in c.problems]
            if problems:
                more = self.tr(" (and %n more)", "", len(problems) - 3) if len(problems) > 3 else ""
                self._set_status("; ".join(problems[:3]) + more, ok=False)
        self.compare.show_selected(len(selected))
        self.curves_shown.emit()

    @staticmethod
    def _label(run: RunSummary, among: list[RunSummary]) -> str:
        """The legend's name of a run; the full directory name where two would read alike."""
        short = display_name(run)
        return run.name if sum(display_name(r) == short for r in among) > 1 else short

    def _update_actions(self, runs: list[RunSummary] | None = None) -> None:
        runs = self.selected_runs() if runs is None else runs
        one = runs[0] if len(runs) == 1 else None
        self.reopen_button.setEnabled(one is not None)
        self.export_json.setEnabled(one is not None)
        self.export_script.setEnabled(one is not None)
        self.export_csv.setEnabled(bool(runs))
        self.export_button.setEnabled(bool(runs))
        self._update_watch(one)
        can_resume = one is not None and one.resumable and self._active is None
        self.resume_button.setEnabled(can_resume)
        if can_resume:
            self.resume_button.setToolTip(self.tr("Continue this run from its last checkpoint"))
        elif self._active is not None:
            self.resume_button.setToolTip(self.tr("A run is in progress; resume when it has ended"))
        elif one is not None and one.holder is not None:
            self.resume_button.setToolTip(
                self.tr("{name} is being trained by {holder}; it can be resumed once that has stopped").format(
                    name=one.name, holder=one.holder.describe()
                )
            )
        else:
            self.resume_button.setToolTip(self.tr("Select one stopped or interrupted run that left a checkpoint"))

    def _update_watch(self, one: RunSummary | None) -> None:
        self.watch_button.setEnabled(watchable(one, self._active))
        if one is not None and one.path == self._active:
            self.watch_button.setToolTip(self.tr("This window's run: the Live tab shows it"))
        elif one is not None and one.holder is not None:
            self.watch_button.setToolTip(
                self.tr("Follow {name} in the Live tab as it trains ({holder})").format(
                    name=one.name, holder=one.holder.describe()
                )
            )
        elif watchable(one, self._active):
            self.watch_button.setToolTip(
                self.tr(
                    "Follow this run in the Live tab: it recorded no end and no process this machine can see holds "
                    "its lock, so it trains on a machine whose lock is not visible here, or it was cut short"
                )
            )
        else:
            self.watch_button.setToolTip(self.tr("Select one run that is training to follow it in the Live tab"))

    # ---- actions ------------------------------------------------------------------
    def watch_selected(self) -> None:
        runs = self.selected_runs()
        if len(runs) == 1 and watchable(runs[0], self._active):
            self.watch_requested.emit(runs[0].path)

    def _double_clicked(self, index: QModelIndex) -> None:
        """A sweep's row opens its view; a run that is training is watched live; any other run's config opens in
        the form."""
        sweep = self.model.sweep_at(self.proxy.mapToSource(index))
        if sweep is not None:
            self.sweep_requested.emit(sweep)
            return
        runs = self.selected_runs()
        if len(runs) == 1 and runs[0].status == RunStatus.RUNNING:
            self.watch_selected()
        else:
            self.reopen_selected()

    def reopen_selected(self) -> None:
        runs = self.selected_runs()
        if len(runs) != 1:
            return
        try:
            self.reopen_requested.emit(load_run_config(runs[0].path))
        except ConfigError as exc:
            self._set_status(
                self.tr("Cannot open the config of {name}: {error}").format(
                    name=runs[0].name, error="; ".join(problem_text(p) for p in exc.problems)
                ),
                ok=False,
            )

    def resume_selected(self) -> None:
        runs = self.selected_runs()
        if len(runs) == 1 and runs[0].resumable and self._active is None:
            self.resume_requested.emit(runs[0].path)

    def export_metrics_dialog(self) -> None:
        runs = self.selected_runs()
        suggested = f"{runs[0].name if len(runs) == 1 else 'runs'}-metrics.csv"
        self._report(
            save_as(
                self,
                self.tr("Export metrics"),
                suggested,
                self.tr("CSV files (*.csv)"),
                lambda path: export_metrics([r.path for r in runs], path),
            )
        )

    def export_config_dialog(self) -> None:
        run = self.selected_runs()[0]
        self._report(
            save_as(
                self,
                self.tr("Export run config"),
                f"{run.name}.json",
                self.tr("Run configs (*.json)"),
                lambda path: export_run_config(run.path, path),
            )
        )

    def export_script_dialog(self) -> None:
        run = self.selected_runs()[0]
        self._report(
            save_as(
                self,
                self.tr("Export as script"),
                f"train_{display_name(run).replace('-', '_')}.py",
                self.tr("Python scripts (*.py)"),
                lambda path: export_script(load_run_config(run.path), path, overwrite=True),
            )
        )

    def _report(self, outcome: tuple[str, bool] | None) -> None:
        if outcome is not None:
            self._set_status(*outcome)

    def _set_status(self, text: str, ok: bool = True) -> None:
        self.status.setText(text)
        set_role(self.status, WidgetRole.HINT if ok else WidgetRole.PROBLEM)
