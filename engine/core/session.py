"""A run as the window sees it, without Qt: what to start, in which folder, and where it stands.

The window asks the session for a `Launch` (the command of a trainer or a local cluster, its run directory,
the config file the child reads), hands the command to its runner, and tells the session what the run
reports; the session keeps the run's state (its listeners hear each change), its process, the warm trainer
that took it, and the plan (strategy, replicas, per-replica batch) to show. Nothing here needs a
QApplication, so the rules of starting, resuming, stopping and a warm trainer taking the run are tested on their own.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

from engine.core import events as ev
from engine.core.config import RunConfig, per_replica_batch
from engine.core.logs.stall import STALLED, StallWatch
from engine.core.messages import msg
from engine.core.protocol.codes import CLUSTER_GRACE_S, STOP_GRACE_S, RunStatus
from engine.core.protocol.commands import (
    assignment_line,
    cluster_command,
    cluster_file_command,
    hosts_args,
    resume_args,
    resume_command,
    trainer_args,
    trainer_command,
)
from engine.core.protocol.paths import RunPaths
from engine.core.runs.rundir import new_run_dir
from engine.core.runs.scratch import ScratchDir
from engine.core.tfconfig import (
    CLUSTER_STRATEGIES,
    ClusterError,
    ClusterProblem,
    ClusterSpec,
    errors,
    is_loopback,
    parse_tf_config,
    run_problems,
)

IDLE, STARTING, STOPPING = "idle", "starting", "stopping"
"""The session's own states; once the run reports, its state is a RunStatus, or STALLED while a task of it
makes no step progress."""


@dataclass(frozen=True)
class Commands:
    """How each kind of child is started (engine.core.protocol.commands); tests substitute fakes."""

    trainer: Callable[[Path, Path], list[str]] = trainer_command  # (config, run dir)
    cluster: Callable[..., list[str]] = cluster_command  # (config, run dir, workers, *, ps, evaluator)
    cluster_file: Callable[[Path, Path, Path], list[str]] = cluster_file_command  # (cluster file, config, run dir)
    resume: Callable[[Path, int], list[str]] = resume_command  # (run dir, workers)


@dataclass(frozen=True)
class ClusterShape:
    """A local cluster as the run form describes it."""

    workers: int
    ps: int = 0
    evaluator: bool = False

    @property
    def tasks(self) -> int:
        """Every process of it: a parameter-server cluster adds its coordinator."""
        return self.workers + self.ps + int(self.evaluator) + int(bool(self.ps))

    def words(self) -> str:
        """The log's own words, like TensorFlow's lines around it."""
        return (
            f"{self.workers} workers"
            + (f", {self.ps} parameter servers" if self.ps else "")
            + (", an evaluator" if self.evaluator else "")
        )


@dataclass(frozen=True)
class Launch:
    """One run to start: its command, folder and what the views need to know of it."""

    command: list[str]
    run_dir: Path
    what: str  # the log's words for it (a Message where the window translates it)
    config_file: Path  # the config the run trains with
    tasks: int = 0  # rows of the cluster tasks panel; 0 for a run of one process
    warm_args: list[str] | None = None  # a warm trainer may take the run with these arguments

    def grace_seconds(self, single: float = STOP_GRACE_S) -> float:
        """How long a stop may take before the process is killed: a cluster checkpoints on every task."""
        return max(single, CLUSTER_GRACE_S) if self.tasks else single


@dataclass(frozen=True)
class Plan:
    """What the status bar shows of a run: the form's plan before it starts, the engine's once it reports."""

    strategy: str
    replicas: int | None
    per_replica: int | None

    @classmethod
    def of(cls, strategy: str, replicas: int | None, global_batch: int) -> Plan:
        return cls(strategy, replicas, per_replica_batch(global_batch, replicas))


Listener = Callable[[str, str], None]
"""Told (state before, state now) at each change of the session's state."""


