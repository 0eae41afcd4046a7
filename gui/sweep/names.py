"""How the sweep's settings are named in the window (the engine's keys stay in the space's JSON)."""

from __future__ import annotations

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication

CONTEXT = "SweepNames"
METHODS = {
    "tpe": QT_TRANSLATE_NOOP("SweepNames", "TPE (model-based: learns where good trials are)"),
    "random": QT_TRANSLATE_NOOP("SweepNames", "random"),
    "grid": QT_TRANSLATE_NOOP("SweepNames", "grid (every combination)"),
}
PRUNERS = {
    "median": QT_TRANSLATE_NOOP("SweepNames", "median: stop a trial worse than the median at the same epoch"),
    "halving": QT_TRANSLATE_NOOP("SweepNames", "successive halving: keep the best share at each rung"),
    "none": QT_TRANSLATE_NOOP("SweepNames", "none: every trial trains all its epochs"),
}
OBJECTIVES = {
    "val_loss": QT_TRANSLATE_NOOP("SweepNames", "validation loss (lower is better)"),
    "val_accuracy": QT_TRANSLATE_NOOP("SweepNames", "validation accuracy (higher is better)"),
    "loss": QT_TRANSLATE_NOOP("SweepNames", "training loss (lower is better)"),
    "accuracy": QT_TRANSLATE_NOOP("SweepNames", "training accuracy (higher is better)"),
}
DISTRIBUTIONS = {
    "choice": QT_TRANSLATE_NOOP("SweepNames", "choice"),
    "log_uniform": QT_TRANSLATE_NOOP("SweepNames", "log-uniform range"),
    "uniform": QT_TRANSLATE_NOOP("SweepNames", "uniform range"),
    "int": QT_TRANSLATE_NOOP("SweepNames", "whole numbers"),
}


def name(names: dict[str, str], key: str) -> str:
    """A setting's name in the window's language (the key itself when it has none)."""
    return QCoreApplication.translate(CONTEXT, names[key]) if key in names else key
