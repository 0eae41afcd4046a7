"""A cluster's tasks started on other machines over SSH, supervised as the local launcher supervises its own.

Each task's folder on its host (HOST_FOLDER/<run name>/<task id>) gets the
task's config, TF_CONFIG and the user's Python files; the task then runs as
`engine.cluster.remote_task` through an ssh channel: its events come back on
ssh's stdout, its log on ssh's stderr (RUN_DIR/workers/<task id>.log here),
"stop" goes out on ssh's stdin. So the launcher's TaskGroup (engine.cluster.group: fail fast,
parameter-server restarts, the evaluator, a graceful stop) runs unchanged;
only how a task's process starts differs. A dropped connection ends the
remote task after its checkpoint (remote_task), and the ssh client's exit
code 255 names the host here at once. The chief writes its run on its host;
its folder comes back to this machine's run directory as the run goes
(every SYNC_S) and once more at the end.
"""

from __future__ import annotations

import dataclasses
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from engine.cluster.group import (
    DEFAULT_RESTARTS,
    STOP_GRACE_S,
    ClusterResult,
    EventCallback,
    StateCallback,
    StopCheck,
    TaskGroup,
    TaskProcess,
)
from engine.cluster.preflight import HostCheck, check_hosts
from engine.cluster.remote_task import CONFIG_FILE, HEARTBEAT_LINE, HEARTBEAT_S, RUN_FOLDER, TF_CONFIG_FILE
from engine.cluster.ssh import SSH_FAILED, Ssh, failure, python_words, remote_path
from engine.core import events as ev
from engine.core.config import RunConfig
from engine.core.exports.bundle import sh_quote, shared_paths
from engine.core.exports.script import localized, user_files
from engine.core.hosts import Host, hosts_for
from engine.core.messages import Message, msg
from engine.core.protocol.client import WorkerProcess
from engine.core.protocol.paths import RunPaths
from engine.core.protocol.profile import ProfileRequests
from engine.core.runs.runlock import RunLock
from engine.core.tfconfig import ClusterError, ClusterSpec, Task, errors, for_task, render, run_problems

HOSTS_FILE = "hosts.txt"  # in the run directory here: each task's host, for --resume
SYNC_S = 10.0  # how often the chief's run folder is copied back while the run goes


class PreflightError(ValueError):
    """Hosts that cannot run their tasks: every problem, one line each; nothing was started.

    `message` says so in one translatable Message (each line's template kept), for the window."""

    def __init__(self, lines: list[Message]):
        self.lines = lines
        every = lines[-1]
        for line in reversed(lines[:-1]):
            every = msg("{line}\n{more}", line=line, more=every)
        self.message = msg("nothing was started; the hosts are not ready:\n{problems}", problems=every)
        super().__init__("\n".join(lines))


@dataclass(frozen=True)
class RemoteCluster:
    """The cluster with its hosts' addresses, and where each task runs: task id -> host, folder there."""

    cluster: ClusterSpec
    hosts: dict[str, Host]
    folders: dict[str, str]


def remote_cluster(cluster: ClusterSpec, hosts: list[Host], ssh: Ssh, run_name: str) -> RemoteCluster:
    """`cluster`'s tasks on `hosts` (engine.core.hosts.hosts_for), on the same ports, at the addresses ssh
    connects to (an alias's HostName), each task in its own folder HOST_FOLDER/run_name/task id."""
    tasks = cluster.tasks()
    assigned = hosts_for(tasks, hosts)
    addresses = {host: ssh.address(host) for host in dict.fromkeys(assigned)}
    jobs: dict[str, list[str]] = {}
    for task, host in zip(tasks, assigned, strict=True):
        jobs.setdefault(task.job, []).append(dataclasses.replace(task, host=addresses[host]).address)
    return RemoteCluster(
        ClusterSpec.from_dict(jobs),
        {t.id: h for t, h in zip(tasks, assigned, strict=True)},
        {t.id: f"{h.folder.rstrip('/')}/{run_name}/{t.id}" for t, h in zip(tasks, assigned, strict=True)},
    )


