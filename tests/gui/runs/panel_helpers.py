"""Waiting for the Runs tab, which reads on its loader's thread: refresh and select, then wait for the answer."""

from __future__ import annotations

from pathlib import Path

from gui.runs.compare_plots import ComparePlots
from gui.runs.panel import RunsPanel

WAIT_MS = 20_000


def refresh(qtbot, panel: RunsPanel) -> None:  # noqa: ANN001 - pytest-qt's qtbot
    """Refresh and wait until the table shows every run found."""
    with qtbot.waitSignal(panel.runs_loaded, timeout=WAIT_MS):
        panel.refresh()


def select(qtbot, panel: RunsPanel, paths: list[Path]) -> None:  # noqa: ANN001
    """Select runs and wait until their curves are drawn (or found unchanged)."""
    with qtbot.waitSignal(panel.curves_shown, timeout=WAIT_MS):
        panel.select_paths(paths)
    drawn(qtbot, panel.compare)


def drawn(qtbot, compare: ComparePlots) -> None:  # noqa: ANN001
    """Wait until every compare plot shows the current runs (a few runs are drawn per turn of the event loop)."""
    qtbot.waitUntil(lambda: not compare.drawing, timeout=WAIT_MS)
