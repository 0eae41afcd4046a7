"""Curves and markers sized to their view: what Qt repaints, the view's range left alone, markers drawn."""

from __future__ import annotations

import pyqtgraph as pg
from PySide6.QtCore import QPointF
from PySide6.QtGui import QColor

from engine import events as ev
from gui import theme
from gui.live.view_items import MarkedCurve, PolylineCurve
from tests.gui.live.plot_feed import T0, batch, shown_plots


def test_a_live_curves_bounds_are_the_visible_range_and_follow_a_zoom(qtbot):
    plots = shown_plots(qtbot)
    plots.add_events([batch(i, loss=1.0 / i) for i in range(1, 201)])
    plots.redraw_all()
    view = plots.loss.getPlotItem().getViewBox()
    curve = plots.loss._curves["batch"]
    assert isinstance(curve, PolylineCurve)
    assert curve.boundingRect() == view.viewRect()
    view.setRange(xRange=(50, 120), yRange=(0.0, 0.05), padding=0)
    plots.grab()  # a real paint, after the view's transform changed
    assert curve.boundingRect() == view.viewRect(), "zoomed: Qt repaints the new visible range"
    markers = plots.loss._curves["epoch"]
    assert isinstance(markers, MarkedCurve) and markers.boundingRect() == view.viewRect()


def test_new_points_inside_the_range_do_not_make_the_view_redo_its_range(qtbot, monkeypatch):
    """pyqtgraph's items ask their view to redo its auto-range after every setData; these curves' bounds
    never steer the range (the extent item's do), so a frame inside the held range runs no range pass."""
    plots = shown_plots(qtbot)
    for start, end in ((1, 101), (101, 105)):  # the first frames settle the held range
        plots.add_events([batch(i, loss=1.0) for i in range(start, end)])
        plots.redraw_all()
        plots.grab()
    passes = []
    original = pg.ViewBox.updateAutoRange
    monkeypatch.setattr(pg.ViewBox, "updateAutoRange", lambda self: passes.append(self) or original(self))
    for start in range(105, 141, 4):
        plots.add_events([batch(i, loss=1.0) for i in range(start, start + 4)])
        plots.redraw_all()
        plots.grab()
    assert plots.loss.plotted_points("batch") == 140
    assert passes == []


def test_epoch_markers_are_drawn_where_the_epochs_ended(qtbot):
    plots = shown_plots(qtbot)
    plots.add_events([batch(i, loss=1.0 - i / 200) for i in range(1, 101)])
    plots.add_events([ev.EpochEnd(epoch=1, loss=0.5, accuracy=0.9, seconds=1.0, examples_per_sec=900.0, time=T0 + 10)])
    plots.redraw_all()
    image = plots.loss.grab().toImage()
    view = plots.loss.getPlotItem().getViewBox()
    at = plots.loss.mapFromScene(view.mapViewToScene(QPointF(100.0, 0.5)))
    epoch_colour = QColor(theme.current().plot.colour("epoch"))
    around = [QColor(image.pixel(at.x() + dx, at.y() + dy)) for dx in (-1, 0, 1) for dy in (-1, 0, 1)]
    assert epoch_colour in around, "the epoch's marker is painted at its point"


def test_a_streaming_curve_is_painted_through_its_points_and_leaves_a_nan_out(qtbot):
    plots = shown_plots(qtbot)
    losses = [0.8] * 50 + [float("nan")] + [0.8] * 49  # flat, so the line's pixels are easy to find
    plots.add_events([batch(i, loss=loss) for i, loss in enumerate(losses, start=1)])
    plots.redraw_all()
    assert plots.loss.displayed_points("batch") == 99, "the NaN is left out, the rest drawn"
    plots.loss._curves["smoothed"].setVisible(False)  # it lies on the flat batch line
    image = plots.loss.grab().toImage()
    view = plots.loss.getPlotItem().getViewBox()
    batch_colour = QColor(theme.current().plot.colour("batch"))
    for step in (10.0, 51.0, 90.0):  # before, at and after the NaN: the line goes on through
        at = plots.loss.mapFromScene(view.mapViewToScene(QPointF(step, 0.8)))
        around = [QColor(image.pixel(at.x() + dx, at.y() + dy)) for dx in (-1, 0, 1) for dy in (-1, 0, 1)]
        assert batch_colour in around, f"the batch line is painted at step {step:.0f}"
    plots.reset(origin=T0)
    plots.loss.grab()  # an empty curve paints nothing, and does not fail
    assert plots.loss.displayed_points("batch") == 0
