"""The run form: RunConfig out, problems next to their fields, replicas from devices."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from engine.core.config import DataConfig, RunConfig
from gui.form.device_probe import DeviceInfo, ProbeResult
from gui.form.model_form import parse_units
from gui.form.run_form import RunForm

CPU_ONLY = ProbeResult(tensorflow="2.21.0", devices=(DeviceInfo("CPU:0", "CPU", "Xeon", 24000, 2),))
TWO_GPUS = ProbeResult(
    tensorflow="2.21.0",
    devices=(
        DeviceInfo("CPU:0", "CPU", "Xeon", 24000, 2),
        DeviceInfo("GPU:0", "GPU", "NVIDIA A100", 40960, compute_capability="8.0", nvml_index=0),
        DeviceInfo("GPU:1", "GPU", "NVIDIA A100", 40960, compute_capability="8.0", nvml_index=1),
    ),
)


def make_form(qtbot, probe: ProbeResult | None = CPU_ONLY) -> RunForm:
    form = RunForm()
    qtbot.addWidget(form)
    if probe is not None:
        form.set_probe(probe)
    return form


def problem_text(form: RunForm, field: str) -> str:
    label = form.labels.label_for(field)
    return label.text() if not label.isHidden() else ""


def test_defaults_are_valid_and_round_trip(qtbot):
    form = make_form(qtbot)
    config, replicas, problems = form.evaluate()
    assert problems == []
    assert replicas == 1
    assert config.devices == ("CPU:0",)
    form.set_config(config)
    assert form.evaluate()[0] == config


def test_keys_without_widgets_survive(qtbot):
    form = make_form(qtbot)
    form.set_config(RunConfig(seed=7, shuffle_buffer=99, name="mine"))
    config = form.evaluate()[0]
    assert (config.seed, config.shuffle_buffer, config.name) == (7, 99, "mine")


def test_batch_not_divisible_by_virtual_replicas_is_shown_next_to_batch(qtbot):
    form = make_form(qtbot)
    form.strategy.setCurrentText("mirrored")
    form.virtual.setValue(3)
    form.batch_size.setValue(64)
    config, replicas, problems = form.evaluate()
    assert replicas == 3
    assert [p.field for p in problems] == ["global_batch_size"]
    form.show_problems(problems)
    assert "63 or 66" in problem_text(form, "global_batch_size")
    form.batch_size.setValue(66)
    _, _, problems = form.evaluate()
    form.show_problems(problems)
    form.show_per_replica(form.evaluate()[0], 3)
    assert problem_text(form, "global_batch_size") == ""
    assert "22 per replica" in form.per_replica.text()


def test_gpus_are_ticked_by_default_and_multiply_with_virtual_devices(qtbot):
    form = make_form(qtbot, TWO_GPUS)
    form.virtual.setValue(2)
    config, replicas, _ = form.evaluate()
    assert config.devices == ("GPU:0", "GPU:1")
    assert replicas == 4


def test_one_device_strategy_with_two_devices_is_a_problem(qtbot):
    form = make_form(qtbot, TWO_GPUS)
    form.strategy.setCurrentText("one_device")
    assert "devices" in {p.field for p in form.evaluate()[2]}


def test_no_device_ticked_is_a_problem(qtbot):
    form = make_form(qtbot)
    form._device_boxes["CPU:0"].setChecked(False)
    assert "tick at least one device" in [p.message for p in form.evaluate()[2]]


def test_replicas_unknown_before_the_probe(qtbot):
    form = make_form(qtbot, probe=None)
    _, replicas, problems = form.evaluate()
    assert replicas is None and problems == []


def test_hidden_layers_parse():
    assert parse_units("16, 8", "model.hidden_units", "16, 8") == ((16, 8), None)
    assert parse_units("32 16 4", "model.hidden_units", "16, 8")[0] == (32, 16, 4)
    assert parse_units("16, x", "model.hidden_units", "16, 8")[1].field == "model.hidden_units"
    assert parse_units("", "model.hidden_units", "16, 8")[1] is not None


def test_bad_hidden_layers_and_learning_rate_show_problems(qtbot):
    form = make_form(qtbot)
    form.hidden.setText("16, -2")
    fields = {p.field for p in form.evaluate()[2]}
    assert fields == {"model.hidden_units"}


def test_csv_label_column_comes_from_the_header(qtbot, tmp_path: Path):
    csv = tmp_path / "data.csv"
    csv.write_text("a,b,target\n1,2,0\n3,4,1\n")
    form = make_form(qtbot)
    form.data_source.kind.setCurrentText("csv")
    assert "data.path" in {p.field for p in form.evaluate()[2]}
    form.data_source.path.setText(str(csv))
    form.data_source.path.editingFinished.emit()
    items = [form.data_source.label.itemText(i) for i in range(form.data_source.label.count())]
    assert items == ["a", "b", "target"]
    config, _, problems = form.evaluate()
    assert problems == []
    assert (config.data.kind, config.data.label) == ("csv", "target")


def test_npz_keys_are_offered(qtbot, tmp_path: Path):
    npz = tmp_path / "data.npz"
    np.savez(npz, feats=np.zeros((4, 2)), labs=np.array([0, 1, 0, 1]))
    form = make_form(qtbot)
    form.set_config(RunConfig(data=DataConfig(kind="npz", path=str(npz), features_key="feats", labels_key="labs")))
    config, _, problems = form.evaluate()
    assert problems == []
    assert (config.data.features_key, config.data.labels_key) == ("feats", "labs")


# ---- speed: mixed precision, XLA, the all-reduce and its pack size ---------------------------------------

NO_BF16_CPU = ProbeResult(tensorflow="2.21.0", devices=(DeviceInfo("CPU:0", "CPU", "Xeon", 24000, 2, features=()),))


def note_text(form: RunForm, field: str) -> str:
    label = form.labels.note_for(field)
    return label.text() if label is not None and not label.isHidden() else ""


def test_the_speed_fields_are_edited_in_the_form(qtbot):
    form = make_form(qtbot)
    form.strategy.setCurrentText("multi_worker_mirrored")
    form.precision.setCurrentText("bfloat16")
    form.jit.setChecked(True)
    form.all_reduce.setCurrentText("ring")
    form.pack.setValue(4 << 20)
    config = form.evaluate()[0]
    assert (config.mixed_precision, config.jit_compile, config.all_reduce, config.bytes_per_pack) == (
        "bfloat16",
        True,
        "ring",
        4 << 20,
    )
    form.set_config(RunConfig())
    assert (form.precision.currentText(), form.jit.isChecked(), form.all_reduce.currentText()) == ("off", False, "auto")
    assert form.pack.value() == 0 and form.pack.text() == "TensorFlow's default"


def test_what_cannot_run_is_a_problem_and_what_cannot_help_a_note_under_its_field(qtbot):
    form = make_form(qtbot, NO_BF16_CPU)
    form.strategy.setCurrentText("mirrored")
    form.all_reduce.setCurrentText("nccl")
    form.jit.setChecked(True)
    config, replicas, problems = form.evaluate()
    form.show_problems(problems)
    assert {p.field for p in problems} == {"all_reduce", "jit_compile"}
    assert "on the CPU" in problem_text(form, "all_reduce") and "only on GPUs" in problem_text(form, "jit_compile")
    form.strategy.setCurrentText("one_device")
    form.precision.setCurrentText("bfloat16")
    form.pack.setValue(1 << 20)
    config, replicas, problems = form.evaluate()
    assert problems == [], "notes never block a run"
    form.show_per_replica(config, replicas)
    assert "one_device all-reduces no gradients" in note_text(form, "all_reduce")
    assert "only multi_worker_mirrored packs" in note_text(form, "bytes_per_pack")
    assert "avx512_bf16" in note_text(form, "mixed_precision")
    form.set_config(RunConfig(strategy="one_device"))
    form.show_per_replica(*form.evaluate()[:2])
    assert note_text(form, "all_reduce") == note_text(form, "mixed_precision") == ""


def test_every_bound_field_has_its_row(qtbot):
    """One table: each row names the fields its widgets edit, and the bindings are made from the rows."""
    form = make_form(qtbot)
    for field, widget in form.fields.table.items():
        assert form.labels.label_for(field) is not form.general_problems, field
        assert widget.isVisibleTo(form) or field == "variable_partitioner", field
    assert {"jit_compile", "all_reduce", "bytes_per_pack", "mixed_precision"} <= set(form.fields.table)
