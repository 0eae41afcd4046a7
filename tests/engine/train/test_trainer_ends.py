"""How a trainer ends when the user's code ends it, blocks it, or fails inside a graph: never a silent
success, never a process only kill -9 can end, and a failure message that keeps its cause."""

from __future__ import annotations

import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from engine.core import events as ev
from engine.core.protocol.commands import CLI_MODULE, TRAINER_MODULE
from engine.core.runs.rundir import read_events
from tests.engine.train.worker_process import REPO, LiveWorker, base_config, env, run_worker, write_config

pytestmark = pytest.mark.slow

MODEL = (
    "import os, sys, threading, time\n"
    "import tf_keras as keras\n"
    "def build_model(input_shape, num_classes):\n"
    "{body}\n"
    "    inputs = keras.Input(input_shape)\n"
    "    return keras.Model(inputs, keras.layers.Dense(1 if num_classes == 2 else num_classes)(inputs))\n"
)

DATA = (
    "import sys\n"
    "import numpy as np\n"
    "import tensorflow as tf\n"
    "def examples():\n"
    "    for i in range(64):\n"
    "        if i == 40:\n"
    "{fault}\n"
    "        yield np.ones(4, 'float32'), i % 2\n"
    "def make_dataset(input_context):\n"
    "    spec = (tf.TensorSpec((4,), tf.float32), tf.TensorSpec((), tf.int64))\n"
    "    return tf.data.Dataset.from_generator(examples, output_signature=spec)\n"
)


def model_config(tmp_path: Path, body: str, **overrides) -> dict:
    path = tmp_path / "my_model.py"
    path.write_text(MODEL.format(body=body), encoding="utf-8")
    return base_config(model={"kind": "python", "path": str(path)}, **overrides)


def data_config(tmp_path: Path, fault: str) -> dict:
    path = tmp_path / "my_data.py"
    path.write_text(DATA.format(fault=fault), encoding="utf-8")
    return base_config(global_batch_size=8, data={"kind": "python", "path": str(path), "num_samples": 64})


def tfdd_train(tmp_path: Path, config: dict, command: list[str] | None = None) -> tuple[int, list[str], Path]:
    """`tfdd train` (or `python COMMAND train`) to its end: exit code, its "error:" lines, the run folder."""
    run_dir = tmp_path / "run"
    command = [
        sys.executable,
        *(command or ["-m", "engine.cli"]),
        "train",
        "--config",
        str(write_config(tmp_path, config)),
    ]
    proc = subprocess.run(
        [*command, "--run-dir", str(run_dir)],
        cwd=REPO,
        env=env(),
        capture_output=True,
        text=True,
        timeout=300,
    )
    return proc.returncode, [line for line in proc.stderr.splitlines() if line.startswith("error:")], run_dir


def test_sys_exit_in_build_model_is_a_failure_naming_the_file_and_line(tmp_path):
    code, errors, _ = tfdd_train(tmp_path, model_config(tmp_path, "    sys.exit(0)"))
    assert code == 2 and len(errors) == 1, errors
    assert "my_model.py:build_model ended the process with sys.exit(0), line 4" in errors[0]


def test_os_exit_in_build_model_is_a_failure_naming_the_file_and_line(tmp_path):
    code, errors, run_dir = tfdd_train(tmp_path, model_config(tmp_path, "    os._exit(0)"))
    assert code == 1 and len(errors) == 1, errors
    assert "the user's code ended the process with os._exit(0)" in errors[0]
    assert "my_model.py, line 4 (build_model)" in errors[0]
    last = read_events(run_dir / "events.jsonl")[-1]
    assert isinstance(last, ev.RunFailed) and "os._exit(0)" in last.message


def test_os_exit_reaches_the_window_as_run_failed(tmp_path):
    config = write_config(tmp_path, model_config(tmp_path, "    os._exit(0)"))
    out = run_worker(["--config", str(config), "--run-dir", str(tmp_path / "run")])
    assert out.returncode == 1
    assert isinstance(out.events[-1], ev.RunFailed) and "my_model.py, line 4" in out.events[-1].message


SHORT_GRACE = (
    "import sys\n"
    "from engine.core.protocol import channel\n"
    "class ShortGrace(channel.StopSignal):\n"
    "    def __init__(self, *args, **kwargs):\n"
    "        super().__init__(*args, **{**kwargs, 'grace_s': 1.0})\n"
    "channel.StopSignal = ShortGrace\n"
    "from ENTRY import main\n"
    "sys.exit(main(sys.argv[1:]))\n"
)


