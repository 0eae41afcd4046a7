"""Synthetic events for the live plots' tests, and a shown TrainingPlots to feed them to."""

from __future__ import annotations

from engine.core import events as ev
from gui.live.plots import TrainingPlots

T0 = 1_000_000.0  # the run's Start, wall clock


def batch(step: int, loss: float = 0.5) -> ev.BatchEnd:
    return ev.BatchEnd(
        epoch=1, step=step, global_step=step, loss=loss, accuracy=0.5, examples_per_sec=1000.0, time=T0 + step / 10
    )


def epoch_end(**kw) -> ev.EpochEnd:
    values = dict(epoch=1, loss=0.2, accuracy=0.9, seconds=1.0, examples_per_sec=900.0, time=T0 + 1.0)
    return ev.EpochEnd(**{**values, **kw})


def shown_plots(qtbot) -> TrainingPlots:
    plots = TrainingPlots()
    qtbot.addWidget(plots)
    plots.resize(1200, 700)
    plots.show()
    plots.reset(origin=T0)
    return plots
