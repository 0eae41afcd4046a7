"""`export-script`: a standalone Python file that reproduces a configured run.

The template's parts (resources/templates/standalone_*.py) are joined into one file the user can copy anywhere,
with the run's config in its CONFIG line; no TensorFlow here, the window exports too. Every RunConfig field has
a decision: HONOURED says how the script reproduces it, IGNORED why not (listed at the script's top), and
tests/engine/exports/test_script.py fails on a field without one or an honoured field the template never reads.
"""

from __future__ import annotations

import ast
import dataclasses
import pprint
import re
import shutil
import textwrap
from pathlib import Path

from engine.core.config import RunConfig, Strategy
from engine.core.data_kinds import data_kind
from engine.core.model_kinds import model_kind
from engine.core.problems import ConfigError, OutputExists, Problem
from engine.core.resources import resource_path

# the template's parts, in the order the script holds them
TEMPLATE_PARTS = tuple(
    resource_path("templates", f"standalone_{part}.py") for part in ("head", "data", "strategy", "model", "loops")
)
CONFIG_LINE = "CONFIG = {}  # the exporter writes the run's config here\n"
NOT_REPRODUCED_LINE = "# NOT REPRODUCED: the exporter lists here the config fields this script ignores, and why.\n"
# The trainer's Adam step (one fused kernel per variable) rounds differently from Keras's own, so the
# script carries the engine's code for it, copied in between these lines from its one owner.
FUSED_ADAM = Path(__file__).resolve().parents[2] / "train" / "models" / "fused_adam.py"
FUSED_ADAM_BEGIN = "# ---- fused Adam: the exporter writes the dashboard's own step here ----\n"
FUSED_ADAM_END = "# ---- end of fused Adam ----\n"

# field (dotted for sections) -> how the script reproduces it, as the engine does
HONOURED: dict[str, str] = {
    "strategy": "make_strategy: default, one_device, mirrored or multi_worker_mirrored (reads TF_CONFIG)",
    "all_reduce": "make_strategy: mirrored's cross_device_ops or multi_worker_mirrored's CommunicationImplementation; "
    '"auto" is the engine\'s choice: NCCL between Linux GPUs, hierarchical copy between other GPUs, reduction '
    "to one device on the CPU, a ring for multi-worker CPUs",
    "bytes_per_pack": "make_strategy: multi_worker_mirrored's CommunicationOptions(bytes_per_pack=)",
    "jit_compile": "custom_loop XLA-compiles each replica's step (tf.function(jit_compile=True)); fit_loop "
    "passes compile(jit_compile=)",
    "devices": "configure_devices: the listed GPUs are made visible (default: every GPU, else the CPU); "
    "one_device and default keep the first",
    "virtual_devices": "configure_devices: mirrored splits each chosen GPU, or the CPU, into N logical devices; "
    "the other strategies use one replica per device",
    "virtual_gpu_memory_mb": "configure_devices: the memory limit of each logical GPU of a split",
    "memory_growth": "configure_devices: memory growth on the chosen GPUs, only when they are not split",
    "collective_timeout_s": "make_strategy: multi_worker_mirrored's CommunicationOptions(timeout_seconds=)",
    "loop": "custom_loop (strategy.run, loss averaged over the global batch) or fit_loop (model.fit)",
    "epochs": "both loops: one pass over the training examples per epoch",
    "global_batch_size": "epoch_dataset and validation_dataset batch by it; each replica gets global / replicas",
    "learning_rate": "build_model: the optimizer's learning rate",
    "optimizer": "build_model: adam, sgd, rmsprop or adagrad",
    "shuffle_buffer": "epoch_dataset: one fixed shuffle order per epoch, seeded by seed and epoch (synthetic, npz "
    "and image_folder examples are permuted whole; the others stream through a buffer of this size)",
    "seed": "the synthetic data, keras.utils.set_random_seed (weights) and the per-epoch shuffle seed",
    "validation_split": "split: the last share of the examples validates, evaluated after every epoch",
    "steps_per_execution": 'steps per tf.function call (custom) or compile(steps_per_execution=) (fit); "auto" '
    "is a fixed 32: the dashboard tunes it while training, which does not change the losses",
    "mixed_precision": "main sets the mixed_float16/mixed_bfloat16 policy before the model is built; the "
    "output layer stays float32; the custom loop scales the loss under float16",
    "data.kind": "Data: synthetic, csv (streamed), npz, image_folder, tfrecord or python",
    "data.num_samples": "Data: synthetic examples; a python dataset's examples per epoch",
    "data.num_features": "Data: synthetic features",
    "data.num_classes": "Data: synthetic, tfrecord and python classes (csv, npz and image folders count theirs)",
    "data.path": "Data: the file, glob or folder (named: every machine must see it); a python dataset's file "
    "is copied beside the script",
    "data.label": "Data: the csv column of the labels",
    "data.features_key": "Data: the npz array or TFRecord feature of the features",
    "data.labels_key": "Data: the npz array or TFRecord feature of the labels",
    "data.image_size": "Data.decode: images resized to it (none: as stored)",
    "data.color_mode": "Data: the image channels (auto: the first image's)",
    "data.feature_type": "Data.decode/decode_batch: TFRecord float values or an encoded image",
    "data.feature_shape": "Data.spec: the TFRecord features' shape",
    "data.function": "Data: the python dataset's make_dataset(input_context)",
    "data.validation_function": "distributed_validation: the python dataset's validation examples",
    "model.kind": "build_model: mlp, cnn, keras_application, python or saved",
    "model.hidden_units": "build_model: one Dense layer per entry (the mlp, and the cnn's head)",
    "model.activation": "build_model: the hidden layers' activation",
    "model.filters": "build_model: the cnn's conv blocks",
    "model.kernel_size": "build_model: the cnn's kernel size",
    "model.batch_norm": "build_model: the cnn's synchronized batch normalisation",
    "model.name": "build_model: the tf_keras.applications architecture",
    "model.weights": "build_model: the application's local weights file (named: it must be on the machine)",
    "model.path": "build_model: the python model file (copied beside the script) or the .keras model (named)",
    "model.function": "build_model: the python model's build_model(input_shape, num_classes)",
    "model.kwargs": "build_model: the python model's keyword arguments, build_model(..., **kwargs)",
}

