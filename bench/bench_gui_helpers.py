"""Shared bits of the GUI benchmarks: repo path, fake trainer, markdown tables."""
from __future__ import annotations

import statistics
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
FAKE_TRAINER = REPO / "tests" / "gui" / "fake_trainer.py"
sys.path.insert(0, str(REPO))


def fake_command(*args: str) -> list[str]:
    return [sys.executable, str(FAKE_TRAINER), *args]


def summary(values: list[float]) -> str:
    """median (min–max) of a few repeats."""
    return f"{statistics.median(values):.0f} ({min(values):.0f}–{max(values):.0f})"


def table(header: tuple[str, ...], rows: list[tuple[str, ...]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join(lines)
