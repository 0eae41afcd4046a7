"""RunConfig: the one JSON document that describes a training run.

The config is validated before TensorFlow is imported, and every problem is
reported at once (field, value given, what is allowed), so a person fixes a
form or a file in one go. This module imports no TensorFlow: the GUI uses it
to validate its form and to write the file the trainer process reads.
"""

from __future__ import annotations

import dataclasses
import json
import math
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path
from typing import Any

from engine.problems import ConfigError, Problem


class Strategy(StrEnum):
    """The `strategy` key: which tf.distribute strategy trains the run."""

    DEFAULT = "default"
    ONE_DEVICE = "one_device"
    MIRRORED = "mirrored"
    MULTI_WORKER_MIRRORED = "multi_worker_mirrored"
    PARAMETER_SERVER = "parameter_server"


class Loop(StrEnum):
    """The `loop` key: Keras `model.fit`, or a custom `strategy.run` loop."""

    FIT = "fit"
    CUSTOM = "custom"


STRATEGIES = tuple(Strategy)
LOOPS = tuple(Loop)
OPTIMIZERS = ("adam", "sgd", "rmsprop", "adagrad")
ACTIVATIONS = ("relu", "tanh", "sigmoid", "gelu", "elu", "selu", "swish")
MIXED_PRECISION = ("off", "float16", "bfloat16")
DATA_KINDS = ("synthetic", "csv", "npz")
# parameter_server: how variables are split across the ps tasks. min_size: shards of at least 256 KiB, at most
# one per ps task (TensorFlow's tutorial; a small model stays whole); fixed: every variable in as many shards as
# there are ps tasks; none: each variable whole on one ps task (round robin).
VARIABLE_PARTITIONERS = ("min_size", "fixed", "none")


@dataclass(frozen=True, kw_only=True)
class DataConfig:
    """Where the examples come from.

    synthetic: the tutorial's data (random normal features, labels from a
    random linear rule), deterministic under the run's seed. num_classes=2
    gives binary labels, more gives multi-class labels.
    csv: a header row, numeric columns; `label` names the label column.
    npz: arrays `features_key` (n x f) and `labels_key` (n) in one file.
    """

    kind: str = "synthetic"
    num_samples: int = 10000
    num_features: int = 10
    num_classes: int = 2
    path: str | None = None
    label: str | None = None
    features_key: str = "x"
    labels_key: str = "y"


@dataclass(frozen=True, kw_only=True)
class ModelConfig:
    """The tutorial's MLP (Dense 16 relu, Dense 8 relu, output), configurable."""

    hidden_units: tuple[int, ...] = (16, 8)
    activation: str = "relu"


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
    memory_growth: bool = True
    variable_partitioner: str = "min_size"
    data: DataConfig = field(default_factory=DataConfig)
    model: ModelConfig = field(default_factory=ModelConfig)
    checkpoint: CheckpointConfig = field(default_factory=CheckpointConfig)

    # ---- JSON round trip -------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        d = dataclasses.asdict(self)
        d["devices"] = list(self.devices) if self.devices is not None else None
        d["model"]["hidden_units"] = list(self.model.hidden_units)
        return d

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
            raise ConfigError([Problem("(file)", text[:40], f"not valid JSON: {exc}")]) from None
        return cls.from_dict(raw, check=check)

    @classmethod
    def load(cls, path: str | Path, check: bool = True) -> RunConfig:
        """A config file; check=False reads a past run's config whose data file has since moved."""
        p = Path(path)
        if not p.is_file():
            raise ConfigError([Problem("(file)", str(p), "no such config file")])
        return cls.from_json(p.read_text(encoding="utf-8"), check=check)

    def replace(self, **changes: Any) -> RunConfig:
        return dataclasses.replace(self, **changes)


# ---- parsing -----------------------------------------------------------------

_SECTIONS = {"data": DataConfig, "model": ModelConfig, "checkpoint": CheckpointConfig}


def _type_ok(value: Any, annotation: str) -> bool:
    """Loose JSON type check driven by the dataclass annotation string."""
    if value is None:
        return "None" in annotation
    if isinstance(value, bool) or annotation.startswith("bool"):
        return isinstance(value, bool) and annotation.startswith("bool")
    if annotation.startswith("int"):
        return isinstance(value, int)
    if annotation.startswith("float"):
        return isinstance(value, (int, float))
    if annotation.startswith("str"):
        return isinstance(value, str)
    if annotation.startswith("tuple"):
        return isinstance(value, list)
    return True  # StepsPerExecution and sections are checked by validate()


def _build(cls: type, raw: Any, prefix: str, problems: list[Problem]) -> Any:
    if not isinstance(raw, dict):
        problems.append(Problem(prefix.rstrip(".") or "(document)", raw, "must be a JSON object"))
        return cls()
    fields = {f.name: f for f in dataclasses.fields(cls)}
    kwargs: dict[str, Any] = {}
    for key, value in raw.items():
        name = f"{prefix}{key}"
        if key not in fields:
            problems.append(Problem(name, value, f"unknown key; known keys: {', '.join(fields)}"))
            continue
        if key in _SECTIONS and cls is RunConfig:
            kwargs[key] = _build(_SECTIONS[key], value, f"{key}.", problems)
            continue
        annotation = str(fields[key].type)
        if not _type_ok(value, annotation):
            problems.append(Problem(name, value, f"wrong type; expected {annotation}"))
            continue
        if annotation.startswith("tuple") and value is not None:
            value = tuple(value)
        kwargs[key] = value
    return cls(**kwargs)


def _from_dict(raw: Any) -> tuple[RunConfig, list[Problem]]:
    problems: list[Problem] = []
    config = _build(RunConfig, raw, "", problems)
    return config, problems