def preflight(remote: RemoteCluster, config: RunConfig, ssh: Ssh) -> None:
    """Check every host at once; PreflightError with every problem (and ClusterError for the cluster's own)."""
    problems = errors(run_problems(remote.cluster, config))
    if problems:
        raise ClusterError(problems)
    ports: dict[Host, list[int]] = {}
    for task in remote.cluster.tasks():
        ports.setdefault(remote.hosts[task.id], []).append(task.port)
    paths = tuple(shared_paths(config))
    lines = check_hosts([HostCheck(host, tuple(p), paths) for host, p in ports.items()], ssh)
    if lines:
        raise PreflightError(lines)


def send_tasks(remote: RemoteCluster, config: RunConfig, ssh: Ssh, resume_from: Path | None = None) -> None:
    """Each task's config, TF_CONFIG and the user's Python files into its folder, all hosts at once.

    `resume_from`, this machine's copy of the run: the chief resumes its own run there; every other
    task gets the run's config and newest checkpoint in its folder's run/, which it restores from.
    """
    shared = {name: path.read_bytes() for name, path in user_files(config).items()}
    shared[CONFIG_FILE] = (localized(config).to_json() + "\n").encode()
    chief = remote.cluster.chief()
    restored = _restore_files(resume_from) if resume_from is not None else {}

    def send(task: Task) -> str:
        tf_config = render(for_task(remote.cluster, task.job, task.index)) + "\n"
        files = {**shared, TF_CONFIG_FILE: tf_config.encode(), **({} if task == chief else restored)}
        return ssh.send(remote.hosts[task.id], remote.folders[task.id], files)

    with ThreadPoolExecutor(max_workers=8, thread_name_prefix="send") as pool:
        lines = [line for line in pool.map(send, remote.cluster.tasks()) if line]
    if lines:
        raise PreflightError(lines)


def _restore_files(run_dir: Path) -> dict[str, bytes]:
    """What a task that is not the chief needs to resume: the run's config and its newest checkpoint."""
    paths = RunPaths(run_dir)
    files = {f"{RUN_FOLDER}/{paths.config.name}": paths.config.read_bytes()}
    indexes = paths.checkpoint_indexes()
    for path in paths.checkpoint_files(indexes[-1]) if indexes else []:
        files[f"{RUN_FOLDER}/{path.parent.name}/{path.name}"] = path.read_bytes()
    return files


def save_hosts(remote: RemoteCluster, run_dir: Path) -> None:
    """The run's hosts, each task's row in task order, so `--resume` starts the same tasks on the same hosts."""
    rows = [remote.hosts[t.id].row() for t in remote.cluster.tasks()]
    (run_dir / HOSTS_FILE).write_text("".join(f"{row}\n" for row in rows), encoding="utf-8")


def launch_remote_cluster(
    remote: RemoteCluster,
    run_config_path: str | Path,
    run_dir: str | Path,
    ssh: Ssh,
    *,
    join_timeout_s: float,
    on_event: EventCallback | None = None,
    on_state: StateCallback | None = None,
    should_stop: StopCheck | None = None,
    resume: bool = False,
    lock: RunLock | None = None,
    restarts: int = DEFAULT_RESTARTS,
    stall_s: float | None = None,
    profile: ProfileRequests | None = None,
) -> ClusterResult:
    """Check the hosts, copy the tasks' files, run every task on its host and wait (as launch_cluster).

    PreflightError or ClusterError before anything starts. The chief's run comes back into `run_dir`.
    `resume` continues the run from its newest checkpoint on the same hosts (the chief's run is there).
    `lock`, the run's lock held by the caller, stays here (the chief claims its folder there).
    """
    run_dir = Path(run_dir).resolve()
    config = RunConfig.load(run_config_path, check=not resume)
    preflight(remote, config, ssh)
    send_tasks(remote, config, ssh, run_dir if resume else None)
    run_dir.mkdir(parents=True, exist_ok=True)
    save_hosts(remote, run_dir)
    group = RemoteGroup(remote, ssh, config.strategy, run_dir, on_event, on_state, restarts, stall_s, profile)
    group.resume = resume
    try:
        group.start([])
        return group.watch(join_timeout_s, should_stop or (lambda: False))
    finally:
        group.shutdown(STOP_GRACE_S)  # a no-op unless an exception (e.g. Ctrl-C) got here
        group.stop_syncing()
        group.fetch_chief_run()


