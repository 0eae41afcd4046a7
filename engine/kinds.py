"""The kinds of model and data a run can use, and the rules of their config fields.

TF-free and cheap (no file is opened beyond a stat, no user code runs), so
`engine.config.validate` can call it on every keystroke of the form. What
needs a look inside the files (image headers, CSV rows, TFRecord records)
is `engine.sources`; what needs TensorFlow happens in the trainer.
"""

from __future__ import annotations

import glob
from pathlib import Path
from typing import TYPE_CHECKING, Any

from engine.messages import msg
from engine.problems import Problem
from engine.user_code import function_problem

if TYPE_CHECKING:
    from engine.config import DataConfig, ModelConfig

MODEL_KINDS = ("mlp", "cnn", "keras_application", "python", "saved")
DATA_KINDS = ("synthetic", "csv", "npz", "image_folder", "tfrecord", "python")
SHARD_POLICIES = ("auto", "file", "data", "off")
COLOR_MODES = ("auto", "rgb", "grayscale")
TFRECORD_FEATURE_TYPES = ("float", "image")
FILE_KINDS = ("csv", "tfrecord")  # sources TensorFlow reads with its file readers: the ones "file" can shard
IMAGE_EXTENSIONS = (".png", ".jpg", ".jpeg", ".bmp", ".gif")

# tf_keras.applications, by name (tests/engine/train/test_models.py checks the list against tf_keras itself)
KERAS_APPLICATIONS = (
    *(f"ConvNeXt{s}" for s in ("Tiny", "Small", "Base", "Large", "XLarge")),
    "DenseNet121",
    "DenseNet169",
    "DenseNet201",
    *(f"EfficientNetB{i}" for i in range(8)),
    *(f"EfficientNetV2{s}" for s in ("B0", "B1", "B2", "B3", "S", "M", "L")),
    "InceptionResNetV2",
    "InceptionV3",
    "MobileNet",
    "MobileNetV2",
    "MobileNetV3Small",
    "MobileNetV3Large",
    "NASNetMobile",
    "NASNetLarge",
    *(f"RegNet{xy}{n}" for xy in "XY" for n in ("002", "004", "006", "008", "016", "032", "040", "064", "080")),
    *(f"RegNet{xy}{n}" for xy in "XY" for n in ("120", "160", "320")),
    "ResNet50",
    "ResNet101",
    "ResNet152",
    "ResNet50V2",
    "ResNet101V2",
    "ResNet152V2",
    *(f"ResNetRS{n}" for n in (50, 101, 152, 200, 270, 350, 420)),
    "VGG16",
    "VGG19",
    "Xception",
)

SHARD_HINTS = {
    "auto": msg("file when the source is several files and each worker can have one, else data"),
    "file": msg("each worker reads its own files (CSV or TFRecord shards); needs at least one file per worker"),
    "data": msg("every worker reads everything and keeps every N-th example: works for any source"),
    "off": msg("no sharding: every worker trains on every example (for sources that shard themselves)"),
}


def _positive_ints(value: Any, count: int | None = None) -> bool:
    items = value if isinstance(value, (list, tuple)) else None
    return (
        items is not None
        and len(items) > 0
        and (count is None or len(items) == count)
        and all(isinstance(v, int) and not isinstance(v, bool) and v >= 1 for v in items)
    )


def file_problem(field: str, path: str | None, what: str) -> Problem | None:
    """A missing path, or a path that is not a file."""
    if not path:
        return Problem(field, path, msg("give the path of {what}", what=what))
    if Path(path).expanduser().is_dir():
        return Problem(field, path, msg("is a folder, not a file ({what})", what=what))
    if not Path(path).expanduser().is_file():
        return Problem(field, path, msg("no such file ({what})", what=what))
    return None


def matching_files(pattern: str) -> list[str]:
    """Files a path or glob names, sorted (the order every worker agrees on)."""
    expanded = str(Path(pattern).expanduser())
    if glob.has_magic(expanded):
        return sorted(p for p in glob.glob(expanded, recursive=True) if Path(p).is_file())
    return [expanded] if Path(expanded).is_file() else []


def validate_model(model: ModelConfig) -> list[Problem]:
    p: list[Problem] = []
    if model.kind not in MODEL_KINDS:
        return [
            Problem("model.kind", model.kind, msg("must be one of: {model_kinds}", model_kinds=", ".join(MODEL_KINDS)))
        ]
    if model.kind in ("mlp", "cnn") and not _positive_ints(model.hidden_units):
        p.append(
            Problem(
                "model.hidden_units",
                list(model.hidden_units or ()),
                msg("must be a non-empty list of positive layer sizes, e.g. [16, 8]"),
            )
        )
    if model.kind == "cnn":
        if not _positive_ints(model.filters):
            p.append(Problem("model.filters", list(model.filters or ()), msg("filters per conv block, e.g. [32, 64]")))
        if not isinstance(model.kernel_size, int) or isinstance(model.kernel_size, bool) or model.kernel_size < 1:
            p.append(Problem("model.kernel_size", model.kernel_size, msg("must be a positive whole number, e.g. 3")))
    elif model.kind == "keras_application":
        if model.name not in KERAS_APPLICATIONS:
            close = [n for n in KERAS_APPLICATIONS if n.lower().startswith(str(model.name)[:5].lower())]
            hint = (
                f"; did you mean {', '.join(close[:4])}?" if close else "; e.g. MobileNetV2, ResNet50, EfficientNetB0"
            )
            p.append(
                Problem("model.name", model.name, msg("not an architecture of tf_keras.applications{hint}", hint=hint))
            )
        if model.weights is not None:
            problem = file_problem("model.weights", model.weights, msg("a weights file (.h5) saved on this machine"))
            if problem:
                p.append(problem)
    elif model.kind == "python":
        problem = file_problem("model.path", model.path, msg("a Python file defining the model"))
        p += [problem] if problem else []
        if not problem:
            p += [fp] if (fp := function_problem("model", model.path, model.function)) else []
    elif model.kind == "saved":
        problem = file_problem("model.path", model.path, msg("a .keras model file, e.g. an earlier run's model.keras"))
        if problem:
            p.append(problem)
        elif not str(model.path).endswith(".keras"):
            p.append(Problem("model.path", model.path, msg("must be a .keras file (tf-keras's model.save format)")))
    return p


