"""RunConfig: the one JSON document that describes a training run.

The config is validated before TensorFlow is imported, and every problem is
reported at once (field, value given, what is allowed), so a person fixes a
form or a file in one go. This module imports no TensorFlow: the GUI uses it
to validate its form and to write the file the trainer process reads.
"""

from __future__ import annotations

import dataclasses
import functools
import json
import math
import typing
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path
from typing import Any

import msgspec

from engine.core.data_kinds import data_kind, validate_data
from engine.core.data_kinds.base import DataConfig
from engine.core.json_words import json_words
from engine.core.messages import msg
from engine.core.model_kinds import model_kind, validate_model
from engine.core.model_kinds.base import ModelConfig
from engine.core.plan import Strategy, replica_count
from engine.core.problems import ConfigError, Problem
from engine.core.user_code import anchor_user_files


class Loop(StrEnum):
    """The `loop` key: Keras `model.fit`, or a custom `strategy.run` loop."""

    FIT = "fit"
    CUSTOM = "custom"


STRATEGIES = tuple(Strategy)
LOOPS = tuple(Loop)
OPTIMIZERS = ("adam", "sgd", "rmsprop", "adagrad")
ACTIVATIONS = ("relu", "tanh", "sigmoid", "gelu", "elu", "selu", "swish")
MIXED_PRECISION = ("off", "float16", "bfloat16")
# How replicas sum their gradients. "auto" lets the device plan choose (engine.core.plan.choose_all_reduce);
# the others name TensorFlow's implementations: nccl (GPUs, Linux), ring (multi-worker collectives),
# hierarchical_copy and reduction_to_one_device (MirroredStrategy's cross-device ops).
ALL_REDUCE = ("auto", "nccl", "ring", "hierarchical_copy", "reduction_to_one_device")

# The whole numbers a config may hold, (lowest, highest). Past the highest, a number is a typo rather than a
# plan, or TensorFlow or NumPy overflows on it (a seed beyond 2**32 - 1, a buffer beyond int32); the window's
# fields take their ranges from here, so a value a field cannot show is a problem, never silently changed.
LIMITS: dict[str, tuple[int, int]] = {
    "epochs": (1, 1_000_000),
    "global_batch_size": (1, 10_000_000),
    "shuffle_buffer": (0, 2**31 - 1),
    "seed": (0, 2**32 - 1),  # numpy.random.seed (keras.utils.set_random_seed) takes 32 bits
    "virtual_devices": (1, 64),
    "virtual_gpu_memory_mb": (64, 1 << 24),
    "steps_per_execution": (1, 1_000_000),
    "bytes_per_pack": (0, 1 << 40),  # 0: TensorFlow packs gradients its own way
    "checkpoint.every_steps": (0, 10_000_000),
    "checkpoint.keep": (1, 1000),
    "model.hidden_units": (1, 1_000_000),  # each layer
    "data.num_samples": (2, 1_000_000_000),
    "data.num_features": (1, 1_000_000),
    "data.num_classes": (2, 1_000_000),
}
NAME_MAX_CHARS = 100
MAX_CONFIG_BYTES = 16 << 20  # a run config is a few KB; a bigger file is the wrong file
NAME_FORBIDDEN = '/\\:*?"<>|'  # path separators and what Windows refuses in a folder name
# parameter_server: how variables are split across the ps tasks. min_size: shards of at least 256 KiB, at most
# one per ps task (TensorFlow's tutorial; a small model stays whole); fixed: every variable in as many shards as
# there are ps tasks; none: each variable whole on one ps task (round robin).
VARIABLE_PARTITIONERS = ("min_size", "fixed", "none")


@dataclass(frozen=True, kw_only=True)
class CheckpointConfig:
    """When to checkpoint. A stop request always leaves a checkpoint."""

    every_epoch: bool = True
    every_steps: int = 0  # 0: not by steps
    keep: int = 3


StepsPerExecution = int | str


