"""What a test of the window's Python-stacks dialog checks, once: py-spy's dump names the blocking function."""

from __future__ import annotations

import pytest


def assert_stacks_show(qtbot, dialog, function: str) -> None:
    """Wait for the dialog's dump; skip where py-spy may not attach (ptrace), else `function` must be in it."""
    qtbot.waitUntil(lambda: dialog.ready, timeout=60_000)
    if "may not attach" in dialog.text():
        pytest.skip(f"py-spy cannot attach here (ptrace): {dialog.text()}")
    assert function in dialog.text(), dialog.text()
    dialog.close()
