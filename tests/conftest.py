"""Suite-wide settings: no window system, no writes to the user's home."""
from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")


def pytest_configure(config) -> None:  # noqa: ANN001 - pytest hook signature
    import tempfile

    os.environ.setdefault("TFDD_RUNS_DIR", tempfile.mkdtemp(prefix="tfdd-test-runs-"))
