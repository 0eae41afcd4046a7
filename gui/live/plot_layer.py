"""One image per live plot that holds every curve, drawn into a little at a time.

pyqtgraph repaints a whole plot for the few points a frame adds. Here the curves, markers and grid are pixels
in one QImage the size of the view: a frame draws only its new segments and repaints their rectangle; the
image is drawn whole when painting finds the view's transform, size or pixel ratio changed (or colours, x-axis,
clear). On screen an opaque widget (ScreenCopy) shows it, cheaper than the scene (BENCHMARKS.md, Frame cost);
exports and the Runs tab paint it through the scene. The plot owns the data: the layer asks for every series
(`everything`) and the grid (`grid`) when drawing whole, and is handed new pieces (`add`).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QLineF, QPointF, QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QImage, QPainter, QPaintEvent, QPen, QPolygonF, QTransform
from PySide6.QtWidgets import QGraphicsItem, QGraphicsObject, QStyleOptionGraphicsItem, QWidget

Series = tuple[str, np.ndarray, np.ndarray]  # key, x, y in data coordinates
Grid = tuple[QPen, list[float], list[float]]  # the grid lines' pen, the y values of horizontal lines, the x of vertical
GRID_ALPHA = 0.25  # the grid lines' opacity: there to read values by, not to compete with the curves


@dataclass(frozen=True)
class Look:
    """How a series is drawn: its pen (cosmetic: width in pixels), and maybe a marker at every point, a
    circle ("o") or a square ("s") `marker_size` pixels wide filled with `brush`. With `gaps`, a NaN breaks the
    line (a GPU NVML lost for a while); without, it is left out and the line goes on. With `fill`, the area
    between the line and y = 0 is filled with it (a stacked chart: the tallest series first, the others over
    it)."""

    pen: QPen
    marker: str = ""
    marker_size: int = 0
    brush: QBrush | None = None
    gaps: bool = False
    fill: QBrush | None = None

    @property
    def reach(self) -> float:
        """How far past its points a series' pixels go, in pixels."""
        return max(self.pen.widthF(), self.marker_size / 2) + 2


def grid_at_ticks(item: pg.PlotItem, sides: tuple[str, ...]) -> Grid:
    """Lines across the view at the major ticks of the `sides` ("left" for horizontal lines, "bottom" for
    vertical ones), in the left axis's colour, GRID_ALPHA opaque: pyqtgraph's own grid, drawn by the axes
    across the view, is painted again with every paint of the view."""
    view = item.getViewBox()
    lines: dict[str, list[float]] = {"left": [], "bottom": []}
    for side in sides:
        lo, hi = view.viewRange()[1 if side == "left" else 0]
        # the length the axis measures itself: its span and a pixel beyond each end
        levels = item.getAxis(side).tickValues(lo, hi, (view.height() if side == "left" else view.width()) + 2)
        lines[side] = [float(v) for v in (levels[0][1] if levels else ()) if lo <= v <= hi]
    colour = QColor(item.getAxis("left").pen().color())
    colour.setAlphaF(GRID_ALPHA)
    return pg.mkPen(colour), lines["left"], lines["bottom"]


def extent_item(width: float = 0.0) -> pg.PlotCurveItem:
    """An invisible, never painted item whose two points hold a plot's range: added to a PlotItem, its
    auto-range (and pyqtgraph's "A" button) fits them, so the range moves only when they are set anew. With a
    `width`, pyqtgraph pads the range around them as for a line that wide (the widest the plot draws)."""
    extent = pg.PlotCurveItem(pen=pg.mkPen((0, 0, 0, 0), width=width) if width else pg.mkPen(None))
    extent.setFlag(QGraphicsItem.GraphicsItemFlag.ItemHasNoContents)
    return extent


