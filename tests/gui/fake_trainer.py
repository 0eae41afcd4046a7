"""A tiny stand-in for `engine.train.worker` that speaks the worker protocol in milliseconds.

Modes (first argument): normal, ignore_stop, crash, garbage, fail, terminated
(stops like normal, then exits 143 as a trainer stopped by SIGTERM does), stall
(after its third step it makes no progress until asked to stop), linger
(completes, then does not exit, as a process a thread of the user's code keeps alive), and
warm_trainer (a warm trainer: it prints TensorFlow's start-up chatter, says
trainer_ready, reads its arguments as one line on stdin, then runs
normally). With `--delay 0` it prints events as fast as it can (the
event-loop stall benchmark); `--anatomy I,C,S,R` adds a step_anatomy of those ms per step before each
epoch's end.
It imports only engine.core.events (no TensorFlow), so it starts fast.
"""

from __future__ import annotations

import argparse
import os
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from engine.core import events as ev  # noqa: E402
from engine.core.protocol.commands import parse_assignment  # noqa: E402
from engine.core.protocol.paths import RunPaths  # noqa: E402
from engine.core.runs.runlock import RunLock  # noqa: E402

DEFAULT_RUN_DIR = "/tmp/fake-run"

CHATTER = [  # what TensorFlow 2.21 prints on a CPU-only machine (tests/engine/tf_stderr)
    "WARNING: All log messages before absl::InitializeLog() is called are written to STDERR",
    "I0000 00:00:1796076344.603854   28769 cudart_stub.cc:31] Could not find cuda drivers on your machine, "
    "GPU will not be used.",
    "E0000 00:00:1796076349.186278   28769 cuda_platform.cc:52] failed call to cuInit: INTERNAL: CUDA error: "
    "Failed call to cuInit: UNKNOWN ERROR (303)",
]


def emit(event: ev.Event) -> None:
    sys.stdout.write(ev.encode(event) + "\n")
    sys.stdout.flush()


def hold_here_until_stopped(stop: threading.Event) -> None:
    """A step that never ends (a hung collective, a blocked input): what a stack dump should point at."""
    stop.wait()


def watch_stdin(stop: threading.Event) -> None:
    """A `stop` line or EOF on stdin asks for a stop, as in the real worker."""
    for line in sys.stdin:
        if line.strip() == "stop":
            break
    stop.set()


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("mode")
    parser.add_argument("--epochs", type=int, default=2)
    parser.add_argument("--steps", type=int, default=5)
    parser.add_argument("--delay", type=float, default=0.01, help="seconds per step")
    parser.add_argument("--run-dir", default=DEFAULT_RUN_DIR)
    parser.add_argument(
        "--anatomy", default="", help="input,compute,sync,rest ms per step: a step_anatomy before each epoch's end"
    )
    parser.add_argument("--first-step-after", type=float, default=0.0, help="seconds from run_started (tracing)")
    args = parser.parse_args()
    if args.mode == "warm_trainer":
        print(CHATTER[0] + "\n" + CHATTER[1], file=sys.stderr, flush=True)
        emit(ev.TrainerReady(pid=os.getpid(), import_seconds=0.01, rss_mb=42.0))
        line = sys.stdin.readline()
        if not line or line.strip() == "stop":
            return 0
        assigned = parse_assignment(line)
        args.run_dir = assigned[assigned.index("--run-dir") + 1] if "--run-dir" in assigned else assigned[-1]
        print(f"fake trainer: assigned {' '.join(assigned)}", file=sys.stderr, flush=True)
    if args.run_dir != DEFAULT_RUN_DIR:  # as a real trainer claims its run (its stderr.log is written from then)
        Path(args.run_dir).mkdir(parents=True, exist_ok=True)
        lock = RunLock.acquire(RunPaths(Path(args.run_dir)), "fake trainer")  # held until exit
        lock.accept()
    print(CHATTER[2], file=sys.stderr, flush=True)
    stop = threading.Event()
    if args.mode != "ignore_stop":
        threading.Thread(target=watch_stdin, args=(stop,), daemon=True).start()
    print("fake trainer: starting (this line goes to stderr)", file=sys.stderr, flush=True)
    emit(
        ev.RunStarted(
            strategy="mirrored",
            num_replicas=2,
            devices=["CPU:0", "CPU:1"],
            global_batch_size=64,
            per_replica_batch_size=32,
            loop="custom",
            epochs=args.epochs,
            steps_per_epoch=args.steps,
            steps_per_execution=1,
            run_dir=args.run_dir,
        )
    )
    if args.mode == "garbage":
        print("this is not JSON", flush=True)
        print('{"type": "no_such_event"}', flush=True)
    time.sleep(args.first_step_after)
    global_step = 0
    for epoch in range(1, args.epochs + 1):
        for step in range(1, args.steps + 1):
            if stop.is_set():
                emit(ev.CheckpointSaved(path=f"{args.run_dir}/checkpoints/ckpt-1", epoch=epoch, step=step))
                emit(ev.RunFinished(status="stopped", epochs_completed=epoch - 1, run_dir=args.run_dir))
                return 143 if args.mode == "terminated" else 0
            if args.mode == "stall" and epoch == 1 and step == 4:
                hold_here_until_stopped(stop)
                continue
            if args.mode == "crash" and epoch == 1 and step == 3:
                print("Traceback (most recent call last):\nRuntimeError: fake crash", file=sys.stderr, flush=True)
                sys.stdout.flush()
                os.abort()
            if args.mode == "fail" and epoch == 1 and step == 3:
                emit(
                    ev.RunFailed(
                        message="Out of memory on GPU:0; lower the batch size", error_type="ResourceExhaustedError"
                    )
                )
                return 1
            global_step += 1
            loss = 1.0 / global_step
            emit(
                ev.BatchEnd(
                    epoch=epoch,
                    step=step,
                    global_step=global_step,
                    loss=loss,
                    accuracy=1 - loss / 2,
                    examples_per_sec=1000.0 + step,
                )
            )
            if args.delay:
                time.sleep(args.delay)
        if args.anatomy:
            parts = [float(ms) for ms in args.anatomy.split(",")]
            emit(
                ev.StepAnatomy(
                    epoch=epoch, global_step=global_step, steps=args.steps, step_ms=sum(parts), input_ms=parts[0],
                    compute_ms=parts[1], sync_ms=parts[2], rest_ms=parts[3],
                )
            )  # fmt: skip
        emit(
            ev.EpochEnd(
                epoch=epoch,
                loss=loss,
                accuracy=1 - loss / 2,
                seconds=0.1,
                examples_per_sec=1000.0,
                val_loss=loss * 1.1,
                val_accuracy=1 - loss,
            )
        )
        emit(ev.Log(level="info", message=f"epoch {epoch} done"))
    emit(ev.RunFinished(status="completed", epochs_completed=args.epochs, run_dir=args.run_dir))
    while args.mode == "linger":
        time.sleep(1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
