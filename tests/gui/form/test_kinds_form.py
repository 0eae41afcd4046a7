"""The form offers every model and data kind; the data preview and inline problems come without TensorFlow."""

from __future__ import annotations

import pytest
from PIL import Image
from PySide6.QtWidgets import QLineEdit

from engine.core.config import DataConfig, ModelConfig, RunConfig
from tests.data_factory import write_float_tfrecords, write_image_folder, write_python_model
from tests.gui.form.test_run_form import make_form, problem_text


def image_form(qtbot, folder, **data):
    form = make_form(qtbot)
    form.set_config(
        RunConfig(
            global_batch_size=8,
            data=DataConfig(kind="image_folder", path=str(folder), **data),
            model=ModelConfig(kind="cnn"),
        )
    )
    return form


def test_every_kind_is_offered(qtbot):
    form = make_form(qtbot)
    kinds = [form.data_source.kind.itemText(i) for i in range(form.data_source.kind.count())]
    assert kinds == ["synthetic", "csv", "npz", "image_folder", "tfrecord", "python"]
    models = [form.model_form.kind.itemText(i) for i in range(form.model_form.kind.count())]
    assert models == ["mlp", "cnn", "keras_application", "python", "saved"]


def test_image_folder_preview_counts_classes_and_shows_thumbnails(qtbot, tmp_path):
    write_image_folder(tmp_path, classes=3, per_class=7, size=(20, 16))
    form = image_form(qtbot, tmp_path)
    config, _, problems = form.evaluate()
    assert problems == [] and config.data.kind == "image_folder" and config.model.kind == "cnn"
    preview = form.data_source.preview
    assert not preview.isHidden()
    assert "21 examples · input 20×16×3 · 3 classes" in preview.summary.text()
    assert "class_0\u00a07 · class_1\u00a07 · class_2\u00a07" in preview.classes.text()
    assert len(preview.thumbnails) == 12 and all(t.pixmap.width() > 0 for t in preview.thumbnails)
    assert not form.labels.label_for("data.image_size").parentWidget().isHidden()  # the image rows are shown
    assert form.labels.label_for("data.label").parentWidget().isHidden()  # the CSV row is not


def test_a_wrong_folder_is_an_inline_problem_at_once(qtbot, tmp_path):
    write_image_folder(tmp_path, classes=1, per_class=3)
    form = image_form(qtbot, tmp_path)
    form.show_problems(form.evaluate()[2])
    assert "has one class (class_0)" in problem_text(form, "data.path")
    assert form.data_source.preview.isHidden()


def test_mixed_sizes_point_at_image_size_and_typing_one_fixes_it(qtbot, tmp_path):
    write_image_folder(tmp_path, classes=2, per_class=3, size=(16, 16))
    Image.new("RGB", (30, 10)).save(tmp_path / "class_0" / "wide.png")
    form = image_form(qtbot, tmp_path)
    form.show_problems(form.evaluate()[2])
    assert "mixed sizes" in problem_text(form, "data.image_size")
    form.data_source.image_size.setText("16, 16")
    form.data_source.refresh_preview()
    config, _, problems = form.evaluate()
    assert problems == [] and config.data.image_size == (16, 16)
    form.data_source.image_size.setText("16, big")
    assert any(p.field == "data.image_size" and "whole numbers" in p.message for p in form.evaluate()[2])


def test_tfrecord_keys_come_from_the_first_record(qtbot, tmp_path):
    write_float_tfrecords(tmp_path, files=2, per_file=8)
    form = make_form(qtbot)
    form.set_config(
        RunConfig(
            global_batch_size=4,
            data=DataConfig(kind="tfrecord", path=str(tmp_path / "*.tfrecord"), feature_shape=(6,)),
        )
    )
    keys = [form.data_source.features_key.itemText(i) for i in range(form.data_source.features_key.count())]
    assert keys == ["x", "y"] and form.evaluate()[2] == []
    assert "16 examples · input 6 · 2 classes · 2 files" in form.data_source.preview.summary.text()
    form.data_source.features_key.setEditText("pixels")
    form.data_source.refresh_preview()
    form.show_problems(form.evaluate()[2])
    assert "no feature 'pixels'" in problem_text(form, "data.features_key")


