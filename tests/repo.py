"""Where the checkout under test is, for tests that start its programs or read its files."""

from __future__ import annotations

from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
