"""Plots fed with synthetic events: curves, epochs, the shared x-axis, the GPU chart, when frames are drawn."""

from __future__ import annotations

import math

import numpy as np
import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QTabWidget, QWidget

from engine.core import events as ev
from engine.core.nvml import GpuSample
from gui.live.live_plot import FRAME_RATES, FRAME_SLACK_MS, PAINT_BUDGET, REDRAW_PERIOD_MS
from gui.live.plots import TrainingPlots
from gui.live.traces import MAX_BUCKETS
from tests.gui.live.plot_feed import T0, batch, epoch_end, shown_plots


def test_batches_and_epochs_land_on_one_step_axis(qtbot):
    plots = shown_plots(qtbot)
    plots.add_events([batch(i, loss=1.0 / i) for i in range(1, 11)])
    assert plots.plotted_points() == 10, "a run's first points are drawn at once"
    plots.add_events([epoch_end(val_loss=0.3, val_accuracy=0.8)])
    plots.redraw_all()
    x, y = plots.loss.shown("epoch")
    assert list(x) == [10.0] and list(y) == [0.2]
    _, smooth = plots.loss.shown("smoothed")
    assert smooth[0] == 1.0 and smooth[-1] > 0.1, "EMA lags behind the raw loss"
    assert plots.accuracy.plotted_points("val") == 1
    assert plots.throughput.plotted_points("epoch") == 1


def test_time_axis_puts_every_plot_on_seconds_since_start(qtbot):
    plots = shown_plots(qtbot)
    plots.add_events([batch(i) for i in range(1, 11)] + [epoch_end(time=T0 + 1.5)])
    plots.set_x_axis("time")
    x, _ = plots.loss.shown("batch")
    assert x[0] == pytest.approx(0.1) and x[-1] == pytest.approx(1.0)
    assert list(plots.loss.shown("epoch")[0]) == [1.5]
    assert plots.loss.getPlotItem().getAxis("bottom").labelText == "time since Start (s)"
    assert plots.x_axis.currentData() == "time"


def test_epoch_without_validation_draws_no_validation_point(qtbot):
    plots = shown_plots(qtbot)
    plots.add_events([batch(1), epoch_end()])
    plots.redraw_all()
    assert plots.loss.plotted_points("val") == 0


def test_reset_empties_every_plot(qtbot):
    plots = shown_plots(qtbot)
    plots.add_events([batch(i) for i in range(1, 5)])
    plots.redraw_all()
    plots.reset()
    assert plots.plotted_points() == 0 and plots.loss.displayed_points("batch") == 0


def test_a_million_points_draw_a_few_thousand(qtbot):
    plots = shown_plots(qtbot)
    n = 1_000_000
    steps = np.arange(1, n + 1, dtype=float)
    plots.loss.extend("batch", steps, steps / 1000, np.random.default_rng(0).random(n))
    plots.redraw_all()
    plots.grab()  # a real paint
    assert plots.loss.plotted_points("batch") == n
    assert plots.loss.displayed_points("batch") <= 3 * MAX_BUCKETS, "a frame costs the same at any run length"


def test_axes_stay_put_while_the_data_stays_inside(qtbot):
    plots = shown_plots(qtbot)
    plots.add_events([batch(i, loss=1.0) for i in range(1, 101)])
    plots.redraw_all()
    ranges = []
    plots.loss.getPlotItem().getViewBox().sigRangeChanged.connect(lambda *a: ranges.append(a))
    plots.add_events([batch(i, loss=1.0) for i in range(101, 105)])
    plots.redraw_all()
    assert ranges == [], "new points inside the held range do not re-lay out the axes"


def test_gpu_chart_appears_with_the_first_sample_and_follows_the_step_axis(qtbot):
    plots = shown_plots(qtbot)
    assert plots.gpus.isHidden(), "no GPU chart on a CPU run"
    plots.add_events([batch(i) for i in range(1, 21)])  # steps 1..20 at 0.1 s .. 2.0 s
    plots.add_gpu_samples([GpuSample("GPU:0", T0 + 1.0, 80, 4096, 16384)])
    plots.add_gpu_samples([GpuSample("GPU:0", T0 + 2.0, None, None, None, error="GPU is lost")])
    plots.redraw_all()
    assert not plots.gpus.isHidden()
    x, y = plots.gpus.shown("GPU:0 busy")
    assert list(x) == [10.0, 20.0], "a sample goes where training was at its time"
    assert y[0] == 80 and np.isnan(y[1]), "a lost GPU leaves a gap, not a zero"
    _, memory = plots.gpus.shown("GPU:0 memory")
    assert memory[0] == 25.0
    plots.set_x_axis("time")
    assert list(plots.gpus.shown("GPU:0 busy")[0]) == [1.0, 2.0]


