"""`pip install .` (not editable) into a fresh virtual environment, then used from outside the checkout.

The protocol starts children with `python -m ...`, so the installed package must work in any working
directory: `tfdd train`, `tfdd cluster launch` and a run started from the window. The wheel is built with
this environment's setuptools (the test extra asks for one that builds wheels by itself: a Python 3.11
venv's own setuptools 65.5 cannot), so nothing is downloaded. The new environment reads this interpreter's
site-packages for the heavy dependencies (TensorFlow is 572 MB) through a `.pth` line, whether this
interpreter is a venv's or the system's, and gets only this package installed; nothing of the checkout is on
its path (a `.pth` line adds a folder without running the `.pth` files in it, such as an editable install's).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import sysconfig
import tomllib
from pathlib import Path

import pytest

from tests.repo import REPO

pytestmark = [pytest.mark.slow, pytest.mark.timeout(900)]


def test_every_package_of_the_tree_is_installed():
    """A package missing from pyproject's list works in a checkout and breaks the installed app."""
    listed = set(tomllib.loads((REPO / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"])
    found = {
        ".".join(p.parent.relative_to(REPO).parts)
        for top in ("engine", "gui")
        for p in (REPO / top).rglob("__init__.py")
    }
    assert found <= listed, f"add to [tool.setuptools] packages: {sorted(found - listed)}"


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> dict[str, Path]:
    """A virtual environment with this package installed from a wheel-style build of the checkout."""
    root = tmp_path_factory.mktemp("install")
    wheels = root / "wheels"
    build = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "--no-build-isolation", "-w", str(wheels), str(REPO)],
        capture_output=True,
        text=True,
        timeout=600,
        env=clean_env(root),
    )
    assert build.returncode == 0, build.stdout + build.stderr
    venv = root / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=120)
    python = venv / "bin" / "python"
    site = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    ours = {sysconfig.get_path("purelib"), sysconfig.get_path("platlib")}
    (Path(site) / "dependencies.pth").write_text("\n".join(sorted(ours)) + "\n", encoding="utf-8")
    (wheel,) = wheels.glob("*.whl")
    install = subprocess.run(
        [str(python), "-m", "pip", "install", "-q", "--no-deps", str(wheel)],
        capture_output=True,
        text=True,
        timeout=600,
        env=clean_env(root),
    )
    assert install.returncode == 0, install.stdout + install.stderr
    outside = root / "elsewhere"
    outside.mkdir()
    return {"python": python, "bin": venv / "bin", "cwd": outside, "root": root}


def clean_env(home: Path) -> dict[str, str]:
    """No PYTHONPATH (the suite points it at the checkout), and a home of its own."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "TFDD_RUNS_DIR")}
    return dict(env, HOME=str(home), QT_QPA_PLATFORM="offscreen", TF_CPP_MIN_LOG_LEVEL="2")


def run(installed: dict[str, Path], *command: str, timeout: float = 300) -> subprocess.CompletedProcess:
    return subprocess.run(
        list(command),
        cwd=installed["cwd"],
        env=clean_env(installed["root"]),
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def test_the_installed_package_is_the_one_imported(installed):
    out = run(
        installed,
        str(installed["python"]),
        "-c",
        "import engine, gui, tfdd_resources; print(engine.__file__); print(tfdd_resources.__file__)",
    )
    assert out.returncode == 0, out.stderr
    for line in out.stdout.split():
        assert str(installed["root"]) in line and str(REPO) not in line


def tiny_config(path: Path, **overrides: object) -> Path:
    config = {
        "strategy": "one_device",
        "epochs": 1,
        "global_batch_size": 32,
        "data": {"kind": "synthetic", "num_samples": 256},
        **overrides,
    }
    path.write_text(json.dumps(config), encoding="utf-8")
    return path


def test_tfdd_train_runs_from_another_folder(installed):
    config = tiny_config(installed["cwd"] / "run.json")
    out = run(
        installed,
        str(installed["bin"] / "tfdd"),
        "train",
        "--config",
        str(config),
        "--run-dir",
        str(installed["root"] / "train-run"),
    )
    assert out.returncode == 0, out.stderr[-3000:]
    assert (installed["root"] / "train-run" / "metrics.csv").is_file()


def test_tfdd_cluster_launch_runs_two_workers(installed):
    config = tiny_config(installed["cwd"] / "cluster.json", strategy="multi_worker_mirrored")
    out = run(
        installed,
        str(installed["bin"] / "tfdd"),
        "cluster",
        "launch",
        "--workers",
        "2",
        "--config",
        str(config),
        "--run-dir",
        str(installed["root"] / "cluster-run"),
    )
    assert out.returncode == 0, out.stdout[-2000:] + out.stderr[-2000:]
    assert "completed: all 2 task(s) done" in out.stdout


def test_a_run_started_from_the_window_completes(installed):
    out = run(
        installed,
        str(installed["python"]),
        str(REPO / "tests" / "install_window_run.py"),
        str(installed["root"] / "window-runs"),
    )
    assert out.returncode == 0, out.stdout[-2000:] + out.stderr[-2000:]
    assert "WINDOW_RUN completed" in out.stdout
