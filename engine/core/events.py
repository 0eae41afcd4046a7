"""Typed training events and their JSON-lines codec.

This is the only thing that crosses the seam between the trainer process and
its watchers (the GUI runner, the CLI progress bar, events.jsonl). It imports
no TensorFlow. Every event carries `type` and a wall-clock `time`.
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, ClassVar

import msgspec

from engine.core.messages import Message, to_plain


def _now() -> float:
    return time.time()


@dataclass(frozen=True, kw_only=True)
class RunStarted:
    type: ClassVar[str] = "run_started"
    strategy: str
    num_replicas: int  # replicas in sync across all workers of a cluster
    devices: list[str]  # this worker's devices
    global_batch_size: int
    per_replica_batch_size: int
    loop: str
    epochs: int
    steps_per_epoch: int
    steps_per_execution: int  # 0: "auto", tuned while training
    run_dir: str
    start_epoch: int = 0
    start_step: int = 0
    num_workers: int = 1
    task: str = ""
    # the mixed-precision features (engine.core.plan.precision_features) of the CPU this task trains on, which
    # may be another machine's than the window's; None: unknown (its system does not say, or an older run)
    cpu_features: list[str] | None = None
    time: float = field(default_factory=_now)


@dataclass(frozen=True, kw_only=True)
class BatchEnd:
    """One training step, or the mean of several: steps shorter than engine.train.controller.REPORT_EVERY_S
    share an event, and fit reports once per `steps_per_execution` call."""

    type: ClassVar[str] = "batch_end"
    epoch: int  # 1-based
    step: int  # 1-based step within the epoch
    global_step: int  # 1-based step since the run began; a monotonic x-axis
    loss: float
    accuracy: float
    examples_per_sec: float
    steps: int = 1  # how many steps this event averages
    time: float = field(default_factory=_now)


@dataclass(frozen=True, kw_only=True)
class EpochEnd:
    type: ClassVar[str] = "epoch_end"
    epoch: int  # 1-based
    loss: float
    accuracy: float
    seconds: float
    examples_per_sec: float
    val_loss: float | None = None
    val_accuracy: float | None = None
    time: float = field(default_factory=_now)


@dataclass(frozen=True, kw_only=True)
class StepAnatomy:
    """Where the time of the steps since the previous anatomy went, in milliseconds per step: the four parts
    add up to `step_ms` (engine.train measures them; engine.core.anatomy says what they mean)."""

    type: ClassVar[str] = "step_anatomy"
    epoch: int  # 1-based
    global_step: int  # the last step these figures cover: where the window plots them
    steps: int  # how many steps they cover
    step_ms: float  # measured wall time per step
    input_ms: float  # waiting for the next batch
    compute_ms: float  # forward, backward and the optimizer
    sync_ms: float  # all-reduce across replicas and workers, or parameter-server round trips
    rest_ms: float  # the host: Python, callbacks, events, checkpoints
    time: float = field(default_factory=_now)


@dataclass(frozen=True, kw_only=True)
class CheckpointSaved:
    type: ClassVar[str] = "checkpoint_saved"
    path: str
    epoch: int
    step: int
    time: float = field(default_factory=_now)


@dataclass(frozen=True, kw_only=True)
class ProfileSaved:
    """A TensorFlow profile of global steps `first_step` to `last_step` was written (engine.train.profile)."""

    type: ClassVar[str] = "profile_saved"
    path: str  # the profile's folder: <run>/tensorboard/plugins/profile/<session>
    logdir: str  # what `tensorboard --logdir` is given to show it
    first_step: int
    last_step: int
    task: str = ""  # a cluster's task id; empty for one trainer
    time: float = field(default_factory=_now)


@dataclass(frozen=True, kw_only=True)
class Log:
    type: ClassVar[str] = "log"
    level: str
    message: str
    source: str = ""  # e.g. "worker-1" when a cluster launcher relays a worker's line
    time: float = field(default_factory=_now)
    message_template: dict = field(default_factory=dict)  # as RunFailed's

    def __post_init__(self) -> None:
        _keep_template(self)


@dataclass(frozen=True, kw_only=True)
class WorkerState:
    """A cluster launcher's view of one worker process (local multi-worker runs)."""

    type: ClassVar[str] = "worker_state"
    worker: str  # "worker-0", "chief-0", "ps-0", "evaluator-0", ...
    state: str  # engine.core.protocol.codes.WorkerState: starting, waiting_for_peers, training, lost, finished, ...
    pid: int | None = None
    message: str = ""  # why it failed or stopped
    log_path: str = ""
    role: str = ""  # what the task does in this cluster (engine.core.tfconfig.role_text), e.g. "parameter server"
    host: str = ""  # the machine `pid` runs on, when not this one (a task started over ssh)
    stacks: list[str] = field(default_factory=list)  # there: the command that prints its Python stacks
    time: float = field(default_factory=_now)


