"""The words of the worker protocol: stop message, exit codes, statuses, states, task ids."""

from __future__ import annotations

from enum import IntEnum, StrEnum

STOP_LINE = "stop"
"""A line on the child's stdin that asks for a graceful stop; EOF on stdin means the same."""

STOP_GRACE_S = 10.0
"""How long a parent waits after "stop" before it kills a trainer (it checkpoints and saves the model first)."""
TRAINER_STOP_GRACE_S = STOP_GRACE_S - 2
"""How long a trainer waits after a stop request for training to reach a point where it can stop (the
user's code may block it) before it ends itself, saying why: before its parent's kill, which says nothing."""
CLUSTER_STOP_GRACE_S = 30.0
"""How long a cluster launcher waits for its workers to stop (a collective checkpoint, then the model)."""
CLUSTER_GRACE_S = CLUSTER_STOP_GRACE_S + 10
"""How long a parent waits for a launcher: killed sooner, it would cut its workers' checkpoint short."""
JOIN_TIMEOUT_ENV = "TFDD_JOIN_TIMEOUT_S"
"""Seconds a multi_worker_mirrored task waits for its peers before it gives up (engine.train.peers);
exported start scripts set it, so a user sees and changes it there."""
DEFAULT_JOIN_TIMEOUT_S = 600


class ExitCode(IntEnum):
    """What a protocol process's exit code means; the same for `train`, workers and launchers."""

    OK = 0  # completed, or (a worker speaking --events) stopped on request
    FAILED = 1  # training failed; a run_failed event says why
    CONFIG = 2  # bad config, arguments or input: nothing was started
    INTERRUPTED = 130  # the command line's Ctrl-C (128 + SIGINT), after a checkpoint
    TERMINATED = 143  # SIGTERM (128 + SIGTERM), after a checkpoint: how process managers stop a job

    @classmethod
    def describe(cls, code: int) -> str:
        """A code as a person reads it, e.g. "exited with code 2 (bad config or arguments)"."""
        if code < 0:
            import signal

            try:
                return f"killed by {signal.Signals(-code).name}"
            except ValueError:
                return f"killed by signal {-code}"
        meaning = _MEANINGS.get(code, "crashed")
        return f"exited with code {code} ({meaning})"


_MEANINGS = {
    ExitCode.OK: "finished",
    ExitCode.FAILED: "training failed",
    ExitCode.CONFIG: "bad config or arguments",
    ExitCode.INTERRUPTED: "interrupted",
    ExitCode.TERMINATED: "terminated",
}


PEER_LOST_ERRORS = ("UnavailableError", "DeadlineExceededError", "AbortedError")
"""TensorFlow's errors when a task of the cluster stopped answering (a killed ps task, a lost peer): the run
itself was sound, so a run that failed with one of them can be resumed from its checkpoint."""


class RunStatus(StrEnum):
    """How a run ended (run_finished, the Runs table), or that it has not."""

    COMPLETED = "completed"
    STOPPED = "stopped"  # on request, with a checkpoint
    PRUNED = "pruned"  # a sweep's trial its pruner stopped (the sweep's word in its events.jsonl), with a checkpoint
    FAILED = "failed"
    KILLED = "killed"  # did not stop within the grace period and was killed
    INTERRUPTED = "interrupted"  # ended without a word (kill -9, power loss): resumable
    RUNNING = "running"  # a live process holds the run's lock
    UNREADABLE = "unreadable"  # the history cannot read the run's files (the reason comes with it)

    @property
    def resumable(self) -> bool:
        return self in (RunStatus.STOPPED, RunStatus.KILLED, RunStatus.INTERRUPTED)


class WorkerState(StrEnum):
    """A cluster task's process as its launcher sees it (the worker_state event)."""

    STARTING = "starting"
    WAITING = "waiting_for_peers"
    TRAINING = "training"
    EVALUATING = "evaluating"  # the evaluator task: ready, validating each new checkpoint
    LOST = "lost"  # parameter_server: a worker died; the coordinator goes on with the others
    REJOINED = "rejoined"  # a lost worker the launcher restarted is serving again
    FINISHED = "finished"
    STOPPED = "stopped"
    FAILED = "failed"

    @property
    def done(self) -> bool:
        """Its process is gone for good (a lost worker that is restarted becomes STARTING again)."""
        return self in (WorkerState.FINISHED, WorkerState.STOPPED, WorkerState.FAILED, WorkerState.LOST)

    @property
    def joining(self) -> bool:
        return self in (WorkerState.STARTING, WorkerState.WAITING)


def task_id(job: str, index: int) -> str:
    """A task's identifier in folder names, log sources and the workers panel, e.g. "worker-1"."""
    return f"{job}-{index}"