# ---- validation ----------------------------------------------------------------


def _choice(problems: list[Problem], name: str, value: Any, allowed: tuple[str, ...]) -> None:
    if value not in allowed:
        problems.append(Problem(name, value, f"must be one of: {', '.join(allowed)}"))


def _at_least(problems: list[Problem], name: str, value: Any, low: float) -> None:
    if not isinstance(value, (int, float)) or isinstance(value, bool) or value < low:
        problems.append(Problem(name, value, f"must be a number >= {low:g}"))


def nearest_valid_batch_sizes(global_batch: int, replicas: int) -> list[int]:
    """The multiples of `replicas` just below and above `global_batch`."""
    below = (global_batch // replicas) * replicas
    above = below + replicas
    return [b for b in (below, above) if b > 0]


def batch_problem(global_batch: int, replicas: int) -> Problem | None:
    """The per-replica batch is global / replicas, so it must divide evenly."""
    if replicas <= 0 or global_batch % replicas == 0:
        return None
    sizes = " or ".join(str(s) for s in nearest_valid_batch_sizes(global_batch, replicas))
    return Problem(
        "global_batch_size",
        global_batch,
        f"must be divisible by the {replicas} replicas (each replica gets global / replicas "
        f"examples); the nearest valid sizes are {sizes}",
    )


def validate(config: RunConfig, replicas: int | None = None) -> list[Problem]:
    """Every problem of `config`; `replicas` enables the divisibility check.

    Without `replicas`, the replica count is derived where the config alone
    fixes it (explicit devices, virtual devices, one-device strategies).
    """
    from engine.plan import replica_count  # plan builds on this module; imported here to avoid a cycle

    p: list[Problem] = []
    _choice(p, "strategy", config.strategy, STRATEGIES)
    _choice(p, "loop", config.loop, LOOPS)
    _choice(p, "optimizer", config.optimizer, OPTIMIZERS)
    _choice(p, "mixed_precision", config.mixed_precision, MIXED_PRECISION)
    _choice(p, "model.activation", config.model.activation, ACTIVATIONS)
    _choice(p, "variable_partitioner", config.variable_partitioner, VARIABLE_PARTITIONERS)
    _at_least(p, "epochs", config.epochs, 1)
    _at_least(p, "global_batch_size", config.global_batch_size, 1)
    _at_least(p, "shuffle_buffer", config.shuffle_buffer, 0)
    _at_least(p, "virtual_devices", config.virtual_devices, 1)
    _at_least(p, "virtual_gpu_memory_mb", config.virtual_gpu_memory_mb, 64)
    _at_least(p, "checkpoint.every_steps", config.checkpoint.every_steps, 0)
    _at_least(p, "checkpoint.keep", config.checkpoint.keep, 1)
    lr = config.learning_rate
    if not isinstance(lr, (int, float)) or not math.isfinite(lr) or not 0 < lr <= 10:
        p.append(Problem("learning_rate", lr, "must be a number in (0, 10]"))
    vs = config.validation_split
    if not isinstance(vs, (int, float)) or not 0 <= vs < 1:
        p.append(Problem("validation_split", vs, "must be in [0, 1), e.g. 0.2 keeps 20% for validation"))
    spe = config.steps_per_execution
    if not (spe == "auto" or (isinstance(spe, int) and not isinstance(spe, bool) and spe >= 1)):
        p.append(Problem("steps_per_execution", spe, 'must be an integer >= 1 or "auto"'))
    if not config.model.hidden_units or any(
        not isinstance(u, int) or isinstance(u, bool) or u < 1 for u in config.model.hidden_units
    ):
        p.append(
            Problem(
                "model.hidden_units",
                list(config.model.hidden_units),
                "must be a non-empty list of positive layer sizes, e.g. [16, 8]",
            )
        )
    p += _validate_devices(config)
    p += _validate_data(config.data)
    if replicas is None:
        replicas = replica_count(config, None)
    if replicas is not None and isinstance(config.global_batch_size, int):
        bp = batch_problem(config.global_batch_size, replicas)
        if bp:
            p.append(bp)
    return p


def _validate_devices(config: RunConfig) -> list[Problem]:
    p: list[Problem] = []
    devices = config.devices
    if devices is None:
        return p
    if not isinstance(devices, tuple) or not devices:
        return [Problem("devices", devices, 'must be null (all GPUs, else the CPU) or a list like ["GPU:0", "GPU:1"]')]
    for d in devices:
        kind, _, index = str(d).upper().partition(":")
        if kind not in ("GPU", "CPU") or not index.isdigit():
            p.append(Problem("devices", d, 'each device must look like "GPU:0" or "CPU:0"'))
    if len(set(devices)) != len(devices):
        p.append(Problem("devices", list(devices), "a device is listed twice"))
    if config.strategy in ("one_device", "default") and len(devices) > 1:
        p.append(
            Problem("devices", list(devices), f"strategy {config.strategy} uses one device; pick one or use mirrored")
        )
    return p


def _validate_data(data: DataConfig) -> list[Problem]:
    p: list[Problem] = []
    _choice(p, "data.kind", data.kind, DATA_KINDS)
    if data.kind == "synthetic":
        _at_least(p, "data.num_samples", data.num_samples, 2)
        _at_least(p, "data.num_features", data.num_features, 1)
        _at_least(p, "data.num_classes", data.num_classes, 2)
    elif data.kind in ("csv", "npz"):
        if not data.path:
            p.append(Problem("data.path", data.path, f"a {data.kind} source needs a file path"))
        elif not Path(data.path).is_file():
            p.append(Problem("data.path", data.path, "no such file"))
        if data.kind == "csv" and not data.label:
            p.append(Problem("data.label", data.label, "name the CSV column that holds the labels"))
    return p
