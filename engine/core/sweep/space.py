"""A sweep's search space: which config fields vary and how, what is optimised, and how trials are judged.

The space is a JSON document beside a base run config (`tfdd sweep --config base.json --space space.json`):

    {"parameters": {"learning_rate": {"log_uniform": [0.0001, 0.1]},
                    "global_batch_size": {"choice": [64, 128]},
                    "model.hidden_units": {"choice": [[16, 8], [64, 32]]}},
     "objective": "val_loss", "method": "tpe", "trials": 16,
     "pruner": "median", "concurrency": 2}

A parameter names any field of the run config (a section's field as `model.filters`, a python model's keyword
argument as `model.kwargs.width`); each value a parameter
may take is checked by applying it to the base config and validating the result, so a space is refused
before anything starts, every problem at once. No TensorFlow and no optimisation library here: the window
builds and checks spaces with this module.
"""

from __future__ import annotations

import dataclasses
import json
import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from engine.core.config import RunConfig
from engine.core.messages import msg
from engine.core.model_kinds.python import kwarg_name_problem
from engine.core.problems import ConfigError, Problem
from engine.core.sweep import SweepPaths

Distribution = Literal["choice", "uniform", "log_uniform", "int"]
DISTRIBUTIONS: tuple[Distribution, ...] = ("choice", "uniform", "log_uniform", "int")
OBJECTIVES = ("val_loss", "val_accuracy", "loss", "accuracy")
METHODS = ("grid", "random", "tpe")  # tpe: Optuna's model-based sampler (tree-structured Parzen estimator)
PRUNERS = ("none", "median", "halving")  # halving: successive halving
KWARGS = "model.kwargs."  # a python model's keyword argument: "model.kwargs.width"
MAX_GRID_POINTS = 10_000  # a grid larger than this is a typo rather than a plan
SPACE_KEYS = (
    "parameters",
    "objective",
    "method",
    "trials",
    "time_budget_s",
    "pruner",
    "concurrency",
    "gpus_per_trial",
    "seed",
)


@dataclass(frozen=True)
class Parameter:
    """One config field and the values a trial may give it."""

    name: str  # "learning_rate", "model.hidden_units"
    distribution: Distribution
    values: tuple[Any, ...]  # the choices, or (low, high) of a range

    def grid(self) -> tuple[Any, ...]:
        """Every value this parameter takes in a grid (an int range is each of its whole numbers)."""
        if self.distribution == "choice":
            return self.values
        if self.distribution == "int":
            return tuple(range(int(self.values[0]), int(self.values[1]) + 1))
        return ()  # a continuous range has no grid


@dataclass(frozen=True)
class SweepSpace:
    """A checked search space (see the module doc for its JSON)."""

    parameters: tuple[Parameter, ...]
    objective: str = "val_loss"
    method: str = "tpe"
    trials: int = 16
    time_budget_s: float | None = None  # no trial starts after this many seconds
    pruner: str = "median"
    concurrency: int | None = None  # trials at once; None: as many as the devices allow (CPU: half the cores)
    gpus_per_trial: int = 1
    seed: int = 0
    raw: dict[str, Any] = field(default_factory=dict, compare=False)  # the document, kept with the sweep

    @property
    def maximise(self) -> bool:
        return self.objective.endswith("accuracy")

    def grid_size(self) -> int:
        return math.prod(len(p.grid()) for p in self.parameters)


def apply(base: RunConfig, params: dict[str, Any], check: bool = True) -> RunConfig:
    """`base` with each named field set to its value, validated (ConfigError says what is wrong); check=False
    keeps what can be read, as RunConfig.from_dict does for a form. A name is a field ("epochs"), a section's
    field ("model.filters") or a python model's keyword ("model.kwargs.width")."""
    document = base.to_dict()
    for name, value in params.items():
        *sections, key = name.split(".")
        target = document
        for section in sections:
            target = target[section]
        target[key] = value
    return RunConfig.from_dict(document, check=check)