_NO_CHECKPOINTS = (
    "the script trains start to finish and writes no checkpoints; stopping and resuming a "
    "run is the dashboard's job (tfdd train --resume)"
)

# what the engine does beyond the config's fields, and the script does not
ALSO_LEFT_OUT = (
    "the run directory (metrics.csv, events, TensorBoard logs, the saved model), the check that stops "
    "a run whose loss became NaN, and the dashboard's live plots and stop button"
)

# field -> why the script does not reproduce it
IGNORED: dict[str, str] = {
    "name": "a label for the dashboard's run list and run directory; the script keeps no run directory",
    "variable_partitioner": "only parameter_server shards variables, and the script does not run that "
    "strategy (see UNSUPPORTED_STRATEGIES)",
    "checkpoint.every_epoch": _NO_CHECKPOINTS,
    "checkpoint.every_steps": _NO_CHECKPOINTS,
    "checkpoint.keep": _NO_CHECKPOINTS,
    "data.cache": "the script reads the data as a run without the cache does (a cached run permutes all its "
    "examples each epoch, as for data held in memory)",
    "data.shard_policy": "the script shards as TensorFlow's auto policy does (file when it finds files, else "
    "data); the dashboard decides the policy before TensorFlow starts and checks it",
}


def not_reproduced_block(config: RunConfig) -> str:
    """The comment block at the top of the script: what it leaves out of this run, and why."""
    lines = ["What this script does not reproduce: config fields it ignores, and why."]
    for field, why in IGNORED.items():
        lines += textwrap.wrap(f"{field}: {why}", width=96, initial_indent="  ", subsequent_indent="      ")
    lines += textwrap.wrap(f"Also left out (not config fields): {ALSO_LEFT_OUT}.", width=96, subsequent_indent="  ")
    if config.steps_per_execution == "auto":
        lines += textwrap.wrap(
            'steps_per_execution "auto" runs a fixed 32 steps per call (capped at an epoch): '
            "the dashboard tunes the number while training; the same steps run, so the "
            "losses are the same.",
            width=96,
            initial_indent="Approximated: ",
            subsequent_indent="  ",
        )
    return "".join(f"# {line}".rstrip() + "\n" for line in lines)


# strategy -> why the script cannot reproduce it (export is refused with this message)
UNSUPPORTED_STRATEGIES: dict[str, str] = {
    Strategy.PARAMETER_SERVER: "export-script does not support parameter_server: one script cannot be its "
    "coordinator, workers and parameter servers (each task runs a different program); export the cluster "
    "instead (the Cluster tab's Export, or `tfdd cluster export`), whose tasks all run this dashboard's "
    "train command",
}


def script_problems(config: RunConfig) -> list[Problem]:
    """Why `config` cannot become a standalone script; empty when it can."""
    why = UNSUPPORTED_STRATEGIES.get(config.strategy)
    return [Problem("strategy", config.strategy, why)] if why else []


def template_source() -> str:
    """The template's parts joined into one program, not yet filled in."""
    return "\n\n".join(part.read_text(encoding="utf-8") for part in TEMPLATE_PARTS)