class PlotLayer(QGraphicsObject):
    """A child of a pyqtgraph ViewBox, covering it, painted from an image of every series and the grid."""

    def __init__(
        self,
        view: pg.ViewBox,
        everything: Callable[[], list[Series]],
        grid: Callable[[], Grid],
        on_paint: Callable[[float], None] | None = None,
    ) -> None:
        """With `on_paint`, the layer is shown by a screen copy (see the module's docstring), and `on_paint`
        hears what each of its paints cost, in the GUI thread's CPU seconds. Without, it is painted through
        the scene, under the items above it (a legend): for a plot drawn now and then, not streamed."""
        super().__init__(view)
        self._view = view
        self._everything, self._grid = everything, grid
        self.looks: dict[str, Look] = {}  # drawn in this order: later keys on top
        self.image = QImage()
        self._key: tuple | None = None  # what the image was drawn for; None: draw it whole at the next paint
        self.whole_draws = 0  # how often the image was drawn whole (for tests and benchmarks)
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemUsesExtendedStyleOption)  # exposedRect: the new strip
        widget = view.getViewWidget()
        assert widget is not None, "a layer is made for a view already in its plot widget"
        self.screen = None if on_paint is None else ScreenCopy(self, widget, on_paint)
        view.sigResized.connect(self._resized)
        if self.screen is None:
            view.sigTransformChanged.connect(lambda _view: self.update())  # the range moved: the image is drawn whole
            return
        _hide_mouse_mode(view)
        view.geometryChanged.connect(self.screen.place)  # moved without a new size: the title, an axis
        view.sigTransformChanged.connect(self.screen.update)  # the range moved: the screen copy is drawn whole

    def boundingRect(self) -> QRectF:
        return self._view.rect()

    def _resized(self) -> None:
        self.prepareGeometryChange()
        if self.screen is not None:
            self.screen.place()
        self.invalidate()

    def invalidate(self) -> None:
        """Draw the image whole at the next paint, and repaint all of it on screen. (With a screen copy, not
        the item in the scene: under the copy it is never seen, and what renders the scene paints it afresh.)"""
        self._key = None
        (self if self.screen is None else self.screen).update()

    def current(self) -> bool:
        """True if the image was drawn and not invalidated since: new pieces may be added to it. (Had the view
        changed since, the next paint draws it whole anyway, so the key is compared there only.)"""
        return self._key is not None

    def _key_now(self) -> tuple:
        t = self._data_transform()
        return (t.m11(), t.m22(), t.dx(), t.dy(), self._view.rect().size().toTuple(), self._pixel_ratio())

    def _pixel_ratio(self) -> float:
        """Device pixels per pixel of the window (2 on a high-DPI screen): the image is drawn in device pixels."""
        widget = self._view.getViewWidget()
        return widget.devicePixelRatioF() if widget is not None else 1.0

    def _data_transform(self) -> QTransform:
        """Data coordinates to this item's (the view's) pixels."""
        return self._view.childGroup.transform()

    def add(self, pieces: Sequence[Series], tops: Sequence[Series] = ()) -> None:
        """Draw `pieces` (each key's new points, with the one before them to join the line) into the image and
        repaint only where they fell; `tops` (the last markers of series drawn on top, such as an epoch's)
        are drawn again where the pieces went over them. The image must be current."""
        if self.image.isNull():  # a view with no area yet
            return
        transform = self._data_transform()
        dirty = QRectF()
        painter = self._painter()
        painter.setTransform(transform)
        for key, x, y in pieces:
            dirty |= _draw(painter, self.looks[key], x, y)
        for key, x, y in tops:
            if dirty.intersects(_pixels(transform, self.looks[key], _polygon(x, y))):
                dirty |= _draw(painter, self.looks[key], x, y)
        painter.end()
        if not dirty.isEmpty():
            self._repaint(dirty)

    def _repaint(self, rect: QRectF) -> None:
        """Qt repaints `rect` of this item where it is seen, in the screen copy: the strips of every plot in
        one repaint pass (through each plot's scene they were a pass each, three a frame)."""
        if self.screen is None:
            self.update(rect.adjusted(-1, -1, 1, 1))
        else:
            self.screen.update(rect.translated(self.screen.offset).toAlignedRect().adjusted(-1, -1, 1, 1))

    def _painter(self) -> QPainter:
        painter = QPainter(self.image)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, False)  # as the window's (pg antialias off)
        return painter

    def _draw_whole(self) -> None:
        ratio = self._pixel_ratio()
        size = (self._view.rect().size() * ratio).toSize()
        if self.image.size() != size:
            self.image = QImage(size, QImage.Format.Format_ARGB32_Premultiplied)
        self.image.setDevicePixelRatio(ratio)
        self.image.fill(Qt.GlobalColor.transparent)
        self.whole_draws += 1
        if self.image.isNull():
            return
        painter = self._painter()
        transform = self._data_transform()
        pen, ys, xs = self._grid()
        painter.setPen(pen)
        width, height = self._view.rect().width(), self._view.rect().height()
        for value in ys:
            y = transform.map(QPointF(0.0, value)).y()
            painter.drawLine(QLineF(0.0, y, width, y))
        for value in xs:
            x = transform.map(QPointF(value, 0.0)).x()
            painter.drawLine(QLineF(x, 0.0, x, height))
        painter.setTransform(transform)
        for key, x, y in self._everything():
            _draw(painter, self.looks[key], x, y)
        painter.end()

    def bring_up_to_date(self) -> None:
        """Draw the image whole if the view changed since it was drawn (or it was invalidated)."""
        key = self._key_now()
        if key != self._key:
            self._draw_whole()
            self._key = key

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None) -> None:
        """The scene's paint: under the screen copy on screen, so only what renders the scene (an export)."""
        self.bring_up_to_date()
        self.draw_image(painter, option.exposedRect)

    def draw_image(self, painter: QPainter, rect: QRectF, offset: QPointF | None = None) -> None:
        """The image's `rect` (this item's coordinates), drawn at `rect` moved by `offset`."""
        if self.image.isNull():
            return
        ratio = self.image.devicePixelRatio()
        source = QRectF(rect.topLeft() * ratio, rect.size() * ratio)
        painter.drawImage(rect if offset is None else rect.translated(offset), self.image, source)


