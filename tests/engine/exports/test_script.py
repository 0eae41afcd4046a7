"""`export-script` writes a standalone script that reaches the engine's per-epoch losses."""
from __future__ import annotations

import re
import subprocess
import sys

import pytest

from engine import events as ev
from engine.config import RunConfig
from engine.exports.script import render_script
from tests.engine.train.worker_process import REPO, base_config, env, train, write_config

EPOCH_LINE = re.compile(r"^epoch (\d+): loss=([0-9.eE+-]+)", re.M)


def test_script_embeds_the_config_and_no_dashboard_code():
    config = RunConfig.from_dict(base_config(loop="fit", seed=11))
    source = render_script(config)
    compile(source, "train.py", "exec")
    assert "'seed': 11" in source and "'loop': 'fit'" in source
    assert "from engine" not in source and "import engine" not in source


@pytest.mark.slow
@pytest.mark.parametrize("overrides", [
    {"virtual_devices": 2, "loop": "custom", "validation_split": 0.2},
    {"strategy": "one_device", "loop": "fit", "data": {"num_classes": 3}},
], ids=["mirrored-custom", "one-device-fit-multiclass"])
def test_exported_script_reproduces_engine_losses(tmp_path, overrides):
    config = base_config(**overrides)
    engine_run = train(tmp_path, config)
    assert engine_run.returncode == 0, engine_run.stderr[-2000:]
    engine_losses = [e.loss for e in engine_run.of(ev.EpochEnd)]

    path = write_config(tmp_path, config, "export.json")
    script = tmp_path / "train.py"
    out = subprocess.run([sys.executable, "main.py", "export-script", "--config", str(path), "--out", str(script)],
                         cwd=REPO, env=env(), capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    run = subprocess.run([sys.executable, str(script)], cwd=tmp_path, env=env(), capture_output=True, text=True,
                         timeout=300)
    assert run.returncode == 0, run.stderr[-2000:]
    script_losses = [float(loss) for _, loss in EPOCH_LINE.findall(run.stdout)]
    assert script_losses == pytest.approx(engine_losses, rel=1e-5)  # tolerance: see test_training.py
