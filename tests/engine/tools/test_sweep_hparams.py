"""The sweep writes TensorBoard's HParams records itself: without TensorFlow, in the format TensorBoard reads."""

from __future__ import annotations

import subprocess
import sys

from tests.repo import REPO

WRITE = """
import sys
from pathlib import Path
from engine.core.config import RunConfig
from engine.core.sweep.space import parse_space
from engine.tools import sweep_hparams
varied = {"learning_rate": {"log_uniform": [0.001, 0.1]}, "model.hidden_units": {"choice": [[8], [16, 8]]}}
space = parse_space({"parameters": varied, "objective": "loss"}, RunConfig())
sweep_hparams.write_space(Path(sys.argv[1]), space)
sweep_hparams.write_trial(Path(sys.argv[1]) / "trial-000", {"learning_rate": 0.01, "model.hidden_units": [16, 8]})
print("tensorflow" in sys.modules)
"""


def test_the_hparams_records_are_written_without_tensorflow_and_read_by_tensorboard(tmp_path):
    """TensorBoard's EventFileWriter opens files through TensorFlow: a 3-4 s import in the sweep process."""
    done = subprocess.run([sys.executable, "-c", WRITE, str(tmp_path)], cwd=REPO, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "False"
    from tensorboard.backend.event_processing.event_file_loader import EventFileLoader

    def tags(folder):
        return {
            v.tag
            for f in folder.glob("events.out.tfevents.*")
            for e in EventFileLoader(str(f)).Load()
            for v in e.summary.value
        }

    assert tags(tmp_path) == {"_hparams_/experiment"}
    assert tags(tmp_path / "trial-000" / "tensorboard") == {"_hparams_/session_start_info"}
