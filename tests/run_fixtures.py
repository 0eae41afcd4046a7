"""Run directories for tests, written by the engine's own RunDir sink with real event types.

Shared by the engine's history tests and the GUI's runs-panel tests.
"""

from __future__ import annotations

from pathlib import Path

from engine.core import events as ev
from engine.core.config import RunConfig
from engine.core.runs.rundir import RunDir


def write_run(
    root: Path,
    name: str,
    ending: ev.Event | None,
    epochs: int = 2,
    t0: float = 1000.0,
    anatomy: tuple[float, float, float, float] | None = None,
) -> Path:
    """A run of `epochs` epochs of 2 steps; with `anatomy` (input, compute, sync and rest ms per step), each
    epoch's steps report that step anatomy before the epoch's end."""
    # writing again into a run (it "went on") is what a resume does
    run = RunDir(root / name, validation=True, resume=(root / name / "config.json").is_file())
    RunConfig(epochs=3, loop="fit").save(run.config_path)
    run(
        ev.RunStarted(
            strategy="mirrored",
            num_replicas=2,
            devices=["/cpu:0", "/cpu:1"],
            global_batch_size=64,
            per_replica_batch_size=32,
            loop="fit",
            epochs=3,
            steps_per_epoch=2,
            steps_per_execution=1,
            run_dir=str(run.path),
            time=t0,
        )
    )
    for epoch in range(1, epochs + 1):
        for step in (1, 2):
            run(
                ev.BatchEnd(
                    epoch=epoch,
                    step=step,
                    global_step=2 * (epoch - 1) + step,
                    loss=1.0 / epoch,
                    accuracy=0.5,
                    examples_per_sec=100.0,
                    time=t0 + epoch + step / 10,
                )
            )
        if anatomy is not None:
            parts = dict(zip(("input_ms", "compute_ms", "sync_ms", "rest_ms"), anatomy, strict=True))
            run(
                ev.StepAnatomy(
                    epoch=epoch, global_step=2 * epoch, steps=2, step_ms=sum(anatomy), time=t0 + epoch + 0.4, **parts
                )
            )
        run(
            ev.EpochEnd(
                epoch=epoch,
                loss=1.0 / epoch,
                accuracy=0.5 + epoch / 10,
                seconds=1.0,
                examples_per_sec=100.0,
                val_loss=1.1 / epoch,
                val_accuracy=0.5,
                time=t0 + epoch + 0.5,
            )
        )
    if ending is not None:
        run(ending)
    run.close()
    return run.path
