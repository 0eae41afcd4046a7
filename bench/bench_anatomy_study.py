"""The step anatomy of three runs at 1, 2 and 4 virtual devices, with the changes each verdict offers.

    python bench/bench_anatomy_study.py [--out DIR]

The tutorial's MLP (64,000 synthetic examples), the CNN on 4,096 32x32 images (decoded into memory) and the CNN
on 4,096 128x128 images (805 MB decoded: more than the image cache, so streamed from disk), each a `tfdd train`
of mirrored on N virtual CPU devices (custom loop, global batch 64, checkpoints off). Prints each run's last
anatomy line as a table row and the `tfdd try` commands its verdict offers; measure one with that command.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from tests.data_factory import write_image_folder  # noqa: E402

CNN = {"kind": "cnn", "filters": [16, 32], "hidden_units": [32]}
ANATOMY = re.compile(r"^\s+step ([\d.]+) ms: input (\d+) %, compute (\d+) %, sync (\d+) %, rest (\d+) % \((.*)\)$")
RATE = re.compile(r"^epoch \d+/\d+: loss .*?([\d,]+) examples/s")


def cases(root: Path) -> dict[str, dict]:
    small, big = root / "images32", root / "images128"
    if not small.exists():
        write_image_folder(small, classes=4, per_class=1024, size=(32, 32))
    if not big.exists():
        write_image_folder(big, classes=4, per_class=1024, size=(128, 128))
    return {
        "tutorial MLP": {"data": {"kind": "synthetic", "num_samples": 64000}, "epochs": 3},
        "CNN, images in memory": {"data": {"kind": "image_folder", "path": str(small)}, "model": CNN, "epochs": 3},
        "CNN, images streamed": {"data": {"kind": "image_folder", "path": str(big)}, "model": CNN, "epochs": 2},
    }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", type=Path, default=None, help="keep the runs here (default: a scratch folder)")
    args = parser.parse_args()
    root = args.out or Path(tempfile.mkdtemp(prefix="tfdd-anatomy-study-"))
    print("| run | replicas | step ms | input | compute | sync | rest | verdict | examples/s |")
    print("|---|---:|---:|---:|---:|---:|---:|---|---:|")
    offers: list[str] = []
    for name, case in cases(root).items():
        for replicas in (1, 2, 4):
            config = {
                "strategy": "mirrored",
                "virtual_devices": replicas,
                "global_batch_size": 64,
                "checkpoint": {"every_epoch": False},
                **case,
            }
            path = root / f"{name.replace(' ', '-').replace(',', '')}-{replicas}.json"
            path.write_text(json.dumps(config), encoding="utf-8")
            done = subprocess.run(
                [sys.executable, "main.py", "train", "--config", str(path)],
                cwd=REPO,
                capture_output=True,
                text=True,
                env={**os.environ, "TFDD_RUNS_DIR": str(root / "runs")},
            )
            lines = done.stderr.replace("\r", "\n").splitlines()
            parts = [m for line in lines if (m := ANATOMY.match(line))]
            rates = [m.group(1) for line in lines if (m := RATE.match(line))]
            if done.returncode or not parts:
                print(f"| {name} | {replicas} | failed: {lines[-1] if lines else done.returncode} |||||||")
                continue
            a = parts[-1]
            verdict = a.group(6).split(":")[0]
            print(
                f"| {name} | {replicas} | {a.group(1)} | {a.group(2)} % | {a.group(3)} % | {a.group(4)} % | "
                f"{a.group(5)} % | {verdict} | {rates[-1] if rates else ''} |",
                flush=True,
            )
            offers += [line.strip() for line in lines if line.strip().startswith("tfdd try ")]
    print("\nWhat the verdicts offer:" if offers else "\nNo verdict offered a change.")
    for offer in offers:
        print(f"  {offer}")


if __name__ == "__main__":
    main()
