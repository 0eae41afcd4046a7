"""The live plots' layer: every series in one image, new points drawn into it, only their strip repainted."""

from __future__ import annotations

import dataclasses

import numpy as np
import pyqtgraph as pg
import pytest
from PySide6.QtCore import QEvent, QObject, QPoint, QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QImage, QPen, QWheelEvent
from PySide6.QtWidgets import QApplication

from engine.core import events as ev
from engine.core.nvml import GpuSample
from gui import theme
from gui.live.plot_layer import PlotLayer, ScreenCopy
from tests.gui.live.plot_feed import T0, batch, shown_plots


def colours_around(plot, image: QImage, x: float, y: float) -> list[QColor]:
    """The 3 × 3 pixels of a grab of `plot` around the data point (x, y)."""
    view = plot.getPlotItem().getViewBox()
    at = plot.mapFromScene(view.mapViewToScene(QPointF(x, y)))
    return [QColor(image.pixel(at.x() + dx, at.y() + dy)) for dx in (-1, 0, 1) for dy in (-1, 0, 1)]


@dataclasses.dataclass
class Paint:
    """One paint of a layer on screen: which, the rectangle Qt asked for (in the layer's coordinates), and how
    many of Qt's repaint passes (the window's UpdateRequest events) came before it."""

    layer: PlotLayer
    exposed: QRectF
    repaint_pass: int


@pytest.fixture
def layer_paints(qapp, monkeypatch):
    """Every paint of a layer's screen copy in the test. Patched before any is made: PySide looks overrides
    up once."""
    paints: list[Paint] = []
    passes = [0]
    original = ScreenCopy.paintEvent

    def paint(self, event):
        paints.append(Paint(self._layer, QRectF(event.rect()).translated(-self.offset), passes[0]))
        original(self, event)

    class PassCounter(QObject):
        def eventFilter(self, watched, event):  # noqa: N802 (Qt's name)
            if event.type() == QEvent.Type.UpdateRequest:
                passes[0] += 1
            return False

    monkeypatch.setattr(ScreenCopy, "paintEvent", paint)
    counter = PassCounter()
    qapp.installEventFilter(counter)
    yield paints
    qapp.removeEventFilter(counter)


def quiet(qtbot, painted: list) -> None:
    """Until nothing has been painted for 100 ms: the window's first paints come late on a loaded host."""
    while True:
        seen = len(painted)
        qtbot.wait(100)
        if len(painted) == seen:
            return


def settle(plots, first: int, last: int, loss=lambda i: 1.0) -> None:
    """Batches first..last drawn and painted, the ranges held with room to spare."""
    plots.add_events([batch(i, loss=loss(i)) for i in range(first, last + 1)])
    plots.redraw_all()
    plots.grab()


def test_new_points_inside_the_range_do_not_make_the_view_redo_its_range(qtbot, monkeypatch):
    """A range pass re-lays out the axes; the layer is no item of the range (the extent item holds it), so a
    frame inside the held range runs none."""
    plots = shown_plots(qtbot)
    settle(plots, 1, 100)
    settle(plots, 101, 104)
    passes = []
    original = pg.ViewBox.updateAutoRange
    monkeypatch.setattr(pg.ViewBox, "updateAutoRange", lambda self: passes.append(self) or original(self))
    for start in range(105, 141, 4):
        settle(plots, start, start + 3)
    assert plots.loss.plotted_points("batch") == 140
    assert passes == []


def test_a_frame_inside_the_range_repaints_only_the_strip_of_its_new_points(qtbot, layer_paints):
    plots = shown_plots(qtbot)
    settle(plots, 1, 100)
    layer = plots.loss.layer
    qtbot.waitUntil(lambda: any(p.layer is layer for p in layer_paints))  # the window's own first paints
    quiet(qtbot, layer_paints)
    whole = layer.whole_draws
    layer_paints.clear()
    plots.add_events([batch(i, loss=1.0) for i in range(101, 106)])
    plots.redraw_all()
    qtbot.waitUntil(lambda: any(p.layer is layer for p in layer_paints))
    view = plots.loss.getPlotItem().getViewBox()
    strips = [p.exposed for p in layer_paints if p.layer is layer]
    assert all(rect.width() < view.width() / 10 for rect in strips), f"{strips} of a view {view.width():.0f} wide"
    assert layer.whole_draws == whole, "new points are drawn into the image, not the image drawn again"
    newest = view.mapFromView(QPointF(105.0, 1.0))
    assert strips[0].contains(newest), "the strip is where the new points are"


