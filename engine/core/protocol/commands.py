"""How to start each kind of protocol process, as `python -m ...` command lines.

`-m` finds the engine wherever it is installed, so the window, the launcher
and the scaling study work from an installed package in any working
directory, not only from a source checkout. Every caller builds its command
here; the argument names are the ones `engine.cli` and
`engine.train.worker` parse.
"""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path

from engine.core.protocol.paths import RunPaths

TRAINER_MODULE = "engine.train.worker"
"""One run in this process: events on stdout, "stop" on stdin (see engine.core.protocol.channel)."""
CLI_MODULE = "engine.cli"
"""The headless commands (`tfdd ...`); `cluster launch --events` and `scaling --events` speak the protocol."""


def python() -> str:
    """The interpreter children run with: the one running now, so they see the same packages."""
    return sys.executable


WAIT_FOR_CONFIG = "--wait-for-config"
"""The warm trainer's mode: import TensorFlow, say trainer_ready, then read its run as one line on stdin."""


def trainer_args(config_path: Path | str, run_dir: Path | str) -> list[str]:
    """The trainer's arguments for a fresh run: on its command line, or handed to a warm trainer."""
    return ["--config", str(config_path), "--run-dir", str(run_dir)]


def resume_args(run_dir: Path | str) -> list[str]:
    return ["--resume", str(run_dir)]


def trainer_command(config_path: Path | str, run_dir: Path | str) -> list[str]:
    """A fresh run of one trainer process."""
    return [python(), "-m", TRAINER_MODULE, *trainer_args(config_path, run_dir)]


def warm_trainer_command() -> list[str]:
    """A warm trainer: started ahead of time, it waits for `assignment_line(...)` on stdin."""
    return [python(), "-m", TRAINER_MODULE, WAIT_FOR_CONFIG]


def warm_trainer_serves(warm_env: dict[str, str], run_env: dict[str, str]) -> bool:
    """Whether a warm trainer started with `warm_env` may take a run meant to have `run_env`.

    TensorFlow reads much of its environment once, at import (TF_CPP_MIN_LOG_LEVEL,
    TF_ENABLE_ONEDNN_OPTS, OMP_NUM_THREADS, LD_LIBRARY_PATH, PYTHONPATH ...) and the CUDA
    driver reads CUDA_VISIBLE_DEVICES and CUDA_DEVICE_ORDER once; a warm trainer cannot change
    them. So the rule is strict: the whole environment must be the same.
    """
    return _comparable(warm_env) == _comparable(run_env)


def _comparable(env: dict[str, str]) -> dict[str, str]:
    return {k: v for k, v in env.items() if k != "PYTHONUNBUFFERED"}  # the client sets it for every child


def assignment_line(args: list[str]) -> str:
    """What a warm trainer reads to take a run: the arguments a cold one would get, as one JSON line."""
    return json.dumps(args) + "\n"


def parse_assignment(line: str) -> list[str]:
    """The arguments in an assignment line; ValueError for anything else."""
    try:
        args = json.loads(line)
    except json.JSONDecodeError:
        args = None
    if not isinstance(args, list) or not all(isinstance(a, str) for a in args) or WAIT_FOR_CONFIG in args:
        raise ValueError(f"not a trainer assignment: {line[:200]!r}")
    return args


def _cluster_launch(*args: str) -> list[str]:
    """`cluster launch` speaking the protocol (--events), for a fresh run or a resume."""
    return cli_command("cluster", "launch", *args, "--events")


def cluster_command(
    config_path: Path | str, run_dir: Path | str, workers: int, ps: int = 0, evaluator: bool = False
) -> list[str]:
    """A local cluster on 127.0.0.1 that speaks the same protocol as one trainer: `workers` workers, and for
    parameter_server a chief and `ps` parameter servers; `evaluator` adds an evaluator task."""
    shape = ["--workers", str(workers)] + (["--ps", str(ps)] if ps else []) + (["--evaluator"] if evaluator else [])
    return _cluster_launch(*shape, "--config", str(config_path), "--run-dir", str(run_dir))


