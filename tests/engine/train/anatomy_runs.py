"""Several runs in one process, each with the step anatomy measured or not, their events printed as JSON lines.

    python -m tests.engine.train.anatomy_runs CONFIGS_JSON
        ([{"config": {...}, "anatomy": true, "stop_at": "probe", "grace_s": 0.05}, ...])

Each run's events are preceded by a line `{"run": i}` and followed by `{"probes": n}`, the probes it ran.
Virtual devices are fixed at a process's start, so the runs of one call share their `virtual_devices`.
PROBE_GROWTH 1 makes the meter probe after every block of steps: what the probes do to training shows at its
most. `stop_at` asks the run's StopSignal (its grace `grace_s`) to stop as the first probe starts ("probe") or
as the first block's report begins ("block").
"""

from __future__ import annotations

import json
import sys
import tempfile
from pathlib import Path
from typing import Any

from engine.core import events as ev
from engine.core.config import RunConfig
from engine.core.protocol.channel import StopSignal


def main(runs: list[dict]) -> None:
    from engine.train import anatomy
    from engine.train.controller import Controller
    from engine.train.trainer import Trainer

    anatomy.PROBE_GROWTH = 1
    measure, block_done = anatomy.StepProbes.measure, Controller.block_done
    stop: StopSignal | None = None
    stop_at: str | None = None
    probes = 0

    def probe_measure(self: Any, steps: int) -> tuple[float, float]:
        nonlocal probes
        probes += 1
        if stop_at == "probe":
            stop.request()
        return measure(self, steps)

    def controller_block_done(self: Any, *args: Any, **kwargs: Any) -> bool:
        if stop_at == "block":
            stop.request()
        return block_done(self, *args, **kwargs)

    anatomy.StepProbes.measure = probe_measure
    Controller.block_done = controller_block_done
    for i, run in enumerate(runs):
        print(json.dumps({"run": i}), flush=True)
        stop, stop_at, probes = StopSignal(grace_s=run.get("grace_s", 8.0)), run.get("stop_at"), 0
        with tempfile.TemporaryDirectory() as tmp:
            Trainer(
                RunConfig.from_dict(run["config"]),
                Path(tmp),
                [lambda e: print(ev.encode(e), flush=True)],
                stop,
                anatomy=run["anatomy"],
            ).run()
        print(json.dumps({"probes": probes}), flush=True)


if __name__ == "__main__":
    main(json.loads(sys.argv[1]))
