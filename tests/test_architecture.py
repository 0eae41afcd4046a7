"""The code keeps its own rules: the import contracts (layers, the seam, one door to TensorFlow) and ruff."""

from __future__ import annotations

import shutil
import subprocess

import pytest

from tests.repo import REPO


def test_import_contracts_hold():
    lint = shutil.which("lint-imports")
    if lint is None:
        pytest.fail("import-linter is not installed: pip install -e .[test]")
    out = subprocess.run([lint], cwd=REPO, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stdout + out.stderr


@pytest.mark.parametrize("command", [["check", "."], ["format", "--check", "."]], ids=["lint", "format"])
def test_ruff_is_clean(command):
    """The linter and the formatter (ruff, configured in pyproject.toml) have nothing to say."""
    ruff = shutil.which("ruff")
    if ruff is None:
        pytest.fail("ruff is not installed: pip install -e .[test]")
    out = subprocess.run([ruff, *command], cwd=REPO, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stdout + out.stderr
