"""The Runs tab: the table read from run directories, refresh, reopen and resume through the window."""

from __future__ import annotations

import json
import os
import shutil
import sys
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QKeySequence
from PySide6.QtWidgets import QTabWidget, QTreeView

from engine.core import events as ev
from engine.core.config import DataConfig, RunConfig
from engine.core.protocol.commands import resume_command
from engine.core.protocol.paths import RunPaths
from engine.core.runs.runlock import RunLock
from engine.core.sweep import SweepPaths
from gui.form.device_probe import DeviceInfo, ProbeResult
from gui.main_window import MainWindow
from gui.runs.panel import RunsPanel
from gui.runs.table_model import COLUMNS, SORT_ROLE
from tests.gui.history_runs import make_runs, write_run
from tests.gui.runs.panel_helpers import refresh

HISTORY_SCRIPT = Path(__file__).parents[1] / "history_runs.py"
CPU_ONLY = ProbeResult(tensorflow="2.21.0", devices=(DeviceInfo("CPU:0", "CPU", "Xeon", 24000, 2),))


@pytest.fixture
def runs(tmp_path: Path) -> dict[str, Path]:
    return make_runs(tmp_path / "runs")


@pytest.fixture
def panel(qtbot, runs: dict[str, Path]) -> RunsPanel:
    panel = RunsPanel(runs["done"].parent)
    qtbot.addWidget(panel)
    refresh(qtbot, panel)
    return panel


def cell(panel: RunsPanel, row: int, column: str, role: int = Qt.ItemDataRole.DisplayRole):
    return panel.proxy.index(row, COLUMNS.index(column)).data(role)


def test_every_run_is_listed_newest_first_with_its_numbers(panel: RunsPanel, runs):
    assert panel.proxy.rowCount() == 4
    assert [cell(panel, r, "Status") for r in range(4)] == ["interrupted", "failed", "stopped", "completed"]
    done = 3
    assert cell(panel, done, "Run") == "done-mirrored-fit"
    assert cell(panel, done, "Run", Qt.ItemDataRole.ToolTipRole) == str(runs["done"])
    assert (cell(panel, done, "Strategy"), cell(panel, done, "Replicas"), cell(panel, done, "Loop")) == (
        "mirrored",
        "2",
        "fit",
    )
    assert cell(panel, done, "Epochs") == "3/3"
    assert cell(panel, done, "Loss") == f"{1 / 3:.4f}" and cell(panel, done, "Val loss") == f"{1.1 / 3:.4f}"
    assert cell(panel, done, "Duration") == "0:10"
    assert panel.count.text() == f"4 runs in {runs['done'].parent}"


def test_a_failed_run_explains_itself_in_the_tooltip(panel: RunsPanel):
    for column in ("Run", "Status", "Loss"):
        assert cell(panel, 1, column, Qt.ItemDataRole.ToolTipRole) == "Failed: loss became nan"


def test_columns_sort_by_value(panel: RunsPanel):
    panel.table.sortByColumn(COLUMNS.index("Epochs"), Qt.SortOrder.AscendingOrder)
    epochs = [cell(panel, r, "Epochs") for r in range(4)]
    assert epochs[-1] == "3/3" and epochs[0].startswith("1/")
    panel.table.sortByColumn(COLUMNS.index("Loss"), Qt.SortOrder.AscendingOrder)
    losses = [cell(panel, r, "Loss", SORT_ROLE) for r in range(4)]
    assert losses == sorted(losses)


def test_f5_finds_a_run_started_elsewhere_and_keeps_the_selection(qtbot, panel: RunsPanel, runs):
    panel.select_paths([runs["done"]])
    assert panel.refresh_action.shortcut() == QKeySequence(Qt.Key.Key_F5)
    write_run(runs["done"].parent, "20240102-090000-from-the-cli", None, 1, t0=9000.0)
    with qtbot.waitSignal(panel.runs_loaded, timeout=20_000):
        panel.refresh_action.trigger()
    assert panel.proxy.rowCount() == 5
    assert cell(panel, 0, "Run") == "from-the-cli"
    assert [r.path for r in panel.selected_runs()] == [runs["done"]]


