"""What to change when a step is bound by one part: candidate config changes for a verdict, each with why.

engine.core.anatomy says what bounds a step (input, compute, sync or the rest); this module turns that
verdict into changes of the run config that address it, as field -> value diffs (the sweep's names:
`model.hidden_units` for a section's field), each with a one-line reason. Only changes valid for this
config and this machine are offered: the changed config must pass validation with the run's replica
count, and device-bound choices (NCCL, mixed precision, XLA) must be ones the device plan accepts and does not
note as unable to help on the devices the run used. Where the config cannot express a fix (a user's own input
pipeline), the reason is advice with no change; where no change is offered, one line of advice says why, in the
words of the rules that refused each candidate.
A change is proved by a short trial before it is adopted (engine.tools.trial). TensorFlow-free: the
window offers these under the Live tab's verdict.
"""

from __future__ import annotations

import json
import platform
import statistics
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engine.core.anatomy import Part, bound_by
from engine.core.config import LIMITS, Loop, RunConfig, validate
from engine.core.events import RunStarted, StepAnatomy, TrialArm
from engine.core.messages import Message, msg
from engine.core.plan import (
    ALL_REDUCE_BY_STRATEGY,
    MULTI_WORKER,
    PARAMETER_SERVER,
    PRECISION_CPU_FEATURES,
    Strategy,
    choice_problems,
    choose_all_reduce,
    plan_notes,
    reason_of,
)
from engine.core.problems import ConfigError, Problem
from engine.core.session import other_hosts
from engine.core.sweep.space import apply, is_field

FEW_STEPS_PER_CALL = 32  # a fixed steps_per_execution below this pays Python's per-call cost often
MANY_STEPS_PER_CALL = 128  # what a host-bound run is offered instead
PACK_BYTES = 32 * 2**20  # gradients all-reduced in packs of 32 MiB rather than one tensor at a time
STREAMED_KINDS = ("python", "csv", "tfrecord", "image_folder")  # sources read again every epoch unless cached


@dataclass(frozen=True)
class Machine:
    """What the run's devices can do, as far as the changes care."""

    gpus: int = 0  # GPUs the run trained on
    system: str = field(default_factory=platform.system)
    cpu_features: tuple[str, ...] | None = None  # the trainer's CPU's precision features (RunStarted); None: unknown


@dataclass(frozen=True)
class Remedy:
    """A change of the run config (field -> value; empty for advice the config cannot express) and why."""

    changes: dict[str, Any]
    why: Message
    headline: Message | None = None  # `why` in short where it is long: the window's row, with `why` in its tip

    @property
    def arguments(self) -> list[str]:
        """The change as `tfdd try --change` takes it: ["jit_compile=true", "global_batch_size=256"]."""
        return [f"{name}={json.dumps(value)}" for name, value in self.changes.items()]

    @property
    def label(self) -> str:
        return " ".join(self.arguments)


def machine_of(started: RunStarted) -> Machine:
    """The machine a run reported at its start: its GPUs and its CPU (a cluster's chief's, on whichever
    machine it ran), and this system. A run that did not say its CPU is offered no bfloat16: it may have
    trained elsewhere (SSH hosts), so this machine's CPU says nothing about it."""
    gpus = sum("GPU" in device.upper() for device in started.devices)
    features = started.cpu_features
    return Machine(gpus=gpus, cpu_features=tuple(features) if features is not None else None)


def trial_refusal(run_dir: Path) -> Message | None:
    """Why a trial of the run's changes cannot run here: the run trained on other machines, and a trial on this
    one would measure this machine's devices, not theirs. None when it may."""
    hosts = other_hosts(run_dir)
    if not hosts:
        return None
    return msg(
        "the run trained on other machines ({hosts}); a trial would run on this machine and measure its devices, "
        "not theirs: apply the change and compare a new run on those machines",
        hosts=", ".join(hosts),
    )