@dataclass(frozen=True, kw_only=True)
class Evaluation:
    """The evaluator task's validation of one checkpoint, written while the cluster trains on."""

    type: ClassVar[str] = "evaluation"
    epoch: int  # epochs finished when the checkpoint was written
    step: int  # steps into the next epoch (0: the checkpoint of an epoch's end)
    global_step: int  # steps since the run began: where the window plots it, beside the training curves
    val_loss: float
    val_accuracy: float
    examples: int
    seconds: float  # how long the evaluation took
    checkpoint: str
    cpu_seconds: float = 0.0  # CPU time the evaluator used since its previous evaluation (what it cost the machine)
    time: float = field(default_factory=_now)


@dataclass(frozen=True, kw_only=True)
class TaskSteps:
    """parameter_server: the steps each worker has run so far, as the coordinator saw its closures come back."""

    type: ClassVar[str] = "task_steps"
    steps: dict[str, int]  # task id ("worker-1") -> steps
    time: float = field(default_factory=_now)


@dataclass(frozen=True, kw_only=True)
class TaskStalled:
    """A cluster task or a run of one trainer ("trainer") without step progress for `idle_s`
    (engine.core.logs.stall), or `resumed`, stepping again."""

    type: ClassVar[str] = "task_stalled"
    worker: str  # task id, "worker-1"
    pid: int | None = None
    idle_s: float = 0.0
    step_s: float | None = None  # its median step time; None before its first steps
    threshold_s: float = 0.0
    resumed: bool = False
    time: float = field(default_factory=_now)


@dataclass(frozen=True, kw_only=True)
class TaskProcess:
    """A cluster task started over ssh names its trainer's process on its host, and the py-spy program there
    ("" when it has none): what its pid and its Python stacks refer to (engine.cluster.remote_task)."""

    type: ClassVar[str] = "task_process"
    pid: int
    py_spy: str = ""
    time: float = field(default_factory=_now)


@dataclass(frozen=True, kw_only=True)
class ScalingPoint:
    """One replica count of a scaling study, measured (or failed: `error` says why)."""

    type: ClassVar[str] = "scaling_point"
    replicas: int
    examples_per_sec: float  # mean of the epochs after the first
    speedup: float  # relative to the smallest count that worked
    efficiency: float  # speedup / (replicas / that count)
    run_dir: str
    error: str = ""
    anatomy: dict[str, Any] | None = None  # its steps' StepAnatomy as to_dict gives it (engine.core.anatomy.from_plain)
    time: float = field(default_factory=_now)


@dataclass(frozen=True, kw_only=True)
class TrialArm:
    """One short run of a trial: the current config or the changed one, measured (or failed: `error` says
    why). A trial alternates them, current first (engine.tools.trial)."""

    type: ClassVar[str] = "trial_arm"
    arm: str  # "current" or "changed"
    round: int  # 1-based: the n-th run of this arm
    examples_per_sec: float  # mean of the epochs after the first
    run_dir: str
    error: str = ""
    anatomy: dict[str, Any] | None = None  # its steps' StepAnatomy as to_dict gives it (engine.core.anatomy.from_plain)
    time: float = field(default_factory=_now)


