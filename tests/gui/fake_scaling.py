"""A stand-in for `tfdd scaling --events` that speaks the worker protocol in milliseconds.

Usage: fake_scaling.py MODE CONFIG --replicas N [N ...] --out DIR (the real command's arguments).
Modes: normal (1 replica 1000/s, 2 replicas 1500/s, 4 replicas fail: the trainer ran out of memory; each
count that works reports its step anatomy, ANATOMIES),
block (starts the first count, then waits for "stop" on stdin, as a long training would).
"""

from __future__ import annotations

import argparse
import sys

from engine.core import events as ev

RESULTS = {1: 1000.0, 2: 1500.0}
ANATOMIES = {1: (1.0, 8.0, 0.0, 1.0), 2: (1.0, 2.5, 5.5, 1.0)}  # input, compute, sync, rest ms per step


def anatomy(replicas: int) -> dict | None:
    if replicas not in ANATOMIES:
        return None
    parts = dict(zip(("input_ms", "compute_ms", "sync_ms", "rest_ms"), ANATOMIES[replicas], strict=True))
    step = ev.StepAnatomy(epoch=2, global_step=16, steps=8, step_ms=sum(ANATOMIES[replicas]), **parts)
    return ev.to_dict(step)


def emit(event: ev.Event) -> None:
    sys.stdout.write(ev.encode(event) + "\n")
    sys.stdout.flush()


def started(replicas: int, out: str) -> ev.RunStarted:
    return ev.RunStarted(
        strategy="mirrored",
        num_replicas=replicas,
        devices=[],
        global_batch_size=64,
        per_replica_batch_size=64 // replicas,
        loop="custom",
        epochs=2,
        steps_per_epoch=8,
        steps_per_execution=4,
        run_dir=f"{out}/replicas-{replicas}",
    )


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("mode", choices=["normal", "block"])
    parser.add_argument("--config")
    parser.add_argument("--replicas", type=int, nargs="+")
    parser.add_argument("--out")
    parser.add_argument("--events", action="store_true")
    args = parser.parse_args()
    for replicas in args.replicas:
        emit(started(replicas, args.out))
        if args.mode == "block":
            for line in sys.stdin:
                if line.strip() == "stop":
                    break
            emit(ev.RunFinished(status="stopped", epochs_completed=0, run_dir=args.out))
            return 0  # like the real study: a count cut short is not reported
        rate = RESULTS.get(replicas, 0.0)
        error = "" if rate else "the trainer ran out of memory"
        speedup = rate / RESULTS[1]
        emit(
            ev.ScalingPoint(
                replicas=replicas,
                examples_per_sec=rate,
                speedup=speedup,
                efficiency=speedup / replicas,
                run_dir=f"{args.out}/replicas-{replicas}",
                error=error,
                anatomy=anatomy(replicas),
            )
        )
    emit(ev.RunFinished(status="completed", epochs_completed=len(args.replicas), run_dir=args.out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
