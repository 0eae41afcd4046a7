"""A small change to how the window draws, on and off in one process, while a fake trainer streams.

    QT_QPA_PLATFORM=offscreen python bench/bench_window_toggles.py NAME [--seconds 60] [--history POINTS]

Separate processes measure the window's CPU to about ±10 % on this shared host, while the
changes still worth trying cost or save a few per cent. So one window streams the fake trainer's
50 batch events a second through the real runner, and the change NAME is switched on and off
every PHASE_S (on, off, off, on, on, off, …), half a second of settling skipped after each switch.
The result is this process's CPU share (getrusage, every thread) with the change off (A) and
on (B). The median of the paired B/A ratios is the number; `null` (switches nothing) shows how
far from 1.00 it lands by chance. Negative results are kept in BENCHMARKS.md so nobody retries them.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable

import numpy as np
import plain_plot_items
from bench_gui_helpers import cpu_seconds, fake_command
from bench_gui_stream import make_window, spin_until
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QGraphicsItem, QGraphicsScene, QGraphicsView

from gui.app import create_application
from gui.main_window import MainWindow

PHASE_S = 3.0
SETTLE_S = 0.5
STREAM = ("normal", "--epochs", "1000", "--steps", "200", "--delay", "0.02")  # 50 events a second

Switch = Callable[[bool], None]


def toggles(window: MainWindow) -> dict[str, Switch]:
    """The changes this bench knows, each a function of on/off."""
    plots = window.plots._plots
    show_progress = window.controls._show_progress
    modes = QGraphicsView.ViewportUpdateMode

    def every_plot(apply: Callable[[QGraphicsView, bool], None]) -> Switch:
        def switch(on: bool) -> None:
            for plot in plots:
                apply(plot, on)

        return switch

    def no_progress(on: bool) -> None:
        window.controls._show_progress = (lambda: None) if on else show_progress

    def cached(items: Callable[[QGraphicsView], list[QGraphicsItem]]) -> Switch:
        """Qt's pixmap cache of these items off when on (back to the window's own choice when off)."""
        chosen = {id(i): i.cacheMode() for p in plots for i in items(p)}

        def switch(on: bool) -> None:
            for plot in plots:
                for item in items(plot):
                    item.setCacheMode(QGraphicsItem.CacheMode.NoCache if on else chosen[id(item)])

        return switch

    def opaque_viewport(plot: QGraphicsView, on: bool) -> None:
        plot.viewport().setAttribute(Qt.WidgetAttribute.WA_OpaquePaintEvent, on)
        plot.viewport().setAutoFillBackground(not on)

    return {
        "null": lambda on: None,
        "no_progress": no_progress,  # the progress bar never redrawn: the most a cheaper bar could save
        "uncached_axes": cached(lambda p: [p.getPlotItem().getAxis(a) for a in ("left", "bottom")]),
        "opaque_controls": window.controls.setAutoFillBackground,  # the bar's repaint stops at its row
        "opaque_viewport": every_plot(opaque_viewport),
        "no_scene_index": every_plot(
            lambda p, on: p.scene().setItemIndexMethod(
                QGraphicsScene.ItemIndexMethod.NoIndex if on else QGraphicsScene.ItemIndexMethod.BspTreeIndex
            )
        ),
        "dont_save_painter": every_plot(
            lambda p, on: p.setOptimizationFlag(QGraphicsView.OptimizationFlag.DontSavePainterState, on)
        ),
        "bounding_rect_update": every_plot(
            lambda p, on: p.setViewportUpdateMode(
                modes.BoundingRectViewportUpdate if on else modes.MinimalViewportUpdate
            )
        ),
        # the image layer priced: pyqtgraph's own curve items instead (bench/plain_plot_items.py)
        "pyqtgraph_items": every_plot(plain_plot_items.switch),
        "full_update": every_plot(
            lambda p, on: p.setViewportUpdateMode(modes.FullViewportUpdate if on else modes.MinimalViewportUpdate)
        ),
    }


def with_history(window: MainWindow, points: int) -> None:
    """Each series of the metric plots starts with `points` points (squeezed before the stream's first step,
    as a run that has streamed for hours holds them), so a frame's cost is measured against a long run."""
    reset = window.plots.reset

    def reset_with_history(origin: float | None = None) -> None:
        reset(origin)
        rng = np.random.default_rng(0)
        x = np.linspace(0.0, 0.99, points)
        for plot in window.plots._metric_plots:
            for name in plot.traces:
                plot.extend(name, x, x, rng.random(points))

    window.plots.reset = reset_with_history


def wait(seconds: float) -> None:
    until = time.perf_counter() + seconds
    spin_until(lambda: time.perf_counter() > until, seconds + 60, poll_ms=100)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("name")
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument(
        "--history", type=int, default=0, help="points each series holds before the stream: a run hours along"
    )
    args = parser.parse_args()
    create_application([])
    window = make_window(lambda _config, run_dir: fake_command(*STREAM, "--run-dir", str(run_dir)))
    if args.history:
        with_history(window, args.history)
    switch = toggles(window)[args.name]
    window.start_run()
    spin_until(lambda: window.plots.plotted_points() > 0, 30)
    wait(3.0)  # past the first frames' cold caches
    shares: dict[bool, list[float]] = {False: [], True: []}
    end = time.perf_counter() + args.seconds
    phase = 0
    while time.perf_counter() < end:
        on = phase % 2 == (phase // 2) % 2  # on, off, off, on, …: a drifting host favours neither
        switch(on)
        wait(SETTLE_S)
        cpu0, wall0 = cpu_seconds(), time.perf_counter()
        wait(PHASE_S)
        shares[on].append((cpu_seconds() - cpu0) / (time.perf_counter() - wall0))
        phase += 1
    window.stop_run()
    spin_until(lambda: window.runner is None, 30)
    off, on = statistics.mean(shares[False]), statistics.mean(shares[True])
    ratios = [b / a for a, b in zip(shares[False], shares[True], strict=False)]
    print(
        f"| {args.name} | {100 * off:.2f} | {100 * on:.2f} | {statistics.median(ratios):.3f} | {len(ratios)} |",
        flush=True,
    )


if __name__ == "__main__":
    main()