@dataclass(frozen=True, kw_only=True)
class SweepTrial:
    """One trial of a hyper-parameter sweep changed state (engine.tools.sweep)."""

    type: ClassVar[str] = "sweep_trial"
    number: int  # the study's trial number
    state: str  # engine.core.sweep.TrialStatus: running, completed, pruned, failed, interrupted
    params: dict  # config field -> value
    value: float | None = None  # the objective: its final value, or (running, pruned) its latest
    epoch: int = 0  # epochs reported so far (a pruned trial: where it stopped)
    devices: str = ""  # where it trains: "GPU:0, GPU:1" or "CPU"
    run_dir: str = ""
    message: str = ""  # why it failed, or why the sweep's pruner stopped it
    seconds: float = 0.0  # how long it has trained (a finished trial: how long it took)
    time: float = field(default_factory=_now)
    message_template: dict = field(default_factory=dict)  # as RunFailed's

    def __post_init__(self) -> None:
        _keep_template(self)


@dataclass(frozen=True, kw_only=True)
class SweepSummary:
    """A sweep after a trial finished (and when it starts or resumes): its best trial and how much each
    parameter mattered, so a watcher needs no optimisation library of its own (engine.tools.sweep)."""

    type: ClassVar[str] = "sweep_summary"
    finished: int  # trials finished for good (completed, pruned, failed)
    budget: int  # trials the sweep will finish
    best_number: int | None = None  # none until a trial completes
    best_value: float | None = None
    best_params: dict = field(default_factory=dict)
    best_run_dir: str = ""
    importance: dict = field(default_factory=dict)  # parameter -> its importance, the shares summing to 1
    importance_method: str = ""  # the estimator, e.g. "PED-ANOVA"
    importance_note: str = ""  # why there is no importance yet
    time: float = field(default_factory=_now)


@dataclass(frozen=True, kw_only=True)
class TrainerReady:
    """A warm trainer (worker --wait-for-config) has imported TensorFlow, touched no device, and waits
    for its run; sent once, before any run exists."""

    type: ClassVar[str] = "trainer_ready"
    pid: int
    import_seconds: float
    rss_mb: float  # resident size while it waits
    time: float = field(default_factory=_now)


@dataclass(frozen=True, kw_only=True)
class RunFinished:
    type: ClassVar[str] = "run_finished"
    status: str  # engine.core.protocol.codes.RunStatus: "completed" or "stopped"
    epochs_completed: int
    run_dir: str
    model_path: str = ""
    time: float = field(default_factory=_now)


@dataclass(frozen=True, kw_only=True)
class RunFailed:
    type: ClassVar[str] = "run_failed"
    message: str
    error_type: str = ""
    epochs_completed: int = 0
    run_dir: str = ""
    time: float = field(default_factory=_now)
    # the message's template and parameters (engine.core.messages.to_plain), so the window can say it in its
    # language; filled from a Message given as `message`, empty for plain text
    message_template: dict = field(default_factory=dict)

    def __post_init__(self) -> None:
        _keep_template(self)


def _keep_template(event: Log | RunFailed | SweepTrial) -> None:
    """Fill `message_template` from a Message given as `message` (plain text keeps it empty)."""
    if not event.message_template and isinstance(event.message, Message):
        object.__setattr__(event, "message_template", to_plain(event.message))


