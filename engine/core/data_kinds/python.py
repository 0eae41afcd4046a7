"""python: `function(input_context)` in the user's file `path` returns the examples.

The file is only read here (it parses, it defines the functions); the
trainer runs it (engine.train.datasets.python_source). `num_samples`
examples make an epoch, `num_classes` classes; the dataset shards itself
with input_context and brings its own validation examples through
`validation_function`.
"""

from __future__ import annotations

from pathlib import Path

from engine.core.data_kinds.base import DataConfig, DataKind, SourceInfo, classes_problems, samples_problems
from engine.core.messages import msg
from engine.core.problems import Problem
from engine.core.user_code import file_problem, function_problem


def check(data: DataConfig, validation_split: float) -> list[Problem]:
    p = classes_problems(data) + samples_problems(data, msg("examples per epoch (the run's steps are this / batch)"))
    if problem := file_problem("data.path", data.path, msg("a Python file defining the dataset")):
        p.append(problem)
    else:
        for name in (data.function, data.validation_function):
            if name is not None and (fp := function_problem("data", data.path, name)):
                p.append(fp)
    if validation_split > 0:
        p.append(
            Problem(
                "validation_split",
                validation_split,
                msg(
                    "a python dataset brings its own validation examples through data.validation_function; "
                    "set validation_split to 0"
                ),
            )
        )
    if data.shard_policy != "auto":
        p.append(
            Problem(
                "data.shard_policy",
                data.shard_policy,
                msg(
                    "a python dataset shards itself with input_context (input_pipeline_id, "
                    "num_input_pipelines); leave auto"
                ),
            )
        )
    return p


def inspect(data: DataConfig, quick: bool) -> SourceInfo:
    return SourceInfo(
        "python",
        data.num_samples,
        None,
        data.num_classes,
        notes=(
            msg(
                "examples come from {file}:{function}() when the run starts",
                file=Path(str(data.path)).name,
                function=data.function,
            ),
        ),
        classes_known=False,
    )


KIND = DataKind(
    name="python",
    hint=msg("make_dataset(input_context) in your file returns (features, label) examples"),
    fields=("num_samples", "num_classes", "path", "function", "validation_function"),
    check=check,
    inspect=inspect,
    shards_itself=True,
    labels={"num_samples": msg("Examples per epoch")},
    file_filter=msg("Python files (*.py)"),
    user_code=True,
)