def remedies(config: RunConfig, anatomy: StepAnatomy, replicas: int, machine: Machine) -> list[Remedy]:
    """The changes that address what bounds `anatomy`'s steps, valid for `config` at `replicas` replicas; when
    none is, one line of advice saying why, in the words of the rules that refused each candidate."""
    offered, refused = [], []
    for remedy in _OFFERS[bound_by(anatomy)](config, replicas, machine):
        why_not = _refusals(config, remedy.changes, replicas, machine)
        if why_not:
            refused.append((remedy.label, reason_of(why_not[0].message)))  # the rule's reason, not its advice
        else:
            offered.append(remedy)
    return offered or [_nothing_on_offer(refused)]


def _refusals(config: RunConfig, changes: dict[str, Any], replicas: int, machine: Machine) -> list[Problem]:
    """Why `changes` cannot be offered: what validation or the device plan refuses in the changed config, and the
    plan's notes that the changed fields cannot help on `machine`. What was wrong before the change is not the
    change's (e.g. a data file moved since the run)."""
    if not changes:
        return []
    gpus = [f"GPU:{i}" for i in range(machine.gpus)]

    def plan_refuses(c: RunConfig) -> list[Problem]:
        notes = [n for n in plan_notes(c, gpus, cpu_features=machine.cpu_features) if n.field in changes]
        return [*choice_problems(c, machine.gpus > 0, machine.system), *notes, *_unknown_cpu(c, machine)]

    had = {str(p) for p in [*validate(config, replicas=replicas), *plan_refuses(config)]}
    problems = [p for p in changed_problems(config, changes, replicas) if str(p) not in had]
    if not problems:
        problems = [p for p in plan_refuses(apply(config, changes, check=False)) if str(p) not in had]
    return problems


def _unknown_cpu(config: RunConfig, machine: Machine) -> list[Problem]:
    """Mixed precision on a CPU the run did not name: whether it computes it natively is unknown (this machine's
    CPU may not be the one that trained the run), so it is not offered."""
    if machine.gpus or machine.cpu_features is not None or config.mixed_precision not in PRECISION_CPU_FEATURES:
        return []
    why = msg(
        "the run did not say which CPU trained it, so whether that CPU computes {precision} natively is unknown",
        precision=config.mixed_precision,
    )
    return [Problem("mixed_precision", config.mixed_precision, why)]


def _nothing_on_offer(refused: list[tuple[str, Message]]) -> Remedy:
    """The advice when no change is offered: each candidate (its label) the rules refused, with their reason."""
    if not refused:
        return Remedy({}, msg("no change on offer: the config already has the changes that address this"))
    reasons = [msg("{change}: {why}", change=change, why=why) for change, why in refused]
    joined = reasons[-1]
    for reason in reversed(reasons[:-1]):
        joined = msg("{first}; {rest}", first=reason, rest=joined)
    return Remedy(
        {},
        msg("no change on offer: {reasons}", reasons=joined),
        headline=msg(
            "no change on offer: {changes} cannot run on these devices or would not help",
            changes=", ".join(change for change, _ in refused),
        ),
    )


def changed_problems(config: RunConfig, changes: dict[str, Any], replicas: int | None) -> list[Problem]:
    """What is wrong with `config` with `changes` applied: unknown fields, values the config refuses."""
    unknown = [Problem(name, value, msg("not a field of the run config")) for name, value in changes.items()]
    unknown = [p for p in unknown if not is_field(config, p.field)]
    if unknown:
        return unknown
    try:
        changed = apply(config, changes)
    except ConfigError as exc:
        return exc.problems
    return validate(changed, replicas=replicas)


def parse_change(text: str) -> tuple[str, Any] | None:
    """`field=value` as the command line gives it: the value is JSON (`true`, `256`, `"ring"`), or else the
    text itself (`all_reduce=ring`). None when there is no `=` or no field name."""
    name, sep, value = text.partition("=")
    if not sep or not name.strip():
        return None
    try:
        return name.strip(), json.loads(value)
    except ValueError:
        return name.strip(), value


# ---- what each part is offered ----------------------------------------------------------------------


