"""The live step anatomy: a trainer's step_anatomy events, through the runner, as a stacked chart on the plots'
x-axis and a verdict in the window's language."""

from __future__ import annotations

import numpy as np
import pytest
from PySide6.QtCore import QCoreApplication

from engine.core import events as ev
from gui import i18n
from gui.main_window import MainWindow
from tests.gui.live.plot_feed import T0, batch, shown_plots
from tests.gui.test_main_window import CPU_ONLY, wait_idle


def run_with_anatomy(qtbot, make_window, anatomy: str) -> MainWindow:
    """A whole fake run of 2 epochs of 10 steps, each epoch's steps costing `anatomy` ms (input,compute,sync,
    rest), fed to the window as a trainer's events are."""
    window = make_window("normal", "--epochs", "2", "--steps", "10", "--delay", "0", "--anatomy", anatomy)
    window.apply_probe(CPU_ONLY)
    window.start_run()
    wait_idle(qtbot, window)
    plot = window.plots.anatomy.plot
    qtbot.waitUntil(lambda: plot.plotted_points("input") == 4)  # two stretches of two points
    return window


def test_the_anatomy_is_stacked_over_each_epochs_steps_with_its_verdict(qtbot, make_window):
    window = run_with_anatomy(qtbot, make_window, "6,3,0,1")
    plots = window.plots
    assert plots.anatomy.isVisible()
    plot = plots.anatomy.plot
    tops = {part: plot.traces[part].y.values.tolist() for part in ("input", "compute", "sync", "rest")}
    assert tops == {"input": [6.0] * 4, "compute": [9.0] * 4, "sync": [9.0] * 4, "rest": [10.0] * 4}
    # each epoch's figures stretch over its steps, on the step axis the loss is plotted on
    assert plot.traces["input"].step.values.tolist() == [0.0, 10.0, 10.0, 20.0]
    assert plots.loss.traces["batch"].step.values[-1] == 20.0
    assert plot.x_hi() == plots.loss.x_hi()
    assert plots.anatomy.verdict.text() == "input-bound: 60 % of each step waits for data"
    assert "step 10.0 ms" in plots.anatomy.verdict.toolTip()
    # on the time axis too: the stretches run from the epoch's first step to the event's time
    plots.set_x_axis("time")
    seconds = plot.traces["input"].time.values
    assert np.all(np.diff(seconds) >= 0) and seconds[-1] > 0


def test_the_chart_sits_beside_throughput_and_clears_for_a_new_run(qtbot, make_window):
    window = run_with_anatomy(qtbot, make_window, "1,2,6,1")
    layout = window.plots.layout()
    row, column, _, span = layout.getItemPosition(layout.indexOf(window.plots.anatomy))
    assert (row, column, span) == (2, 1, 1)
    assert layout.getItemPosition(layout.indexOf(window.plots.throughput))[1:] == (0, 1, 1)
    assert window.plots.anatomy.verdict.text().startswith("synchronisation-bound: 60 %")
    window.plots.reset()
    assert len(window.plots.anatomy.plot.traces["input"]) == 0 and window.plots.anatomy.verdict.text() == ""


def test_the_verdict_is_in_chinese(qtbot, make_window, qapp):
    i18n.install(qapp, "zh_CN")
    try:
        window = run_with_anatomy(qtbot, make_window, "1,8,0,1")
        text = window.plots.anatomy.verdict.text()
        assert "80" in text and "compute" not in text
        assert window.plots.anatomy.plot.plain_title == QCoreApplication.translate("AnatomyPlot", "Step anatomy")
    finally:
        i18n.install(qapp, "en")


def test_the_chart_keeps_the_shared_x_range_between_its_rare_events(qtbot):
    """Anatomies come a few times an epoch; while batches stretch the other plots' x-axis, the chart's moves
    with them."""
    plots = shown_plots(qtbot)
    anatomy = ev.StepAnatomy(
        epoch=1, global_step=10, steps=10, step_ms=4, input_ms=1, compute_ms=2, sync_ms=0, rest_ms=1
    )
    plots.add_events([batch(s) for s in range(1, 11)] + [anatomy])
    qtbot.waitUntil(lambda: plots.anatomy.plot.plotted_points("input") == 2)
    plots.add_events([batch(s) for s in range(11, 1001)])
    qtbot.waitUntil(lambda: plots.loss.plotted_points("batch") == 1000)
    loss, chart = (p.getPlotItem().getViewBox() for p in (plots.loss, plots.anatomy.plot))
    qtbot.waitUntil(lambda: loss.viewRange()[0][1] > 1000)  # the loss plot's x-axis stepped on

    def same_x_range() -> bool:  # pyqtgraph pads each view by its own width: a pixel or so apart
        (lo, hi), theirs = chart.viewRange()[0], loss.viewRange()[0]
        return (lo, hi) == pytest.approx(theirs, abs=(hi - lo) / 100)

    qtbot.waitUntil(same_x_range)


def test_an_anatomy_of_steps_already_drawn_is_left_out(qtbot):
    """Two reports of the same steps (e.g. from two workers) draw one stretch, and x never goes back."""
    plots = shown_plots(qtbot)

    def anatomy(at: int, steps: int, input_ms: float) -> ev.StepAnatomy:
        return ev.StepAnatomy(
            epoch=1, global_step=at, steps=steps, step_ms=input_ms + 1, input_ms=input_ms, compute_ms=1,
            sync_ms=0, rest_ms=0, time=T0 + at / 10,
        )  # fmt: skip

    plots.add_events([batch(s) for s in range(1, 21)] + [anatomy(10, 10, 5), anatomy(10, 10, 7), anatomy(20, 15, 3)])
    chart = plots.anatomy.plot.traces["input"]
    assert chart.step.values.tolist() == [0.0, 10.0, 10.0, 20.0]
    assert chart.y.values.tolist() == [5.0, 5.0, 3.0, 3.0]
    assert plots.anatomy.verdict.text().startswith("input-bound: 75 %")
