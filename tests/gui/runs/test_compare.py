"""Compare plots fed from two runs on disk: one colour per run, x-axis modes, smoothing, downsampling."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QColor

from engine.core.runs.history import Curves, load_curves, tensorboard_command
from gui.runs.compare_plot import ComparePlot, Curve
from gui.runs.compare_plots import ComparedRun, ComparePlots, batch_series, epoch_series
from gui.runs.panel import RunsPanel
from tests.gui.history_runs import make_runs, write_run
from tests.gui.runs.panel_helpers import drawn, refresh, select

PLOT_NAMES = ("compareLossPlot", "compareAccuracyPlot", "compareThroughputPlot")


@pytest.fixture
def panel(qtbot, tmp_path: Path) -> tuple[RunsPanel, dict[str, Path]]:
    runs = make_runs(tmp_path / "runs")
    panel = RunsPanel(tmp_path / "runs")
    qtbot.addWidget(panel)
    refresh(qtbot, panel)
    select(qtbot, panel, [runs["done"], runs["failed"]])
    return panel, runs


def curves_of(plot: ComparePlot) -> list[Curve]:
    """The plot's lines, in drawing order."""
    return list(plot.curves.values())


def solid(plot: ComparePlot) -> list[Curve]:
    """The smoothed (or epoch) curves: full opacity, one per run."""
    return [c for c in curves_of(plot) if c.look.pen.color().alpha() == 255]


def test_two_runs_overlay_in_every_plot_with_one_colour_each(panel):
    panel, runs = panel
    compare = panel.compare
    assert {p.objectName() for p in compare.plots.values()} == set(PLOT_NAMES)
    for plot in compare.plots.values():
        lines = solid(plot)
        assert len(lines) == 2 and len(curves_of(plot)) == 4, "smoothed plus faint raw per run"
        assert len({c.look.pen.color().name() for c in lines}) == 2
    loss = compare.plots["loss"]
    assert [len(c.x) for c in solid(loss)] == [4, 6]  # 2 and 3 epochs of 2 steps, in table order
    legend = [label.text for _, label in loss.getPlotItem().legend.items]
    assert legend == ["failed-mirrored-fit", "done-mirrored-fit"]
    colours = [
        panel.model.data(panel.model.index(row, 0), Qt.ItemDataRole.DecorationRole)
        for row in range(panel.model.rowCount())
    ]
    assert sorted(c.name() for c in colours if c is not None) == sorted(c.look.pen.color().name() for c in solid(loss))


def test_a_long_curve_is_drawn_with_a_few_points_per_pixel_column_and_only_what_is_in_view(qtbot):
    n = 100_000
    x = np.arange(1.0, n + 1)
    curves = Curves(list(x), list(x), list(np.sin(x / 50)), [0.5] * n, [1.0] * n, [])
    compare = ComparePlots()
    qtbot.addWidget(compare)
    compare.resize(1000, 700)
    compare.show()
    qtbot.waitExposed(compare)
    compare.set_runs([ComparedRun("long", curves, QColor("red"))])
    drawn(qtbot, compare)
    loss = compare.plots["loss"]
    key, smoothed = next((k, c) for k, c in loss.curves.items() if c.look.pen.color().alpha() == 255)
    columns = loss.getPlotItem().getViewBox().width()
    shown_x, shown_y = loss.shown(key)
    assert len(shown_x) < 2.5 * columns, "about a min/max pair per pixel column"
    assert shown_y.max() == smoothed.y.max(), "a peak is kept"
    loss.getPlotItem().getViewBox().setXRange(1000, 1100, padding=0)
    shown_x, _ = loss.shown(key)
    np.testing.assert_array_equal(shown_x, np.arange(999.0, 1102.0)), "the window's raw points, one beyond each edge"


def test_x_axis_by_epoch_shows_train_and_dashed_validation(qtbot, panel):
    panel, runs = panel
    compare = panel.compare
    compare.x_axis.setCurrentText("epoch")
    drawn(qtbot, compare)
    assert not compare.smoothing.isEnabled()
    loss = compare.plots["loss"]
    lines = curves_of(loss)[2:]  # the done run, second in the table
    assert len(curves_of(loss)) == 4, "train and validation per run"
    np.testing.assert_array_equal(lines[0].x, [1, 2, 3])
    assert lines[0].look.marker == "o" and lines[1].look.marker == "s"
    assert lines[1].look.pen.style() == Qt.PenStyle.DashLine
    np.testing.assert_allclose(lines[1].y, [1.1, 0.55, 1.1 / 3])
    throughput = curves_of(compare.plots["examples_per_sec"])
    assert len(throughput) == 2, "throughput has no validation"
    assert loss.getPlotItem().getAxis("bottom").labelText == "epoch"


