"""What watching costs training, measured inside one run: the Live tab shown, then hidden, by turns.

    QT_QPA_PLATFORM=offscreen python bench/bench_watch_cost.py [--phase 1.0] [--epochs 6] [--runs 3]

bench_gui_throughput.py compares a window run with a headless run, two
processes minutes apart; identical headless runs spread by 10-20 % on this
shared host, which swamps a 3 % target. Here one real trainer (Mirrored on 2
virtual CPUs, custom loop, bench_gui_throughput.py's run) streams into the
window while the Live tab is shown for PHASE seconds, then the Cluster tab
for PHASE seconds (the plots, the progress bar and the log draw nothing),
and so on. Each phase's throughput is the engine's own: the examples of its
batch events over their training time (the events' examples/s, weighted by
the steps they stand for), from TRANSITION_S after the switch to the next
one. A shown phase is compared with the mean of the hidden phases on either
side of it, so slow drift of the host cancels. What stays the same in both:
the trainer, the pipes, the runner decoding events, the plots taking their
data. So the ratio is what drawing the window costs training; what the pipes
and the runner cost is bench_trainer_neighbours.py's `pipe` mode and the
runner thread's CPU in bench_gui_throughput.py.
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import statistics
import sys
import time

import numpy as np
from bench_gui_helpers import cpu_seconds, table
from bench_gui_stream import spin_until
from bench_gui_throughput import CONFIG, config_window

from engine.events import BatchEnd
from gui.app import create_application

EXAMPLES = 640_000  # 5-7 s of training an epoch here
TRANSITION_S = 0.3  # after a switch: the last frame of a shown phase, the first of one shown again
LIVE_TAB, OTHER_TAB = 0, 2  # the Cluster tab: static while a run streams


def phase_rate(batches: list[BatchEnd], start: float, end: float, global_batch: int) -> float | None:
    """Examples per second of training time of the batch events stamped in [start, end)."""
    inside = [b for b in batches if start <= b.time < end and b.examples_per_sec > 0]
    if len(inside) < 3:
        return None
    examples = sum(b.steps for b in inside) * global_batch
    seconds = sum(b.steps * global_batch / b.examples_per_sec for b in inside)
    return examples / seconds


def one_run(phase_s: float, epochs: int) -> tuple[list[float], list[float], list[float], float, float]:
    """Pair ratios (shown ÷ hidden neighbours), every shown and hidden phase's rate, GUI CPU shown and hidden
    (% of a core)."""
    # long epochs: most phases fall inside one, away from its start-up
    config = dataclasses.replace(CONFIG, epochs=epochs, data=dataclasses.replace(CONFIG.data, num_samples=EXAMPLES))
    window, _ = config_window(config)
    batches: list[BatchEnd] = []
    add_events = window.plots.add_events

    def noting(events: list) -> None:
        batches.extend(e for e in events if type(e) is BatchEnd)
        add_events(events)

    window.plots.add_events = noting
    window.start_run()
    spin_until(lambda: len(window.plots.throughput.traces["epoch"]) >= 1 or window.runner is None, 600)
    switches: list[tuple[float, bool]] = []  # (wall-clock time, Live tab shown from then)
    cpu = {True: 0.0, False: 0.0}
    wall = {True: 0.0, False: 0.0}
    shown = True
    while window.runner is not None:
        window.tabs.setCurrentIndex(LIVE_TAB if shown else OTHER_TAB)
        switches.append((time.time(), shown))
        c0, w0 = cpu_seconds(), time.perf_counter()
        with contextlib.suppress(TimeoutError):  # the phase is over; the run goes on
            spin_until(lambda: window.runner is None, phase_s, poll_ms=100)
        cpu[shown] += cpu_seconds() - c0
        wall[shown] += time.perf_counter() - w0
        shown = not shown
    window.close()
    switches.append((time.time(), shown))
    rates = [
        (on, phase_rate(batches, t0 + TRANSITION_S, t1, config.global_batch_size))
        for (t0, on), (t1, _) in zip(switches, switches[1:], strict=False)
    ]
    rates = rates[:-1]  # the last phase holds the run's end
    # a phase without batches is a pause in training (epoch ends no longer make one: engine.train.retire)
    print(f"{len(rates)} phases, {sum(r is None for _, r in rates)} without batches", file=sys.stderr)
    ratios = []
    for i, (on, rate) in enumerate(rates):
        if not on or rate is None or i == 0 or i + 1 >= len(rates):
            continue
        before, after = rates[i - 1][1], rates[i + 1][1]
        if before is not None and after is not None:
            ratios.append(rate / ((before + after) / 2))
    return (
        ratios,
        [r for on, r in rates if on and r is not None],
        [r for on, r in rates if not on and r is not None],
        100 * cpu[True] / max(wall[True], 1e-9),
        100 * cpu[False] / max(wall[False], 1e-9),
    )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--phase", type=float, default=1.0, help="seconds the Live tab is shown, then hidden")
    parser.add_argument("--epochs", type=int, default=6)
    parser.add_argument("--runs", type=int, default=1)
    args = parser.parse_args()
    create_application([])
    ratios, shown, hidden, cpu_shown, cpu_hidden = [], [], [], [], []
    for _ in range(args.runs):
        r, s, h, c_on, c_off = one_run(args.phase, args.epochs)
        ratios += r
        shown += s
        hidden += h
        cpu_shown.append(c_on)
        cpu_hidden.append(c_off)
        print(
            f"run: {len(r)} pairs, median ratio {statistics.median(r):.3f}, GUI CPU {c_on:.1f} % shown, "
            f"{c_off:.1f} % hidden",
            file=sys.stderr,
        )
    q1, q3 = np.percentile(ratios, [25, 75])
    print(
        table(
            ("measure", "value"),
            [
                ("pairs (a shown phase ÷ the mean of the hidden phases beside it)", f"{len(ratios)}"),
                (
                    "throughput, Live tab shown ÷ hidden: median (quartiles)",
                    f"{statistics.median(ratios):.3f} ({q1:.3f}–{q3:.3f})",
                ),
                ("examples/s, shown phases: median", f"{statistics.median(shown):,.0f}"),
                ("examples/s, hidden phases: median", f"{statistics.median(hidden):,.0f}"),
                (
                    "GUI process CPU, % of a core, shown / hidden",
                    f"{statistics.median(cpu_shown):.1f} / {statistics.median(cpu_hidden):.1f}",
                ),
            ],
        )
    )


if __name__ == "__main__":
    sys.exit(main())