@dataclass(frozen=True, kw_only=True)
class RunConfig:
    """Everything a run needs. Key names are a contract with other tools."""

    name: str = ""
    strategy: str = Strategy.MIRRORED.value
    devices: tuple[str, ...] | None = None
    virtual_devices: int = 1
    virtual_gpu_memory_mb: int = 1024
    loop: str = Loop.CUSTOM.value
    epochs: int = 5
    global_batch_size: int = 64
    learning_rate: float = 0.001
    optimizer: str = "adam"
    shuffle_buffer: int = 10000
    seed: int = 42
    validation_split: float = 0.0
    steps_per_execution: StepsPerExecution = "auto"
    mixed_precision: str = "off"
    jit_compile: bool = False  # XLA-compile the training step
    all_reduce: str = "auto"  # one of ALL_REDUCE
    bytes_per_pack: int = 0  # CommunicationOptions.bytes_per_pack: gradients all-reduced in packs of this size
    memory_growth: bool = True
    variable_partitioner: str = "min_size"
    # multi_worker_mirrored: a collective (an all-reduce) that waits longer for a peer fails instead of hanging
    collective_timeout_s: float | None = None
    data: DataConfig = field(default_factory=DataConfig)
    model: ModelConfig = field(default_factory=ModelConfig)
    checkpoint: CheckpointConfig = field(default_factory=CheckpointConfig)

    # ---- JSON round trip -------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        return _lists(dataclasses.asdict(self))

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), indent=2)

    def save(self, path: str | Path) -> None:
        Path(path).write_text(self.to_json() + "\n", encoding="utf-8")

    @classmethod
    def from_dict(cls, raw: Any, check: bool = True) -> RunConfig:
        """Build a config and validate it; raise ConfigError with every problem.

        check=False keeps what can be read and drops keys of the wrong type,
        for a form that must come back as it was left, problems and all.
        """
        config, problems = _from_dict(raw)
        if not check:
            return config
        problems += validate(config)
        if problems:
            raise ConfigError(problems)
        return config

    @classmethod
    def from_json(cls, text: str, check: bool = True) -> RunConfig:
        """Parse and (unless check=False, see from_dict) validate; ConfigError when it is not JSON."""
        try:
            raw = json.loads(text)
        except json.JSONDecodeError as exc:
            raise ConfigError([Problem("(file)", text[:40], msg("not valid JSON: {exc}", exc=exc))]) from None
        except ValueError as exc:  # an integer of more digits than Python converts (4300)
            raise ConfigError(
                [Problem("(file)", text[:40], msg("a number is too long: {exc}", exc=str(exc).split(";")[0]))]
            ) from None
        except RecursionError:
            raise ConfigError(
                [
                    Problem(
                        "(file)", text[:40], msg("nested too deeply to be a run config (a run config is 3 levels deep)")
                    )
                ]
            ) from None
        return cls.from_dict(raw, check=check)

    @classmethod
    def load(cls, path: str | Path, check: bool = True) -> RunConfig:
        """A config file; check=False reads a past run's config whose data file has since moved."""
        p = Path(path)
        if not p.exists():
            raise ConfigError([Problem("(file)", str(p), msg("no such config file"))])
        if not p.is_dir() and not p.is_file():  # a device is read for ever, a FIFO blocks
            raise ConfigError([Problem("(file)", str(p), msg("not a regular file; a run config is a JSON text file"))])
        try:
            size = p.stat().st_size
            if size > MAX_CONFIG_BYTES:
                raise ConfigError(
                    [
                        Problem(
                            "(file)",
                            str(p),
                            msg(
                                "is {size:,.0f} MB; a run config is a few KB: is this the right file?",
                                size=size / 2**20,
                            ),
                        )
                    ]
                )
            data = p.read_bytes()
        except OSError as exc:
            raise ConfigError(
                [Problem("(file)", str(p), msg("cannot be read: {value}", value=exc.strerror or exc))]
            ) from None
        try:
            text = data.decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            raise ConfigError(
                [
                    Problem(
                        "(file)",
                        str(p),
                        msg(
                            "not UTF-8 text (byte 0x{byte:02x} at position {start}): a run config is a JSON text "
                            "file; is this the right file?",
                            byte=data[exc.start],
                            start=exc.start,
                        ),
                    )
                ]
            ) from None
        try:
            raw = json.loads(text)
        except (ValueError, RecursionError):  # JSONDecodeError is a ValueError, as is an over-long integer
            return cls.from_json(text, check=check)  # says what is wrong with the JSON
        return cls.from_dict(anchor_user_files(raw, p.parent), check=check)

    def replace(self, **changes: Any) -> RunConfig:
        return dataclasses.replace(self, **changes)


# ---- parsing -----------------------------------------------------------------


