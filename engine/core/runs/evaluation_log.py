"""RUN_DIR/evaluation.csv: the evaluator task's file (the chief owns metrics.csv)."""

from __future__ import annotations

from pathlib import Path

from engine.core import events as ev
from engine.core.protocol.paths import RunPaths
from engine.core.runs.rundir import csv_line, read_metrics
from engine.core.runs.safe_files import LineFile

EVALUATION_COLUMNS = [
    "epoch",
    "step",
    "global_step",
    "val_loss",
    "val_accuracy",
    "examples",
    "seconds",
    "cpu_seconds",
    "checkpoint",
]


class EvaluationLog:
    """RUN_DIR/evaluation.csv, the evaluator task's file (the chief owns metrics.csv); an event sink.

    One whole row per evaluated checkpoint, appended and fsynced, so an
    evaluator started again (a resumed run) skips what it has already validated.
    """

    def __init__(self, run_dir: Path):
        self.paths = RunPaths(Path(run_dir))
        self.path = self.paths.evaluation

    def checkpoints(self) -> set[str]:
        """Names of the checkpoints validated so far, e.g. {"ckpt-1", "ckpt-2"}."""
        return {Path(r["checkpoint"]).name for r in read_metrics(self.path) if r.get("checkpoint")}

    def __call__(self, event: ev.Event) -> None:
        if not isinstance(event, ev.Evaluation):
            return
        rows = LineFile(self.path, self.paths.set_aside)
        try:
            if self.path.stat().st_size == 0:
                rows.append(",".join(EVALUATION_COLUMNS), flush=False)
            rows.append(csv_line(EVALUATION_COLUMNS, ev.to_dict(event)), sync=True)
        finally:
            rows.close()
