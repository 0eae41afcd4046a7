"""What watching costs training, measured inside one run: the Live tab shown, then hidden, by turns.

    QT_QPA_PLATFORM=offscreen python bench/bench_watch_cost.py [--phase 1.0] [--epochs 6] [--runs 3]
        [--frames-per-second 10 1]

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

With several --frames-per-second (the View menu's choices), the shown phases
take them in turn (shown at 10, hidden, shown at 1, hidden, …), so each rate's
ratio comes from the same run and the same host minutes as the others.
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import math
import statistics
import sys
import time

import numpy as np
from bench_gui_helpers import cpu_seconds, table
from bench_gui_stream import spin_until
from bench_gui_throughput import CONFIG, config_window

from engine.core.events import BatchEnd
from gui.app import create_application
from gui.live.live_plot import FRAME_RATES

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


@dataclasses.dataclass
class Phases:
    """One run's phases, per frame rate of the shown ones: ratios (shown ÷ hidden neighbours), examples/s, and
    the GUI's CPU seconds and wall seconds (key 0: the hidden phases)."""

    ratios: dict[int, list[float]] = dataclasses.field(default_factory=dict)
    rates: dict[int, list[float]] = dataclasses.field(default_factory=dict)
    cpu: dict[int, float] = dataclasses.field(default_factory=dict)
    wall: dict[int, float] = dataclasses.field(default_factory=dict)

    def cpu_percent(self, key: int) -> float:
        return 100 * self.cpu.get(key, 0.0) / max(self.wall.get(key, 0.0), 1e-9)


HIDDEN = 0  # the key of the hidden phases in Phases


def median_interval(values: list[float], level: float = 0.95, resamples: int = 10_000) -> tuple[float, float]:
    """A bootstrap interval of the median (percentile method): whether a median of 0.98 clears 0.97 or could
    as well be 0.95. Neighbouring pairs share a hidden phase, so they are not quite independent and the
    interval is a little narrower than the truth."""
    medians = np.median(np.random.default_rng(0).choice(values, size=(resamples, len(values))), axis=1)
    low, high = np.percentile(medians, [50 * (1 - level), 50 * (1 + level)])
    return float(low), float(high)


def one_run(phase_s: float, epochs: int, frame_rates: list[int]) -> Phases:
    """The Live tab shown (at each of `frame_rates` in turn) and hidden, by turns, for one real run."""
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
    switches: list[tuple[float, int]] = []  # (wall-clock time, frame rate of the Live tab shown from then or HIDDEN)
    out = Phases()
    phase = 0  # even: shown, at the next of frame_rates; odd: hidden
    while window.runner is not None:
        if phase % 2 == 0:
            key = frame_rates[(phase // 2) % len(frame_rates)]
            window.plots.set_frames_per_second(key)
            window.tabs.setCurrentIndex(LIVE_TAB)
        else:
            key = HIDDEN
            window.tabs.setCurrentIndex(OTHER_TAB)
        switches.append((time.time(), key))
        c0, w0 = cpu_seconds(), time.perf_counter()
        with contextlib.suppress(TimeoutError):  # the phase is over; the run goes on
            spin_until(lambda: window.runner is None, phase_s, poll_ms=100)
        out.cpu[key] = out.cpu.get(key, 0.0) + cpu_seconds() - c0
        out.wall[key] = out.wall.get(key, 0.0) + time.perf_counter() - w0
        phase += 1
    window.close()
    switches.append((time.time(), HIDDEN))
    rates = [
        (key, phase_rate(batches, t0 + TRANSITION_S, t1, config.global_batch_size))
        for (t0, key), (t1, _) in zip(switches, switches[1:], strict=False)
    ]
    rates = rates[:-1]  # the last phase holds the run's end
    # a phase without batches is a pause in training (epoch ends no longer make one: engine.train.retire)
    print(f"{len(rates)} phases, {sum(r is None for _, r in rates)} without batches", file=sys.stderr)
    for i, (key, rate) in enumerate(rates):
        if rate is not None:
            out.rates.setdefault(key, []).append(rate)
        if key == HIDDEN or rate is None or i == 0 or i + 1 >= len(rates):
            continue
        before, after = rates[i - 1][1], rates[i + 1][1]
        if before is not None and after is not None:
            out.ratios.setdefault(key, []).append(rate / ((before + after) / 2))
    return out


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--phase", type=float, default=1.0, help="seconds the Live tab is shown, then hidden")
    parser.add_argument("--epochs", type=int, default=6)
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument(
        "--frames-per-second",
        type=int,
        nargs="+",
        default=[FRAME_RATES[0]],
        choices=FRAME_RATES,
        help="the shown phases take these in turn (View ▸ Live plots)",
    )
    args = parser.parse_args()
    create_application([])
    runs = []
    for _ in range(args.runs):
        run = one_run(args.phase, args.epochs, args.frames_per_second)
        runs.append(run)
        said = ", ".join(
            f"at {fps}/s {len(run.ratios.get(fps, []))} pairs, median ratio "
            f"{statistics.median(run.ratios.get(fps, [math.nan])):.3f}, GUI CPU {run.cpu_percent(fps):.1f} %"
            for fps in args.frames_per_second
        )
        print(f"run: {said}; hidden GUI CPU {run.cpu_percent(HIDDEN):.1f} %", file=sys.stderr)
    hidden = [r for run in runs for r in run.rates.get(HIDDEN, [])]
    rows = [("examples/s, hidden phases: median", f"{statistics.median(hidden):,.0f}")]
    for fps in args.frames_per_second:
        ratios = [r for run in runs for r in run.ratios.get(fps, [])]
        q1, q3 = np.percentile(ratios, [25, 75])
        low, high = median_interval(ratios)
        rows += [
            (f"{fps} frames/s: pairs (a shown phase ÷ the mean of the hidden phases beside it)", f"{len(ratios)}"),
            (
                f"{fps} frames/s: throughput, Live tab shown ÷ hidden: median (quartiles; 95 % interval of the median)",
                f"{statistics.median(ratios):.3f} ({q1:.3f}–{q3:.3f}; {low:.3f}–{high:.3f})",
            ),
            (
                f"{fps} frames/s: examples/s, shown phases: median",
                f"{statistics.median(r for run in runs for r in run.rates.get(fps, [])):,.0f}",
            ),
            (
                f"{fps} frames/s: GUI process CPU, % of a core, shown / hidden, median of runs",
                f"{statistics.median(run.cpu_percent(fps) for run in runs):.1f} / "
                f"{statistics.median(run.cpu_percent(HIDDEN) for run in runs):.1f}",
            ),
        ]
    print(table(("measure", "value"), rows))


if __name__ == "__main__":
    sys.exit(main())
