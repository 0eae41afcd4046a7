"""Run the real trainer in a fresh process through the worker protocol.

TensorFlow fixes virtual devices at start-up ("Virtual devices cannot be modified after
being initialized"), so every replica
count needs its own process; this is also exactly how the GUI runs it.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from engine.core import events as ev
from tests.repo import REPO


def base_config(**overrides: Any) -> dict[str, Any]:
    """A small, fast run of the tutorial's model on the tutorial's data."""
    config: dict[str, Any] = {
        "strategy": "mirrored",
        "virtual_devices": 1,
        "loop": "custom",
        "epochs": 2,
        "global_batch_size": 64,
        "learning_rate": 0.01,
        "seed": 7,
        "shuffle_buffer": 1000,
        "steps_per_execution": 4,
        "data": {"kind": "synthetic", "num_samples": 1024, "num_features": 10},
    }
    for key, value in overrides.items():
        if isinstance(value, dict) and isinstance(config.get(key), dict):
            config[key] = {**config[key], **value}
        else:
            config[key] = value
    return config


@dataclass
class Finished:
    returncode: int
    events: list[ev.Event]
    stdout_garbage: list[str]
    stderr: str

    def of(self, kind: type) -> list[Any]:
        return [e for e in self.events if isinstance(e, kind)]


def worker_command(*args: str) -> list[str]:
    return [sys.executable, "-m", "engine.train.worker", *args]


def env() -> dict[str, str]:
    return {**os.environ, "PYTHONUNBUFFERED": "1", "TF_CPP_MIN_LOG_LEVEL": "2"}


def write_config(tmp_path: Path, config: dict[str, Any], name: str = "run.json") -> Path:
    path = tmp_path / name
    path.write_text(json.dumps(config), encoding="utf-8")
    return path


def parse_stdout(text: str) -> tuple[list[ev.Event], list[str]]:
    events, garbage = [], []
    for line in text.splitlines():
        try:
            events.append(ev.decode(line))
        except ev.EventDecodeError:
            garbage.append(line)
    return events, garbage


def run_worker(
    args: list[str], command: list[str] | None = None, timeout: float = 300, extra_env: dict[str, str] | None = None
) -> Finished:
    """Run to the end. Stdin stays open: its EOF would mean "stop" to the worker."""
    control_read, control_write = os.pipe()
    try:
        proc = subprocess.run(
            command or worker_command(*args),
            cwd=REPO,
            env={**env(), **(extra_env or {})},
            capture_output=True,
            text=True,
            timeout=timeout,
            stdin=control_read,
        )
    finally:
        os.close(control_read)
        os.close(control_write)
    events, garbage = parse_stdout(proc.stdout)
    return Finished(proc.returncode, events, garbage, proc.stderr)


def run_python(*args: str, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    """`python ARGS` in a fresh process from the repository, with the worker's environment; text output."""
    return subprocess.run([sys.executable, *args], cwd=REPO, env=env(), capture_output=True, text=True, timeout=timeout)


def train(
    tmp_path: Path, config: dict[str, Any], name: str = "run", extra_env: dict[str, str] | None = None
) -> Finished:
    path = write_config(tmp_path, config, f"{name}.json")
    return run_worker(["--config", str(path), "--run-dir", str(tmp_path / name)], extra_env=extra_env)


def train_all(tmp_path: Path, configs: dict[str, dict[str, Any]], at_once: int = 2) -> dict[str, Finished]:
    """Several independent runs, `at_once` processes at a time: most of a short run is importing
    TensorFlow, one core's work, so two side by side take little longer than one."""
    with ThreadPoolExecutor(max_workers=at_once) as pool:
        futures = {name: pool.submit(train, tmp_path, config, name) for name, config in configs.items()}
        return {name: future.result() for name, future in futures.items()}


class LiveWorker:
    """A worker we talk to while it runs: read events one by one, ask it to stop, kill it."""

    def __init__(self, args: list[str], command: list[str] | None = None):
        self.proc = subprocess.Popen(
            command or worker_command(*args),
            cwd=REPO,
            env=env(),
            text=True,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
        )
        self.events: list[ev.Event] = []

    def next_event(self) -> ev.Event | None:
        """The next event, or None at the end of the stream (the caller's test timeout bounds this)."""
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            try:
                event = ev.decode(line)
            except ev.EventDecodeError:
                continue
            self.events.append(event)
            return event
        return None

    def of(self, kind: type) -> list[Any]:
        return [e for e in self.events if isinstance(e, kind)]

    def wait_for(self, predicate: Any) -> ev.Event:
        while (event := self.next_event()) is not None:
            if predicate(event):
                return event
        raise AssertionError(f"the stream ended first; last events: {self.events[-3:]}")

    def stop(self) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write("stop\n")
        self.proc.stdin.flush()

    def finish(self, timeout: float = 120) -> int:
        while self.next_event() is not None:
            pass
        return self.proc.wait(timeout=timeout)

    def kill(self) -> None:
        self.proc.kill()
        self.proc.wait(timeout=30)
