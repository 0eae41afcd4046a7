"""`export-script` writes a standalone script that reaches the engine's per-epoch losses.

Fast tests (no TensorFlow, milliseconds) keep the exporter's decisions honest:
every RunConfig field is either honoured by the template or listed as ignored
with a reason, an honoured field is really read by the template's code, and
the template's device set-up decides what engine/core/plan.py decides (run against
a fake `tf`, so on any machine, GPUs or not).

Slow tests train the engine and the exported script on the same tiny config
in fresh processes and compare their per-epoch losses and validation losses.
"""

from __future__ import annotations

import ast
import dataclasses
import functools
import itertools
import re
import shutil
import subprocess
import sys
from types import SimpleNamespace
from typing import Any

import pytest

from engine.core import events as ev
from engine.core.config import ALL_REDUCE, RunConfig
from engine.core.exports.script import (
    HONOURED,
    IGNORED,
    TEMPLATE_PARTS,
    export_script,
    render_script,
    template_source,
)
from engine.core.plan import DeviceError, plan_devices
from engine.core.problems import ConfigError
from tests.engine.train.worker_process import REPO, base_config, env, train, write_config

EPOCH_LINE = re.compile(r"^epoch (\d+): loss=([0-9.eE+-]+)", re.M)
VAL_LINE = re.compile(r"^epoch \d+: .* val_loss=([0-9.eE+-]+) val_accuracy=([0-9.eE+-]+)", re.M)
RTOL = 1e-5  # see the docstrings of the slow tests below and of tests/engine/train/test_training.py


def config_fields(obj: Any = None, prefix: str = "") -> list[str]:
    """Every leaf field of RunConfig, sections as dotted paths ("data.path")."""
    obj = RunConfig() if obj is None else obj
    fields = []
    for f in dataclasses.fields(obj):
        value = getattr(obj, f.name)
        if dataclasses.is_dataclass(value):
            fields += config_fields(value, f"{prefix}{f.name}.")
        else:
            fields.append(prefix + f.name)
    return fields


def template_reads() -> set[str]:
    """The config keys the template's code reads: config["x"], config["s"]["f"], or s["f"] after s = config["s"]."""
    tree = ast.parse(template_source())

    def key_of(node: ast.AST) -> str | None:
        if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant):
            return node.slice.value if isinstance(node.slice.value, str) else None
        return None

    def is_config(node: ast.AST) -> bool:
        return isinstance(node, ast.Name) and node.id == "config"

    sections = {  # local names bound to a section: data = config["data"]
        node.targets[0].id: key_of(node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Assign)
        and len(node.targets) == 1
        and isinstance(node.targets[0], ast.Name)
        and key_of(node.value)
        and is_config(node.value.value)  # type: ignore[attr-defined]
    }
    reads = set()
    for node in ast.walk(tree):
        key = key_of(node)
        if key is None:
            continue
        inner = node.value  # type: ignore[attr-defined]
        if is_config(inner):
            reads.add(key)
        elif key_of(inner) and is_config(inner.value):
            reads.add(f"{key_of(inner)}.{key}")
        elif isinstance(inner, ast.Name) and inner.id in sections:
            reads.add(f"{sections[inner.id]}.{key}")
    return reads


# ---- fast: every field has a decision, and the decisions are true ---------------------------


def test_script_embeds_the_config_and_no_dashboard_code():
    config = RunConfig.from_dict(base_config(loop="fit", seed=11))
    source = render_script(config)
    compile(source, "train.py", "exec")
    assert "'seed': 11" in source and "'loop': 'fit'" in source
    assert "from engine" not in source and "import engine" not in source


