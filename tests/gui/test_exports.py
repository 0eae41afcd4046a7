"""Exports written and read back: plots (PNG, SVG), metrics CSV, config JSON, scripts, the TensorBoard command."""

from __future__ import annotations

import csv
import xml.etree.ElementTree as ElementTree
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QFileDialog

from engine.core import events as ev
from engine.core.config import RunConfig
from engine.core.runs.history import tensorboard_command
from gui.exports import export_plot
from gui.live.plots import TrainingPlots
from gui.runs.panel import RunsPanel
from tests.gui.history_runs import make_runs
from tests.gui.runs.panel_helpers import refresh

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
SVG_ROOT = "{http://www.w3.org/2000/svg}svg"


def save_dialog_answers(monkeypatch: pytest.MonkeyPatch, path: Path, chosen_filter: str = "") -> list[str]:
    """Answer every save dialog with `path`; returns the suggested names it was shown."""
    suggested: list[str] = []

    def answer(parent, title, name, filters, *args, **kwargs):
        suggested.append(name)
        return str(path), chosen_filter

    monkeypatch.setattr(QFileDialog, "getSaveFileName", staticmethod(answer))
    return suggested


@pytest.fixture
def runs(tmp_path: Path) -> dict[str, Path]:
    return make_runs(tmp_path / "runs")


@pytest.fixture
def panel(qtbot, runs) -> RunsPanel:
    panel = RunsPanel(runs["done"].parent)
    qtbot.addWidget(panel)
    refresh(qtbot, panel)
    return panel


@pytest.fixture
def live_plots(qtbot) -> TrainingPlots:
    plots = TrainingPlots()
    qtbot.addWidget(plots)
    plots.add_events(
        [
            ev.BatchEnd(epoch=1, step=i, global_step=i, loss=1 / i, accuracy=0.5, examples_per_sec=10.0)
            for i in range(1, 20)
        ]
    )
    plots.redraw_all()
    plots.resize(800, 600)
    plots.show()
    qtbot.waitExposed(plots)
    return plots


def test_a_live_plot_exports_to_png_and_svg(live_plots: TrainingPlots, tmp_path: Path):
    png = export_plot(live_plots.loss, tmp_path / "loss.png")
    assert png.read_bytes()[:8] == PNG_MAGIC
    svg = export_plot(live_plots.loss, tmp_path / "loss.svg")
    root = ElementTree.parse(svg).getroot()
    assert root.tag == SVG_ROOT
    assert len(root.findall(".//{http://www.w3.org/2000/svg}path")) > 0
    with pytest.raises(ValueError, match="png or .svg"):
        export_plot(live_plots.loss, tmp_path / "loss.jpg")
    with pytest.raises(FileNotFoundError):
        export_plot(live_plots.loss, tmp_path / "no-such-folder" / "loss.png")


def test_export_plot_from_the_live_plots_context_menu_takes_the_chosen_format(make_window, tmp_path, monkeypatch):
    window = make_window()
    suggested = save_dialog_answers(monkeypatch, tmp_path / "accuracy", "SVG vector image (*.svg)")
    actions = window.plots.accuracy.scene().contextMenu
    assert [a.text() for a in actions] == ["Export plot…"], "replaces pyqtgraph's generic Export…"
    actions[0].trigger()
    assert suggested == ["accuracy.png"]
    assert ElementTree.parse(tmp_path / "accuracy.svg").getroot().tag == SVG_ROOT
    assert window.statusBar().currentMessage() == f"Wrote {tmp_path / 'accuracy.svg'}"


def test_a_compare_plot_exports_too(panel: RunsPanel, runs, tmp_path: Path, monkeypatch):
    panel.select_paths([runs["done"], runs["stopped"]])
    save_dialog_answers(monkeypatch, tmp_path / "compare.png")
    panel.compare.plots["loss"].scene().contextMenu[0].trigger()
    assert (tmp_path / "compare.png").read_bytes()[:8] == PNG_MAGIC


def test_metrics_of_several_runs_in_one_csv(panel: RunsPanel, runs, tmp_path: Path, monkeypatch):
    panel.select_paths([runs["done"], runs["stopped"]])
    save_dialog_answers(monkeypatch, tmp_path / "metrics.csv")
    panel.export_csv.trigger()
    with open(tmp_path / "metrics.csv", newline="") as f:
        rows = list(csv.DictReader(f))
    assert [r["run"] for r in rows] == [runs["stopped"].name] + [runs["done"].name] * 3
    assert float(rows[-1]["loss"]) == pytest.approx(1 / 3)
    assert panel.status.text() == f"Wrote {tmp_path / 'metrics.csv'}"


def test_a_runs_config_as_json(panel: RunsPanel, runs, tmp_path: Path, monkeypatch):
    panel.select_paths([runs["failed"]])
    suggested = save_dialog_answers(monkeypatch, tmp_path / "again.json")
    panel.export_json.trigger()
    assert suggested == [f"{runs['failed'].name}.json"]
    assert RunConfig.load(tmp_path / "again.json") == RunConfig.load(runs["failed"] / "config.json")


def test_a_runs_config_as_a_script(panel: RunsPanel, runs, tmp_path: Path, monkeypatch):
    panel.select_paths([runs["done"]])
    save_dialog_answers(monkeypatch, tmp_path / "train_done")  # no suffix typed: the filter's is added
    panel.export_script.trigger()
    source = (tmp_path / "train_done.py").read_text()
    compile(source, "train_done.py", "exec")
    assert "'loop': 'fit'" in source and "'epochs': 3" in source


def test_the_forms_config_as_a_script(make_window, tmp_path: Path, monkeypatch):
    window = make_window()
    window.form.epochs.setValue(9)
    save_dialog_answers(monkeypatch, tmp_path / "form.py")
    window.export_form_script()
    assert "'epochs': 9" in (tmp_path / "form.py").read_text()
    assert window.statusBar().currentMessage() == f"Wrote {tmp_path / 'form.py'}"


def test_single_run_exports_need_exactly_one_run(panel: RunsPanel, runs):
    panel.select_paths([runs["done"], runs["stopped"]])
    assert panel.export_csv.isEnabled()
    assert not panel.export_json.isEnabled() and not panel.export_script.isEnabled()
    panel.select_paths([])
    assert not panel.export_button.isEnabled()


def test_a_failed_export_says_why(panel: RunsPanel, runs, tmp_path: Path, monkeypatch):
    panel.select_paths([runs["done"]])
    save_dialog_answers(monkeypatch, tmp_path / "missing-folder" / "m.csv")
    panel.export_csv.trigger()
    assert panel.status.text().startswith("Export failed:") and panel.status.property("role") == "problem"


def test_tensorboard_command_for_the_selection_is_copied(qtbot, panel: RunsPanel, runs):
    box = panel.tensorboard
    assert box.line.text() == "" and not box.copy.isEnabled()
    panel.select_paths([runs["done"], runs["killed"]])
    expected = tensorboard_command([runs["killed"], runs["done"]])
    assert box.line.text() == expected and box.line.isReadOnly()
    qtbot.mouseClick(box.copy, Qt.MouseButton.LeftButton)
    assert QGuiApplication.clipboard().text() == expected
