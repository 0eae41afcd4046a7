"""A cluster task's entry, as `python -m engine.train.worker`, whose trainer measures no step anatomy
(`Trainer(anatomy=False)`); a parameter_server probe run all the same ends the run with an error saying so.

    python -m tests.engine.cluster.task_without_anatomy --config F --run-dir D
"""

from __future__ import annotations

import functools
import sys
from typing import Any

from engine.train import task, worker


def no_probe(self: Any, steps: int) -> tuple[float, float]:
    raise RuntimeError("a step-time probe ran in a run whose step anatomy is off")


if __name__ == "__main__":
    from engine.train.ps_anatomy import PSProbes

    task.Trainer = functools.partial(task.Trainer, anatomy=False)
    PSProbes.measure = no_probe
    sys.exit(worker.main())