def test_refreshes_itself_while_visible(qtbot, panel: RunsPanel, runs):
    panel.timer.setInterval(50)
    panel.show()
    assert panel.timer.isActive()
    write_run(runs["done"].parent, "20240102-090000-late", None, 1, t0=9000.0)
    qtbot.waitUntil(lambda: panel.proxy.rowCount() == 5, timeout=5000)
    panel.hide()
    assert not panel.timer.isActive()


def test_a_run_that_changed_on_disk_is_read_again(qtbot, panel: RunsPanel, runs):
    killed = runs["killed"]
    assert cell(panel, 0, "Status") == "interrupted"
    write_run(killed.parent, killed.name, None, 2, t0=4000.0)  # the run went on: events and metrics grew
    refresh(qtbot, panel)
    assert cell(panel, 0, "Epochs") == "2/3"


def test_resume_is_enabled_only_for_a_resumable_run(panel: RunsPanel, runs):
    for name, resumable in (("done", False), ("stopped", True), ("failed", False), ("killed", False)):
        panel.select_paths([runs[name]])
        assert panel.resume_button.isEnabled() is resumable, name
    panel.select_paths([runs["stopped"], runs["done"]])
    assert not panel.resume_button.isEnabled()
    panel.select_paths([runs["stopped"]])
    panel.set_active_run(runs["killed"])
    assert not panel.resume_button.isEnabled(), "one run at a time"
    assert cell(panel, 0, "Status") == "running"


def test_reopen_emits_the_runs_config(qtbot, panel: RunsPanel, runs):
    panel.select_paths([runs["failed"]])
    with qtbot.waitSignal(panel.reopen_requested) as signal:
        qtbot.mouseClick(panel.reopen_button, Qt.MouseButton.LeftButton)
    assert signal.args[0] == RunConfig(epochs=3, loop="fit")


def test_watch_live_is_offered_for_a_run_that_may_still_train(qtbot, panel: RunsPanel, runs):
    """A run with no end recorded may train where its lock cannot be seen; a finished one is not watched, and
    a double-click on it opens its config, as before."""
    panel.select_paths([runs["killed"]])
    assert panel.watch_button.isEnabled()
    with qtbot.waitSignal(panel.watch_requested) as signal:
        qtbot.mouseClick(panel.watch_button, Qt.MouseButton.LeftButton)
    assert signal.args[0] == runs["killed"]
    panel.select_paths([runs["done"]])
    assert not panel.watch_button.isEnabled() and "training" in panel.watch_button.toolTip()
    row = panel.table.visualRect(panel.table.selectionModel().selectedRows()[0]).center()
    with qtbot.waitSignal(panel.reopen_requested):
        qtbot.mouseClick(panel.table.viewport(), Qt.MouseButton.LeftButton, pos=row)
        qtbot.mouseDClick(panel.table.viewport(), Qt.MouseButton.LeftButton, pos=row)


def test_the_window_has_live_and_runs_tabs(make_window):
    window = make_window()
    tabs = window.findChild(QTabWidget, "mainTabs")
    assert [tabs.tabText(i) for i in range(tabs.count())][:2] == ["Live", "Runs"]
    assert window.findChild(QTreeView, "runsTable") is window.runs.table


def test_reopen_loads_the_form_and_shows_the_live_tab(qtbot, make_window, runs):
    window = make_window()
    window.tabs.setCurrentWidget(window.runs)
    refresh(qtbot, window.runs)
    window.runs.select_paths([runs["done"]])
    window.runs.reopen_selected()
    assert window.form.epochs.value() == 3 and window.form.loop.currentText() == "fit"
    assert window.tabs.currentWidget() is window.live_tab


def test_resume_starts_the_worker_with_resume(qtbot, make_window, fake_trainer_command, runs):
    commands: list[list[str]] = []

    def resume_for(run_dir: Path, workers: int) -> list[str]:
        commands.append(resume_command(run_dir, workers))
        return fake_trainer_command("normal", "--run-dir", str(run_dir), "--delay", "0")

    window = make_window(resume_command_for=resume_for)
    window.apply_probe(CPU_ONLY)
    refresh(qtbot, window.runs)
    window.runs.select_paths([runs["stopped"]])
    qtbot.mouseClick(window.runs.resume_button, Qt.MouseButton.LeftButton)
    assert window.runner is not None and not window.runs.resume_button.isEnabled()
    assert commands == [[sys.executable, "-m", "engine.train.worker", "--resume", str(runs["stopped"])]]
    qtbot.waitUntil(lambda: window.runner is None, timeout=30_000)
    assert "completed" in window.status_labels["state"].text()
    assert "resuming run" in window.log.shown_text()


