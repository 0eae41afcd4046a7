"""One table binds config fields to widgets: shown, read back and watched the same way for every field."""

from __future__ import annotations

from PySide6.QtWidgets import QCheckBox, QComboBox, QDoubleSpinBox

from engine.core.config import CheckpointConfig, RunConfig
from gui.form.bindings import FieldBindings, field_value, with_fields
from gui.form.number_fields import KeptValues, limited_spin


def test_dotted_fields_read_and_replace_nested_configs():
    config = RunConfig(epochs=2, checkpoint=CheckpointConfig(every_steps=5, keep=7))
    assert field_value(config, "checkpoint.every_steps") == 5
    changed = with_fields(config, {"epochs": 3, "checkpoint.every_steps": 9, "checkpoint.every_epoch": False})
    assert (changed.epochs, changed.checkpoint.every_steps, changed.checkpoint.every_epoch) == (3, 9, False)
    assert changed.checkpoint.keep == 7 and config.checkpoint.every_steps == 5  # the rest kept, the original intact


def test_a_table_shows_reads_and_watches_each_kind_of_widget(qtbot):
    epochs, loop, every_epoch, split = limited_spin("epochs"), QComboBox(), QCheckBox(), QDoubleSpinBox()
    loop.addItems(["custom", "fit"])
    split.setSingleStep(0.05)
    kept = KeptValues()
    fields = FieldBindings(
        {"epochs": epochs, "loop": loop, "checkpoint.every_epoch": every_epoch, "validation_split": split}, kept
    )
    changes: list[int] = []
    fields.connect(lambda *_: changes.append(1))
    config = RunConfig(epochs=10**12, loop="fit", validation_split=0.1, checkpoint=CheckpointConfig(every_epoch=False))
    fields.show(config)
    assert (loop.currentText(), every_epoch.isChecked()) == ("fit", False)
    assert fields.read(RunConfig()) == RunConfig(
        epochs=10**12, loop="fit", validation_split=0.1, checkpoint=CheckpointConfig(every_epoch=False)
    )  # epochs is past what the field shows: kept as the config holds it
    assert [p.field for p in kept.problems()] == ["epochs"]
    changes.clear()
    epochs.setValue(3)
    split.stepUp()
    loop.setCurrentText("custom")
    every_epoch.setChecked(True)
    assert len(changes) == 4 and not kept.problems()  # an edited field forgets its kept value
    assert fields.read(RunConfig()).validation_split == 0.15  # not 0.15000000000000002
    assert fields.read(RunConfig()).epochs == 3
