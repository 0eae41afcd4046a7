"""A stand-in for `tfdd sweep --events` that speaks the protocol in milliseconds.

Usage: fake_sweep.py MODE SWEEP_DIR. Modes:
start: trial 0 trains an epoch; trial 1 is pruned at epoch 1; then it waits for "stop" on stdin, says trial 0
  was interrupted at epoch 1 and that the sweep stopped (what the real sweep says when stopped mid-way).
resume: says what it holds (trial 1 pruned, trial 0 interrupted), continues trial 0's folder as trial 2 to
  completion, and finishes.
"""

from __future__ import annotations

import sys

from engine.core import events as ev
from engine.core.messages import msg

PARAMS = ({"learning_rate": 0.01}, {"learning_rate": 5.0})
WHY = msg(  # what engine.tools.sweep_pruning says of trial 1
    "its best {objective} so far, {value:.4g}, is worse than the median {median:.4g} of the {count} completed "
    "trials at epoch {epoch}",
    objective="val_loss",
    value=9.0,
    median=0.8,
    count=1,
    epoch=1,
)


def emit(event: ev.Event) -> None:
    sys.stdout.write(ev.encode(event) + "\n")
    sys.stdout.flush()


def trial(number: int, state: str, lr: int, sweep_dir: str, **fields) -> ev.SweepTrial:
    run_dir = f"{sweep_dir}/trial-{0 if number == 2 else number:03d}"
    return ev.SweepTrial(number=number, state=state, params=PARAMS[lr], devices="CPU", run_dir=run_dir, **fields)


def main() -> int:
    mode, sweep_dir = sys.argv[1], sys.argv[2]
    pruned = trial(1, "pruned", 1, sweep_dir, value=9.0, epoch=1, seconds=3.0, message=WHY)
    if mode == "start":
        emit(trial(0, "running", 0, sweep_dir))
        emit(trial(1, "running", 1, sweep_dir))
        emit(trial(0, "running", 0, sweep_dir, value=0.8, epoch=1, seconds=2.0))
        emit(trial(1, "running", 1, sweep_dir, value=9.0, epoch=1, seconds=2.0))
        emit(pruned)
        emit(ev.SweepSummary(finished=1, budget=2, importance_note="comes once two trials have completed"))
        for line in sys.stdin:
            if line.strip() == "stop":
                break
        emit(trial(0, "interrupted", 0, sweep_dir, value=0.8, epoch=1, seconds=4.0))
        emit(ev.RunFinished(status="stopped", epochs_completed=2, run_dir=sweep_dir))
        return 0
    emit(pruned)
    emit(trial(0, "interrupted", 0, sweep_dir))
    emit(trial(2, "running", 0, sweep_dir))
    emit(trial(2, "running", 0, sweep_dir, value=0.5, epoch=2, seconds=5.0))
    emit(trial(2, "completed", 0, sweep_dir, value=0.5, epoch=2, seconds=5.0))
    best = {"best_number": 2, "best_value": 0.5, "best_params": PARAMS[0]}
    emit(
        ev.SweepSummary(finished=2, budget=2, importance={"learning_rate": 1.0}, importance_method="PED-ANOVA", **best)
    )
    emit(ev.RunFinished(status="completed", epochs_completed=3, run_dir=sweep_dir))
    return 0


if __name__ == "__main__":
    sys.exit(main())
