"""The Runs tab with 300 runs and one 200 MB events file: time until every row is shown, and event-loop stalls.

    QT_QPA_PLATFORM=offscreen python bench/bench_runs_tab.py [--runs 300] [--big-mb 200] [--root DIR] [--train]

Writes the runs once into DIR (default: a temporary folder; reused when given and already filled), then:
1. the Runs tab, shown, refreshed for the first time: ms until every row is in the table (target < 3000)
   while a 10 ms QTimer measures the event loop's lateness (target: max < 50 ms);
2. a second refresh (nothing changed: only stat() calls), the same two numbers;
3. selecting the 200 MB run: ms until its curves are drawn (every plot), and the lateness meanwhile; then
   moving the smoothing slider (the run's curves smoothed anew, on the GUI thread), the same; then
   selecting every run (the first MAX_COMPARED are drawn), the same two numbers;
4. the baseline, in the same process: the same first scan done on the GUI thread, as the tab did before it
   had a loader thread; the window freezes for all of it.
With --train, a real `tfdd train` (TRAIN_CONFIG: mirrored on 2 virtual CPUs, a model large enough to keep
every core busy) trains beside the window throughout, as when a person browses runs while one trains.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import numpy as np
from bench_gui_helpers import LatenessProbe, table
from PySide6.QtCore import QEventLoop, QTimer

from engine.core import events as ev
from engine.core.runs.history import RunHistory
from gui.app import create_application
from gui.runs.compare_plots import MAX_COMPARED, ComparePlots
from gui.runs.panel import RunsPanel
from tests.run_fixtures import write_run

BIG_NAME = "20240101-000000-big-mirrored-custom"
TRAIN_CONFIG = {
    "name": "bench-beside",
    "strategy": "mirrored",
    "virtual_devices": 2,
    "loop": "custom",
    "epochs": 1000,
    "global_batch_size": 256,
    "data": {"kind": "synthetic", "num_samples": 200_000, "num_features": 64},
    "model": {"hidden_units": [512, 512]},
}


@contextlib.contextmanager
def training_beside(folder: Path) -> Iterator[None]:
    """A real `tfdd train` of TRAIN_CONFIG running until the block ends (stopped with SIGINT, as Ctrl-C)."""
    config, run_dir = folder / "train.json", folder / "beside-run"
    config.write_text(json.dumps(TRAIN_CONFIG), encoding="utf-8")
    command = [sys.executable, "-m", "engine.cli", "train", "--config", str(config), "--run-dir", str(run_dir)]
    trainer = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 120
        events = run_dir / "events.jsonl"
        while not (events.is_file() and b'"batch_end"' in events.read_bytes()[-4096:]):
            if trainer.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"the training beside did not start (exit code {trainer.returncode})")
            time.sleep(0.5)
        print(f"training beside: pid {trainer.pid}, {run_dir}")
        yield
    finally:
        trainer.send_signal(signal.SIGINT)
        try:
            trainer.wait(30)
        except subprocess.TimeoutExpired:
            trainer.kill()
            trainer.wait()


def make_runs(root: Path, n: int, big_mb: int) -> None:
    """n small runs (3 epochs of 20 batch events, as the fixtures write them) and one with a huge events file."""
    if (root / BIG_NAME / "events.jsonl").is_file() and len(list(root.iterdir())) >= n + 1:
        return
    root.mkdir(parents=True, exist_ok=True)
    for i in range(n):
        end = ev.RunFinished(status="completed", epochs_completed=3, run_dir="", time=1000.0 + i + 10)
        write_run(root, f"2024{i // 28 % 12 + 1:02d}{i % 28 + 1:02d}-120000-run{i}-mirrored-fit", end, 3, t0=1000.0 + i)
    big = root / BIG_NAME
    write_run(root, BIG_NAME, None, 1, t0=50_000.0)
    started = json.dumps(
        ev.to_dict(
            ev.RunStarted(
                strategy="mirrored",
                num_replicas=2,
                devices=["/cpu:0", "/cpu:1"],
                global_batch_size=64,
                per_replica_batch_size=32,
                loop="custom",
                epochs=100,
                steps_per_epoch=10_000,
                steps_per_execution=1,
                run_dir=str(big),
                time=50_000.0,
            )
        ),
        separators=(",", ":"),
    )
    with open(big / "events.jsonl", "w", encoding="utf-8") as f:
        f.write(started + "\n")
        written, step = 0, 0
        while written < big_mb << 20:
            lines = [
                f'{{"type":"batch_end","epoch":{s // 10_000 + 1},"step":{s % 10_000 + 1},"global_step":{s + 1},'
                f'"loss":{1 / (s + 1):.6f},"accuracy":0.5,"examples_per_sec":12345.6,"steps":1,'
                f'"time":{50_000 + s / 1000}}}\n'
                for s in range(step, step + 10_000)
            ]
            chunk = "".join(lines)
            f.write(chunk)
            written += len(chunk)
            step += 10_000


def spin_until(predicate, timeout_s: float) -> None:
    loop = QEventLoop()
    deadline = time.perf_counter() + timeout_s
    poll = QTimer(interval=5)
    poll.timeout.connect(lambda: (predicate() or time.perf_counter() > deadline) and loop.quit())
    poll.start()
    if not predicate():
        loop.exec()
    poll.stop()
    if not predicate():
        raise TimeoutError("benchmark condition not reached")


def measured(panel: RunsPanel, action, signal) -> tuple[float, np.ndarray]:
    """ms from `action()` until `signal` fires, and the event loop's lateness meanwhile."""
    fired: list[float] = []
    signal.connect(lambda *_: fired.append(time.perf_counter()))
    probe = LatenessProbe()
    probe.start()
    t0 = time.perf_counter()
    action()
    spin_until(lambda: bool(fired), 120)
    probe.stop()
    signal.disconnect()
    TICK_CPU.append(float(probe.busy().max()))
    return 1000 * (fired[0] - t0), probe.lateness()


