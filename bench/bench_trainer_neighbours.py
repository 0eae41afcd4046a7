"""What a trainer's neighbours cost it, without a window: its events read through the protocol's pipes, or
a process that burns a few % of a core in bursts, as painting does.

    python bench/bench_trainer_neighbours.py [--rounds 3] [--modes devnull,pipe,burn4/100,burn1/20]

Each mode trains bench_gui_throughput.py's run (6 epochs here) in a fresh process: `devnull` drops its
output (the headless baseline), `pipe` reads it as the window does (engine.core.protocol.client.WorkerProcess),
`burnB/P` drops it while another process spins B ms of every P ms. Modes alternate their order round by
round; examples/s is the engine's own (metrics.csv, the epochs after the first). It tells whether the
window's cost to training is its CPU time or something else, and how far identical runs spread here.
"""

from __future__ import annotations

import argparse
import dataclasses
import multiprocessing
import statistics
import tempfile
import time
from pathlib import Path

from bench_gui_helpers import REPO, table
from bench_gui_throughput import CONFIG, run_output_dropped, steady_rate

from engine.core.protocol.client import WorkerProcess
from engine.core.protocol.commands import trainer_command


def burn(stop: multiprocessing.synchronize.Event, busy_ms: float, period_ms: float) -> None:
    while not stop.is_set():
        t0 = time.perf_counter()
        while time.perf_counter() - t0 < busy_ms / 1000:
            pass
        time.sleep(max(0.0, period_ms - busy_ms) / 1000)


def one_run(mode: str, config_path: Path, root: Path) -> float:
    run_dir = root / f"{mode.replace('/', '_')}-{time.monotonic_ns()}"
    stop, burner = multiprocessing.Event(), None
    if mode.startswith("burn"):
        busy, period = map(float, mode.removeprefix("burn").split("/"))
        burner = multiprocessing.Process(target=burn, args=(stop, busy, period))
        burner.start()
    try:
        if mode == "pipe":
            worker = WorkerProcess(trainer_command(config_path, run_dir), cwd=REPO)
            worker.start()
            for _ in worker.outputs():  # read as the window's runner reads, until the streams end
                pass
            worker.close()
        else:
            run_output_dropped(config_path, run_dir)
    finally:
        if burner is not None:
            stop.set()
            burner.join()
    return steady_rate(run_dir, skip=1)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--modes", default="devnull,pipe,burn4/100,burn1/20")
    args = parser.parse_args()
    modes = args.modes.split(",")
    root = Path(tempfile.mkdtemp(prefix="tfdd-bench-neighbours-"))
    config_path = root / "config.json"
    dataclasses.replace(CONFIG, epochs=6).save(config_path)
    rates: dict[str, list[float]] = {m: [] for m in modes}
    for i in range(args.rounds):
        for mode in modes if i % 2 == 0 else modes[::-1]:
            rates[mode].append(one_run(mode, config_path, root))
            print(f"{mode}: {rates[mode][-1]:,.0f} examples/s", flush=True)
    base = rates[modes[0]]
    rows = [
        (
            mode,
            f"{statistics.median(r):,.0f} ({min(r):,.0f}–{max(r):,.0f})",
            f"{statistics.median(a / b for a, b in zip(r, base, strict=True)):.2f}",
        )
        for mode, r in rates.items()
    ]
    print(table(("mode", f"examples/s, median (min–max) of {args.rounds}", f"÷ {modes[0]}, median"), rows))


if __name__ == "__main__":
    main()