def short_grace(entry: str, *args: str) -> list[str]:
    """`python -m ENTRY ARGS` whose trainer ends itself 1 s after a stop training does not reach, not
    TRAINER_STOP_GRACE_S: the same timer and the same end, waited for less."""
    return [sys.executable, "-c", SHORT_GRACE.replace("ENTRY", entry), *args]


@pytest.mark.parametrize("how", ["sigterm", "stop"])
def test_a_stop_while_user_code_blocks_ends_the_process_after_the_grace_period(tmp_path, how):
    marker = tmp_path / "inside"
    body = f"    open({str(marker)!r}, 'w').close()\n    time.sleep(3600)"
    config = write_config(tmp_path, model_config(tmp_path, body))
    args = ["--config", str(config), "--run-dir", str(tmp_path / "run")]
    worker = LiveWorker(args, command=short_grace(TRAINER_MODULE, *args))
    try:
        while not marker.exists():
            assert worker.proc.poll() is None, "the trainer ended before build_model"
            time.sleep(0.1)
        if how == "sigterm":
            worker.proc.send_signal(signal.SIGTERM)
        else:
            worker.stop()
        code = worker.proc.wait(timeout=60)  # until now only kill -9 ended it
        worker.finish()
    finally:
        worker.kill()
    assert code == (143 if how == "sigterm" else 0)
    end = worker.events[-1]
    assert isinstance(end, ev.RunFinished) and end.status == "killed", worker.events[-3:]
    said = [e.message for e in worker.of(ev.Log) if e.level == "warning"]
    assert any("my_model.py:build_model" in m and "had not returned" in m for m in said), said
    assert isinstance(read_events(tmp_path / "run" / "events.jsonl")[-1], ev.RunFinished)


@pytest.mark.parametrize(
    "fault, words",
    [
        ("            raise ValueError('corrupted record at 24212')", "ValueError: corrupted record at 24212"),
        ("            sys.exit(3)", "SystemExit: 3"),
    ],
)
def test_an_error_inside_graph_execution_keeps_its_cause(tmp_path, fault, words):
    code, errors, _ = tfdd_train(tmp_path, data_config(tmp_path, fault))
    assert code == 1 and len(errors) == 1, errors
    assert words in errors[0] and "Graph execution error" not in errors[0], errors[0]


def test_a_compiled_user_model_is_trained_with_a_word_that_its_compile_is_not_used(tmp_path):
    """Its build_model also starts a thread that never ends: that thread does not keep the completed run alive."""
    body = (
        "    threading.Thread(target=time.sleep, args=(3600,)).start()\n"
        "    inputs = keras.Input(input_shape)\n"
        "    model = keras.Model(inputs, keras.layers.Dense(1)(inputs))\n"
        "    model.compile(optimizer='sgd', loss='mse')\n"
        "    return model"
    )
    config = write_config(tmp_path, model_config(tmp_path, body, epochs=1))
    out = run_worker(["--config", str(config), "--run-dir", str(tmp_path / "run")], timeout=120)
    assert out.returncode == 0
    assert isinstance(out.events[-1], ev.RunFinished) and out.events[-1].status == "completed"
    said = [e.message for e in out.of(ev.Log) if e.level == "warning"]
    assert any("returned a compiled model" in m and "optimizer SGD, loss mse" in m for m in said), said