def test_a_run_of_the_window_appears_when_it_finishes(qtbot, tmp_path: Path):
    window = MainWindow(
        start_probe=False,
        runs_dir=tmp_path / "runs",
        command_for=lambda config, run_dir: [sys.executable, str(HISTORY_SCRIPT), str(run_dir)],
    )
    qtbot.addWidget(window)
    window.apply_probe(CPU_ONLY)
    refresh(qtbot, window.runs)
    assert window.runs.proxy.rowCount() == 0
    with qtbot.waitSignal(window.runs.runs_loaded, timeout=30_000):  # the window refreshes when its run ends
        window.start_run()
        qtbot.waitUntil(lambda: window.runner is None, timeout=30_000)
    assert window.runs.proxy.rowCount() == 1
    assert cell(window.runs, 0, "Status") == "completed"
    window.shutdown()


@pytest.mark.slow
def test_a_real_training_run_appears_in_the_table(qtbot, tmp_path: Path):
    window = MainWindow(start_probe=False, runs_dir=tmp_path / "runs")
    qtbot.addWidget(window)
    window.apply_probe(CPU_ONLY)
    window.form.set_config(
        RunConfig(
            strategy="one_device",
            devices=("CPU:0",),
            loop="custom",
            epochs=1,
            global_batch_size=32,
            data=DataConfig(num_samples=256),
        )
    )
    window.tabs.setCurrentWidget(window.runs)
    with qtbot.waitSignal(window.runs.runs_loaded, timeout=180_000):
        window.start_run()
        qtbot.waitUntil(lambda: window.runner is None, timeout=180_000)
    assert window.runs.proxy.rowCount() == 1, window.log.tail()
    assert cell(window.runs, 0, "Status") == "completed"
    assert cell(window.runs, 0, "Epochs") == "1/1" and cell(window.runs, 0, "Loss")
    window.shutdown()


def test_a_cluster_run_resumes_as_a_cluster_of_as_many_workers(tmp_path):
    assert resume_command(tmp_path, 3) == [
        sys.executable,
        "-m",
        "engine.cli",
        "cluster",
        "launch",
        "--workers",
        "3",
        "--resume",
        str(tmp_path),
        "--events",
    ]


def test_one_broken_run_shows_as_broken_and_never_hides_the_others(qtbot, runs):
    """A hand-edited event ("time": "yesterday") and a run whose files cannot be read at all."""
    events = runs["stopped"] / "events.jsonl"
    lines = events.read_text().splitlines()
    raw = json.loads(lines[0])
    lines[0] = json.dumps({**raw, "time": "yesterday"})
    events.write_text("\n".join(lines) + "\n")
    broken = runs["done"].parent / "20240101-140000-broken-mirrored-fit"
    broken.mkdir()
    (broken / "config.json").write_text("{}")
    (broken / "events.jsonl").mkdir()  # cannot be read as a file
    panel = RunsPanel(runs["done"].parent)
    qtbot.addWidget(panel)
    panel.show()
    qtbot.waitUntil(lambda: panel.proxy.rowCount() == 5 and not panel.loader.scanning, timeout=20_000)
    assert panel.timer.isActive(), "auto-refresh runs"
    statuses = {cell(panel, r, "Run"): cell(panel, r, "Status") for r in range(5)}
    assert statuses["broken-mirrored-fit"] == "unreadable"
    assert statuses["stopped-mirrored-fit"] == "stopped"
    row = next(r for r in range(5) if cell(panel, r, "Run") == "broken-mirrored-fit")
    assert "Cannot read" in cell(panel, row, "Status", Qt.ItemDataRole.ToolTipRole)
    row = next(r for r in range(5) if cell(panel, r, "Run") == "stopped-mirrored-fit")
    assert "not events" in cell(panel, row, "Status", Qt.ItemDataRole.ToolTipRole)
    panel.shutdown()


