"""Start → first plotted point with the real engine: warm trainer, fresh trainer, and a bare
`python -c "import tensorflow"` for scale, interleaved in rounds in one run.

    QT_QPA_PLATFORM=offscreen python bench/bench_warm_start.py [--rounds 5]

Warm: the window's warm trainer has said trainer_ready (and sat idle a second) when Start is
pressed. Both window variants measure from `start_run()` to the first point the plots hold,
with the run of bench_gui_stream.py --real (Mirrored on 2 virtual CPUs, custom loop). Also
the idle warm trainer's memory, from /proc (resident, and the part no other process shares).
Targets: warm ≤ 1.5 s, and ≤ 0.4 × the bare import.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time

from bench_configs import FIRST_POINT_RUN
from bench_gui_helpers import REPO, table
from bench_gui_stream import make_window, spin_until

from engine.core.protocol.commands import trainer_command, warm_trainer_command
from gui.app import create_application
from gui.live.warm_trainer import WarmState

CONFIG = FIRST_POINT_RUN


def bare_import() -> float:
    t0 = time.perf_counter()
    subprocess.run([sys.executable, "-c", "import tensorflow"], cwd=REPO, check=True, capture_output=True)
    return time.perf_counter() - t0


def memory_mb(pid: int) -> tuple[float, float]:
    """(VmRSS, RssAnon) of a process: all it holds, and what is its own (not shared library pages)."""
    fields = {}
    with open(f"/proc/{pid}/status", encoding="ascii") as f:
        for line in f:
            key, _, value = line.partition(":")
            if key in ("VmRSS", "RssAnon"):
                fields[key] = int(value.split()[0]) / 1024
    return fields["VmRSS"], fields["RssAnon"]


def first_point(warm: bool) -> tuple[float, tuple[float, float] | None, str]:
    window = make_window(trainer_command, warm_trainer_command=warm_trainer_command() if warm else None)
    window.form.set_config(CONFIG)
    memory = None
    if warm:
        spin_until(lambda: window.warm_trainer.state == WarmState.READY, 120)
        time.sleep(1.0)  # idle, as it would be when a user presses Start
        memory = memory_mb(window.warm_trainer._process.pid)
    t0 = time.perf_counter()
    window.start_run()
    spin_until(lambda: window.plots.plotted_points() > 0, 300)
    elapsed = time.perf_counter() - t0
    status = window.first_step.text()
    window.stop_run()
    spin_until(lambda: window.runner is None, 60)
    window.close()
    window.shutdown()
    return elapsed, memory, status


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    create_application([])
    imports, warm, cold, ratios, memories = [], [], [], [], []
    for i in range(args.rounds):
        imports.append(bare_import())
        w, memory, status = first_point(warm=True)
        warm.append(w)
        memories.append(memory)
        c, _, _ = first_point(warm=False)
        cold.append(c)
        ratios.append(w / imports[-1])
        print(f"round {i + 1}: import {imports[-1]:.2f} s, warm {w:.2f} s ({status}), cold {c:.2f} s", file=sys.stderr)

    def cell(values: list[float]) -> str:
        return f"{statistics.median(values):.2f} ({min(values):.2f}–{max(values):.2f})"

    rss = [m[0] for m in memories if m]
    anon = [m[1] for m in memories if m]
    print(
        table(
            ("measure", f"s, median (min–max) of {args.rounds}"),
            [
                ('bare `python -c "import tensorflow"`', cell(imports)),
                ("Start → first plotted point, fresh trainer", cell(cold)),
                ("Start → first plotted point, warm trainer (target ≤ 1.5 s)", cell(warm)),
                ("warm ÷ bare import, median of per-round ratios (target ≤ 0.4)", f"{statistics.median(ratios):.2f}"),
                (
                    "idle warm trainer: resident MB (of which its own, not shared libraries)",
                    f"{statistics.median(rss):.0f} ({statistics.median(anon):.0f})",
                ),
            ],
        )
    )


if __name__ == "__main__":
    main()