def test_file_sharding_with_more_workers_than_files(qtbot, tmp_path):
    write_float_tfrecords(tmp_path, files=2, per_file=8)
    form = make_form(qtbot)
    form.set_config(
        RunConfig(
            strategy="multi_worker_mirrored",
            global_batch_size=6,
            data=DataConfig(
                kind="tfrecord", path=str(tmp_path / "*.tfrecord"), feature_shape=(6,), shard_policy="file"
            ),
        )
    )
    form.workers.setValue(3)
    form.show_problems(form.evaluate()[2])
    assert "3 workers need at least 3 files" in problem_text(form, "data.shard_policy")
    form.workers.setValue(2)
    form.data_source.shard_policy.setCurrentText("auto")
    assert form.evaluate()[2] == []
    assert "→ file with 2 workers" in form.data_source.shard_hint.text()


@pytest.mark.parametrize(
    "source, words",
    [
        ("def make():\n    pass\n", "defines no function 'build_model'"),
        ("def build_model(:\n", "syntax error"),
    ],
)
def test_python_model_problems_without_running_the_file(qtbot, tmp_path, source, words):
    path = tmp_path / "m.py"
    path.write_text(source, encoding="utf-8")
    form = make_form(qtbot)
    form.set_config(RunConfig(model=ModelConfig(kind="python", path=str(path))))
    form.show_problems(form.evaluate()[2])
    text = problem_text(form, "model.function") + problem_text(form, "model.path")
    assert words in text
    assert not form.labels.label_for("model.path").parentWidget().isHidden()


def test_model_fields_round_trip(qtbot, tmp_path):
    path = write_python_model(tmp_path / "m.py")
    form = make_form(qtbot)
    for model in (
        ModelConfig(kind="cnn", filters=(8, 16, 32), kernel_size=5, batch_norm=False, hidden_units=(32,)),
        ModelConfig(kind="keras_application", name="ResNet50"),
        ModelConfig(kind="python", path=str(path), function="build_model"),
    ):
        form.set_config(RunConfig(model=model))
        assert form.evaluate()[0].model == model


def test_a_csv_that_is_not_utf8_is_an_inline_problem_naming_it(qtbot, tmp_path):
    path = tmp_path / "latin.csv"
    path.write_bytes("a,b,label\n1,2,0\n3,\xe9,1\n".encode("latin-1"))
    form = make_form(qtbot)
    form.set_config(RunConfig(data=DataConfig(kind="csv", path=str(path), label="label")))
    form.show_problems(form.evaluate()[2])
    assert f"CSV file {path} is not UTF-8 text (byte 0xe9" in problem_text(form, "data.path")


def test_a_python_source_names_a_number_its_field_cannot_show(qtbot, tmp_path):
    """The field shows its nearest value while the run would use the config's: said under the field, as for
    every other kind's numbers."""
    path = tmp_path / "d.py"
    path.write_text("def make_dataset(input_context):\n    pass\n", encoding="utf-8")
    form = make_form(qtbot)
    form.set_config(RunConfig(data=DataConfig(kind="python", path=str(path), num_samples=2_000_000_000)))
    config, _, problems = form.evaluate()
    assert config.data.num_samples == 2_000_000_000
    form.show_problems(problems)
    assert "the config holds 2000000000, which this field cannot show" in problem_text(form, "data.num_samples")


def test_a_python_models_keyword_arguments_are_a_json_object_in_the_form(qtbot, tmp_path):
    path = write_python_model(tmp_path / "m.py")
    form = make_form(qtbot)
    model = ModelConfig(kind="python", path=str(path), kwargs={"width": 16, "act": "relu"})
    form.set_config(RunConfig(model=model))
    assert form.evaluate()[0].model == model
    edit = form.findChild(QLineEdit, "modelKwargsEdit")
    assert edit.isVisibleTo(form)
    edit.setText('{"width": 16,')
    form.show_problems(form.evaluate()[2])
    assert "JSON object" in problem_text(form, "model.kwargs")
    edit.setText('{"2x": 1}')
    form.show_problems(form.evaluate()[2])
    assert "Python identifier" in problem_text(form, "model.kwargs.2x") + problem_text(form, "model.kwargs")


def test_a_keyword_argument_the_models_function_does_not_take_is_shown_at_its_row(qtbot, tmp_path):
    path = tmp_path / "m.py"
    path.write_text("def build_model(input_shape, num_classes, width=3):\n    pass\n", encoding="utf-8")
    form = make_form(qtbot)
    form.set_config(RunConfig(model=ModelConfig(kind="python", path=str(path))))
    form.findChild(QLineEdit, "modelKwargsEdit").setText('{"widht": 16}')
    form.show_problems(form.evaluate()[2])
    shown = problem_text(form, "model.kwargs.widht") + problem_text(form, "model.kwargs")
    assert "'widht'" in shown and "width" in shown and "build_model()" in shown, shown
