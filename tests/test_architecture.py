"""The layering rule enforces itself: engine imports no Qt, gui imports no TensorFlow."""
from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]


def test_import_contracts_hold():
    lint = shutil.which("lint-imports")
    if lint is None:
        pytest.fail("import-linter is not installed: pip install -e .[test]")
    out = subprocess.run([lint], cwd=REPO, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stdout + out.stderr
