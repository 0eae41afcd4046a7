"""Benchmarks of the model and data kinds, each a ratio against a baseline measured in the same run.

    python bench/bench_kinds.py images [--rounds 3]      image_folder input vs in-memory tensors
    python bench/bench_kinds.py csv [--rows 100000]      peak memory of a CSV run, 10x rows vs 1x
    python bench/bench_kinds.py loops [--rounds 3]       the CNN's custom loop vs fit, by steps_per_execution

images: a CNN (filters 16, 32; Dense 32) on 2,400 generated 32x32 RGB PNGs, global batch 64, Mirrored on
2 virtual CPUs. Three inputs, interleaved round by round: the default (decoded once into memory, since
they fit: the in-memory tensors are the baseline), the same files decoded every epoch (cache off: parallel
decoding, prefetched), and, for scale, the tf-keras way (image_dataset_from_directory, decoded every epoch).
Examples/s is the engine's own (epochs 2..N; epoch 1 holds tracing and the cache's decoding).
csv: `tfdd train` on a CSV of N and 10N rows (10 features, binary labels), each in a fresh process; peak
resident memory is the child's ru_maxrss.
loops: the same CNN and images, custom and fit at steps_per_execution 1, 8, 32 and "auto".
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

IMAGES = {"classes": 4, "per_class": 600, "size": (32, 32)}
CNN = {"kind": "cnn", "filters": [16, 32], "hidden_units": [32]}


def image_config(folder: Path, **overrides: object) -> dict:
    return {
        "strategy": "mirrored",
        "virtual_devices": 2,
        "epochs": 3,
        "global_batch_size": 64,
        "learning_rate": 0.01,
        "steps_per_execution": 16,
        "checkpoint": {"every_epoch": False},
        "data": {"kind": "image_folder", "path": str(folder)},
        "model": CNN,
        **overrides,
    }


def engine_rate(config_dict: dict) -> float:
    """Examples/s of epochs 2..N, as the engine measures them (one run in this process)."""
    from engine.core import events as ev
    from engine.core.config import RunConfig
    from engine.core.protocol.channel import StopSignal
    from engine.train.trainer import Trainer

    rates: list[float] = []
    with tempfile.TemporaryDirectory() as tmp:
        outcome = Trainer(
            RunConfig.from_dict(config_dict),
            Path(tmp),
            [lambda e: rates.append(e.examples_per_sec) if isinstance(e, ev.EpochEnd) else None],
            StopSignal(),
        ).run()
    assert outcome.status == "completed", outcome.message
    return statistics.mean(rates[1:])


def keras_directory_rate(folder: Path, epochs: int = 3) -> float:
    """The same model on image_dataset_from_directory (tf-keras's loader), fit, epochs 2..N."""
    from engine.core.config import RunConfig
    from engine.core.plan import plan_devices
    from engine.train.models import build_loss_and_metric, build_model, build_optimizer
    from engine.train.strategies import make_strategy
    from engine.train.tf_runtime import keras

    config = RunConfig.from_dict(image_config(folder))
    strategy = make_strategy(config, plan_devices(config, []))
    ds = keras.utils.image_dataset_from_directory(
        str(folder), image_size=(32, 32), batch_size=64, shuffle=True, seed=1
    ).map(lambda x, y: (x / 255.0, y))
    with strategy.scope():
        model = build_model(config, (32, 32, 3), IMAGES["classes"]).model
        loss, metric = build_loss_and_metric(IMAGES["classes"])
        model.compile(optimizer=build_optimizer(config), loss=loss, metrics=[metric], steps_per_execution=16)
    rates = []
    for _ in range(epochs):
        t0 = time.perf_counter()
        model.fit(ds.prefetch(-1), epochs=1, verbose=0)
        rates.append(IMAGES["classes"] * IMAGES["per_class"] / (time.perf_counter() - t0))
    return statistics.mean(rates[1:])


def images_child(folder: Path, rounds: int) -> None:
    from engine.core.config import RunConfig
    from engine.core.plan import plan_devices
    from engine.train.datasets import images
    from engine.train.devices import apply_plan

    config = RunConfig.from_dict(image_config(folder))
    apply_plan(plan_devices(config, []))
    budget = images.CACHE_BUDGET_BYTES
    results: dict[str, list[float]] = {
        "in-memory tensors (default: cached)": [],
        "decoded every epoch": [],
        "tf-keras image_dataset_from_directory": [],
    }
    for _ in range(rounds):
        images.CACHE_BUDGET_BYTES = budget
        results["in-memory tensors (default: cached)"].append(engine_rate(image_config(folder)))
        images.CACHE_BUDGET_BYTES = 0
        results["decoded every epoch"].append(engine_rate(image_config(folder)))
        results["tf-keras image_dataset_from_directory"].append(keras_directory_rate(folder))
    print(json.dumps({k: statistics.median(v) for k, v in results.items()}))


def loops_child(folder: Path, rounds: int) -> None:
    from engine.core.config import RunConfig
    from engine.core.plan import plan_devices
    from engine.train.devices import apply_plan

    apply_plan(plan_devices(RunConfig.from_dict(image_config(folder)), []))
    variants = {f"{loop} spe={spe}": (loop, spe) for loop in ("custom", "fit") for spe in (1, 8, 32, "auto")}
    results: dict[str, list[float]] = {name: [] for name in variants}
    for _ in range(rounds):
        for name, (loop, spe) in variants.items():
            results[name].append(engine_rate(image_config(folder, loop=loop, steps_per_execution=spe)))
    print(json.dumps({k: statistics.median(v) for k, v in results.items()}))


def child(kind: str, rounds: int) -> None:
    from tests.data_factory import write_image_folder

    with tempfile.TemporaryDirectory() as tmp:
        folder = write_image_folder(Path(tmp) / "images", **IMAGES)
        (images_child if kind == "images" else loops_child)(folder, rounds)


def run_child(kind: str, rounds: int) -> dict[str, float]:
    out = subprocess.run(
        [sys.executable, __file__, "--child", kind, "--rounds", str(rounds)],
        capture_output=True,
        text=True,
        cwd=REPO,
        env={**__import__("os").environ, "PYTHONPATH": str(REPO)},
    )
    if out.returncode:
        raise SystemExit(out.stderr[-3000:])
    return json.loads(out.stdout.strip().splitlines()[-1])


def images(rounds: int) -> None:
    medians = run_child("images", rounds)
    base = medians["in-memory tensors (default: cached)"]
    print(f"\n#### CNN on 2,400 PNGs of 32x32, Mirrored on 2 virtual CPUs, median of {rounds} interleaved rounds\n")
    print("| input | images/s | ÷ in-memory tensors |\n|---|---:|---:|")
    for name, value in medians.items():
        print(f"| {name} | {value:,.0f} | {value / base:.2f} |")


def write_csv(path: Path, rows: int) -> None:
    import numpy as np

    rng = np.random.default_rng(0)
    with open(path, "w", encoding="utf-8") as f:
        f.write(",".join(f"f{i}" for i in range(10)) + ",label\n")
        for start in range(0, rows, 50_000):
            x = rng.standard_normal((min(50_000, rows - start), 10)).astype(np.float32)
            y = (x[:, 0] + x[:, 1] > 0).astype(int)
            f.write("\n".join(",".join(f"{v:.5f}" for v in row) + f",{label}" for row, label in zip(x, y, strict=True)))
            f.write("\n")


def peak_rss_mb(config: Path, run_dir: Path) -> tuple[float, float]:
    """(peak resident MB, seconds) of one `tfdd train` in a fresh process."""
    code = (
        "import resource, subprocess, sys, time\n"
        "t0 = time.time()\n"
        f"subprocess.run([sys.executable, '-m', 'engine.cli', 'train', '--config', {str(config)!r}, "
        f"'--run-dir', {str(run_dir)!r}], check=True, stderr=subprocess.DEVNULL)\n"
        "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024, time.time() - t0)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO, check=True)
    rss, seconds = out.stdout.split()
    return float(rss), float(seconds)


def csv_memory(rows: int) -> None:
    results = {}
    with tempfile.TemporaryDirectory() as tmp:
        for factor in (1, 10):
            path = Path(tmp) / f"rows-{factor}.csv"
            write_csv(path, rows * factor)
            config = Path(tmp) / f"run-{factor}.json"
            config.write_text(
                json.dumps(
                    {
                        "strategy": "one_device",
                        "epochs": 1,
                        "global_batch_size": 512,
                        "steps_per_execution": 64,
                        "checkpoint": {"every_epoch": False},
                        "data": {"kind": "csv", "path": str(path), "label": "label"},
                    }
                )
            )
            results[factor] = (path.stat().st_size / 2**20, *peak_rss_mb(config, Path(tmp) / f"run-{factor}"))
    print(f"\n#### CSV streamed: `tfdd train`, 1 epoch, {rows:,} and {rows * 10:,} rows of 10 features\n")
    print("| rows | file MB | peak resident MB | seconds | peak ÷ 1× |\n|---:|---:|---:|---:|---:|")
    for factor, (size, rss, seconds) in results.items():
        print(f"| {rows * factor:,} | {size:,.0f} | {rss:,.0f} | {seconds:,.1f} | {rss / results[1][1]:.2f} |")


def loops(rounds: int) -> None:
    medians = run_child("loops", rounds)
    best_fit = max(v for k, v in medians.items() if k.startswith("fit"))
    best_custom = max(v for k, v in medians.items() if k.startswith("custom"))
    print(f"\n#### CNN custom loop vs fit, 2 virtual CPUs, median of {rounds} interleaved rounds\n")
    print("| loop | images/s | ÷ best fit |\n|---|---:|---:|")
    for name, value in medians.items():
        print(f"| {name} | {value:,.0f} | {value / best_fit:.2f} |")
    print(f"\nbest custom ÷ best fit: {best_custom / best_fit:.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("what", nargs="?", choices=["images", "csv", "loops"])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--rows", type=int, default=100_000)
    parser.add_argument("--child", choices=["images", "loops"], help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.child, args.rounds)
    elif args.what == "images":
        images(args.rounds)
    elif args.what == "csv":
        csv_memory(args.rows)
    elif args.what == "loops":
        loops(args.rounds)
    else:
        parser.print_help()


if __name__ == "__main__":
    main()