def test_x_axis_by_wall_time(qtbot, panel):
    panel, runs = panel
    panel.compare.x_axis.setCurrentText("wall time")
    drawn(qtbot, panel.compare)
    first = solid(panel.compare.plots["accuracy"])[1]
    np.testing.assert_allclose(first.x, load_curves(runs["done"]).time)


def test_smoothing_zero_shows_the_raw_curve_only(qtbot, panel):
    panel, runs = panel
    panel.compare.smoothing.setValue(0)
    drawn(qtbot, panel.compare)
    lines = curves_of(panel.compare.plots["loss"])
    assert len(lines) == 2
    np.testing.assert_allclose(lines[1].y, load_curves(runs["done"]).loss)
    assert panel.compare.smoothing_value.text() == "0.00"


def test_smoothing_weighs_an_event_by_the_steps_it_covers():
    """A fit run reports one point per several steps; its smoothing must match a step-by-step run."""
    per_step = Curves(
        global_step=list(range(1, 11)),
        time=[0.0] * 10,
        loss=[0.0] + [1.0] * 9,
        accuracy=[0.0] * 10,
        examples_per_sec=[0.0] * 10,
        epochs=[],
    )
    grouped = Curves(
        global_step=[1, 10], time=[0.0, 0.0], loss=[0.0, 1.0], accuracy=[0.0] * 2, examples_per_sec=[0.0] * 2, epochs=[]
    )
    _, _, a = batch_series(per_step, "loss", "step", 0.9)
    _, _, b = batch_series(grouped, "loss", "step", 0.9)
    assert b[-1] == pytest.approx(a[-1])


def test_epoch_series_without_validation():
    curves = Curves(
        global_step=[],
        time=[],
        loss=[],
        accuracy=[],
        examples_per_sec=[],
        epochs=[{"epoch": 1.0, "loss": 0.5}, {"epoch": 2.0, "loss": 0.25}],
    )
    x, y, val = epoch_series(curves, "loss")
    np.testing.assert_array_equal(x, [1, 2])
    assert val is None


def test_no_selection_empties_the_plots_and_says_what_to_do(qtbot):
    compare = ComparePlots()
    qtbot.addWidget(compare)
    assert all(not curves_of(p) for p in compare.plots.values())
    assert "Select runs" in compare.hint.text()


def test_a_refresh_redraws_only_when_a_compared_run_changed(qtbot, panel, monkeypatch):
    panel, runs = panel
    redrawn: list[int] = []
    monkeypatch.setattr(panel.compare, "set_runs", lambda compared: redrawn.append(len(compared)))
    with qtbot.waitSignal(panel.curves_shown, timeout=20_000):
        refresh(qtbot, panel)
    assert redrawn == [], "unchanged runs are not drawn again"
    write_run(runs["failed"].parent, runs["failed"].name, None, 1, t0=3000.0)  # the run's files grew
    with qtbot.waitSignal(panel.curves_shown, timeout=20_000):
        refresh(qtbot, panel)
    assert redrawn == [2]


def test_many_selected_runs_plot_only_the_first_few_and_say_so(qtbot, tmp_path: Path):
    """300 selected runs: the plots show the first MAX_COMPARED (726 pyqtgraph items built on the GUI thread
    froze the window for seconds), the note says how many of how many, and only those runs'
    curves are read."""
    from gui.runs.compare_plots import MAX_COMPARED

    root = tmp_path / "runs"
    for i in range(300):
        write_run(root, f"2024{i // 28 % 12 + 1:02d}{i % 28 + 1:02d}-120000-run{i}-mirrored-fit", None, 1, t0=1e3 + i)
    panel = RunsPanel(root)  # not shown: its refreshes every few seconds would ask for curves again
    qtbot.addWidget(panel)
    refresh(qtbot, panel)
    asked: list[int] = []
    request = panel.loader.request_curves
    panel.loader.request_curves = lambda paths, smoothing: asked.append(len(paths)) or request(paths, smoothing)
    select(qtbot, panel, [r.path for r in panel.model.runs])
    assert len(panel.selected_runs()) == 300
    assert asked == [MAX_COMPARED] and len(panel.compare.runs) == MAX_COMPARED
    items = sum(len(curves_of(p)) for p in (*panel.compare.plots.values(), panel.compare.gpu_plot))
    assert items <= 2 * len(PLOT_NAMES) * MAX_COMPARED
    note = panel.compare.limit_note
    assert note.isVisibleTo(panel) and note.text() == f"showing {MAX_COMPARED} of 300 selected runs"
    shown = [r.path for r in panel.selected_runs()[:MAX_COMPARED]]
    assert panel.tensorboard.line.text() == tensorboard_command(shown), "the command opens the runs shown"
    select(qtbot, panel, [panel.model.runs[0].path])
    assert not note.isVisibleTo(panel)