def test_frames_drawn_piece_by_piece_look_as_the_image_drawn_whole(qtbot):
    """Almost six dozen frames of a noisy curve, an epoch's marker among them, added piece by piece, and then the
    same data drawn whole in one go: the pictures agree but for the odd pixel where segments join."""
    plots = shown_plots(qtbot)
    noise = np.random.default_rng(0).normal(0, 0.05, 2000)
    wave = lambda i: 1.0 + 0.5 * np.sin(i / 40) + noise[i]  # noqa: E731
    settle(plots, 1, 2, loss=wave)
    layer = plots.loss.layer
    whole = layer.whole_draws
    for start in range(3, 583, 10):  # the x-axis reaches 600 by the end: the last frames add to the image
        plots.add_events([batch(i, loss=wave(i)) for i in range(start, start + 10)])
        if start == 303:
            plots.add_events([ev.EpochEnd(epoch=1, loss=1.0, accuracy=0.5, seconds=1.0, examples_per_sec=1.0, time=T0)])
        plots.redraw_all()
        plots.loss.grab()
    assert layer.whole_draws - whole < 15, "most frames added to the image"
    pieces = layer.image.copy()
    layer.invalidate()
    plots.loss.grab()
    drawn = (pieces.constBits(), layer.image.constBits())
    a, b = (np.frombuffer(bits, dtype=np.uint32) for bits in drawn)
    painted = np.count_nonzero(b)
    assert painted > 2000, "the curves are in the image"
    assert np.count_nonzero(a != b) < 0.01 * painted  # without the joins: 2.6 %


def test_epoch_markers_are_drawn_where_the_epochs_ended(qtbot):
    plots = shown_plots(qtbot)
    plots.add_events([batch(i, loss=1.0 - i / 200) for i in range(1, 101)])
    plots.add_events([ev.EpochEnd(epoch=1, loss=0.5, accuracy=0.9, seconds=1.0, examples_per_sec=900.0, time=T0 + 10)])
    plots.redraw_all()
    epoch_colour = QColor(theme.current().plot.colour("epoch"))
    assert epoch_colour in colours_around(plots.loss, plots.loss.grab().toImage(), 100.0, 0.5)
    plots.add_events([batch(i, loss=0.5) for i in range(101, 103)])  # a line from the marker on, in a frame
    plots.redraw_all()
    around = colours_around(plots.loss, plots.loss.grab().toImage(), 100.0, 0.5)
    assert around.count(epoch_colour) >= 8, "the marker stays on top of the lines that go on from it"


def test_a_streaming_curve_is_painted_through_its_points_and_leaves_a_nan_out(qtbot):
    plots = shown_plots(qtbot)
    losses = [0.8] * 50 + [float("nan")] + [0.8] * 49  # flat, so the line's pixels are easy to find
    plots.add_events([batch(i, loss=loss) for i, loss in enumerate(losses, start=1)])
    plots.redraw_all()
    assert plots.loss.displayed_points("batch") == 99, "the NaN is left out, the rest drawn"
    layer = plots.loss.layer
    hidden = dataclasses.replace(layer.looks["smoothed"], pen=QPen(Qt.PenStyle.NoPen))
    layer.looks["smoothed"] = hidden  # it lies on the flat batch line
    layer.invalidate()
    image = plots.loss.grab().toImage()
    batch_colour = QColor(theme.current().plot.colour("batch"))
    for step in (10.0, 51.0, 90.0):  # before, at and after the NaN: the line goes on through
        assert batch_colour in colours_around(plots.loss, image, step, 0.8), f"the line is at step {step:.0f}"
    plots.reset(origin=T0)
    plots.loss.grab()  # an empty plot paints nothing, and does not fail
    assert plots.loss.displayed_points("batch") == 0