def test_no_frames_while_the_tab_is_hidden(qtbot):
    tabs = QTabWidget()
    qtbot.addWidget(tabs)
    plots = TrainingPlots()
    tabs.addTab(plots, "Live")
    tabs.addTab(QWidget(), "Runs")
    tabs.show()
    plots.reset(origin=T0)
    plots.add_events([batch(1)])
    qtbot.waitUntil(lambda: plots.plotted_points() == 1)
    tabs.setCurrentIndex(1)
    frames = len(plots.frame_times)
    plots.add_events([batch(i) for i in range(2, 50)])
    qtbot.wait(400)
    assert len(plots.frame_times) == frames and plots.plotted_points() == 1, "hidden: nothing drawn"
    tabs.setCurrentIndex(0)
    qtbot.waitUntil(lambda: plots.plotted_points() == 49, timeout=2000)


def test_the_plots_follow_data_that_streams(qtbot):
    """New data is drawn while it streams, by frames no closer than the pace (frame_period_ms), and the
    last of it once it stops."""
    plots = shown_plots(qtbot)
    metric_plots = (plots.loss, plots.accuracy, plots.throughput)
    step = arrivals = 0
    # 30 arrivals 20 ms apart, and on until every plot has been redrawn twice (a loaded host stretches
    # the pace: counted in frames, not in milliseconds), 10 s at most
    while (arrivals < 30 or min(plot.frames for plot in metric_plots) < 2) and arrivals < 500:
        plots.add_events([batch(step + i) for i in range(1, 11)])
        step += 10
        arrivals += 1
        qtbot.wait(20)
    assert min(plot.frames for plot in metric_plots) >= 2, "every plot is redrawn while the data streams"
    assert len(plots.frame_times) < arrivals / 2, "not a frame per arrival"
    qtbot.waitUntil(lambda: all(plot.plotted_points("batch") == step for plot in metric_plots), timeout=3000)


def test_a_frame_paints_its_plots_in_one_pass_but_one_pass_per_plot_whose_axes_move(qtbot):
    """One pass of Qt's repaint per frame is cheapest; a plot whose range moved re-lays out its axes as it is
    painted, and three of those in one pass stalled the event loop for their sum."""
    plots = shown_plots(qtbot)
    plots.add_events([batch(i) for i in range(1, 101)])
    plots.redraw_all()
    plots.grab()  # the ranges now hold step 100 with room to spare
    plots.add_events([batch(101)])
    plots._timer.stop()
    plots._frame()  # at once, not by the timer: what this one call redraws is one pass
    assert [p.plotted_points("batch") for p in plots._metric_plots] == [101, 101, 101]
    assert not plots._next_pass.isActive()
    plots.add_events([batch(i) for i in range(102, 400)])  # far past the x-axis's end: every range moves
    plots._timer.stop()
    plots._frame()
    assert [p.plotted_points("batch") for p in plots._metric_plots] == [399, 101, 101], "one plot in this pass"
    assert plots._next_pass.isActive(), "the rest in the next passes"
    qtbot.waitUntil(lambda: plots.throughput.plotted_points("batch") == 399)
    assert plots.accuracy.plotted_points("batch") == 399
    assert len(plots.frame_times) == 4, "the first point, redraw_all, then one frame each: passes are not frames"


def test_a_frame_redraws_every_plot_with_news_and_then_no_timer_runs(qtbot):
    plots = shown_plots(qtbot)
    plots.add_events([batch(1)])  # the first point: drawn at once
    plots.add_events([batch(i) for i in range(2, 21)])
    qtbot.waitUntil(lambda: plots.throughput.plotted_points("batch") == 20)
    assert len(plots.frame_times) == 2, "the first point's frame, then one frame for all three plots"
    assert plots.loss.plotted_points("batch") == plots.accuracy.plotted_points("batch") == 20
    assert not plots._timer.isActive() and not plots._next_pass.isActive(), "without new data nothing wakes"
    assert plots._timer.timerType() == Qt.TimerType.PreciseTimer, "a coarse timer may fire 5 % after the 100 ms"
    plots.add_events([batch(21)])
    assert plots._timer.isActive(), "new data asks for the next frame"
    qtbot.waitUntil(lambda: plots.throughput.plotted_points("batch") == 21)


def test_frames_are_paced_at_100_ms_while_cheap_and_slower_when_dear(qtbot):
    plots = shown_plots(qtbot)
    shown = [plots.loss, plots.accuracy, plots.throughput]
    for plot in shown:
        plot.frame_costs.clear()
        plot.frame_costs.extend([0.0005] * 9)
    assert plots.frame_period_ms(shown) == REDRAW_PERIOD_MS
    for plot in shown:
        plot.frame_costs.extend([0.010] * 2)  # a run's first frames, an axis re-laid out: passing spikes
    assert plots.frame_period_ms(shown) == REDRAW_PERIOD_MS, "a spike does not slow the frames after it"
    for plot in shown:
        plot.frame_costs.extend([0.002] * 12)  # 6 ms a frame: 100 ms apart would be 6 % of a core
    assert plots.frame_period_ms(shown) == pytest.approx(1000 * 0.006 / PAINT_BUDGET)