def test_the_template_parts_join_into_one_clean_program():
    """Each part alone uses names another part defines; joined, every name is defined and used once (pyflakes's
    rules, through ruff)."""
    ruff = shutil.which("ruff")
    assert ruff, "ruff is not installed: pip install -e .[test]"
    script = render_script(RunConfig())
    args = [ruff, "check", "--no-cache", "--isolated", "--select", "F", "--stdin-filename", "train.py", "-"]
    out = subprocess.run(args, input=script, capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stdout + out.stderr
    assert all(
        part.stat().st_size and len(part.read_text(encoding="utf-8").splitlines()) < 500 for part in TEMPLATE_PARTS
    )


def test_every_config_field_is_honoured_or_ignored_with_a_reason():
    """Fails when RunConfig gains a field and nobody decided what the exported script does with it."""
    fields = config_fields()
    assert len(fields) == len(set(fields))
    assert not set(HONOURED) & set(IGNORED), "a field cannot be both honoured and ignored"
    undecided = set(fields) - set(HONOURED) - set(IGNORED)
    assert not undecided, (
        f"add these RunConfig fields to HONOURED or IGNORED in engine/core/exports/script.py: {undecided}"
    )
    assert set(HONOURED) | set(IGNORED) == set(fields), "decisions about fields RunConfig no longer has"
    assert all(isinstance(v, str) and v.strip() for v in [*HONOURED.values(), *IGNORED.values()])


def test_honoured_fields_are_read_by_the_template_and_ignored_ones_are_not():
    reads = template_reads()
    assert {"seed", "data.kind", "model.hidden_units"} <= reads  # the reader itself works
    unread = set(HONOURED) - reads
    assert not unread, f"called honoured, but the template never reads them: {unread}"
    read_anyway = set(IGNORED) & reads
    assert not read_anyway, f"called ignored, but the template reads them: {read_anyway}"


def test_rendered_script_names_what_it_does_not_reproduce_at_its_top():
    source = render_script(RunConfig())
    before_code = source[: source.index("\nimport ")]
    comment = " ".join(line.lstrip("# ").strip() for line in before_code.splitlines() if line.startswith("#"))
    comment = re.sub(r"\s+", " ", comment)
    for field, why in IGNORED.items():
        assert f"{field}: {why}" in comment
    assert 'steps_per_execution "auto" runs a fixed 32' in comment
    fixed = render_script(RunConfig(steps_per_execution=8))
    assert 'steps_per_execution "auto"' not in fixed and "checkpoint.keep:" in fixed


# ---- fast: the template's devices are the engine's plan -----------------------------------------


class FakeTF:
    """Just enough of `tf.config` and `tf.distribute` to run the template's device code; records the calls."""

    def __init__(self, gpu_count: int):
        self.gpus = [SimpleNamespace(name=f"/physical_device:GPU:{i}") for i in range(gpu_count)]
        self.cpu = SimpleNamespace(name="/physical_device:CPU:0")
        self.visible: list[Any] | None = None
        self.splits: list[tuple[str, list[Any]]] = []
        self.growth: list[str] = []
        self.packs: list[int] = []
        self.config = SimpleNamespace(
            list_physical_devices=lambda kind: list(self.gpus if kind == "GPU" else [self.cpu]),
            set_visible_devices=self._set_visible,
            set_logical_device_configuration=lambda device, logical: self.splits.append((device.name, logical)),
            LogicalDeviceConfiguration=lambda memory_limit=None: ("logical", memory_limit),
            experimental=SimpleNamespace(set_memory_growth=lambda device, on: on and self.growth.append(device.name)),
        )
        self.distribute = SimpleNamespace(
            get_strategy=lambda: ("default",),
            OneDeviceStrategy=lambda device: ("one_device", device),
            MirroredStrategy=lambda devices, cross_device_ops: ("mirrored", cross_device_ops),
            NcclAllReduce=lambda: "nccl",
            HierarchicalCopyAllReduce=lambda: "hierarchical_copy",
            ReductionToOneDevice=lambda: "reduction_to_one_device",
            MultiWorkerMirroredStrategy=lambda communication_options: ("multi_worker_mirrored", communication_options),
            experimental=SimpleNamespace(
                CommunicationImplementation=SimpleNamespace(NCCL="nccl", RING="ring"),
                CommunicationOptions=self._options,
            ),
        )

    def _options(self, implementation: str, bytes_per_pack: int, timeout_seconds: float | None) -> str:
        self.packs.append(bytes_per_pack)
        return implementation

    def _set_visible(self, devices: list[Any], kind: str) -> None:
        assert kind == "GPU"
        self.visible = [d.name for d in devices]


@functools.cache
def template_code(*names: str) -> Any:
    """The template's top-level functions `names`, compiled without the rest (no TensorFlow import)."""
    tree = ast.parse(template_source())
    body = [node for node in tree.body if isinstance(node, ast.FunctionDef) and node.name in names]
    assert {node.name for node in body} == set(names)
    return compile(ast.Module(body=body, type_ignores=[]), "template", "exec")


def template_functions(*names: str, **namespace: Any) -> dict[str, Any]:
    """The template's functions `names`, run against `namespace` (a fake tf) instead of TensorFlow."""
    exec(template_code(*names), namespace)  # noqa: S102
    return namespace


def test_template_applies_devices_as_the_engine_plans_them():
    """Every combination of strategy, devices, split, memory growth, GPU count, OS and all-reduce: the
    template makes visible, splits, grows and reduces what plan_devices + apply_plan + make_strategy would.
    An all-reduce the plan refuses is left to TensorFlow to refuse in the script."""
    gpu = "/physical_device:GPU:{}".format
    checked = refused = 0
    for strategy, devices, split, growth, gpu_count, system, all_reduce in itertools.product(
        ("default", "one_device", "mirrored", "multi_worker_mirrored"),
        (None, ("GPU:1",), ("gpu:0", "GPU:1"), ("CPU:0",), ("CPU:0", "GPU:0"), ("CPU:1",)),
        (1, 3),
        (True, False),
        (0, 2),
        ("Linux", "Windows"),
        ALL_REDUCE,
    ):
        config = RunConfig(
            strategy=strategy,
            devices=devices,
            virtual_devices=split,
            memory_growth=growth,
            virtual_gpu_memory_mb=512,
            all_reduce=all_reduce,
            bytes_per_pack=1 << 20,
        )
        case = f"{strategy} devices={devices} split={split} growth={growth} gpus={gpu_count} {system} {all_reduce}"
        tf = FakeTF(gpu_count)
        functions = template_functions(
            "configure_devices", "make_strategy", tf=tf, platform=SimpleNamespace(system=lambda s=system: s)
        )
        try:
            plan = plan_devices(config, [f"GPU:{i}" for i in range(gpu_count)], system=system)
        except DeviceError as exc:
            if {p.field for p in exc.problems} == {"all_reduce"}:
                continue
            with pytest.raises(SystemExit):
                functions["configure_devices"](config.to_dict())
            refused += 1
            continue
        names, gpus_used = functions["configure_devices"](config.to_dict())
        assert names == list(plan.strategy_devices), case
        assert gpus_used == len(plan.gpu_indices), case
        assert tf.visible == ([gpu(i) for i in plan.gpu_indices] if gpu_count else None), case
        logical_gpus = [(gpu(i), [("logical", 512)] * plan.split) for i in plan.gpu_indices]
        logical_cpus = [(tf.cpu.name, [("logical", None)] * plan.split)]
        assert tf.splits == (logical_gpus if plan.uses_gpu else logical_cpus) * (plan.split > 1), case
        assert tf.growth == [gpu(i) for i in plan.gpu_indices] * plan.memory_growth, case
        made = functions["make_strategy"](config.to_dict(), names, gpus_used)
        assert made[0] == strategy, case
        if strategy in ("mirrored", "multi_worker_mirrored"):
            assert made[1] == plan.all_reduce, case
        assert tf.packs == ([1 << 20] if strategy == "multi_worker_mirrored" else []), case
        if strategy == "one_device":
            assert made[1] == plan.strategy_devices[0], case
        checked += 1
    assert checked > 100 and refused > 50  # both kinds of case really ran


# ---- slow: the script's numbers are the engine's ------------------------------------------------


def script_epochs(stdout: str) -> tuple[list[float], list[float]]:
    return (
        [float(loss) for _, loss in EPOCH_LINE.findall(stdout)],
        [float(val_loss) for val_loss, _ in VAL_LINE.findall(stdout)],
    )


def run_script(tmp_path, script) -> str:
    run = subprocess.run(
        [sys.executable, str(script)], cwd=tmp_path, env=env(), capture_output=True, text=True, timeout=300
    )
    assert run.returncode == 0, run.stderr[-2000:]
    return run.stdout


@pytest.mark.slow
def test_exported_script_reproduces_engine_losses(tmp_path):
    """The `export-script` command's script, without validation, on the default strategy with fit in float32.
    Two replicas with the custom loop and validation are test_exported_script_reproduces_the_new_kinds[tfrecord]'s
    (and [python-data]'s) case; fit's validation is [mirrored-fit-bfloat16-multiclass]'s and [python-model-fit]'s."""
    config = base_config(strategy="default", loop="fit", data={"num_classes": 3})
    engine_run = train(tmp_path, config)
    assert engine_run.returncode == 0, engine_run.stderr[-2000:]
    engine_losses = [e.loss for e in engine_run.of(ev.EpochEnd)]

    path = write_config(tmp_path, config, "export.json")
    script = tmp_path / "train.py"
    out = subprocess.run(
        [sys.executable, "main.py", "export-script", "--config", str(path), "--out", str(script)],
        cwd=REPO,
        env=env(),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert out.returncode == 0, out.stderr
    stdout = run_script(tmp_path, script)
    assert "mixed precision: off" in stdout and "XLA: off" in stdout
    script_losses, script_val_losses = script_epochs(stdout)
    assert script_losses == pytest.approx(engine_losses, rel=1e-5)  # tolerance: see test_training.py
    assert script_val_losses == [] and all(e.val_loss is None for e in engine_run.of(ev.EpochEnd))


@pytest.mark.slow
@pytest.mark.parametrize(
    "overrides",
    [
        {"virtual_devices": 2, "loop": "custom", "mixed_precision": "float16", "steps_per_execution": "auto"},
        {"virtual_devices": 2, "loop": "fit", "mixed_precision": "bfloat16", "data": {"num_classes": 3}},
        {"strategy": "one_device", "loop": "custom", "jit_compile": True},
    ],
    ids=["mirrored-custom-float16-auto", "mirrored-fit-bfloat16-multiclass", "one-device-xla"],
)
def test_exported_script_reproduces_mixed_precision_and_validation(tmp_path, overrides):
    """Per-epoch losses and validation losses of the script are the engine's, at RTOL = 1e-5.

    1024 examples, validation_split 0.2: 204 validate, in batches of 64, 64, 64 and a short 12 (split 6/6
    between two replicas), so the custom loop's sum-over-examples / count and fit's model.evaluate both
    meet a partial last batch.

    Tolerance. float32 as in test_training.py. Mixed precision would justify a looser one if the script
    computed differently: a float16 unit roundoff is 4.9e-4, bfloat16's 3.9e-3. But the script runs the
    same ops on the same devices in the same order as the engine, so on one machine the bits agree:
    measured on the 2-core CPU test machine (2 epochs, losses printed with repr), the engine and the script
    differ by exactly 0 in every epoch loss and validation loss, for custom+float16+2 replicas,
    fit+bfloat16+2 replicas and custom/fit float32 alike. So the float32 tolerance stays, and it still
    catches a script that ignores the policy: float32 and mixed-precision runs of the same config differ by
    7.3e-4 to 1.7e-3 relative in epoch losses and by 6.4e-5 to 1.9e-3 in validation losses (float16
    custom and bfloat16 fit, 2 epochs). The "auto" case checks that the engine's tuned steps per call and the script's
    fixed 32 give the same losses; the XLA case that both compile the same step the same way.
    """
    config = base_config(**overrides, validation_split=0.2)
    engine_run = train(tmp_path, config)
    assert engine_run.returncode == 0, engine_run.stderr[-2000:]
    engine_ends = engine_run.of(ev.EpochEnd)
    assert len(engine_ends) == config["epochs"] and all(e.val_loss is not None for e in engine_ends)

    script = export_script(RunConfig.from_dict(config), tmp_path / "train.py")
    stdout = run_script(tmp_path, script)
    assert f"mixed precision: {config.get('mixed_precision', 'off')}" in stdout
    assert f"XLA: {'on' if config.get('jit_compile') else 'off'}" in stdout
    script_losses, script_val_losses = script_epochs(stdout)
    assert script_losses == pytest.approx([e.loss for e in engine_ends], rel=RTOL)
    assert script_val_losses == pytest.approx([e.val_loss for e in engine_ends], rel=RTOL)


def new_kind_config(tmp_path, case: str) -> dict[str, Any]:
    from tests.data_factory import write_float_tfrecords, write_image_folder, write_python_data, write_python_model

    src = tmp_path / "src"
    src.mkdir()
    if case == "tfrecord":
        write_float_tfrecords(tmp_path / "records", files=2, per_file=160)
        data = {"kind": "tfrecord", "path": str(tmp_path / "records" / "*.tfrecord"), "feature_shape": [6]}
        return base_config(virtual_devices=2, validation_split=0.2, data=data)
    if case == "python-data":
        data = {
            "kind": "python",
            "path": str(write_python_data(src / "my_data.py")),
            "num_samples": 512,
            "validation_function": "make_validation",
        }
        return base_config(virtual_devices=2, data=data)
    images = write_image_folder(tmp_path / "images", classes=3, per_class=16, size=(12, 12))
    data = {"kind": "image_folder", "path": str(images)}
    model = (
        {"kind": "cnn", "filters": [8], "hidden_units": [8]}
        if case == "image-folder-cnn"
        else {"kind": "python", "path": str(write_python_model(src / "m.py"))}
    )
    loop = "fit" if case == "python-model-fit" else "custom"
    return base_config(
        virtual_devices=2, global_batch_size=16, validation_split=0.25, data=data, model=model, loop=loop
    )


@pytest.mark.slow
@pytest.mark.parametrize("case", ["image-folder-cnn", "python-model-fit", "python-data", "tfrecord"])
def test_exported_script_reproduces_the_new_kinds(tmp_path, case):
    """The script carries the user's Python files (copied beside it) and names the data, and its per-epoch
    losses are the engine's at RTOL: same files, order, decoding, model and loop."""
    config = new_kind_config(tmp_path, case)
    engine_run = train(tmp_path, config)
    assert engine_run.returncode == 0, engine_run.stderr[-2000:]
    script = export_script(RunConfig.from_dict(config), tmp_path / "export" / "train.py")
    copied = {"python-model-fit": "m.py", "python-data": "my_data.py"}.get(case)
    if copied:
        assert (tmp_path / "export" / copied).is_file() and f"'path': '{copied}'" in script.read_text()
    stdout = run_script(tmp_path, script)
    losses, val_losses = script_epochs(stdout)
    engine_ends = engine_run.of(ev.EpochEnd)
    assert losses == pytest.approx([e.loss for e in engine_ends], rel=RTOL)
    assert val_losses == pytest.approx([e.val_loss for e in engine_ends if e.val_loss is not None], rel=RTOL)
    assert len(val_losses) == config["epochs"]


def test_parameter_server_is_refused_with_what_to_do_instead(tmp_path, capsys):
    from engine.cli import main
    from engine.core.exports.script import render_script

    config = RunConfig(strategy="parameter_server")
    with pytest.raises(ConfigError, match="does not support parameter_server"):
        render_script(config)
    path = tmp_path / "run.json"
    config.save(path)
    assert main(["export-script", "--config", str(path), "--out", str(tmp_path / "train.py")]) == 2
    assert "tfdd cluster export" in capsys.readouterr().err
    assert not (tmp_path / "train.py").exists()


def test_the_script_carries_the_engines_fused_adam_step():
    """The trainer's Adam step rounds differently from Keras's own: without it the script's losses drift
    from the engine's in the fifth digit (a bfloat16 fit run's validation loss, a TFRecord run's loss)."""
    from engine.core.exports.script import FUSED_ADAM, FUSED_ADAM_BEGIN, FUSED_ADAM_END

    script = render_script(RunConfig())
    block = script.split(FUSED_ADAM_BEGIN, 1)[1].split(FUSED_ADAM_END, 1)[0]
    engine_source = FUSED_ADAM.read_text(encoding="utf-8")
    for name in ("fused_update_step", "fuse_updates"):
        node = next(n for n in ast.parse(engine_source).body if getattr(n, "name", None) == name)
        assert ast.get_source_segment(engine_source, node) in block, f"{name} is not the engine's"
    assert "engine" not in block.replace("the engine", ""), "the script must run without this package"
    namespace: dict = {}
    exec(compile(block, "fused block", "exec"), namespace)  # noqa: S102 - defines two functions, imports stdlib
    assert {"fused_update_step", "fuse_updates", "types"} <= namespace.keys()
    assert "optimizer = fuse_updates(optimizer)" in script