Event = (
    RunStarted
    | BatchEnd
    | EpochEnd
    | StepAnatomy
    | CheckpointSaved
    | ProfileSaved
    | Log
    | WorkerState
    | Evaluation
    | TaskSteps
    | TaskStalled
    | TaskProcess
    | ScalingPoint
    | TrialArm
    | SweepTrial
    | SweepSummary
    | TrainerReady
    | RunFinished
    | RunFailed
)
Sink = Callable[[Event], None]
"""Whatever takes a run's events: its run directory, the event channel, a terminal, TensorBoard."""
EVENT_TYPES: dict[str, type] = {
    cls.type: cls
    for cls in (
        RunStarted,
        BatchEnd,
        EpochEnd,
        StepAnatomy,
        CheckpointSaved,
        ProfileSaved,
        Log,
        WorkerState,
        Evaluation,
        TaskSteps,
        TaskStalled,
        TaskProcess,
        ScalingPoint,
        TrialArm,
        SweepTrial,
        SweepSummary,
        TrainerReady,
        RunFinished,
        RunFailed,
    )
}


class EventDecodeError(ValueError):
    """A line on the event channel that is not a known event."""


def _plain(value: Any) -> Any:
    """JSON has no NaN; numpy scalars are not JSON (cf. tf-keras RemoteMonitor)."""
    if hasattr(value, "item"):
        value = value.item()
    if isinstance(value, float) and not math.isfinite(value):
        return str(value)  # "nan", "inf": kept readable, decoded back to float
    return value


def to_dict(event: Event) -> dict[str, Any]:
    d = {"type": event.type}
    d.update({k: _plain(v) for k, v in dataclasses.asdict(event).items()})
    return d


def encode(event: Event) -> str:
    """One JSON line, without the newline."""
    return json.dumps(to_dict(event), separators=(",", ":"))


def _holds_float(info: Any) -> bool:
    """A float field, or a float-or-None one (msgspec.inspect's view of its annotation)."""
    if isinstance(info, msgspec.inspect.UnionType):
        return any(_holds_float(t) for t in info.types)
    return isinstance(info, msgspec.inspect.FloatType)


# per event type, the fields where `encode` may have written "nan", "inf" or "-inf" for a float
_FLOATS: dict[type, frozenset[str]] = {
    cls: frozenset(f.name for f in msgspec.inspect.type_info(cls).fields if _holds_float(f.type))
    for cls in EVENT_TYPES.values()
}
_NON_FINITE = ("nan", "inf", "-inf")


class _Tag(msgspec.Struct):
    """Only an event line's `type`: msgspec skips the rest of the line unread."""

    type: str = ""


_TAG = msgspec.json.Decoder(_Tag)
# a typed decoder per event type: decoding runs thousands of times a second while a window follows a run
_DECODERS = {name: msgspec.json.Decoder(cls) for name, cls in EVENT_TYPES.items()}


def from_dict(raw: dict[str, Any]) -> Event:
    """An event from its JSON object; EventDecodeError for an unknown type or a field of the wrong type."""
    name = raw.get("type", "")
    cls = EVENT_TYPES.get(name) if isinstance(name, str) else None
    if cls is None:
        raise EventDecodeError(f"unknown event type {str(raw.get('type'))[:40]!r}")
    floats = _FLOATS[cls]
    values = {k: float(v) if k in floats and isinstance(v, str) and v in _NON_FINITE else v for k, v in raw.items()}
    try:
        return msgspec.convert(values, cls)
    except msgspec.ValidationError as exc:
        raise EventDecodeError(f"bad {cls.type} event: {exc}") from None


def decode(line: str) -> Event:
    """Parse one line; EventDecodeError for anything that is not an event.

    msgspec reads the line's type, then decodes and type-checks it with that type's decoder; anything else
    (a NaN written as "nan", a line that is not an event) takes the slower path that says what is wrong."""
    with contextlib.suppress(msgspec.DecodeError, KeyError):  # ValidationError is a DecodeError
        return _DECODERS[_TAG.decode(line).type].decode(line)
    try:
        raw = json.loads(line)
    except json.JSONDecodeError as exc:
        raise EventDecodeError(f"not JSON: {line[:80]!r} ({exc})") from None
    if not isinstance(raw, dict):
        raise EventDecodeError(f"not an event object: {line[:80]!r}")
    return from_dict(raw)