def test_a_zoom_draws_the_image_again_for_the_window_zoomed_to(qtbot):
    plots = shown_plots(qtbot)
    settle(plots, 1, 200, loss=lambda i: 0.5)
    layer = plots.loss.layer
    whole = layer.whole_draws
    plots.loss.getPlotItem().getViewBox().setRange(xRange=(50, 120), yRange=(0.4, 0.6), padding=0)
    image = plots.loss.grab().toImage()
    assert layer.whole_draws == whole + 1
    colour = QColor(theme.current().plot.colour("smoothed"))
    assert colour in colours_around(plots.loss, image, 60.0, 0.5), "the line is where the zoomed axes say"


def test_the_grid_is_at_the_left_axis_ticks_and_follows_the_colours(qtbot):
    plots = shown_plots(qtbot)
    settle(plots, 1, 50, loss=lambda i: 2.0 - i / 50)
    pen, values, vertical = plots.loss._grid()
    assert vertical == [], "no vertical lines: they would be repainted with every frame's strip"
    assert len(values) >= 3 and all(0.0 <= v <= 3.0 for v in values)
    image = plots.loss.grab().toImage()
    view = plots.loss.getPlotItem().getViewBox()
    background = QColor(theme.current().plot.background)
    y = plots.loss.mapFromScene(view.mapViewToScene(QPointF(40.0, values[1]))).y()
    x = plots.loss.mapFromScene(view.mapViewToScene(QPointF(40.0, 0.0))).x()
    on_line = [QColor(image.pixel(x, y + dy)) for dy in (-1, 0, 1)]
    assert any(c != background for c in on_line), "a grid line at a tick"
    plots.loss.restyle(theme.DARK)
    QApplication.processEvents()
    image = plots.loss.grab().toImage()
    assert QColor(theme.DARK.plot.batch) in colours_around(plots.loss, image, 40.0, 2.0 - 40 / 50)
    plots.loss.restyle(theme.LIGHT)


def test_the_mouse_still_zooms_the_plot_under_the_layer(qtbot):
    """The layer's screen copy covers the view but takes no mouse: a wheel over the curves zooms, as in any
    pyqtgraph plot."""
    plots = shown_plots(qtbot)
    settle(plots, 1, 200, loss=lambda i: 0.5)
    plot = plots.loss
    view = plot.getPlotItem().getViewBox()
    before = view.viewRange()[0]
    at = QPointF(plot.mapFromScene(view.mapViewToScene(QPointF(100.0, 0.5))))
    wheel = QWheelEvent(
        at,
        QPointF(plot.viewport().mapToGlobal(at.toPoint())),
        QPoint(0, 0),
        QPoint(0, 120),  # a notch towards the screen: zoom in
        Qt.MouseButton.NoButton,
        Qt.KeyboardModifier.NoModifier,
        Qt.ScrollPhase.NoScrollPhase,
        False,
    )
    window = plot.window()
    receiver = window.childAt(plot.viewport().mapTo(window, at.toPoint()))  # where Qt delivers the mouse
    assert receiver is plot.viewport(), "the screen copy over the curves takes no mouse"
    QApplication.sendEvent(receiver, wheel)
    after = view.viewRange()[0]
    assert after[1] - after[0] < before[1] - before[0], "zoomed in"
    assert not plot.following(), "zoomed by hand: the plot stops following the run"