def _lists(value: Any) -> Any:
    """Tuples become JSON lists, everywhere in the document."""
    if isinstance(value, dict):
        return {k: _lists(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_lists(v) for v in value]
    return value


@functools.cache
def _field_types(cls: type) -> dict[str, Any]:
    """Each field's declared type, resolved (the annotations are strings: `from __future__ import annotations`)."""
    hints = typing.get_type_hints(cls)
    return {f.name: hints[f.name] for f in dataclasses.fields(cls)}


def _build(cls: type, raw: Any, prefix: str, problems: list[Problem]) -> Any:
    """`cls` from a JSON object: each value checked against its field's type by msgspec, one problem per field
    (an unknown key, a value of the wrong type: left out, so the field keeps its default)."""
    if not isinstance(raw, dict):
        problems.append(Problem(prefix.rstrip(".") or "(document)", raw, msg("must be a JSON object")))
        return cls()
    types = _field_types(cls)
    kwargs: dict[str, Any] = {}
    for key, value in raw.items():
        name = f"{prefix}{key}"
        declared = types.get(key)
        if declared is None:
            problems.append(Problem(name, value, msg("unknown key; known keys: {fields}", fields=", ".join(types))))
        elif dataclasses.is_dataclass(declared):  # a section: data, model, checkpoint
            kwargs[key] = _build(declared, value, f"{name}.", problems)
        else:
            try:
                kwargs[key] = msgspec.convert(value, declared)  # strict: no "5" for 5, no 1 for true
            except msgspec.ValidationError:
                problems.append(
                    Problem(name, value, msg("wrong type; expected {annotation}", annotation=json_words(declared)))
                )
    return cls(**kwargs)


def _from_dict(raw: Any) -> tuple[RunConfig, list[Problem]]:
    problems: list[Problem] = []
    config = _build(RunConfig, raw, "", problems)
    return config, problems


# ---- validation ----------------------------------------------------------------


def _choice(problems: list[Problem], name: str, value: Any, allowed: tuple[str, ...]) -> None:
    if value not in allowed:
        problems.append(Problem(name, value, msg("must be one of: {allowed}", allowed=", ".join(allowed))))


def nearest_valid_batch_sizes(global_batch: int, replicas: int) -> list[int]:
    """The multiples of `replicas` just below and above `global_batch`."""
    below = (global_batch // replicas) * replicas
    above = below + replicas
    return [b for b in (below, above) if b > 0]


def per_replica_batch(global_batch: int, replicas: int | None) -> int | None:
    """Each replica's share of a global batch; None while the replicas are unknown or do not divide it."""
    if not replicas or replicas <= 0 or global_batch % replicas:
        return None
    return global_batch // replicas


def batch_problem(global_batch: int, replicas: int) -> Problem | None:
    """The per-replica batch is global / replicas, so it must divide evenly."""
    if replicas <= 0 or per_replica_batch(global_batch, replicas) is not None:
        return None
    nearest = nearest_valid_batch_sizes(global_batch, replicas)
    sizes = msg("{a} or {b}", a=nearest[0], b=nearest[1]) if len(nearest) == 2 else str(nearest[0])
    return Problem(
        "global_batch_size",
        global_batch,
        msg(
            "must be divisible by the {replicas} replicas (each replica gets global / replicas "
            "examples); the nearest valid sizes are {sizes}",
            replicas=replicas,
            sizes=sizes,
        ),
    )


def validate(config: RunConfig, replicas: int | None = None) -> list[Problem]:
    """Every problem of `config`; `replicas` enables the divisibility check.

    Without `replicas`, the replica count is derived where the config alone
    fixes it (explicit devices, virtual devices, one-device strategies).
    """
    p: list[Problem] = []
    _choice(p, "strategy", config.strategy, STRATEGIES)
    _choice(p, "loop", config.loop, LOOPS)
    _choice(p, "optimizer", config.optimizer, OPTIMIZERS)
    _choice(p, "mixed_precision", config.mixed_precision, MIXED_PRECISION)
    _choice(p, "all_reduce", config.all_reduce, ALL_REDUCE)
    if (kind := model_kind(config.model.kind)) and "activation" in kind.fields:
        _choice(p, "model.activation", config.model.activation, ACTIVATIONS)
    _choice(p, "variable_partitioner", config.variable_partitioner, VARIABLE_PARTITIONERS)
    p += _name_problems(config.name)
    p += _range_problems(config)
    lr = config.learning_rate
    if not isinstance(lr, (int, float)) or not math.isfinite(lr) or not 0 < lr <= 10:
        p.append(Problem("learning_rate", lr, msg("must be a number in (0, 10]")))
    vs = config.validation_split
    if not isinstance(vs, (int, float)) or not 0 <= vs < 1:
        p.append(Problem("validation_split", vs, msg("must be in [0, 1), e.g. 0.2 keeps 20% for validation")))
    timeout = config.collective_timeout_s
    if timeout is not None and (not isinstance(timeout, (int, float)) or not math.isfinite(timeout) or timeout <= 0):
        p.append(
            Problem(
                "collective_timeout_s",
                timeout,
                msg("must be null (wait for peers as long as it takes) or seconds > 0, e.g. 600"),
            )
        )
    spe = config.steps_per_execution
    if not (spe == "auto" or (isinstance(spe, int) and not isinstance(spe, bool) and spe >= 1)):
        p.append(Problem("steps_per_execution", spe, msg('must be an integer >= 1 or "auto"')))
    p += validate_model(config.model)
    p += _validate_devices(config)
    if config.data.cache is True and config.strategy in (Strategy.MULTI_WORKER_MIRRORED, Strategy.PARAMETER_SERVER):
        p.append(
            Problem(
                "data.cache",
                True,
                msg(
                    "caches the examples of a run of one process; {strategy} runs several: set it to false",
                    strategy=config.strategy,
                ),
            )
        )
    if isinstance(vs, (int, float)):
        p += validate_data(config.data, vs)
    if replicas is None:
        replicas = replica_count(config, None)
    if replicas is not None and isinstance(config.global_batch_size, int):
        bp = batch_problem(config.global_batch_size, replicas)
        if bp:
            p.append(bp)
    return p


def _name_problems(name: Any) -> list[Problem]:
    """The name is part of the run folder's name: it must be one, on any system."""
    if not isinstance(name, str):
        return []  # the type check reported it
    why = ""
    if len(name) > NAME_MAX_CHARS:
        why = f"is {len(name):,} characters long"
    elif any(not c.isprintable() for c in name):
        why = "holds a control character (a line break, a tab, an escape sequence)"
    elif any(c in NAME_FORBIDDEN for c in name):
        why = f"holds one of {' '.join(NAME_FORBIDDEN)}"
    elif name.strip(". ") == "" and name:
        why = "is only dots and spaces"
    if not why:
        return []
    return [
        Problem(
            "name",
            name,
            msg(
                "{why}; the name becomes part of the run folder's name: use up to {name_max_chars} "
                "characters without {name_forbidden} or control characters",
                why=why,
                name_max_chars=NAME_MAX_CHARS,
                name_forbidden=" ".join(NAME_FORBIDDEN),
            ),
        )
    ]


_OWN_LOWER_CHECK = (
    "model.hidden_units",
    "steps_per_execution",
    "data.num_samples",
    "data.num_features",
    "data.num_classes",
)  # these say what is too small in words of their own


def _range_problems(config: RunConfig) -> list[Problem]:
    """Every whole number of LIMITS against its range (one problem per field)."""
    p: list[Problem] = []
    limited = kind.limited if (kind := data_kind(config.data.kind)) else ()  # the data kind's numbers
    for name, (low, high) in LIMITS.items():
        section, _, key = name.rpartition(".")
        value = getattr(getattr(config, section) if section else config, key)
        if (name == "steps_per_execution" and value == "auto") or (section == "data" and key not in limited):
            continue
        numbers = value if isinstance(value, tuple) else (value,)
        if any(not isinstance(v, int) or isinstance(v, bool) or v < low for v in numbers):
            if name not in _OWN_LOWER_CHECK:
                p.append(Problem(name, value, msg("must be a number >= {low:g}", low=low)))
        elif any(v > high for v in numbers):
            p.append(
                Problem(
                    name, list(value) if isinstance(value, tuple) else value, msg("must be at most {high:,}", high=high)
                )
            )
    return p


def has_validation(config: RunConfig) -> bool:
    """The run evaluates after every epoch: a validation split, or a python dataset's validation function."""
    kind = data_kind(config.data.kind)
    own = kind is not None and "validation_function" in kind.fields and config.data.validation_function is not None
    return config.validation_split > 0 or own


def with_replicas(config: RunConfig, replicas: int) -> RunConfig:
    """The config run with `replicas` mirrored replicas (the scaling study's variant).

    Replicas are the config's GPUs when it lists enough, else virtual CPU
    devices; at least two epochs, so throughput is measured past the first.
    """
    gpus = [d for d in (config.devices or ()) if d.upper().startswith("GPU")]
    base = config.replace(
        strategy=Strategy.MIRRORED.value,
        epochs=max(config.epochs, 2),
        name=f"{config.name + '-' if config.name else ''}scaling-{replicas}",
    )
    if len(gpus) >= replicas:
        return base.replace(devices=tuple(gpus[:replicas]), virtual_devices=1)
    return base.replace(devices=None, virtual_devices=replicas)


def _validate_devices(config: RunConfig) -> list[Problem]:
    p: list[Problem] = []
    devices = config.devices
    if devices is None:
        return p
    if not isinstance(devices, tuple) or not devices:
        return [
            Problem("devices", devices, msg('must be null (all GPUs, else the CPU) or a list like ["GPU:0", "GPU:1"]'))
        ]
    for d in devices:
        kind, _, index = str(d).upper().partition(":")
        if kind not in ("GPU", "CPU") or not index.isdigit():
            p.append(Problem("devices", d, msg('each device must look like "GPU:0" or "CPU:0"')))
    if len(set(devices)) != len(devices):
        p.append(Problem("devices", list(devices), msg("a device is listed twice")))
    if config.strategy in ("one_device", "default") and len(devices) > 1:
        p.append(
            Problem(
                "devices",
                list(devices),
                msg("strategy {strategy} uses one device; pick one or use mirrored", strategy=config.strategy),
            )
        )
    return p
