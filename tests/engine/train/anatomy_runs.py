"""Several runs in one process, each with the step anatomy measured or not, their events printed as JSON lines.

    python -m tests.engine.train.anatomy_runs CONFIGS_JSON   ([{"config": {...}, "anatomy": true}, ...])

Each run's events are preceded by a line `{"run": i}`. Virtual devices are fixed at a process's start, so
the runs of one call share their `virtual_devices`. PROBE_GROWTH 1 makes the meter probe after every
block of steps: what the probes do to training shows at its most.
"""

from __future__ import annotations

import json
import sys
import tempfile
from pathlib import Path

from engine.core import events as ev
from engine.core.config import RunConfig
from engine.core.protocol.channel import StopSignal


def main(runs: list[dict]) -> None:
    from engine.train import anatomy
    from engine.train.trainer import Trainer

    anatomy.PROBE_GROWTH = 1
    for i, run in enumerate(runs):
        print(json.dumps({"run": i}), flush=True)
        with tempfile.TemporaryDirectory() as tmp:
            Trainer(
                RunConfig.from_dict(run["config"]),
                Path(tmp),
                [lambda e: print(ev.encode(e), flush=True)],
                StopSignal(),
                anatomy=run["anatomy"],
            ).run()


if __name__ == "__main__":
    main(json.loads(sys.argv[1]))
