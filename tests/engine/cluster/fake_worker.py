"""A stand-in for engine.train.worker that obeys the same protocol in milliseconds.

FAKE_WORKER_PLAN (JSON, e.g. {"1": "crash"}) picks each task's behaviour by
index: ok, until_stop, terminated (as until_stop, then exits 143 like a
trainer stopped by SIGTERM after its checkpoint), crash, fail, never_join
(its server listens but it ignores stop, like TensorFlow blocked waiting for
peers), no_server.
"""

from __future__ import annotations

import json
import os
import socket
import sys
import threading
import time

from engine import events as ev
from engine.protocol.codes import task_id


def emit(event: ev.Event) -> None:
    print(ev.encode(event), flush=True)


def main() -> int:
    tf_config = json.loads(os.environ["TF_CONFIG"])
    index = tf_config["task"]["index"]
    host, port = tf_config["cluster"]["worker"][index].rsplit(":", 1)
    plan = json.loads(os.environ.get("FAKE_WORKER_PLAN", "{}")).get(str(index), "ok")
    stop = threading.Event()

    def watch_stdin() -> None:
        for line in sys.stdin:
            if line.strip() == "stop":
                break
        stop.set()

    threading.Thread(target=watch_stdin, daemon=True).start()
    if plan == "no_server":
        time.sleep(3600)
    server = socket.create_server((host, int(port)))  # what TensorFlow's server would hold
    print("this line is not an event", flush=True)
    emit(ev.Log(level="info", message=f"fake worker {index}: {plan}"))
    if plan == "never_join":
        time.sleep(3600)
    emit(
        ev.RunStarted(
            strategy="multi_worker_mirrored",
            num_replicas=2,
            devices=["CPU:0"],
            global_batch_size=64,
            per_replica_batch_size=32,
            loop="custom",
            epochs=1,
            steps_per_epoch=3,
            steps_per_execution=1,
            run_dir=sys.argv[-1],
            task=task_id("worker", index),
        )
    )
    steps = 0
    while steps < 3 or (plan in ("until_stop", "terminated") and not stop.wait(0.05)):
        steps += 1
        emit(
            ev.BatchEnd(epoch=1, step=steps, global_step=steps, loss=1.0 / steps, accuracy=0.5, examples_per_sec=1000.0)
        )
    if plan == "crash":
        print("Traceback (most recent call last):\nRuntimeError: fake crash", file=sys.stderr, flush=True)
        os._exit(3)
    if plan == "fail":
        emit(ev.RunFailed(message="fake failure: the loss became nan", error_type="NonFiniteLoss"))
        return 1
    emit(ev.EpochEnd(epoch=1, loss=0.25, accuracy=0.5, seconds=0.1, examples_per_sec=1000.0))
    emit(ev.RunFinished(status="stopped" if stop.is_set() else "completed", epochs_completed=1, run_dir=sys.argv[-1]))
    server.close()
    return 143 if plan == "terminated" else 0


if __name__ == "__main__":
    sys.exit(main())
