"""The code keeps its own rules: the import contracts (layers, the seam, one door to TensorFlow), no import
cycle, and ruff."""

from __future__ import annotations

import shutil
import subprocess

import grimp
import pytest

from tests.repo import REPO


def test_import_contracts_hold():
    lint = shutil.which("lint-imports")
    if lint is None:
        pytest.fail("import-linter is not installed: pip install -e .[test]")
    out = subprocess.run([lint], cwd=REPO, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stdout + out.stderr


def test_no_module_imports_itself_through_others():
    """No import cycle among the modules of engine and gui, counting imports made only for type checking and
    imports inside functions: each module can be read (and changed) knowing only what is below it."""
    graph = grimp.build_graph("engine", "gui", include_external_packages=False)
    cycles = set()
    for module in graph.modules:
        for imported in graph.find_modules_directly_imported_by(module):
            back = graph.find_shortest_chain(importer=imported, imported=module)
            if back is not None:
                cycles.add(" -> ".join((module, *back)))
    assert not cycles, "import cycles:\n" + "\n".join(sorted(cycles))


@pytest.mark.parametrize("command", [["check", "."], ["format", "--check", "."]], ids=["lint", "format"])
def test_ruff_is_clean(command):
    """The linter and the formatter (ruff, configured in pyproject.toml) have nothing to say."""
    ruff = shutil.which("ruff")
    if ruff is None:
        pytest.fail("ruff is not installed: pip install -e .[test]")
    out = subprocess.run([ruff, *command], cwd=REPO, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stdout + out.stderr