def _input(config: RunConfig, replicas: int, machine: Machine) -> list[Remedy]:
    """The engine's own pipelines already map in parallel and prefetch (AUTOTUNE): what remains is reading the
    source once (`data.cache`, for a run of one process), one replica where examples in memory are split among
    replicas that share one CPU, and advice on the source itself."""
    kind = config.data.kind
    offered = [] if kind in STREAMED_KINDS else _one_replica(config, replicas, machine)
    if kind in STREAMED_KINDS and not config.data.cache and config.strategy not in (MULTI_WORKER, PARAMETER_SERVER):
        offered.append(
            Remedy(
                {"data.cache": True},
                msg(
                    "read the examples into memory once, before training: every epoch after takes its batches "
                    "from memory (they must fit in memory)"
                ),
            )
        )
    if kind == "python":
        why = msg(
            "your make_dataset feeds every step: add num_parallel_calls=tf.data.AUTOTUNE to its map calls, "
            "and .cache() after the slow part when the examples fit in memory"
        )
    elif kind == "csv":
        why = msg("CSV text is parsed again every epoch: save the data as NPZ (held in memory) or as TFRecord files")
    elif kind == "image_folder":
        why = msg("images are decoded every epoch when they exceed the cache: a smaller data.image_size fits more")
    elif kind == "tfrecord":
        why = msg("split the records over more files: tf.data reads several files at once")
    else:
        why = msg("the examples are in memory already: the time is spent handing batches to the devices")
    return [*offered, Remedy({}, why)]


def _compute(config: RunConfig, replicas: int, machine: Machine) -> list[Remedy]:
    """One replica where the replicas share one CPU, mixed precision and XLA (each offered only where the
    device plan lets it help: remedies), and more steps per call for a small model."""
    offered = _one_replica(config, replicas, machine)
    if config.mixed_precision == "off":
        if machine.gpus:
            offered.append(
                Remedy(
                    {"mixed_precision": "float16"},
                    msg("float16 runs on the GPUs' tensor cores (compute capability 7.0 or newer): up to 2-3× faster"),
                )
            )
        else:
            offered.append(
                Remedy({"mixed_precision": "bfloat16"}, msg("this CPU computes in bfloat16 natively: half the bytes"))
            )
    if not config.jit_compile:
        offered.append(
            Remedy({"jit_compile": True}, msg("XLA compiles the step into fused kernels: fewer, larger operations"))
        )
    return offered + _steps_per_call(config)  # a small model's step time is mostly the call that runs it


def _sync(config: RunConfig, replicas: int, machine: Machine) -> list[Remedy]:
    offered = [*_one_replica(config, replicas, machine), *_larger_batch(config, replicas), *_steps_per_call(config)]
    current = config.all_reduce
    if current == "auto":
        current = choose_all_reduce(config.strategy, machine.gpus, machine.system)
    for choice in _all_reduce_choices(config, machine):
        if choice != current:
            offered.append(
                Remedy(
                    {"all_reduce": choice},
                    msg("sum the gradients with {choice} instead of {current}", choice=choice, current=current),
                )
            )
    if config.strategy == MULTI_WORKER and config.bytes_per_pack == 0:
        offered.append(
            Remedy(
                {"bytes_per_pack": PACK_BYTES},
                msg(
                    "all-reduce the gradients in packs of {mb} MB: fewer, larger messages between workers",
                    mb=PACK_BYTES // 2**20,
                ),
            )
        )
    return offered


def _rest(config: RunConfig, replicas: int, machine: Machine) -> list[Remedy]:
    return _steps_per_call(config)


def _one_replica(config: RunConfig, replicas: int, machine: Machine) -> list[Remedy]:
    """One replica for a mirrored run over logical devices of one CPU (virtual_devices): they share the same
    cores, so more of them add the splitting of batches and summing of gradients but no cores."""
    if machine.gpus or config.strategy != Strategy.MIRRORED or replicas < 2:
        return []
    return [
        Remedy(
            {"virtual_devices": 1},
            msg(
                "the {replicas} replicas are logical devices of one CPU and share its cores: splitting each batch "
                "among them and summing their gradients is work that one replica, training the same global batch "
                "on all the cores, does not do (the smaller the model's step, the more it gains)",
                replicas=replicas,
            ),
        )
    ]


