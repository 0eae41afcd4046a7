"""What an epoch's end costs headless: its wall time against the time its steps took, in the same run.

    python bench/bench_epoch_end.py [--runs 2] [--examples 640000] [--loop custom]

A bare worker trains bench_gui_throughput's CONFIG (Mirrored on 2 virtual CPUs, no validation or
checkpoints) with `--examples` examples an epoch for 3 epochs. For each epoch: how long after its
last batch event `epoch_end` came, and its wall seconds ÷ its steps' seconds (the engine's examples/s
counts step time only), so the host's speed cancels. 1.00 means nothing but steps.
"""

from __future__ import annotations

import argparse
import dataclasses
import tempfile
from pathlib import Path

from bench_gui_helpers import table
from bench_gui_throughput import CONFIG, run_output_dropped

from engine.core.events import BatchEnd, EpochEnd, RunStarted
from engine.core.runs.rundir import read_events

EPOCHS = 3


def epoch_ends(run_dir: Path) -> list[tuple[float, float]]:
    """Per epoch: (s from its last batch_end to its epoch_end, wall seconds ÷ step seconds)."""
    events = read_events(run_dir)
    (started,) = [e for e in events if isinstance(e, RunStarted)]
    out, last_batch = [], None
    for e in events:
        if isinstance(e, BatchEnd):
            last_batch = e.time
        elif isinstance(e, EpochEnd) and last_batch is not None:
            step_seconds = started.steps_per_epoch * started.global_batch_size / e.examples_per_sec
            out.append((e.time - last_batch, e.seconds / step_seconds))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=2)
    parser.add_argument("--examples", type=int, default=640_000)
    parser.add_argument("--loop", choices=["custom", "fit"], default="custom")
    args = parser.parse_args()
    config = dataclasses.replace(
        CONFIG, epochs=EPOCHS, loop=args.loop, data=dataclasses.replace(CONFIG.data, num_samples=args.examples)
    )
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        config_path = root / "config.json"
        config.save(config_path)
        for run in range(args.runs):
            run_dir = root / f"run-{run}"
            run_output_dropped(config_path, run_dir)
            for epoch, (gap, ratio) in enumerate(epoch_ends(run_dir), start=1):
                rows.append([str(run + 1), str(epoch), f"{gap:.3f}", f"{ratio:.2f}"])
    print(table(["run", "epoch", "last batch → epoch_end (s)", "wall ÷ steps"], rows))


if __name__ == "__main__":
    main()
