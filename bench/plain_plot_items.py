"""The simpler design the live plots' image layer is priced against: pyqtgraph's own curve items.

Switched on, a LivePlot hides its image layer and its screen copy and shows each series as a
`pg.PlotDataItem` holding the whole trace, with pyqtgraph's own bounding of what a frame draws
(`setDownsampling(auto=True, method="peak")`: a min/max pair per pixel column, and `setClipToView`:
only the points in view), the grid as pyqtgraph's own, and the same frame pacing, sticky ranges and
data. Switched off, the plot is as the window ships it. Used by bench_window_toggles.py
(`pyqtgraph_items`), so both designs draw the same stream in one process, phase by phase.
"""

from __future__ import annotations

import types

import pyqtgraph as pg

from gui.live.live_plot import LivePlot


def _plain_redraw(plot: LivePlot, x_hi: float) -> bool:
    """What LivePlot.redraw does, with every series handed whole to its curve item."""
    moved = plot.hold_range(x_hi)
    for name in plot._dirty:
        trace = plot.traces[name]
        plot._plain_items[name].setData(plot.points_x(trace), trace.y.values)
        plot._drawn[name] = len(trace)
    plot._dirty.clear()
    plot.frames += 1
    return moved


def switch(plot: LivePlot, on: bool) -> None:
    """The plot drawn by pyqtgraph's items (on) or by its image layer (off)."""
    item = plot.getPlotItem()
    if getattr(plot, "_plain_on", False) == on:
        return
    plot._plain_on = on
    if not hasattr(plot, "_plain_items"):
        plot._plain_items = {}
        for name, look in plot.layer.looks.items():
            curve = pg.PlotDataItem(
                pen=look.pen,
                symbol=look.marker or None,
                symbolSize=look.marker_size or None,
                symbolBrush=look.brush,
                fillLevel=0.0 if look.fill is not None else None,
                fillBrush=look.fill,
                connect="finite",
            )
            curve.setDownsampling(auto=True, method="peak")
            curve.setClipToView(True)
            plot._plain_items[name] = curve
    for name, curve in plot._plain_items.items():
        if on:
            item.addItem(curve)
            plot._dirty.add(name)
        else:
            item.removeItem(curve)
    plot.layer.setVisible(not on)
    if plot.layer.screen is not None:
        plot.layer.screen.setVisible(not on)
    item.showGrid(x=False, y=on, alpha=0.3)
    if on:
        plot.redraw = types.MethodType(_plain_redraw, plot)
    else:
        plot.__dict__.pop("redraw", None)
        plot._dirty.update(n for n, t in plot.traces.items() if len(t))
        plot.layer.invalidate()