def _larger_batch(config: RunConfig, replicas: int) -> list[Remedy]:
    """Twice the global batch (still a multiple of the replicas), when the data holds two such batches."""
    larger = config.global_batch_size * 2
    if larger > LIMITS["global_batch_size"][1] or larger > _training_examples(config):
        return []
    return [
        Remedy(
            {"global_batch_size": larger},
            msg(
                "each all-reduce then serves twice the examples; the loss curve changes with the batch "
                "(the learning rate may need to grow with it)"
            ),
        )
    ]


def _training_examples(config: RunConfig) -> float:
    """The examples an epoch trains on, where the config says (synthetic, python), else unbounded here."""
    if config.data.kind not in ("synthetic", "python"):
        return float("inf")
    return config.data.num_samples - int(config.data.num_samples * config.validation_split)


def _steps_per_call(config: RunConfig) -> list[Remedy]:
    """More steps per tf.function call, where the run is not tuning them itself (custom loop, one process)."""
    spe = config.steps_per_execution
    tunes_itself = config.loop == Loop.CUSTOM and config.strategy not in (MULTI_WORKER, PARAMETER_SERVER)
    if spe == "auto" and tunes_itself:
        return []
    if spe == "auto" or spe < FEW_STEPS_PER_CALL:
        value: int | str = "auto" if tunes_itself else MANY_STEPS_PER_CALL
        return [
            Remedy(
                {"steps_per_execution": value},
                msg("run more steps per call: Python's cost of a call is paid once for many steps"),
            )
        ]
    return []


def _all_reduce_choices(config: RunConfig, machine: Machine) -> tuple[str, ...]:
    """The all-reduce implementations the plan accepts for the config's strategy on `machine`'s GPUs (on the
    CPU there is one way that pays: the automatic one)."""
    if not machine.gpus or (config.strategy == Strategy.MIRRORED and machine.gpus < 2):
        return ()
    return tuple(
        choice
        for choice in ALL_REDUCE_BY_STRATEGY.get(config.strategy, ())
        if not choice_problems(config.replace(all_reduce=choice), True, machine.system)
    )


_OFFERS: dict[Part, Callable[[RunConfig, int, Machine], list[Remedy]]] = {
    "input": _input,
    "compute": _compute,
    "sync": _sync,
    "rest": _rest,
}


# ---- what a trial measured ------------------------------------------------------------------------------

CURRENT, CHANGED = "current", "changed"  # a trial's two arms (events.TrialArm.arm)
TRIAL_ROUNDS = 2  # runs of each arm, alternating: A B A B gives three neighbouring pairs for the speed-up
TRIAL_EPOCHS = 1  # epochs measured in each run, after a first that traces and warms up


@dataclass(frozen=True)
class Speedup:
    """The changed config's examples/s over the current one's: the median of the ratios of each changed run
    to the current runs beside it in the sequence (A B A B: three pairs of neighbours), and their range."""

    factor: float
    low: float
    high: float
    pairs: int


def speedup(arms: Sequence[TrialArm]) -> Speedup | None:
    """The speed-up the arms measured, in the order they ran; None until a changed run has a measured
    neighbour. Pairing neighbours cancels a host that grows busier or quieter while the trial runs."""
    runs = [a for a in arms if not a.error and a.examples_per_sec > 0]
    ratios = []
    for i, arm in enumerate(runs):
        if arm.arm != CHANGED:
            continue
        for j in (i - 1, i + 1):
            if 0 <= j < len(runs) and runs[j].arm == CURRENT:
                ratios.append(arm.examples_per_sec / runs[j].examples_per_sec)
    if not ratios:
        return None
    return Speedup(statistics.median(ratios), min(ratios), max(ratios), len(ratios))


def speedup_line(change: str, result: Speedup | None) -> Message:
    """The trial's outcome in one line, e.g. "jit_compile=true: 1.42× the examples/s (1.35-1.50 over 3 pairs)"."""
    if result is None:
        return msg("{change}: no speed-up measured (a run failed or was cancelled)", change=change)
    return msg(
        "{change}: {factor:.2f}× the examples/s ({low:.2f}-{high:.2f} over {pairs} pairs of runs)",
        change=change,
        factor=result.factor,
        low=result.low,
        high=result.high,
        pairs=result.pairs,
    )
