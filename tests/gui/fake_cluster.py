"""A stand-in for `main.py cluster launch --events`: the relay's event stream in milliseconds.

Modes: complete (every worker finishes), fail (worker 1 is killed mid-run and
the launcher stops the chief), wait (the workers train until `stop`), stall
(as wait, but worker 1 is reported stalled; its pid is this process, which
waits in `held_in_the_fake_cluster`, so its stacks can be read), ps (a
parameter_server cluster with an evaluator: worker 1 is lost, restarted and
rejoins; the evaluator validates each epoch's checkpoint).
Only engine.core.events is imported, so it starts fast.
"""

from __future__ import annotations

import argparse
import os
import sys
import threading

from fake_trainer import emit, watch_stdin  # it also puts the repository on sys.path

from engine.core import events as ev


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("mode", choices=("complete", "fail", "wait", "stall", "ps"))
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--run-dir", default="/tmp/fake-cluster")
    args = parser.parse_args()
    if args.mode == "ps":
        return parameter_server(args.run_dir)
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
    if args.mode == "stall":
        emit(ev.TaskStalled(worker=names[1], pid=os.getpid(), idle_s=42.0, step_s=0.3, threshold_s=30.0))
        held_in_the_fake_cluster(stop)
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


def held_in_the_fake_cluster(stop: threading.Event) -> None:
    """Where the stalled worker's stacks show it waiting."""
    stop.wait()


ROLES = {
    "chief-0": "coordinator: runs the training program",
    "worker-0": "worker: runs the coordinator's steps",
    "worker-1": "worker: runs the coordinator's steps",
    "ps-0": "parameter server: holds variables",
    "evaluator-0": "evaluator: validates each checkpoint",
}


def parameter_server(run_dir: str) -> int:
    """What `cluster launch --workers 2 --ps 1 --evaluator --events` says when worker 1 is killed and rejoins."""

    def state(task: str, value: str, pid: int, message: str = "") -> None:
        emit(ev.WorkerState(worker=task, state=value, pid=pid, message=message, role=ROLES[task]))

    for i, task in enumerate(ROLES):
        state(task, "starting", 2000 + i)
    for i, task in enumerate(ROLES):
        state(task, "evaluating" if task == "evaluator-0" else "training", 2000 + i)
    emit(
        ev.RunStarted(
            strategy="parameter_server",
            num_replicas=1,
            devices=["/cpu:0"],
            global_batch_size=64,
            per_replica_batch_size=64,
            loop="custom",
            epochs=2,
            steps_per_epoch=4,
            steps_per_execution=2,
            run_dir=run_dir,
            num_workers=2,
            task="chief-0",
        )
    )
    for epoch in (1, 2):
        for step in range(1, 5):
            g = (epoch - 1) * 4 + step
            emit(ev.BatchEnd(epoch=epoch, step=step, global_step=g, loss=1 / g, accuracy=0.5, examples_per_sec=900.0))
        emit(ev.TaskSteps(steps={"worker-0": 2 * epoch + 2, "worker-1": 2}))
        emit(ev.EpochEnd(epoch=epoch, loss=1 / (4 * epoch), accuracy=0.5, seconds=0.1, examples_per_sec=900.0))
        emit(ev.CheckpointSaved(path=f"{run_dir}/checkpoints/ckpt-{epoch}", epoch=epoch, step=0))
        if epoch == 1:
            state("worker-1", "lost", 2002, "killed by SIGKILL; the coordinator reruns its steps on the other workers")
            state("worker-1", "starting", 2099, "restart 1 of 2 after it was lost (killed by SIGKILL)")
            state("worker-1", "rejoined", 2099, "rejoined after restart 1")
        emit(
            ev.Evaluation(
                epoch=epoch,
                step=0,
                global_step=4 * epoch,
                val_loss=0.3 / epoch,
                val_accuracy=0.6 + 0.1 * epoch,
                examples=100,
                seconds=0.05,
                checkpoint=f"{run_dir}/checkpoints/ckpt-{epoch}",
            )
        )
    for i, task in enumerate(ROLES):
        state(task, "finished", 2099 if task == "worker-1" else 2000 + i)
    emit(ev.RunFinished(status="completed", epochs_completed=2, run_dir=run_dir))
    return 0


if __name__ == "__main__":
    sys.exit(main())