def load_space(path: str | Path, base: RunConfig) -> SweepSpace:
    """The space in a JSON file, checked against `base`; ConfigError with every problem."""
    p = Path(path)
    try:
        raw = json.loads(p.read_text(encoding="utf-8"))
    except OSError as exc:
        raise ConfigError(
            [Problem("(space)", str(p), msg("cannot be read: {value}", value=exc.strerror or exc))]
        ) from None
    except ValueError as exc:
        raise ConfigError([Problem("(space)", str(p), msg("not valid JSON: {exc}", exc=exc))]) from None
    return parse_space(raw, base)


def load_sweep(paths: SweepPaths) -> tuple[RunConfig, SweepSpace]:
    """The base config and the space a sweep started with (its spec); ConfigError when it is no sweep."""
    try:
        spec = json.loads(paths.spec.read_text(encoding="utf-8"))
        base = RunConfig.from_dict(spec["base"])
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise ConfigError([Problem("(sweep)", str(paths.root), msg("is not a sweep folder: {exc}", exc=exc))]) from None
    return base, parse_space(spec.get("space"), base)


def parse_space(raw: Any, base: RunConfig) -> SweepSpace:
    """A space from its JSON document, checked against `base`; ConfigError with every problem."""
    if not isinstance(raw, dict):
        raise ConfigError([Problem("(space)", raw, msg("must be a JSON object"))])
    problems: list[Problem] = [
        Problem(key, raw[key], msg("unknown key; known keys: {fields}", fields=", ".join(SPACE_KEYS)))
        for key in raw
        if key not in SPACE_KEYS
    ]
    parameters = _parameters(raw.get("parameters"), base, problems)
    settings = _settings(raw, problems)
    space = SweepSpace(parameters=parameters, raw=raw, **settings)
    problems += _whole_space_problems(space, base)
    if problems:
        raise ConfigError(problems)
    return space


def _settings(raw: dict[str, Any], problems: list[Problem]) -> dict[str, Any]:
    """The space's scalar settings, each checked; a bad one keeps its default and adds a problem."""
    defaults = {f.name: f.default for f in dataclasses.fields(SweepSpace) if f.name not in ("parameters", "raw")}
    choices = {"objective": OBJECTIVES, "method": METHODS, "pruner": PRUNERS}
    settings: dict[str, Any] = {}
    for key, default in defaults.items():
        value = raw.get(key, default)
        if key in choices:
            if value not in choices[key]:
                problems.append(Problem(key, value, msg("must be one of: {allowed}", allowed=", ".join(choices[key]))))
                continue
        elif key == "time_budget_s":
            if value is not None and (not _number(value) or value <= 0):
                problems.append(Problem(key, value, msg("must be null (no limit) or seconds > 0")))
                continue
        elif value is not None or key != "concurrency":
            low = 0 if key == "seed" else 1
            if not isinstance(value, int) or isinstance(value, bool) or value < low:
                problems.append(Problem(key, value, msg("must be a number >= {low:g}", low=low)))
                continue
        settings[key] = value
    return settings


def _number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)


def _parameters(raw: Any, base: RunConfig, problems: list[Problem]) -> tuple[Parameter, ...]:
    if not isinstance(raw, dict) or not raw:
        problems.append(
            Problem(
                "parameters",
                raw,
                msg('must name at least one field, e.g. {{"learning_rate": {{"log_uniform": [0.0001, 0.1]}}}}'),
            )
        )
        return ()
    parameters = []
    for name, spec in raw.items():
        parameter = _parameter(f"parameters.{name}", name, spec, base, problems)
        if parameter is not None:
            parameters.append(parameter)
    return tuple(parameters)