def test_a_gpu_that_stops_answering_leaves_a_gap_in_its_line(qtbot):
    plots = shown_plots(qtbot)
    plots.add_events([batch(i) for i in range(1, 61)])  # steps 1..60 at 0.1 s .. 6.0 s
    for second, busy in enumerate((40, 40, None, 40, 40), start=1):  # the third reading: the GPU is lost
        memory = (None, None) if busy is None else (2048, 16384)
        plots.add_gpu_samples([GpuSample("GPU:0", T0 + second, busy, *memory)])
    plots.redraw_all()
    image = plots.gpus.grab().toImage()
    colour = QColor(theme.current().plot.colour(("gpus", 0)))
    assert colour in colours_around(plots.gpus, image, 15.0, 40.0), "a line between the first two readings"
    assert colour in colours_around(plots.gpus, image, 45.0, 40.0), "and between the last two"
    assert colour not in colours_around(plots.gpus, image, 30.0, 40.0), "none across the lost reading"


def test_a_frames_strips_of_every_plot_are_painted_in_one_pass(qtbot, layer_paints):
    """Each plot is a view with its own scene: through their scenes the three strips were three passes of
    Qt's repaint, each with its own fixed cost."""
    plots = shown_plots(qtbot)
    settle(plots, 1, 100)
    quiet(qtbot, layer_paints)
    layer_paints.clear()
    plots.add_events([batch(i, loss=1.0) for i in range(101, 106)])
    plots._timer.stop()
    plots._frame()
    layers = {plot.layer for plot in (plots.loss, plots.accuracy, plots.throughput)}
    qtbot.waitUntil(lambda: {p.layer for p in layer_paints} == layers)
    passes = sorted({p.repaint_pass for p in layer_paints})
    assert len(passes) == 1, f"painted in passes {passes}"


def test_the_screen_copy_covers_the_view_as_the_window_is_resized(qtbot):
    """The image is shown by a widget over the view: where the view is, whatever the window's size."""
    plots = shown_plots(qtbot)
    settle(plots, 1, 100)
    plot = plots.loss
    view = plot.getPlotItem().getViewBox()

    def view_on_screen() -> QRectF:
        return (view.sceneTransform() * plot.viewportTransform()).mapRect(view.rect())

    for size in ((900, 600), (1300, 800)):
        plots.resize(*size)
        qtbot.waitUntil(lambda: plot.layer.screen.geometry() == view_on_screen().toAlignedRect())
        assert plot.layer.screen.isVisible()
        assert abs(plot.layer.screen.offset.x()) < 1 and abs(plot.layer.screen.offset.y()) < 1


def test_the_views_menu_offers_no_mouse_mode_its_zoom_box_would_be_hidden(qtbot):
    """pyqtgraph's rectangle zoom draws its box in the scene, under the screen copy: not offered."""
    plots = shown_plots(qtbot)
    menu = plots.loss.getPlotItem().getViewBox().menu
    shown = [action.menu() for action in menu.actions() if action.menu() is not None and action.isVisible()]
    assert shown, "the view's other submenus (X axis, Y axis) stay"
    assert not any(mode in submenu.actions() for submenu in shown for mode in menu.mouseModes)


def test_what_the_screen_copy_paints_counts_in_the_frames_cost(qtbot, monkeypatch):
    """The pace slows where frames are dear (frame_period_ms): the strip the screen copy paints is part of a
    frame's cost, with the redraw before it. (Counted only in the plot's own paints, which a usual frame no
    longer has, frames would have looked free and a whole draw now and then the only cost.)"""
    original = ScreenCopy.paintEvent
    painted: list[ScreenCopy] = []

    def dear_paint(self, event):
        original(self, event)
        painted.append(self)
        self._on_paint(0.005)  # 5 ms more of CPU, as on a host that is training

    monkeypatch.setattr(ScreenCopy, "paintEvent", dear_paint)  # before any is made: PySide looks it up once
    plots = shown_plots(qtbot)
    settle(plots, 1, 100)
    plot = plots.loss
    for start in range(101, 131, 10):
        plots.add_events([batch(i, loss=1.0) for i in range(start, start + 10)])
        painted.clear()
        plots.redraw_all()
        qtbot.waitUntil(lambda: plot.layer.screen in painted)  # the frame's paint
    plots.redraw_all()  # closes the last frame's count
    assert all(cost >= 0.005 for cost in list(plot.frame_costs)[-3:]), list(plot.frame_costs)