class RemoteGroup(TaskGroup):
    """The launcher's group, each task's process an ssh client running remote_task on the task's host."""

    def __init__(
        self,
        remote: RemoteCluster,
        ssh: Ssh,
        strategy: str,
        run_dir: Path,
        on_event: EventCallback | None,
        on_state: StateCallback | None,
        restarts: int,
        stall_s: float | None,
        profile: ProfileRequests | None = None,
    ):
        cluster = remote.cluster
        tasks = cluster.tasks()
        super().__init__(cluster, strategy, tasks, run_dir, on_event, on_state, restarts, None, stall_s, profile)
        self.remote = remote
        self.ssh = ssh
        self.resume = False
        self._beat = 0.0
        self._synced = threading.Event()
        self._sync_thread = threading.Thread(target=self._sync, name="run-sync", daemon=True)

    def start(self, command: list[str]) -> None:
        super().start(command)
        self._sync_thread.start()

    def _process_for(self, task: Task, log_path: Path) -> WorkerProcess:
        host, folder = self.remote.hosts[task.id], self.remote.folders[task.id]
        again = " --resume" if self.resume else ""
        command = f"{python_words(host)} -m engine.cluster.remote_task --folder {remote_path(folder)}{again}"
        return WorkerProcess(self.ssh.command(host, command), stderr_path=log_path, own_group=True)

    def _each_pass(self) -> None:
        """The heartbeat: each task's host hears from this machine every HEARTBEAT_S (remote_task)."""
        now = time.monotonic()
        if now - self._beat >= HEARTBEAT_S:
            self._beat = now
            for w in self.workers:
                if w.alive():
                    w.process.send(HEARTBEAT_LINE.decode())  # type: ignore[union-attr]

    def _pass_profile_asks(self) -> None:
        """Refused, said: a task's profile would stay on its host (only the chief's run comes back)."""
        if self.profile is not None and self.profile.take() and self.on_event:
            said = msg("No profile: the tasks of a cluster on other machines are not asked for one yet")
            self.on_event(self.chief, ev.Log(level="warning", message=said))

    def _exited(self, w: TaskProcess, stopping: bool) -> None:
        code = w.process.returncode if w.process else None
        if code == SSH_FAILED and not w.failed_message and not w.killed:
            host = self.remote.hosts[w.task.id]
            tail = "\n".join(w.stderr_tail())
            w.failed_message = failure(host, code, tail, connected=True) or ""
        super()._exited(w, stopping)

    def _handle(self, w: TaskProcess, event: ev.Event) -> None:
        """The task's pid is its trainer's on its host (with how to read its stacks there); the chief's
        run_dir is a folder on its host, here the run is in this machine's run dir."""
        if isinstance(event, ev.TaskProcess):
            host = self.remote.hosts[w.task.id]
            stacks = self.ssh.command(host, f"{sh_quote(event.py_spy)} dump --pid {event.pid}") if event.py_spy else []
            self._set(w, pid=event.pid, host=host.name, stacks=tuple(stacks))
            return
        if getattr(event, "run_dir", None):
            event = dataclasses.replace(event, run_dir=str(self.run_dir))  # type: ignore[arg-type]
        super()._handle(w, event)

    def _chief_run(self) -> tuple[Host, str]:
        return self.remote.hosts[self.chief.id], f"{self.remote.folders[self.chief.id]}/{RUN_FOLDER}"

    def _sync(self) -> None:
        while not self._synced.wait(SYNC_S):
            self.ssh.fetch(*self._chief_run(), self.run_dir)  # a miss is made good by the next one

    def stop_syncing(self) -> None:
        self._synced.set()
        if self._sync_thread.is_alive():
            self._sync_thread.join()

    def fetch_chief_run(self) -> None:
        """The chief's run folder, copied back once the tasks are done; a failure is said, never fatal."""
        problem = self.ssh.fetch(*self._chief_run(), self.run_dir)
        if problem and self.on_event:
            self.on_event(
                self.chief, ev.Log(level="warning", message=msg("{problem}; the run stays there", problem=problem))
            )
