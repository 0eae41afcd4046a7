"""File › Open and the stored settings never break the window (issue item 6).

Every failure ends in a dialog, or in the defaults with a message; a value a field cannot show is
kept as the config holds it and named as a problem under its field, never silently changed.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from PySide6.QtCore import QSettings

from engine.core.config import RunConfig
from gui import settings
from gui.form.device_probe import DeviceInfo, ProbeResult

CPU_ONLY = ProbeResult(tensorflow="2.21.0", devices=(DeviceInfo("CPU:0", "CPU", "Xeon", 24000, 2),))


def problem_text(window, field: str) -> str:
    label = window.form.labels.label_for(field)
    return label.text() if label.isVisibleTo(window.form) else ""


@pytest.mark.parametrize(
    "content, words",
    [
        (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\xff\xfe\xfd", "not UTF-8 text"),
        (b"[" * 100_000 + b"]" * 100_000, "nested too deeply"),
        (b'{"epochs": 1000000000000000000000000000000}', "at most 1,000,000"),
        (b'{"learning_rate": NaN}', "learning_rate"),
        (b'{"epochs": ' + b"9" * 5000 + b"}", "too long"),
    ],
    ids=["binary", "deeply-nested", "huge-epochs", "nan", "5000-digits"],
)
def test_a_file_that_is_not_a_usable_config_ends_in_a_dialog_and_the_form_is_untouched(
    qtbot, make_window, tmp_path: Path, content: bytes, words: str
):
    window = make_window()
    window.apply_probe(CPU_ONLY)
    window.form.epochs.setValue(7)
    path = tmp_path / "chosen.json"
    path.write_bytes(content)
    assert not window.open_config(path)
    assert words in window.last_dialog.detailedText()
    window.last_dialog.close()
    assert window.form.evaluate()[0].epochs == 7 and window.controls.start.isEnabled()


def test_a_device_or_fifo_ends_in_a_dialog_without_being_read(qtbot, make_window, tmp_path: Path):
    """/dev/zero would be read until memory runs out and a FIFO would block the GUI thread for ever."""
    import os

    window = make_window()
    window.apply_probe(CPU_ONLY)
    fifo = tmp_path / "run.json"
    os.mkfifo(fifo)
    for path in (Path("/dev/zero"), fifo):
        assert not window.open_config(path)
        assert "not a regular file" in window.last_dialog.detailedText()
        window.last_dialog.close()


def test_values_a_field_cannot_show_are_kept_and_named_not_clamped(qtbot, make_window, tmp_path: Path):
    """A run reopened from an older version: epochs 5e6, learning rate 1e-13 and more."""
    window = make_window()
    window.apply_probe(CPU_ONLY)
    odd = RunConfig(epochs=5_000_000, learning_rate=1e-13, validation_split=0.95, checkpoint=RunConfig().checkpoint)
    window.reopen_config(odd)  # a past run's config is shown leniently, problems and all
    config, _, problems = window.form.evaluate()
    assert (config.epochs, config.learning_rate, config.validation_split) == (5_000_000, 1e-13, 0.95)
    assert "at most 1,000,000" in problem_text(window, "epochs")
    assert "cannot show" in problem_text(window, "learning_rate")
    assert not window.controls.start.isEnabled()
    saved = tmp_path / "saved.json"
    window.save_config(saved)
    stored = json.loads(saved.read_text())
    assert (stored["epochs"], stored["learning_rate"], stored["validation_split"]) == (5_000_000, 1e-13, 0.95)
    window.form.epochs.setValue(20)  # the user edits the field: from now on it holds what it shows
    assert window.form.evaluate()[0].epochs == 20 and problem_text(window, "epochs") == ""


def test_small_learning_rates_and_large_validation_splits_fit_their_fields(qtbot, make_window, tmp_path: Path):
    window = make_window()
    window.apply_probe(CPU_ONLY)
    path = tmp_path / "run.json"
    RunConfig(learning_rate=1e-7, validation_split=0.95).save(path)
    assert window.open_config(path)
    config, _, problems = window.form.evaluate()
    assert (config.learning_rate, config.validation_split) == (1e-7, 0.95) and problems == []
    assert window.form.learning_rate.text() == "1e-07"
    saved = tmp_path / "again.json"
    window.save_config(saved)
    assert RunConfig.load(saved).replace(devices=None) == RunConfig.load(path)


def store(text: str) -> None:
    QSettings(
        QSettings.Format.IniFormat, QSettings.Scope.UserScope, settings.ORGANIZATION, settings.APPLICATION
    ).setValue(settings.CONFIG_KEY, text)


def test_a_stored_config_with_a_huge_value_opens_the_window_with_the_problem_shown(qtbot, make_window):
    store(json.dumps({**RunConfig().to_dict(), "epochs": 10**30}))
    window = make_window()
    window.apply_probe(CPU_ONLY)
    assert window.form.evaluate()[0].epochs == 10**30
    assert "at most 1,000,000" in problem_text(window, "epochs")
    assert not window.controls.start.isEnabled() and "epochs" in window.controls.start.toolTip()


@pytest.mark.parametrize("stored", ["{not json", "[" * 50_000 + "]" * 50_000], ids=["not-json", "deeply-nested"])
def test_stored_settings_that_cannot_be_read_give_the_defaults_and_say_so(qtbot, make_window, stored: str):
    store(stored)
    window = make_window()
    window.apply_probe(CPU_ONLY)
    assert window.form.evaluate()[0] == RunConfig(devices=("CPU:0",))
    assert "not restored" in window.statusBar().currentMessage()
    assert "not restored" in window.log.shown_text()
    assert window.controls.start.isEnabled()


def test_the_run_config_handed_to_a_trainer_lives_in_a_swept_scratch_folder(qtbot, make_window):
    """A killed window left /tmp/tfdd-config-*.json behind; now the file is in a locked scratch folder,
    removed at shutdown and swept by the next window if this one is killed (engine.core.runs.scratch)."""
    window = make_window()
    window.apply_probe(CPU_ONLY)
    window.start_run()
    config_file = window.session.config_file
    assert config_file is not None and config_file.parent.name.startswith("tfdd-window-")
    assert (config_file.parent / ".in-use").is_file()
    qtbot.waitUntil(lambda: window.runner is None, timeout=30_000)
    window.shutdown()
    assert not config_file.parent.exists()


def test_a_runs_folder_that_is_a_file_ends_in_a_dialog_naming_it(qtbot, make_window, tmp_path: Path):
    (tmp_path / "runs").write_text("not a folder")  # make_window's runs folder
    window = make_window()
    window.apply_probe(CPU_ONLY)
    window.start_run()
    assert window.runner is None
    assert "is a file, not a folder for runs" in window.last_dialog.text() + window.last_dialog.informativeText()
    window.last_dialog.close()
    assert window.controls.start.isEnabled()