def render_script(config: RunConfig) -> str:
    """The script's text; ConfigError for a strategy it does not support."""
    problems = script_problems(config)
    if problems:
        raise ConfigError(problems)
    source = template_source()
    for line in (CONFIG_LINE, NOT_REPRODUCED_LINE, FUSED_ADAM_BEGIN, FUSED_ADAM_END):
        if line not in source:
            raise RuntimeError(f"the template lost its line {line.strip()!r}; the exporter cannot fill it in")
    literal = pprint.pformat(config.to_dict(), sort_dicts=False, width=100)
    source = source.replace(NOT_REPRODUCED_LINE, not_reproduced_block(config), 1)
    head, rest = source.split(FUSED_ADAM_BEGIN, 1)
    source = head + FUSED_ADAM_BEGIN + fused_adam_code() + "\n\n\n" + FUSED_ADAM_END + rest.split(FUSED_ADAM_END, 1)[1]
    return source.replace(CONFIG_LINE, f"CONFIG = {literal}\n", 1)


def fused_adam_code() -> str:
    """engine/train/models/fused_adam.py as script code: its functions and the standard-library imports
    they need; not its import of the engine's tf and keras (the script has its own). Read as text:
    importing it would import TensorFlow, and the window exports too."""
    text = FUSED_ADAM.read_text(encoding="utf-8")
    body = ast.parse(text).body
    imports = [n for n in body if isinstance(n, ast.Import) or (isinstance(n, ast.ImportFrom) and n.module == "typing")]
    functions = [n for n in body if isinstance(n, ast.FunctionDef)]
    imported = "\n".join(str(ast.get_source_segment(text, n)) for n in imports)
    return "\n\n\n".join([imported, *(str(ast.get_source_segment(text, n)) for n in functions)])


# what a ConfigMap key may hold; an exported file name is one (a TFJob mounts the files by key)
_UNSAFE_IN_NAME = re.compile(r"[^-._a-zA-Z0-9]")


def _user_sources(config: RunConfig) -> dict[str, Path]:
    """The user's Python files a run imports, by the config section naming them (a python model, dataset)."""
    sources = {}
    model, data = model_kind(config.model.kind), data_kind(config.data.kind)
    if model and model.user_code and config.model.path:
        sources["model"] = Path(config.model.path).expanduser()
    if data and data.user_code and config.data.path:
        sources["data"] = Path(config.data.path).expanduser()
    return sources


def _export_names(config: RunConfig) -> dict[str, str]:
    """Section -> the file name its user file gets in an export: a valid ConfigMap key, and two different
    files never share one (a model A/common.py and a dataset B/common.py: common.py, data_common.py)."""
    names: dict[str, str] = {}
    taken: dict[str, Path] = {}
    for section, source in _user_sources(config).items():
        name = _UNSAFE_IN_NAME.sub("_", source.name)
        if name in taken and taken[name].resolve() != source.resolve():
            name = f"{section}_{name}"
        names[section], taken[name] = name, source
    return names


def user_files(config: RunConfig) -> dict[str, Path]:
    """The user's Python files a run imports, by the file name they are exported under."""
    sources = _user_sources(config)
    return {name: sources[section] for section, name in _export_names(config).items()}


def localized(config: RunConfig) -> RunConfig:
    """The config naming the user's Python files by their exported names: found beside the config file that
    holds it (engine.core.user_code.anchor_user_files), wherever it is copied."""
    names = _export_names(config)
    if "model" in names:
        config = config.replace(model=dataclasses.replace(config.model, path=names["model"]))
    if "data" in names:
        config = config.replace(data=dataclasses.replace(config.data, path=names["data"]))
    return config


def with_local_user_files(config: RunConfig, folder: Path) -> RunConfig:
    """Copy the user's Python files into `folder`; the config that names them there."""
    folder.mkdir(parents=True, exist_ok=True)
    for name, source in user_files(config).items():
        target = folder / name
        if source.resolve() != target.resolve():
            shutil.copy2(source, target)
    return localized(config)


def export_script(config: RunConfig, out: str | Path, overwrite: bool = False) -> Path:
    """Write the script; a python model's or dataset's file is copied beside it. OutputExists when `out`
    exists and `overwrite` is not given (a save dialog that asked "replace?" passes it)."""
    path = Path(out)
    if path.exists() and not overwrite:
        raise OutputExists(f"{path} already exists; nothing was written (overwrite it on purpose: --force)")
    config = with_local_user_files(config, path.parent)
    path.write_text(render_script(config), encoding="utf-8")
    path.chmod(0o755)
    return path