def test_the_plots_are_drawn_a_few_runs_per_turn_of_the_event_loop(qtbot, panel, monkeypatch):
    """A plot's new lines cost the GUI thread time: drawn all at once, the window stalled for the sum. The
    event loop runs between batches of at most RUNS_PER_TURN runs (raw and smoothed curve each)."""
    from gui.runs.compare_plots import RUNS_PER_TURN

    panel, _ = panel
    compare = panel.compare
    log: list[str] = []
    add = ComparePlot.add
    monkeypatch.setattr(
        ComparePlot, "add", lambda plot, curves, *a: log.extend(["item"] * len(curves)) or add(plot, curves, *a)
    )
    compare._next.timeout.connect(lambda: log.append("turn"))  # after the timer's drawing slot
    compare.set_runs(compare.runs * 4)  # 8 runs
    assert log == [] and compare.drawing, "nothing is built before the event loop runs"
    drawn(qtbot, compare)
    batches = "".join("." if entry == "item" else "|" for entry in log).split("|")
    assert max(len(b) for b in batches) <= 2 * RUNS_PER_TURN
    assert log.count("item") == len(PLOT_NAMES) * 8 * 2


@pytest.mark.parametrize("x_axis", ["step", "epoch"])
def test_a_plot_takes_its_range_from_every_run_at_its_first_turn(qtbot, panel, x_axis):
    """Drawn a few runs per turn, a plot whose range grew with each turn laid out its axes (tick texts, grid)
    again at every turn's paint; its range holds every run's data (and its markers) from the first turn on."""
    panel, runs = panel
    compare = panel.compare
    compare.x_axis.setCurrentIndex(compare.x_axis.findData(x_axis))
    drawn(qtbot, compare)
    short, long = (next(r for r in compare.runs if r.label.startswith(name)) for name in ("failed", "done"))
    view = compare.plots["loss"].getPlotItem().getViewBox()
    bounds: list[list[list[float]]] = []
    compare._next.timeout.connect(lambda: bounds.append(view.childrenBounds()) if compare._to_draw[:1] else None)
    compare.set_runs([short] * 4 + [long] * 4)  # the longer run comes in the loss plot's second turn
    drawn(qtbot, compare)
    x, loss, _ = (
        epoch_series(long.curves, "loss") if x_axis == "epoch" else batch_series(long.curves, "loss", x_axis, 0)
    )
    (x_lo, x_hi), (y_lo, y_hi) = bounds[0]  # a curve's bounds reach a little past its points (its pen)
    assert x_lo <= 1 and x_hi == pytest.approx(x.max(), rel=0.05)
    assert y_lo <= loss.min() and y_hi >= loss.max()
    assert view.childrenBounds() == bounds[0], "the range did not move after the first turn"


def pixels_of(plot: ComparePlot, colour: QColor) -> int:
    image = plot.grab().toImage()
    rgb = colour.rgb()
    return sum(image.pixel(x, y) == rgb for x in range(image.width()) for y in range(0, image.height(), 2))


def test_the_lines_are_pixels_under_the_legend_and_a_legend_click_hides_a_run(qtbot, panel):
    """The lines are drawn into an image painted through the plot's scene: pyqtgraph's legend stays over it,
    and clicking a run's entry hides that run's lines, as it hid its curve."""
    panel, _ = panel
    panel.resize(1200, 800)
    panel.show()
    qtbot.waitExposed(panel)
    loss = panel.compare.plots["loss"]
    drawn(qtbot, panel.compare)
    assert loss.layer.screen is None, "painted through the scene, so the legend is seen"
    colours = {run.label: run.colour for run in panel.compare.runs}
    assert all(pixels_of(loss, c) > 20 for c in colours.values())
    sample, label = loss.getPlotItem().legend.items[0]
    sample.item.setVisible(False)  # what a click on the entry does
    assert pixels_of(loss, colours[label.text]) == 0
    other = next(c for name, c in colours.items() if name != label.text)
    assert pixels_of(loss, other) > 20
