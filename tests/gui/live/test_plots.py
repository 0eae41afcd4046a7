"""Plots fed with synthetic events: buffers, smoothing, epoch points, a million points."""

from __future__ import annotations

import math

import numpy as np
import pytest

from engine import events as ev
from gui.live.plots import Ema, GrowableSeries, TrainingPlots


def batch(step: int, loss: float = 0.5) -> ev.BatchEnd:
    return ev.BatchEnd(epoch=1, step=step, global_step=step, loss=loss, accuracy=0.5, examples_per_sec=1000.0)


def test_growable_series_keeps_everything():
    s = GrowableSeries(capacity=2)
    for i in range(1000):
        s.append(i, 2 * i)
    assert len(s) == 1000
    np.testing.assert_array_equal(s.y, 2 * np.arange(1000))
    s.clear()
    assert len(s) == 0 and s.x.size == 0


def test_ema_skips_non_finite_values():
    ema = Ema(alpha_per_step=0.5)
    assert ema.update(2.0) == 2.0
    assert ema.update(math.nan) == 2.0
    assert ema.update(4.0) == 3.0


def test_ema_weighs_an_event_by_the_steps_it_covers():
    one_by_one, at_once = Ema(alpha_per_step=0.1), Ema(alpha_per_step=0.1)
    one_by_one.update(0.0)
    at_once.update(0.0)
    for _ in range(10):
        one_by_one.update(1.0)
    assert at_once.update(1.0, steps=10) == pytest.approx(one_by_one.value)


def test_batches_and_epochs_land_on_one_step_axis(qtbot):
    plots = TrainingPlots()
    qtbot.addWidget(plots)
    plots.add_events([batch(i, loss=1.0 / i) for i in range(1, 11)])
    plots.add_events(
        [
            ev.EpochEnd(
                epoch=1, loss=0.2, accuracy=0.9, seconds=1.0, examples_per_sec=900.0, val_loss=0.3, val_accuracy=0.8
            )
        ]
    )
    assert plots.plotted_points() == 0, "drawing waits for the redraw timer"
    plots.redraw_all()
    assert plots.plotted_points() == 10
    x, y = plots.loss._curves["epoch"].getData()
    assert list(x) == [10.0] and list(y) == [0.2]
    _, smooth = plots.loss._curves["smoothed"].getData()
    assert smooth[0] == 1.0 and smooth[-1] > 0.1, "EMA lags behind the raw loss"
    assert plots.accuracy.plotted_points("val") == 1
    assert plots.throughput.plotted_points("epoch") == 1


def test_epoch_without_validation_draws_no_validation_point(qtbot):
    plots = TrainingPlots()
    qtbot.addWidget(plots)
    plots.add_events([batch(1), ev.EpochEnd(epoch=1, loss=0.2, accuracy=0.9, seconds=1.0, examples_per_sec=9.0)])
    plots.redraw_all()
    assert plots.loss.plotted_points("val") == 0


def test_reset_empties_every_plot(qtbot):
    plots = TrainingPlots()
    qtbot.addWidget(plots)
    plots.add_events([batch(i) for i in range(1, 5)])
    plots.redraw_all()
    plots.reset()
    assert plots.plotted_points() == 0


def test_downsampling_and_clipping_are_set_on_the_plot_item(qtbot):
    """pyqtgraph's PlotItem.addItem overwrites what plot() was given: only the PlotItem's settings count."""
    plots = TrainingPlots()
    qtbot.addWidget(plots)
    for plot in (plots.loss, plots.accuracy, plots.throughput):
        item = plot.getPlotItem()
        assert item.ctrl.downsampleCheck.isChecked() and item.ctrl.autoDownsampleCheck.isChecked()
        assert item.ctrl.peakRadio.isChecked()
        assert item.ctrl.clipToViewCheck.isChecked()


def test_a_million_points_draw(qtbot):
    plots = TrainingPlots()
    qtbot.addWidget(plots)
    plots.resize(1200, 600)
    plots.show()
    n = 1_000_000
    ys = np.random.default_rng(0).random(n).tolist()
    for x, y in enumerate(ys):
        plots.loss.append("batch", x, y)
    plots.redraw_all()
    plots.grab()  # a real paint
    assert plots.plotted_points() == n
    assert plots.loss.displayed_points("batch") < n / 50, "the PlotItem downsamples for display"


def test_an_evaluators_validation_lands_on_its_epochs_point(qtbot):
    """The evaluator validates late, after more batches: its point still sits at its checkpoint's step."""
    plots = TrainingPlots()
    qtbot.addWidget(plots)
    plots.add_events([batch(s) for s in range(1, 11)])
    plots.add_events([ev.EpochEnd(epoch=1, loss=0.4, accuracy=0.8, seconds=1.0, examples_per_sec=1.0)])
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
    plots.redraw_all()
    assert list(plots.loss.series["epoch"].x) == [10.0] and list(plots.loss.series["val"].x) == [10.0]
    assert list(plots.loss.series["val"].y) == [0.45] and list(plots.accuracy.series["val"].y) == [0.75]
