"""A stand-in for `main.py cluster launch --events`: the relay's event stream in milliseconds.

Modes: complete (every worker finishes), fail (worker 1 is killed mid-run and
the launcher stops the chief), wait (the workers train until `stop`).
Only engine.events is imported, so it starts fast.
"""

from __future__ import annotations

import argparse
import sys
import threading

from fake_trainer import emit, watch_stdin  # it also puts the repository on sys.path

from engine import events as ev


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("mode", choices=("complete", "fail", "wait"))
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--run-dir", default="/tmp/fake-cluster")
    args = parser.parse_args()
    stop = threading.Event()
    threading.Thread(target=watch_stdin, args=(stop,), daemon=True).start()
    names = [f"worker-{i}" for i in range(args.workers)]

    def state(i: int, value: str, message: str = "") -> None:
        emit(
            ev.WorkerState(
                worker=names[i],
                state=value,
                pid=1000 + i,
                message=message,
                log_path=f"{args.run_dir}/workers/{names[i]}.log",
            )
        )

    for step in ("starting", "waiting_for_peers", "training"):
        for i in range(args.workers):
            state(i, step)
    emit(
        ev.RunStarted(
            strategy="multi_worker_mirrored",
            num_replicas=args.workers,
            devices=["/cpu:0"],
            global_batch_size=64,
            per_replica_batch_size=64 // args.workers,
            loop="custom",
            epochs=1,
            steps_per_epoch=4,
            steps_per_execution=1,
            run_dir=args.run_dir,
            num_workers=args.workers,
        )
    )
    emit(ev.Log(level="info", message="CollectiveAllReduceStrategy on /cpu:0", source="worker-0"))
    emit(ev.Log(level="info", message="CollectiveAllReduceStrategy on /cpu:0", source="worker-1"))
    for step in range(1, 5):
        emit(ev.BatchEnd(epoch=1, step=step, global_step=step, loss=1 / step, accuracy=0.5, examples_per_sec=900.0))
        if args.mode == "fail" and step == 2:
            state(1, "failed", "killed by SIGKILL")
            state(0, "stopped", "stopped because worker 1 (pid 1001) failed: killed by SIGKILL")
            emit(
                ev.RunFailed(
                    message=f"worker 1 (pid 1001) failed: killed by SIGKILL; log: {args.run_dir}/workers/worker-1.log",
                    error_type="WorkerFailed",
                    run_dir=args.run_dir,
                )
            )
            return 1
    while args.mode == "wait" and not stop.wait(0.01):
        pass
    done = "stopped" if stop.is_set() else "finished"
    if done == "finished":
        emit(ev.EpochEnd(epoch=1, loss=0.25, accuracy=0.5, seconds=0.1, examples_per_sec=900.0))
    for i in range(args.workers):
        state(i, done)
    emit(
        ev.RunFinished(
            status="completed" if done == "finished" else "stopped", epochs_completed=1, run_dir=args.run_dir
        )
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