def validate_data(data: DataConfig, validation_split: float) -> list[Problem]:
    p: list[Problem] = []
    if data.kind not in DATA_KINDS:
        return [Problem("data.kind", data.kind, msg("must be one of: {data_kinds}", data_kinds=", ".join(DATA_KINDS)))]
    if data.shard_policy not in SHARD_POLICIES:
        p.append(
            Problem(
                "data.shard_policy",
                data.shard_policy,
                msg("must be one of: {shard_policies}", shard_policies=", ".join(SHARD_POLICIES)),
            )
        )
    elif data.shard_policy == "file" and data.kind not in FILE_KINDS:
        p.append(
            Problem(
                "data.shard_policy",
                "file",
                msg(
                    "a {kind} source is not read by TensorFlow's file readers, so it cannot be split by "
                    "file; use data or auto (file works for csv and tfrecord)",
                    kind=data.kind,
                ),
            )
        )
    elif data.shard_policy == "file" and validation_split > 0:
        p.append(
            Problem(
                "data.shard_policy",
                "file",
                msg(
                    "with file sharding each worker reads different files, so a validation split cannot be "
                    "cut the same on every worker; use data, or validation_split 0"
                ),
            )
        )
    if data.kind in ("synthetic", "tfrecord", "python") and (
        not isinstance(data.num_classes, int) or isinstance(data.num_classes, bool) or data.num_classes < 2
    ):
        p.append(
            Problem("data.num_classes", data.num_classes, msg("must be a number >= 2 (labels are 0 .. classes-1)"))
        )
    if data.kind in ("synthetic", "python") and (
        not isinstance(data.num_samples, int) or isinstance(data.num_samples, bool) or data.num_samples < 2
    ):
        what = (
            msg("examples")
            if data.kind == "synthetic"
            else msg("examples per epoch (the run's steps are this / batch)")
        )
        p.append(Problem("data.num_samples", data.num_samples, msg("must be a number >= 2: {what}", what=what)))
    if data.kind == "synthetic":
        if not isinstance(data.num_features, int) or isinstance(data.num_features, bool) or data.num_features < 1:
            p.append(Problem("data.num_features", data.num_features, msg("must be a number >= 1")))
    elif data.kind == "npz":
        if problem := file_problem("data.path", data.path, msg("an .npz file")):
            p.append(problem)
    elif data.kind in ("csv", "tfrecord"):
        what = (
            msg("a CSV file (or a glob of several, e.g. data/part-*.csv)")
            if data.kind == "csv"
            else msg("TFRecord files")
        )
        if not data.path:
            p.append(Problem("data.path", data.path, msg("give the path of {what}", what=what)))
        elif not matching_files(data.path):
            p.append(Problem("data.path", data.path, msg("no file matches ({what})", what=what)))
        if data.kind == "csv" and not data.label:
            p.append(Problem("data.label", data.label, msg("name the CSV column that holds the labels")))
        if data.kind == "tfrecord":
            if data.feature_type not in TFRECORD_FEATURE_TYPES:
                p.append(
                    Problem("data.feature_type", data.feature_type, msg("must be float (a list of numbers) or image"))
                )
            if not _positive_ints(data.feature_shape):
                p.append(
                    Problem(
                        "data.feature_shape",
                        data.feature_shape,
                        msg("the shape of one example's features, e.g. [10] or [32, 32, 3] for an image"),
                    )
                )
    elif data.kind == "image_folder":
        if not data.path:
            p.append(Problem("data.path", data.path, msg("give a folder with one subfolder of images per class")))
        elif not Path(data.path).expanduser().is_dir():
            p.append(Problem("data.path", data.path, msg("no such folder")))
    elif data.kind == "python":
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
    if data.kind == "image_folder":
        if data.image_size is not None and not _positive_ints(data.image_size, 2):
            p.append(
                Problem("data.image_size", data.image_size, msg("[height, width] in pixels, or null for as stored"))
            )
        if data.color_mode not in COLOR_MODES:
            p.append(
                Problem(
                    "data.color_mode",
                    data.color_mode,
                    msg("must be one of: {color_modes}", color_modes=", ".join(COLOR_MODES)),
                )
            )
    return p


def has_validation(config: Any) -> bool:
    """The run evaluates after every epoch: a validation split, or a python dataset's validation function."""
    data = config.data
    return config.validation_split > 0 or (data.kind == "python" and data.validation_function is not None)


def anchor_user_files(raw: Any, folder: Path) -> Any:
    """A config file's relative paths (data, a model or weights file, a python model or dataset) that are
    not found from the working directory are found beside the file: an example or an exported task folder
    carries its files with its config."""
    if not isinstance(raw, dict):
        return raw
    for section, key in (("data", "path"), ("model", "path"), ("model", "weights")):
        part = raw.get(section)
        if not isinstance(part, dict) or not isinstance(part.get(key), str) or not part[key]:
            continue
        path = Path(part[key])
        if path.is_absolute() or path.exists() or matching_files(str(path)):
            continue
        beside = folder / path
        if beside.exists() or matching_files(str(beside)):
            raw[section] = {**part, key: str(beside)}
    return raw