@dataclass
class RunSession:
    """The window's one run at a time: prepared here, started by the window's runner, observed through events."""

    runs_root: Path
    commands: Commands = field(default_factory=Commands)
    grace_s: float = STOP_GRACE_S  # how long a run of one process may take to stop before it is killed
    stall_s: float | None = None  # a trainer without step progress this long is stalled (None: from its steps)
    launch: Launch | None = None
    pid: int | None = None  # the run's process, once started
    warm_pid: int | None = None  # the warm trainer that took the run, if one did
    closing: bool = False  # the window closes once the run's process is gone
    stalled: set[str] = field(default_factory=set)  # the run's tasks without step progress now
    listeners: list[Listener] = field(default_factory=list)
    _state: str = IDLE
    _scratch: ScratchDir | None = None  # the run configs handed to trainers, swept if the window is killed

    @property
    def state(self) -> str:
        return self._state

    def _set_state(self, state: str) -> None:
        before, self._state = self._state, state
        if state != before:
            for listener in list(self.listeners):
                listener(before, state)

    @property
    def active(self) -> bool:
        return self.launch is not None

    @property
    def config_file(self) -> Path | None:
        """The config file a starting child reads (in the scratch folder), while a run is active."""
        return self.launch.config_file if self.launch is not None else None

    def start(self, config: RunConfig, shape: ClusterShape | None = None) -> Launch:
        """A fresh run of the form's config: one trainer, or a local cluster of `shape` for a cluster strategy.
        OSError or RunDirError if the run directory or its config cannot be written."""
        run_dir, config_file = self._prepare(config)
        if shape is not None and config.strategy in CLUSTER_STRATEGIES:
            command = self.commands.cluster(config_file, run_dir, shape.workers, ps=shape.ps, evaluator=shape.evaluator)
            launch = Launch(command, run_dir, f"starting a local cluster of {shape.words()}", config_file, shape.tasks)
        else:
            command = self.commands.trainer(config_file, run_dir)
            warm = trainer_args(config_file, run_dir)
            launch = Launch(command, run_dir, msg("starting run"), config_file, warm_args=warm)
        return self._begin(launch)

    def start_cluster(
        self, config: RunConfig, cluster: ClusterSpec, cluster_json: str, machines: list[str] | None = None
    ) -> Launch:
        """The Cluster tab's tasks as its table says them, with the form's config; `machines` (engine.core.hosts
        rows, in task order) start each over SSH on its machine. ClusterError, before anything is written, if
        the cluster cannot run the config (e.g. an evaluator without a validation split)."""
        blockers = cluster_blockers(cluster, config)
        if blockers:
            raise ClusterError(blockers)
        run_dir, config_file = self._prepare(config)
        cluster_file = RunPaths(run_dir).cluster  # the launcher keeps it there too, for --resume
        cluster_file.write_text(cluster_json, encoding="utf-8")
        tasks = len(cluster.tasks())
        command = self.commands.cluster_file(cluster_file, config_file, run_dir)
        what = f"starting the Cluster tab's {tasks} tasks"
        if machines:
            hosts_file = config_file.with_suffix(".hosts")
            hosts_file.write_text("".join(f"{row}\n" for row in machines), encoding="utf-8")
            command += hosts_args(hosts_file)
            what += " on " + ", ".join(dict.fromkeys(machines))
        return self._begin(Launch(command, run_dir, what, config_file, tasks))

    def resume(self, run_dir: Path, workers: int) -> Launch:
        """Continue a stopped or killed run from its checkpoint; `workers` as its history knows them."""
        tasks = launched_tasks(run_dir) or (workers if workers > 1 else 0)
        warm = resume_args(run_dir) if not tasks else None
        command = self.commands.resume(run_dir, workers)
        return self._begin(Launch(command, run_dir, msg("resuming run"), RunPaths(run_dir).config, tasks, warm))

    def _prepare(self, config: RunConfig) -> tuple[Path, Path]:
        run_dir = new_run_dir(config, self.runs_root)
        if self._scratch is None:
            self._scratch = ScratchDir("tfdd-window-")
        config_file = self._scratch.path / f"{run_dir.name}.json"
        config.save(config_file)
        return run_dir, config_file

    def _begin(self, launch: Launch) -> Launch:
        if self.launch is not None:
            raise RuntimeError("a run is already active")
        self.launch, self.pid, self.warm_pid = launch, None, None
        self.stalled.clear()
        self._set_state(STARTING)
        return launch

    def _active(self) -> Launch:
        if self.launch is None:
            raise RuntimeError("no run is active")
        return self.launch

    def stop_grace(self) -> float:
        """How long the active run may take to stop before its process is killed."""
        return self._active().grace_seconds(self.grace_s)

    def stall_watch(self) -> StallWatch | None:
        """The window watches a run of one trainer for stalls; a local cluster's launcher watches its tasks."""
        return None if self._active().tasks else StallWatch(self.stall_s)

    def took_warm_trainer(self, warm_pid: int) -> None:
        """A ready warm trainer takes the active run (one that allows it: `Launch.warm_args`)."""
        if self._active().warm_args is None:
            raise RuntimeError("this run starts its own process")
        self.warm_pid = warm_pid

    def assignment(self) -> str:
        """What the warm trainer that took the run reads to start it; "" for a run that starts its own process."""
        args = self._active().warm_args
        return assignment_line(args) if self.warm_pid is not None and args is not None else ""

    def process_started(self, pid: int) -> None:
        self.pid = pid

    def observe(self, events: Iterable[ev.Event]) -> Plan | None:
        """Follow the run's state; the engine's plan once the run has started (every worker agrees on it)."""
        plan = None
        for event in events:
            if isinstance(event, ev.RunStarted):
                plan = Plan(event.strategy, event.num_replicas, event.per_replica_batch_size)
                self._set_state(RunStatus.RUNNING)
            elif isinstance(event, ev.TaskStalled) and self.state in (RunStatus.RUNNING, STALLED):
                (self.stalled.discard if event.resumed else self.stalled.add)(event.worker)
                self._set_state(STALLED if self.stalled else RunStatus.RUNNING)
        return plan

    def request_stop(self, closing: bool = False) -> None:
        """Stop the active run; `closing`: the window closes once its process is gone."""
        if self.launch is not None:
            self.closing = self.closing or closing
            self._set_state(STOPPING)

    def ended(self, status: str) -> None:
        """The run reported how it ended (completed, stopped, failed ...)."""
        self._set_state(status)

    def watch_over(self) -> None:
        """The window stopped watching another process's run: the state it showed was that run's."""
        if self.launch is None:
            self._set_state(IDLE)

    def release(self) -> None:
        """The run's process is gone: its scratch config goes; the session can start another run."""
        if (
            self.launch is not None
            and self._scratch is not None
            and self.launch.config_file.parent == self._scratch.path
        ):
            self.launch.config_file.unlink(missing_ok=True)
        self.launch, self.pid, self.warm_pid = None, None, None

    def close(self) -> None:
        """The window's last word: a trainer reads its config when it starts, none needs one any more."""
        if self._scratch is not None:
            self._scratch.cleanup()
            self._scratch = None


def launched_cluster(run_dir: Path) -> ClusterSpec | None:
    """The cluster a run was launched with (its cluster.json); None for a run of one process, or unreadable."""
    path = RunPaths(run_dir).cluster
    try:
        return parse_tf_config(path.read_text(encoding="utf-8")).cluster if path.is_file() else None
    except (OSError, ValueError):
        return None


def launched_tasks(run_dir: Path) -> int:
    """How many tasks a local cluster run had (its cluster.json); 0 for a run of one process."""
    cluster = launched_cluster(run_dir)
    return len(cluster.tasks()) if cluster is not None else 0


def other_hosts(run_dir: Path) -> list[str]:
    """The hosts a cluster run's tasks trained on that are not loopback (over SSH, or started by hand there)."""
    cluster = launched_cluster(run_dir)
    return sorted({t.host for t in cluster.tasks() if not is_loopback(t.host)}) if cluster is not None else []


def cluster_blockers(cluster: ClusterSpec, config: RunConfig) -> list[ClusterProblem]:
    """What stops `config` from running on `cluster` at all (its warnings do not), said before any process starts."""
    return errors(run_problems(cluster, config))
