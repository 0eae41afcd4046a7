"""A stand-in for engine.train.worker that obeys the same protocol in milliseconds.

Like the real one, TF_CONFIG's role picks the program (engine.core.tfconfig.task_program):
a trainer, a parameter_server task's server, or the evaluator. FAKE_WORKER_PLAN
(JSON, e.g. {"1": "crash", "ps-0": "crash"}) picks each task's behaviour by task id,
or (workers) by index:
- trainers: ok, long (trains for about 2 s), until_stop, terminated (as until_stop, then exits 143 like a
  trainer stopped by SIGTERM after its checkpoint), crash, crash_on_cue (crashes once the marker `cue`
  exists), fail, peer_lost (once the next worker's server has come, touching the marker `<task>.saw_peer`,
  and gone, touches the marker `<task>.lost_peer` and fails with UnavailableError, as a collective does),
  never_join (its server listens but it ignores stop, like TensorFlow blocked waiting for peers), no_server;
- servers: ok (serve until stopped), crash (die after 0.5 s), die_once (die after 0.5 s unless a
  marker file says it died before);
- the evaluator: ok (one evaluation per second until stopped), crash, deaf (ignores stop).
"""

from __future__ import annotations

import json
import os
import socket
import sys
import threading
import time
from pathlib import Path

from engine.core import events as ev
from engine.core.protocol.codes import task_id
from engine.core.tfconfig import Program, task_program


def emit(event: ev.Event) -> None:
    print(ev.encode(event), flush=True)


def strategy_of(argv: list[str]) -> str:
    if "--config" in argv:
        path = Path(argv[argv.index("--config") + 1])
    else:
        path = Path(argv[argv.index("--resume") + 1]) / "config.json"
    return json.loads(path.read_text())["strategy"]


def main() -> int:
    tf_config = json.loads(os.environ["TF_CONFIG"])
    job, index = tf_config["task"]["type"], tf_config["task"]["index"]
    me = task_id(job, index)
    host, port = tf_config["cluster"][job][index].rsplit(":", 1)
    plans = json.loads(os.environ.get("FAKE_WORKER_PLAN", "{}"))
    plan = plans.get(me, plans.get(str(index), "ok") if job == "worker" else "ok")
    program = task_program(job, strategy_of(sys.argv))
    stop = threading.Event()

    def watch_stdin() -> None:
        for line in sys.stdin:
            if line.strip() == "stop":
                break
        stop.set()

    threading.Thread(target=watch_stdin, daemon=True).start()
    if program == Program.SERVER:
        return serve(me, host, int(port), plan, stop)
    if program == Program.EVALUATOR:
        return evaluate(plan, stop)
    peers = tf_config["cluster"].get("worker", [])
    return train(me, host, int(port), plan, stop, peer=peers[(index + 1) % len(peers)] if peers else "")


def marker(name: str) -> Path:
    """A file through which the test and the fake tasks tell each other that something happened."""
    return Path(os.environ.get("FAKE_WORKER_MARKERS", "/nonexistent")) / name


def serve(me: str, host: str, port: int, plan: str, stop: threading.Event) -> int:
    server = socket.create_server((host, port))  # what TensorFlow's server would hold
    emit(ev.Log(level="info", message=f"fake {me} serves: {plan}"))
    died = marker(f"{me}.died")
    if plan == "crash" or (plan == "die_once" and not died.exists()):
        time.sleep(0.5)
        if plan == "die_once":
            died.touch()
        os._exit(9)
    stop.wait()
    emit(ev.RunFinished(status="completed", epochs_completed=0, run_dir=""))
    server.close()
    return 0


def evaluate(plan: str, stop: threading.Event) -> int:
    emit(ev.Log(level="info", message=f"fake evaluator: {plan}"))
    if plan == "crash":
        emit(ev.RunFailed(message="fake evaluator failure", error_type="RuntimeError"))
        return 1
    n = 0
    while not stop.wait(0.2) or plan == "deaf":
        n += 1
        emit(
            ev.Evaluation(
                epoch=n,
                step=0,
                global_step=3 * n,
                val_loss=1.0 / n,
                val_accuracy=0.5,
                examples=10,
                seconds=0.01,
                checkpoint=f"ckpt-{n}",
            )
        )
        time.sleep(0.8)
    emit(ev.RunFinished(status="stopped", epochs_completed=n, run_dir=""))
    return 0


def listening(address: str) -> bool:
    """Whether a server holds `address`; one that never accepts may let a connection time out, but only
    an address nobody holds refuses it."""
    host, port = address.rsplit(":", 1)
    try:
        socket.create_connection((host, int(port)), timeout=0.1).close()
    except ConnectionRefusedError:
        return False
    except OSError:
        pass
    return True


def wait_until(address: str, up: bool) -> None:
    """Until a server holds `address` (up) or nobody does."""
    while listening(address) != up:
        time.sleep(0.01)


def train(me: str, host: str, port: int, plan: str, stop: threading.Event, peer: str) -> int:
    if plan == "no_server":
        time.sleep(3600)
    server = socket.create_server((host, port))  # what TensorFlow's server would hold
    print("this line is not an event", flush=True)
    index = int(me.rpartition("-")[2])
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
            task=me,
        )
    )
    steps = 0
    limit = 40 if plan == "long" else 3
    while steps < limit or (plan in ("until_stop", "terminated") and not stop.wait(0.05)):
        steps += 1
        emit(
            ev.BatchEnd(epoch=1, step=steps, global_step=steps, loss=1.0 / steps, accuracy=0.5, examples_per_sec=1000.0)
        )
        if plan == "long":
            time.sleep(0.05)
    if plan == "crash_on_cue":
        while not marker("cue").exists():
            time.sleep(0.01)
    if plan in ("crash", "crash_on_cue"):
        print("Traceback (most recent call last):\nRuntimeError: fake crash", file=sys.stderr, flush=True)
        os._exit(3)
    if plan == "peer_lost":  # how a collective learns that its peer died
        wait_until(peer, up=True)
        marker(f"{me}.saw_peer").touch()  # a peer that comes and goes between two looks would never be seen
        wait_until(peer, up=False)
        marker(f"{me}.lost_peer").touch()
        emit(ev.RunFailed(message=f"the peer at {peer} stopped responding", error_type="UnavailableError"))
        return 1
    if plan == "fail":
        emit(ev.RunFailed(message="fake failure: the loss became nan", error_type="NonFiniteLoss"))
        return 1
    emit(ev.EpochEnd(epoch=1, loss=0.25, accuracy=0.5, seconds=0.1, examples_per_sec=1000.0))
    emit(ev.RunFinished(status="stopped" if stop.is_set() else "completed", epochs_completed=1, run_dir=sys.argv[-1]))
    server.close()
    return 143 if plan == "terminated" else 0


if __name__ == "__main__":
    sys.exit(main())
