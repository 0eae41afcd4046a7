"""Curves and markers whose bounds are their view's, for plots whose range something else holds.

The live plots' range is held by an invisible extent item (gui/live/plots.py), every curve is added
with `ignoreBounds`, and the view clips its children to itself; so a curve's own bounds only tell Qt
what to repaint, and the view's rectangle does that as well. pyqtgraph's items work theirs out from
their data instead, in Python: a curve after every setData (nanmin and nanmax, then the pixel size for
its pen's padding), a scatter on every one of the several calls a frame makes (measured: about a third
of a live plot's paint), and each setData also asks the view to redo its auto-range before the next
paint (another tenth), though these bounds cannot change the range. Here the bounding rect is the
view's rectangle, worked out again only when the view's transform changes (a zoom, a pan, a resize,
the range stepping on).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QPainter, QPen, QPolygonF
from PySide6.QtWidgets import QGraphicsItem, QStyleOptionGraphicsItem, QWidget


class _SizedToView:
    """Mixed into a pyqtgraph item: bounds = the view's rectangle, in the item's (data) coordinates."""

    _view_rect: QRectF | None = None

    def boundingRect(self) -> QRectF:
        if self._view_rect is None:
            view = self.getViewBox()
            if view is None:  # not in a plot yet: joining one calls viewTransformChanged
                return QRectF()
            self._view_rect = self.mapRectFromItem(view.childGroup, view.viewRect())
        return self._view_rect

    def viewTransformChanged(self) -> None:
        self.prepareGeometryChange()
        self._view_rect = None
        super().viewTransformChanged()

    def informViewBoundsChanged(self) -> None:
        """Nothing to tell: added with ignoreBounds, these bounds never steer the view's range."""


class ViewSizedCurve(_SizedToView, pg.PlotCurveItem):
    """A PlotCurveItem whose bounds are its view's."""


class PolylineCurve(_SizedToView, pg.GraphicsObject):
    """A line through finite points, one polyline: the live plots' streaming curves.

    Their points change every frame and their look never does, yet PlotCurveItem re-reads its options,
    builds a QPainterPath and strokes it on every paint, and setData redoes its bookkeeping. Here setData
    fills a QPolygonF once and paint is one drawPolyline with a cosmetic pen (its width in pixels, as
    pyqtgraph's). With the epoch lines kept as pixmaps, a frame cost the GUI thread 12 % less (measured)."""

    def __init__(self, pen: QPen) -> None:
        super().__init__()
        self._pen = pen
        self._x: np.ndarray = np.empty(0)
        self._y: np.ndarray = np.empty(0)
        self._polygon = QPolygonF()

    def setData(self, x: np.ndarray, y: np.ndarray) -> None:
        """The line's points; a non-finite one (NaN, inf) is left out, as a polygon cannot hold a gap."""
        x, y = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
        finite = np.isfinite(x) & np.isfinite(y)
        if not finite.all():
            x, y = x[finite], y[finite]
        self._x, self._y = x, y
        self._polygon = pg.functions.create_qpolygonf(len(x))
        if len(x):  # an empty polygon has no memory to write into
            points = pg.functions.ndarray_from_qpolygonf(self._polygon)
            points[:, 0], points[:, 1] = x, y
        self.update()

    def getData(self) -> tuple[np.ndarray, np.ndarray]:
        return self._x, self._y

    def pen(self) -> QPen:
        return self._pen

    def setPen(self, pen: QPen) -> None:
        self._pen = pen
        self.update()

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None) -> None:
        if len(self._polygon) > 1:
            painter.setPen(self._pen)
            painter.drawPolyline(self._polygon)


class MarkedCurve(PolylineCurve):
    """A line with a marker at each point (epochs, validations), in one item: they change once an epoch, so
    Qt keeps the item as a pixmap between changes and the frames between blit it. (A pyqtgraph curve and
    scatter, each cached, were two full-plot pixmaps to blend per frame instead of one.) Markers are
    `symbolSize` pixels whatever the zoom: a circle ("o") or a square ("s") filled with `symbolBrush`."""

    def __init__(self, *, pen: QPen, symbol: str, symbolSize: int, symbolBrush: Any) -> None:
        super().__init__(pen)
        self._symbol, self._size, self._brush = symbol, symbolSize, pg.mkBrush(symbolBrush)
        self.setCacheMode(QGraphicsItem.CacheMode.DeviceCoordinateCache)

    def setSymbolBrush(self, brush: Any) -> None:
        self._brush = pg.mkBrush(brush)
        self.update()

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None) -> None:
        super().paint(painter, option, widget)
        at = painter.transform().map(self._polygon)  # the markers' centres in device pixels
        painter.save()
        painter.resetTransform()
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(self._brush)
        half = self._size / 2
        draw = painter.drawEllipse if self._symbol == "o" else painter.drawRect
        for point in at:
            draw(QRectF(point.x() - half, point.y() - half, self._size, self._size))
        painter.restore()