def test_a_chosen_frame_rate_paces_the_frames_from_the_next_one(qtbot):
    """One frame a second (View ▸ Live plots) waits that long after a frame; going back to ten a second
    brings the waiting frame forward at once, not after the second is up."""
    plots = shown_plots(qtbot)
    shown = [plots.loss, plots.accuracy, plots.throughput]
    assert plots.frames_per_second == FRAME_RATES[0] and plots.frame_period_ms(shown) == REDRAW_PERIOD_MS
    plots.set_frames_per_second(1)
    assert plots.frame_period_ms(shown) == 1000
    plots.add_events([batch(1)])  # the first point: drawn at once
    plots.add_events([batch(2)])
    qtbot.waitUntil(lambda: plots.loss.plotted_points("batch") == 2)
    plots.add_events([batch(3)])  # right after a frame: the next one is a second away
    assert plots._timer.isActive() and plots._timer.interval() > 500
    plots.set_frames_per_second(10)
    assert plots._timer.isActive() and plots._timer.interval() <= REDRAW_PERIOD_MS + FRAME_SLACK_MS
    qtbot.waitUntil(lambda: plots.loss.plotted_points("batch") == 3, timeout=2000)
    with pytest.raises(ValueError, match="one of"):
        plots.set_frames_per_second(0)


def test_an_evaluators_validation_lands_on_its_epochs_point(qtbot):
    """The evaluator validates late, after more batches: its point still sits at its checkpoint's step."""
    plots = shown_plots(qtbot)
    plots.add_events([batch(s) for s in range(1, 11)])
    plots.add_events([ev.EpochEnd(epoch=1, loss=0.4, accuracy=0.8, seconds=1.0, examples_per_sec=1.0, time=T0 + 1.0)])
    plots.add_events([batch(s) for s in range(11, 16)])
    plots.add_events(
        [
            ev.Evaluation(
                epoch=1,
                step=0,
                global_step=10,
                val_loss=0.45,
                val_accuracy=0.75,
                examples=100,
                seconds=0.1,
                checkpoint="/run/checkpoints/ckpt-1",
            )
        ]
    )
    loss, accuracy = plots.loss.traces, plots.accuracy.traces
    assert list(loss["epoch"].step.values) == [10.0] and list(loss["val"].step.values) == [10.0]
    assert list(loss["val"].y.values) == [0.45] and list(accuracy["val"].y.values) == [0.75]
    assert list(loss["val"].time.values) == list(loss["epoch"].time.values), "on the time axis too"


def test_frames_are_paced_from_their_starts(qtbot, monkeypatch):
    """A frame that takes 5 ms to draw does not push the next one 5 ms later: paced from their ends, frames
    came 102 ms apart and new data waited up to 107 ms."""
    plots = shown_plots(qtbot)
    clock = [1000.0]
    monkeypatch.setattr("gui.live.plots.time.perf_counter", lambda: clock[0])
    redraw = plots._redraw_pending

    def slow_redraw() -> None:
        redraw()
        clock[0] += 0.005

    monkeypatch.setattr(plots, "_redraw_pending", slow_redraw)
    plots.add_events([batch(i) for i in range(1, 5)])
    plots._timer.stop()
    plots._frame()
    assert plots._next_frame_at == pytest.approx(1000.0 + REDRAW_PERIOD_MS / 1000)


def test_data_that_arrives_as_a_frame_falls_due_is_drawn_with_its_arrival(qtbot, monkeypatch):
    """The runner hands over events every 100 ms and the pace is 100 ms: drawn by a timer of their own, frames
    woke the GUI thread a second time in each period (13 wake-ups a second more, bench_watch_cost's run).
    Data that arrives within FRAME_SLACK_MS of the pace's next frame is drawn at once; data that arrives
    earlier waits for the pace and the slack, so the next arrival, due then, is drawn with it."""
    plots = shown_plots(qtbot)
    clock = [1000.0]
    monkeypatch.setattr("gui.live.plots.time.perf_counter", lambda: clock[0])
    plots.add_events([batch(1)])  # the first point: drawn at once
    plots._timer.stop()
    plots._frame()
    due = 1000.0 + REDRAW_PERIOD_MS / 1000
    clock[0] = due - (FRAME_SLACK_MS - 2) / 1000
    plots.add_events([batch(2)])
    assert plots._timer.isActive() and plots._timer.interval() == 0, "a frame with this wake-up"
    plots._timer.stop()
    plots._frame()  # at due - slack + 2 ms
    clock[0] += 0.030
    plots.add_events([batch(3)])  # mid-period (a GPU sample, say)
    next_due = due - (FRAME_SLACK_MS - 2) / 1000 + REDRAW_PERIOD_MS / 1000
    assert plots._timer.interval() == math.ceil(1000 * (next_due - clock[0]) + FRAME_SLACK_MS)
    clock[0] = next_due - 0.001
    plots.add_events([batch(4)])  # the runner's next hand-over: drawn now, with batch 3
    assert plots._timer.interval() == 0
    qtbot.waitUntil(lambda: plots.loss.plotted_points("batch") == 4)