def idle_lateness(seconds: float) -> np.ndarray:
    """The noise floor: the same 10 ms timer while nothing happens (other processes share the cores)."""
    probe = LatenessProbe()
    probe.start()
    end = time.perf_counter() + seconds
    spin_until(lambda: time.perf_counter() > end, seconds + 5)
    probe.stop()
    return probe.lateness()


TICK_CPU: list[float] = []  # per measurement: the GUI thread's largest CPU ms between two ticks, painting included
BUSY: list[float] = []  # GUI-thread CPU ms of each update the loader's answers cause


def _busy(method):
    """Wrap a panel slot to record its CPU time on the GUI thread (what this code costs the window, without
    the waiting for the CPU or the interpreter that a loaded machine adds to the lateness)."""

    def timed(self, *args):
        t = time.thread_time()
        method(self, *args)
        BUSY.append(1000 * (time.thread_time() - t))

    return timed


RunsPanel._on_runs_ready = _busy(RunsPanel._on_runs_ready)  # type: ignore[method-assign]
RunsPanel._on_curves_ready = _busy(RunsPanel._on_curves_ready)  # type: ignore[method-assign]
ComparePlots._draw_next = _busy(ComparePlots._draw_next)  # type: ignore[method-assign]


def one_round(root: Path, n_runs: int) -> dict[str, tuple[float, np.ndarray]]:
    """A fresh Runs tab (nothing cached): first refresh, second refresh, the big run's curves."""
    panel = RunsPanel(root)
    panel.resize(1400, 800)
    panel.timer.setInterval(3_600_000)  # only the refreshes measured here
    scan = panel.loader.request_scan
    panel.loader.request_scan = lambda: None  # type: ignore[method-assign] - shown first, read below
    panel.show()  # the tab's first paint (plots included) is not the reading's cost
    settle = time.perf_counter() + 1.0
    spin_until(lambda: time.perf_counter() > settle, 10)
    panel.loader.request_scan = scan  # type: ignore[method-assign]
    BUSY.clear()
    out = {"first": measured(panel, panel.refresh, panel.runs_loaded)}
    out["first_busy"] = (max(BUSY), np.zeros(1))
    out["first_tick_cpu"] = (TICK_CPU[-1], np.zeros(1))
    assert panel.proxy.rowCount() == n_runs + 1, panel.proxy.rowCount()
    BUSY.clear()
    out["again"] = measured(panel, panel.refresh, panel.runs_loaded)
    out["again_busy"] = (max(BUSY), np.zeros(1))
    out["again_tick_cpu"] = (TICK_CPU[-1], np.zeros(1))
    BUSY.clear()
    out["curves"] = measured(panel, lambda: panel.select_paths([root / BIG_NAME]), panel.compare.drawn)
    out["curves_busy"] = (max(BUSY), np.zeros(1))
    out["curves_tick_cpu"] = (TICK_CPU[-1], np.zeros(1))
    out["points"] = (float(len(panel.compare.runs[0].curves.global_step)), np.zeros(1))
    out["smooth"] = measured(panel, lambda: panel.compare.smoothing.setValue(50), panel.compare.drawn)
    out["smooth_tick_cpu"] = (TICK_CPU[-1], np.zeros(1))
    out["all"] = measured(panel, lambda: panel.select_paths([r.path for r in panel.model.runs]), panel.compare.drawn)
    out["all_tick_cpu"] = (TICK_CPU[-1], np.zeros(1))
    panel.shutdown()
    panel.hide()
    panel.deleteLater()
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=300)
    parser.add_argument("--big-mb", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--root", type=Path, help="where the runs are written (kept for the next time)")
    parser.add_argument("--train", action="store_true", help="measure with a real training run beside")
    args = parser.parse_args()
    with contextlib.ExitStack() as stack:
        if args.train:
            stack.enter_context(training_beside(Path(tempfile.mkdtemp(prefix="tfdd-bench-beside-"))))
        measure(args)


def measure(args: argparse.Namespace) -> None:
    """Write the runs if needed, then the rounds, and print the table."""
    root = args.root or Path(tempfile.mkdtemp(prefix="tfdd-bench-runs-tab-"))
    t0 = time.perf_counter()
    make_runs(root, args.runs, args.big_mb)
    big_size = (root / BIG_NAME / "events.jsonl").stat().st_size
    size = f"{big_size / 2**20:.0f} MB"
    print(f"runs written in {time.perf_counter() - t0:.1f} s: {args.runs} + 1 with a {size} events file")

    app = create_application([])
    warm = RunsPanel(Path(tempfile.mkdtemp(prefix="tfdd-bench-empty-")))  # Qt's first paint is not the tab's cost
    warm.show()
    settle = time.perf_counter() + 1.0
    spin_until(lambda: time.perf_counter() > settle, 10)
    warm.shutdown()
    warm.hide()

    rounds, idle, baseline = [], [], []
    for _ in range(args.rounds):
        idle.append(idle_lateness(2.0).max())
        rounds.append(one_round(root, args.runs))
        t = time.perf_counter()
        RunHistory(root).scan()  # the same first scan on the GUI thread, as the tab did before its loader
        baseline.append(1000 * (time.perf_counter() - t))

    def med(key: str, of: str) -> float:
        values = [r[key][0] if of == "ms" else r[key][1].max() for r in rounds]
        return float(np.median(values))

    def spread(key: str, of: str) -> str:
        values = [r[key][0] if of == "ms" else r[key][1].max() for r in rounds]
        return f"{np.median(values):,.0f} ({min(values):,.0f}–{max(values):,.0f})"

    rows = [
        (
            "noise floor: max lateness of the timer while nothing happens",
            f"{np.median(idle):,.0f} ({min(idle):,.0f}–{max(idle):,.0f})",
        ),
        ("first refresh: every row shown", spread("first", "ms")),
        ("first refresh: max lateness (stall)", spread("first", "late")),
        ("first refresh: GUI-thread CPU of the largest table update", spread("first_busy", "ms")),
        (
            "first refresh: GUI-thread CPU between two ticks, largest (painting included)",
            spread("first_tick_cpu", "ms"),
        ),
        ("second refresh (nothing changed): every row shown", spread("again", "ms")),
        ("second refresh: max lateness", spread("again", "late")),
        ("second refresh: GUI-thread CPU of the largest table update", spread("again_busy", "ms")),
        ("second refresh: GUI-thread CPU between two ticks, largest", spread("again_tick_cpu", "ms")),
        (f"select the {size} run: curves drawn ({rounds[0]['points'][0]:,.0f} points)", spread("curves", "ms")),
        ("while its curves load and draw: max lateness", spread("curves", "late")),
        ("the largest GUI-thread update of the curves, CPU (painting excluded)", spread("curves_busy", "ms")),
        ("the curves: GUI-thread CPU between two ticks, largest (painting included)", spread("curves_tick_cpu", "ms")),
        ("smoothing slider moved (its curves smoothed anew, on the GUI thread): all drawn", spread("smooth", "ms")),
        ("meanwhile: max lateness", spread("smooth", "late")),
        ("meanwhile: GUI-thread CPU between two ticks, largest", spread("smooth_tick_cpu", "ms")),
        (f"select all {args.runs + 1} runs: the first {MAX_COMPARED} drawn", spread("all", "ms")),
        ("meanwhile: max lateness", spread("all", "late")),
        ("meanwhile: GUI-thread CPU between two ticks, largest", spread("all_tick_cpu", "ms")),
        (
            "baseline: the same first scan on the GUI thread (the window frozen that long)",
            f"{np.median(baseline):,.0f} ({min(baseline):,.0f}–{max(baseline):,.0f})",
        ),
        (
            "**first refresh's max stall / baseline freeze** (median of rounds)",
            f"**{med('first', 'late') / np.median(baseline):.2f}**",
        ),
    ]
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    print(f"ms, median (min–max) of {args.rounds} rounds; load average at the end {load}")
    print(table(("measure", "ms"), rows))
    app.quit()
    if not args.root:
        shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main()