def test_a_text_cell_in_metrics_is_named_and_the_rest_is_plotted(qtbot, panel: RunsPanel, runs):
    metrics = runs["done"] / "metrics.csv"
    lines = metrics.read_text().splitlines()
    cells = lines[2].split(",")
    cells[1] = "abc"
    lines[2] = ",".join(cells)
    metrics.write_text("\n".join(lines) + "\n")
    refresh(qtbot, panel)
    with qtbot.waitSignal(panel.curves_shown, timeout=20_000):
        panel.select_paths([runs["done"]])
    assert "metrics.csv line 3: loss holds 'abc'" in panel.status.text()
    assert len(panel.compare.runs[0].curves.epochs) == 3  # the row's other cells still count


def test_a_run_another_process_trains_is_running_and_offers_no_resume(qtbot, panel: RunsPanel, runs):
    with RunLock.acquire(RunPaths(runs["stopped"]), "tfdd train") as lock:
        refresh(qtbot, panel)
        row = next(r for r in range(4) if cell(panel, r, "Run") == "stopped-mirrored-fit")
        assert cell(panel, row, "Status") == "running"
        assert f"pid {os.getpid()}" in cell(panel, row, "Status", Qt.ItemDataRole.ToolTipRole)
        panel.select_paths([runs["stopped"]])
        assert not panel.resume_button.isEnabled() and f"pid {os.getpid()}" in panel.resume_button.toolTip()
        assert lock.fd >= 0
    refresh(qtbot, panel)
    panel.select_paths([runs["stopped"]])
    assert panel.resume_button.isEnabled()


def test_history_is_read_by_another_process(qtbot, runs, monkeypatch):
    """No parsing in the window's process: a thread of it that parses holds the interpreter lock, and the
    window waits for it whenever a busy machine suspends that thread."""
    from engine.core.runs.history import RunHistory
    from gui.runs.loader import READER_MODULE

    read_here: list[str] = []
    monkeypatch.setattr(RunHistory, "summary", lambda self, d: read_here.append("summary"))
    monkeypatch.setattr(RunHistory, "curves", lambda self, d: read_here.append("curves"))
    panel = RunsPanel(runs["done"].parent)
    qtbot.addWidget(panel)
    refresh(qtbot, panel)
    with qtbot.waitSignal(panel.curves_shown, timeout=20_000):
        panel.select_paths([runs["done"]])
    assert read_here == [] and panel.model.rowCount() == 4
    assert len(panel.compare.runs[0].curves.global_step) == 6
    pid = panel.loader.reader_pid
    assert pid is not None and pid != os.getpid()
    assert READER_MODULE in Path(f"/proc/{pid}/cmdline").read_bytes().decode().split("\0")
    panel.shutdown()


def test_a_refresh_of_many_runs_keeps_every_row_while_it_reads(qtbot, tmp_path: Path):
    """Rows arrive a step at a time (PROGRESS_ROWS): a refresh must not remove the rows it has not reached yet
    (the table emptied and refilled every few seconds, losing the selection, and each time cost the window
    hundreds of milliseconds)."""
    from gui.runs.loader import PROGRESS_ROWS

    root = tmp_path / "runs"
    for i in range(3 * PROGRESS_ROWS):
        write_run(root, f"202401{i % 28 + 1:02d}-1200{i:02d}-run{i}-mirrored-fit", None, 1, t0=1000.0 + i)
    panel = RunsPanel(root)
    qtbot.addWidget(panel)
    refresh(qtbot, panel)
    oldest = panel.model.runs[-1].path
    panel.select_paths([oldest])
    removed: list[int] = []
    panel.model.rowsRemoved.connect(lambda _parent, first, last: removed.append(last - first + 1))
    refresh(qtbot, panel)
    assert removed == [] and panel.model.rowCount() == 3 * PROGRESS_ROWS
    assert [r.path for r in panel.selected_runs()] == [oldest]
    shutil.rmtree(panel.model.runs[0].path)  # a run gone is removed, once the whole folder is read
    refresh(qtbot, panel)
    assert removed == [1] and panel.model.rowCount() == 3 * PROGRESS_ROWS - 1


