"""Run directories for the GUI's history tests, written by the engine's own RunDir sink and event types.

The writer is tests/run_fixtures.write_run, shared with the engine's history tests.
Run as a script (`python history_runs.py RUN_DIR`), it is a trainer stand-in
that leaves a completed run in RUN_DIR and reports its end on stdout, as the
worker protocol does.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from engine.core import events as ev  # noqa: E402
from tests.run_fixtures import write_run  # noqa: E402

NAMES = {
    "done": "20240101-100000-done-mirrored-fit",
    "stopped": "20240101-110000-stopped-mirrored-fit",
    "failed": "20240101-120000-failed-mirrored-fit",
    "killed": "20240101-130000-killed-mirrored-fit",
}


def make_runs(root: Path) -> dict[str, Path]:
    """Four runs, oldest first: completed (3 epochs), stopped with a checkpoint, failed, killed."""
    root.mkdir(parents=True, exist_ok=True)
    runs = {
        "done": write_run(
            root,
            NAMES["done"],
            ev.RunFinished(status="completed", epochs_completed=3, run_dir="", time=1010.0),
            3,
            t0=1000.0,
        ),
        "stopped": write_run(
            root,
            NAMES["stopped"],
            ev.RunFinished(status="stopped", epochs_completed=1, run_dir="", time=2010.0),
            1,
            t0=2000.0,
        ),
        "failed": write_run(root, NAMES["failed"], ev.RunFailed(message="loss became nan", time=3010.0), 2, t0=3000.0),
        "killed": write_run(root, NAMES["killed"], None, 1, t0=4000.0),
    }
    (runs["stopped"] / "checkpoints" / "ckpt-1.index").write_bytes(b"")
    return runs


def main(run_dir: str) -> int:
    path = Path(run_dir)
    end = ev.RunFinished(status="completed", epochs_completed=3, run_dir=str(path))
    write_run(path.parent, path.name, end, 3)
    print(ev.encode(end), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