def _parameter(where: str, name: str, spec: Any, base: RunConfig, problems: list[Problem]) -> Parameter | None:
    """One parameter, its values tried on `base`; None (and a problem) when it cannot vary that way."""
    if name in ("name", "devices", "strategy") or name.startswith("checkpoint."):
        problems.append(Problem(where, spec, msg("is set by the sweep itself, not varied")))
        return None
    if name.startswith(KWARGS):
        if problem := _kwarg_problem(where, name, spec, base):
            problems.append(problem)
            return None
    elif not is_field(base, name):
        problems.append(Problem(where, spec, msg("not a field of the run config")))
        return None
    if not isinstance(spec, dict) or len(spec) != 1 or next(iter(spec)) not in DISTRIBUTIONS:
        problems.append(
            Problem(
                where,
                spec,
                msg("must be one of: {allowed}", allowed=", ".join(f'{{"{d}": ...}}' for d in DISTRIBUTIONS)),
            )
        )
        return None
    distribution, values = next(iter(spec.items()))
    if distribution == "choice":
        if not isinstance(values, list) or not values:
            problems.append(Problem(where, values, msg("a choice needs a non-empty list of values")))
            return None
    else:
        if not isinstance(values, list) or len(values) != 2 or not all(_number(v) for v in values):
            problems.append(Problem(where, values, msg("a range is [low, high], two numbers")))
            return None
        low, high = values
        if not low < high:
            problems.append(Problem(where, values, msg("an empty range: low must be below high")))
            return None
        if distribution == "log_uniform" and low <= 0:
            problems.append(Problem(where, values, msg("a log-uniform range must be above 0")))
            return None
        if distribution == "int" and not all(isinstance(v, int) for v in values):
            problems.append(Problem(where, values, msg("an int range is two whole numbers")))
            return None
    parameter = Parameter(name, distribution, tuple(tuple(v) if isinstance(v, list) else v for v in values))
    before = len(problems)
    for value in parameter.values:
        problems += _value_problems(where, name, value, base)
    return parameter if len(problems) == before else None


def _kwarg_problem(where: str, name: str, spec: Any, base: RunConfig) -> Problem | None:
    """Why `name` ("model.kwargs.width") cannot vary: the base model takes no keywords, or a name Python refuses."""
    if base.model.kind != "python":
        return Problem(
            where,
            spec,
            msg(
                "keyword arguments go to a python model's function; the base config's model is {kind}",
                kind=base.model.kind,
            ),
        )
    problem = kwarg_name_problem(where, name.removeprefix(KWARGS))
    return None if problem is None else Problem(where, spec, problem.message)


def is_field(base: RunConfig, name: str) -> bool:
    """Whether `name` names a field of the run config (a section's field as `model.filters`)."""
    section, _, key = name.rpartition(".")
    owner = getattr(base, section, None) if section else base
    return dataclasses.is_dataclass(owner) and key in {f.name for f in dataclasses.fields(owner)}


def _value_problems(where: str, name: str, value: Any, base: RunConfig) -> list[Problem]:
    """What the config says of `name` = `value` on the base config (only the problems of that field)."""
    plain = list(value) if isinstance(value, tuple) else value
    try:
        apply(base, {name: plain})
    except ConfigError as exc:
        own = [p for p in exc.problems if p.field == name] or exc.problems
        return [Problem(where, p.value, p.message) for p in own]
    return []


def _whole_space_problems(space: SweepSpace, base: RunConfig) -> list[Problem]:
    """What is wrong with the space as a whole: a grid that is not one, an objective the run cannot give."""
    problems: list[Problem] = []
    if space.method == "grid":
        continuous = [p.name for p in space.parameters if not p.grid()]
        if continuous:
            problems.append(
                Problem(
                    "method",
                    "grid",
                    msg(
                        "a grid needs choices or int ranges; these are continuous: {names}", names=", ".join(continuous)
                    ),
                )
            )
        elif space.grid_size() > MAX_GRID_POINTS:
            problems.append(
                Problem(
                    "method",
                    "grid",
                    msg("the grid has {n:,} points; at most {limit:,}", n=space.grid_size(), limit=MAX_GRID_POINTS),
                )
            )
    validates = base.validation_split > 0 or (base.data.kind == "python" and base.data.validation_function)
    varies_split = any(p.name == "validation_split" for p in space.parameters)
    if space.objective.startswith("val_") and not validates and not varies_split:
        problems.append(
            Problem(
                "objective",
                space.objective,
                msg("needs validation data: set validation_split above 0 in the base config, or use loss"),
            )
        )
    return problems