class ScreenCopy(QWidget):
    """The layer's image on screen: an opaque child of the plot's viewport over the view, painting the plot's
    background and the image, so a frame's strip is repainted without the scene (see the module's docstring).
    Mouse events go through to the view (zoom, pan, its menu)."""

    def __init__(self, layer: PlotLayer, plot: QWidget, on_paint: Callable[[float], None]) -> None:
        super().__init__(plot.viewport())
        self._layer, self._plot, self._on_paint = layer, plot, on_paint
        self.offset = QPointF()  # the view's top-left in this widget's pixels: under a pixel
        self.setAttribute(Qt.WidgetAttribute.WA_OpaquePaintEvent)  # nothing under it is painted
        self.setAttribute(Qt.WidgetAttribute.WA_TransparentForMouseEvents)

    def place(self) -> None:
        """Cover the view, in whole pixels (its edges may fall between them)."""
        layer = self._layer
        exact = (layer.sceneTransform() * self._plot.viewportTransform()).mapRect(layer.boundingRect())
        self.setGeometry(exact.toAlignedRect())
        self.offset = exact.topLeft() - QPointF(self.pos())
        self.update()

    def paintEvent(self, event: QPaintEvent) -> None:
        started = time.thread_time()
        self._layer.bring_up_to_date()
        painter = QPainter(self)
        painter.fillRect(event.rect(), self._plot.backgroundBrush())
        self._layer.draw_image(painter, QRectF(event.rect()).translated(-self.offset), self.offset)
        painter.end()
        self._on_paint(time.thread_time() - started)


def _hide_mouse_mode(view: pg.ViewBox) -> None:
    """pyqtgraph's menu offers a mouse mode that zooms to a dragged rectangle: drawn in the scene, under the
    screen copy, it would not be seen. Panning with the left button and zooming with the right, or the wheel,
    stay."""
    modes = view.menu.mouseModes  # its two choices, in the submenu this hides
    for action in view.menu.actions():
        if action.menu() is not None and modes[0] in action.menu().actions():
            action.setVisible(False)


def _draw(painter: QPainter, look: Look, x: np.ndarray, y: np.ndarray) -> QRectF:
    """One series' points as a line (and markers), through `painter`'s transform from data to pixels; the
    rectangle in pixels it may have touched."""
    finite = np.isfinite(x) & np.isfinite(y)
    if finite.all():  # the usual case: one line
        runs = [(x, y)]
    elif look.gaps:  # a line per run of finite points
        edges = np.flatnonzero(np.diff(np.concatenate([[False], finite, [False]]).astype(np.int8)))
        runs = [(x[start:end], y[start:end]) for start, end in zip(edges[::2], edges[1::2], strict=True)]
    else:
        runs = [(x[finite], y[finite])]
    painter.setPen(look.pen)
    touched = QRectF()
    for run_x, run_y in runs:
        if not len(run_x):
            continue
        polygon = _polygon(run_x, run_y)
        if look.fill is not None:
            touched |= _fill(painter, look, run_x, run_y)
        painter.drawPolyline(polygon)
        if look.marker:
            _mark(painter, look, polygon)
        touched |= _pixels(painter.transform(), look, polygon)
    return touched


def _fill(painter: QPainter, look: Look, x: np.ndarray, y: np.ndarray) -> QRectF:
    """The area between a run of points and y = 0, in `look.fill`; the pixels it touched. The pen is kept."""
    area = _polygon(np.concatenate([x, x[-1:], x[:1]]), np.concatenate([y, [0.0, 0.0]]))
    pen = painter.pen()
    painter.setPen(Qt.PenStyle.NoPen)
    painter.setBrush(look.fill)
    painter.drawPolygon(area)
    painter.setBrush(Qt.BrushStyle.NoBrush)
    painter.setPen(pen)
    return _pixels(painter.transform(), look, area)


def _mark(painter: QPainter, look: Look, points: QPolygonF) -> None:
    """A marker `look.marker_size` pixels wide at each point, whatever the zoom."""
    centres = painter.transform().map(points)
    painter.save()
    painter.resetTransform()
    painter.setPen(Qt.PenStyle.NoPen)
    painter.setBrush(look.brush)
    half = look.marker_size / 2
    draw = painter.drawEllipse if look.marker == "o" else painter.drawRect
    for point in centres:
        draw(QRectF(point.x() - half, point.y() - half, look.marker_size, look.marker_size))
    painter.restore()


def _pixels(transform: QTransform, look: Look, points: QPolygonF) -> QRectF:
    """The pixels a series' points and their pen and markers may cover (a lone point's too: its rectangle
    has no size until the reach is added)."""
    reach = look.reach
    return transform.mapRect(points.boundingRect()).adjusted(-reach, -reach, reach, reach)


def _polygon(x: np.ndarray, y: np.ndarray) -> QPolygonF:
    polygon = pg.functions.create_qpolygonf(len(x))
    if len(x):  # an empty polygon has no memory to write into
        points = pg.functions.ndarray_from_qpolygonf(polygon)
        points[:, 0], points[:, 1] = x, y
    return polygon
