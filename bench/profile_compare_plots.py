"""Where the compare plots' milliseconds go: one redraw of the Runs tab's comparison, profiled on the GUI thread.

    QT_QPA_PLATFORM=offscreen python bench/profile_compare_plots.py big|all [--root DIR] [--top 25]

Uses the runs bench_runs_tab.py writes (DIR, default /tmp/tfdd-bench-rt). `big` compares the 200 MB run, `all`
selects every run (the first MAX_COMPARED are drawn). Once their curves are loaded and drawn, the plots are
drawn again from the same curves (`set_runs`) under cProfile: the GUI thread's CPU time for all of it, the
largest between two ticks of a 10 ms timer (painting included), the timer's worst lateness, and the functions
that took the most CPU time (cProfile slows Python code about twofold; Qt's own painting is timed as is).
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import time
from pathlib import Path

from bench_gui_helpers import LatenessProbe
from bench_runs_tab import BIG_NAME, spin_until

from gui.app import create_application
from gui.runs.panel import RunsPanel


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("which", choices=("big", "all"))
    parser.add_argument("--root", type=Path, default=Path("/tmp/tfdd-bench-rt"))
    parser.add_argument("--top", type=int, default=25)
    args = parser.parse_args()
    app = create_application([])
    panel = RunsPanel(args.root)
    panel.resize(1400, 800)
    panel.timer.setInterval(3_600_000)
    panel.show()
    runs = sum(1 for path in args.root.iterdir() if path.is_dir())
    spin_until(lambda: panel.proxy.rowCount() == runs, 120)
    drawn: list[bool] = []
    panel.compare.drawn.connect(lambda: drawn.append(True))
    paths = [args.root / BIG_NAME] if args.which == "big" else [r.path for r in panel.model.runs]
    panel.select_paths(paths)
    spin_until(lambda: bool(drawn), 120)
    drawn.clear()
    profile, probe = cProfile.Profile(time.thread_time), LatenessProbe()  # CPU time: not the waits for a core
    probe.start()
    started = time.thread_time()
    profile.enable()
    panel.compare.set_runs(list(panel.compare.runs))
    spin_until(lambda: bool(drawn), 120)
    profile.disable()
    cpu = 1000 * (time.thread_time() - started)
    probe.stop()
    print(
        f"{len(panel.compare.runs)} runs: GUI-thread CPU {cpu:.0f} ms in all, {probe.busy().max():.1f} ms between "
        f"two ticks at most, worst lateness {probe.lateness().max():.0f} ms"
    )
    pstats.Stats(profile).sort_stats("tottime").print_stats(args.top)
    panel.shutdown()
    app.quit()


if __name__ == "__main__":
    main()