def cluster_file_command(cluster_path: Path | str, config_path: Path | str, run_dir: Path | str) -> list[str]:
    """The tasks of a TF_CONFIG file (all on 127.0.0.1, ports as written) as one local cluster."""
    return _cluster_launch("--cluster", str(cluster_path), "--config", str(config_path), "--run-dir", str(run_dir))


def hosts_args(hosts_path: Path | str) -> list[str]:
    """What a cluster command adds to start its tasks over SSH on the hosts of a file (engine.core.hosts rows)."""
    return ["--hosts", str(hosts_path)]


def trainer_resume_command(run_dir: Path | str) -> list[str]:
    """One trainer process continuing `run_dir` (in a cluster, one task of it)."""
    return [python(), "-m", TRAINER_MODULE, *resume_args(run_dir)]


def resume_command(run_dir: Path | str, workers: int = 1) -> list[str]:
    """Continue a run from its checkpoint: one trainer, or a local cluster with the tasks it had (its
    cluster.json, or as many workers as before for a run launched before that file existed)."""
    if RunPaths(Path(run_dir)).cluster.is_file():
        return _cluster_launch("--resume", str(run_dir))
    if workers > 1:
        return _cluster_launch("--workers", str(workers), "--resume", str(run_dir))
    return trainer_resume_command(run_dir)


def background_resume_command(run_dir: Path | str) -> list[str]:
    """A stopped run continued without the window (engine.core.protocol.background), printing its progress: `tfdd
    train --resume`, or for a local cluster (its cluster.json) `tfdd cluster launch --resume`."""
    if RunPaths(Path(run_dir)).cluster.is_file():
        return cli_command("cluster", "launch", "--resume", str(run_dir))
    return cli_command("train", "--resume", str(run_dir))


def scaling_command(config_path: Path | str, replicas: list[int], out_dir: Path | str) -> list[str]:
    """A scaling study whose progress arrives as events (scaling_point per replica count)."""
    counts = [str(r) for r in replicas]
    return cli_command(
        "scaling", "--config", str(config_path), "--replicas", *counts, "--out", str(out_dir), "--events"
    )


def trial_command(config_path: Path | str, changes: list[str], out_dir: Path | str | None = None) -> list[str]:
    """A trial of config changes (`field=value` each) whose runs arrive as events (trial_arm per run); its runs
    go to `out_dir`, else to a scratch folder removed at its end."""
    flags = [arg for change in changes for arg in ("--change", change)]
    out = ["--out", str(out_dir)] if out_dir is not None else []
    return cli_command("try", "--config", str(config_path), *flags, *out, "--events")


def sweep_command(config_path: Path | str, space_path: Path | str, out_dir: Path | str) -> list[str]:
    """A hyper-parameter sweep whose trials arrive as events (sweep_trial, sweep_summary); "stop" stops it."""
    return cli_command(
        "sweep", "--config", str(config_path), "--space", str(space_path), "--out", str(out_dir), "--events"
    )


def sweep_resume_command(sweep_dir: Path | str) -> list[str]:
    """A stopped or killed sweep continued where it was, with events."""
    return cli_command("sweep", "--resume", str(sweep_dir), "--events")


def background_sweep_command(sweep_dir: Path | str) -> list[str]:
    """A sweep continued without the window (engine.core.protocol.background), printing its trials (no events:
    nobody reads them)."""
    return cli_command("sweep", "--resume", str(sweep_dir))


def sweep_status_command(sweep_dir: Path | str) -> list[str]:
    """What a sweep holds, as events, without running it: its trials, its summary, then a run_finished whose
    status says whether it runs now (running), was stopped (stopped) or has spent its budget (completed)."""
    return cli_command("sweep", "--status", str(sweep_dir), "--events")


def probe_command() -> list[str]:
    """The devices TensorFlow sees, as one JSON document on stdout."""
    return [python(), "-m", CLI_MODULE, "devices", "--json"]


def cli_command(*args: str) -> list[str]:
    """Any other headless command, e.g. ("export-script", "--config", c, "--out", p)."""
    return [python(), "-m", CLI_MODULE, *args]


def as_typed(command: list[str]) -> str:
    """A command as a person types it in a terminal, quoted for a POSIX shell: a `cli_command` as `tfdd ARGS`."""
    return shlex.join(["tfdd", *command[3:]] if command[1:3] == ["-m", CLI_MODULE] else command)