def test_a_folder_as_the_model_file_is_named_a_folder(tmp_path):
    (tmp_path / "models").mkdir()
    config = base_config(model={"kind": "python", "path": str(tmp_path / "models")})
    out = subprocess.run(
        [sys.executable, "-m", "engine.cli", "train", "--config", str(write_config(tmp_path, config))],
        cwd=REPO,
        env=env(),
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert out.returncode == 2
    assert "is a folder, not a file (a Python file defining the model)" in out.stderr, out.stderr


UNCACHED_TRAIN = (
    "import sys\n"
    "from engine.train.datasets import images\n"
    "images.CACHE_BUDGET_BYTES = 0  # decoded each epoch, inside the training step's graph\n"
    "from engine.cli import main\n"
    "sys.exit(main(sys.argv[1:]))\n"
)


@pytest.mark.parametrize("cached", [True, False], ids=["decoded-up-front", "decoded-in-training"])
def test_a_truncated_jpeg_is_named_with_exit_code_2(tmp_path, cached):
    """Its header reads, so the check before TensorFlow passes it; decoding fails, and the file is named."""
    import numpy as np
    from PIL import Image

    from tests.data_factory import write_image_folder

    images = write_image_folder(tmp_path / "images", classes=2, per_class=8, size=(16, 16))
    broken = images / "class_0" / "truncated.jpg"
    Image.fromarray((np.random.default_rng(0).random((64, 64, 3)) * 255).astype("uint8")).save(broken)
    broken.write_bytes(broken.read_bytes()[: broken.stat().st_size // 2])
    config = base_config(
        global_batch_size=4,
        data={"kind": "image_folder", "path": str(images), "image_size": [16, 16]},
        model={"kind": "cnn", "filters": [4], "hidden_units": [4]},
    )
    code, errors, _ = tfdd_train(tmp_path, config, command=None if cached else ["-c", UNCACHED_TRAIN])
    assert code == 2 and len(errors) == 1, errors
    assert f"image {broken} cannot be decoded" in errors[0], errors[0]


def test_a_resume_with_another_global_batch_size_mid_epoch_is_refused(tmp_path):
    """The checkpoint's step counts batches of the old size: step 400 of 625 is past the end of an epoch of
    312 batches of 64 (OutOfRangeError); the resume is refused, naming both sizes, and nothing changes."""
    import json

    run_dir = tmp_path / "run"
    long = {"epochs": 2, "global_batch_size": 32, "data": {"num_samples": 20000}, "steps_per_execution": 5}
    config = write_config(tmp_path, base_config(**long))
    worker = LiveWorker(["--config", str(config), "--run-dir", str(run_dir)])
    try:
        worker.wait_for(lambda e: isinstance(e, ev.BatchEnd) and e.step >= 400)
        worker.stop()
        assert worker.finish() == 0
    finally:
        worker.kill()
    assert worker.of(ev.CheckpointSaved)[-1].step >= 400
    stored = json.loads((run_dir / "config.json").read_text())
    (run_dir / "config.json").write_text(json.dumps({**stored, "global_batch_size": 64}))
    before = (run_dir / "events.jsonl").read_bytes()
    again = run_worker(["--resume", str(run_dir)])
    assert again.returncode == 2, again.stderr[-2000:]
    message = again.of(ev.RunFailed)[0].message
    assert "global_batch_size 32" in message and "now says 64" in message, message
    assert (run_dir / "events.jsonl").read_bytes() == before


STALLING_DATA = (
    "import time\n"
    "import numpy as np\n"
    "import tensorflow as tf\n"
    "calls = []\n"
    "def examples():\n"
    "    calls.append(1)\n"
    "    if len(calls) > 1:\n"
    "        open(MARKER, 'w').close()\n"
    "        time.sleep(3600)\n"
    "    for i in range(64):\n"
    "        yield np.ones(4, 'float32'), i % 2\n"
    "def make_dataset(input_context):\n"
    "    spec = (tf.TensorSpec((4,), tf.float32), tf.TensorSpec((), tf.int64))\n"
    "    return tf.data.Dataset.from_generator(examples, output_signature=spec)\n"
)


def test_ctrl_c_while_a_generator_stalls_ends_tfdd_train_as_killed(tmp_path):
    """The stall is inside a training step (a generator TensorFlow calls): Ctrl-C ends the command all the same.
    The first iterator is the output check's; the training's stalls at its first example, so no batch
    prefetched before the stall lets the step end."""
    marker = tmp_path / "stalled"
    path = tmp_path / "my_data.py"
    path.write_text(STALLING_DATA.replace("MARKER", repr(str(marker))), encoding="utf-8")
    config = write_config(
        tmp_path, base_config(global_batch_size=8, data={"kind": "python", "path": str(path), "num_samples": 64})
    )
    run_dir = tmp_path / "run"
    command = short_grace(CLI_MODULE, "train", "--config", str(config), "--run-dir", str(run_dir))
    proc = subprocess.Popen(command, cwd=REPO, env=env(), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 120
        while not marker.exists():
            assert proc.poll() is None and time.monotonic() < deadline, "the generator was never reached"
            time.sleep(0.1)
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=60)  # until now only kill -9 ended it
    finally:
        proc.kill()
    assert proc.returncode == 130, err[-2000:]
    assert "the training step had not returned" in err, err[-2000:]
    end = read_events(run_dir / "events.jsonl")[-1]
    assert isinstance(end, ev.RunFinished) and end.status == "killed"