def test_a_reader_process_that_died_is_started_again(qtbot, panel: RunsPanel, runs):
    import signal

    first = panel.loader.reader_pid
    os.kill(first, signal.SIGKILL)
    # dead, or already found dead (and closed) by the tab's periodic refresh
    qtbot.waitUntil(lambda: (p := panel.loader._reader.process) is None or p.poll() is not None, timeout=10_000)
    refresh(qtbot, panel)
    assert panel.loader.reader_pid not in (None, first) and panel.model.rowCount() == 4
    assert panel.loader.problem == ""


def test_a_sweeps_trials_are_grouped_under_one_collapsible_sweep_row(qtbot, runs):
    root = runs["done"].parent
    sweep = root / "20240102-100000-sweep-lr"
    sweep.mkdir()
    SweepPaths(sweep).spec.write_text(json.dumps({"space": {"objective": "val_loss"}}), encoding="utf-8")
    trials = [
        write_run(
            sweep, f"trial-{n:03d}", ev.RunFinished(status="completed", epochs_completed=k, run_dir=""), k, 5e3 + n
        )
        for n, k in enumerate((1, 3, 2))
    ]
    panel = RunsPanel(root)
    qtbot.addWidget(panel)
    refresh(qtbot, panel)
    assert panel.proxy.rowCount() == 5  # four runs and one sweep, newest first
    assert cell(panel, 0, "Run") == "sweep-lr: 3 trials"
    assert cell(panel, 0, "Val loss") == f"{1.1 / 3:.4f}"  # the best trial's objective
    assert "trial-001" in cell(panel, 0, "Val loss", Qt.ItemDataRole.ToolTipRole)
    group = panel.proxy.index(0, 0)
    assert panel.proxy.rowCount(group) == 3 and not panel.table.isExpanded(group)
    assert panel.proxy.index(0, COLUMNS.index("Run"), group).data() == "trial-002"  # newest trial first
    panel.select_paths([trials[1]])  # a trial is a run: selected, it can be reopened, exported and compared
    assert panel.table.isExpanded(group) and [r.path for r in panel.selected_runs()] == [trials[1]]
    assert panel.reopen_button.isEnabled() and panel.export_script.isEnabled()
    panel.table.selectionModel().select(group, panel.table.selectionModel().SelectionFlag.ClearAndSelect)
    assert panel.selected_runs() == [] and not panel.reopen_button.isEnabled()
    with qtbot.waitSignal(panel.sweep_requested) as opened:
        panel.table.doubleClicked.emit(group)  # the sweep row opens the sweep's view
    assert opened.args == [sweep]


def test_a_trial_its_sweep_pruned_shows_as_pruned_with_why_and_a_trial_stopped_by_hand_as_stopped(qtbot, runs):
    from engine.core.messages import msg
    from engine.core.sweep import note_trial_end

    sweep = runs["done"].parent / "20240102-100000-sweep-lr"
    sweep.mkdir()
    SweepPaths(sweep).spec.write_text(json.dumps({"space": {"objective": "val_loss"}}), encoding="utf-8")
    stopped = ev.RunFinished(status="stopped", epochs_completed=2, run_dir="", time=5e3 + 20)
    by_hand, pruned = (write_run(sweep, f"trial-{n:03d}", stopped, 2, 5e3) for n in (0, 1))
    why = msg("its {objective} is not a number at epoch {epoch}: it diverged", objective="val_loss", epoch=2)
    note_trial_end(pruned, ev.SweepTrial(number=1, state="pruned", params={}, epoch=2, message=why, time=9e9))
    panel = RunsPanel(runs["done"].parent)
    qtbot.addWidget(panel)
    refresh(qtbot, panel)
    group = panel.proxy.index(0, 0)
    rows = {panel.proxy.index(r, 0, group).data(): r for r in range(panel.proxy.rowCount(group))}
    status = {name: panel.proxy.index(r, COLUMNS.index("Status"), group) for name, r in rows.items()}
    assert status["trial-001"].data() == "pruned" and status["trial-000"].data() == "stopped"
    assert why in status["trial-001"].data(Qt.ItemDataRole.ToolTipRole)
    duration = {name: panel.proxy.index(r, COLUMNS.index("Duration"), group).data() for name, r in rows.items()}
    assert duration["trial-001"] == duration["trial-000"]  # the sweep's word is no training time
    assert not panel.model.run_at(panel.proxy.mapToSource(panel.proxy.index(rows["trial-001"], 0, group))).resumable
