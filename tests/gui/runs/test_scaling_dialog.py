"""The scaling study dialog: counts checked up front, results charted, Cancel leaves no process.

The fast tests inject a fake study process (tests/gui/fake_scaling.py, the same protocol as
`tfdd scaling --events`); the slow ones run the real study.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pyqtgraph as pg
import pytest

from engine.core.config import DataConfig, RunConfig
from engine.core.events import ScalingPoint
from gui import i18n
from gui.runs.scaling_dialog import ScalingDialog, count_problems, device_note, parse_counts, verdict

FAKE_STUDY = Path(__file__).parents[1] / "fake_scaling.py"

TINY = RunConfig(
    strategy="mirrored",
    loop="custom",
    epochs=2,
    global_batch_size=64,
    steps_per_execution=4,
    data=DataConfig(num_samples=512),
)


def point(replicas: int, rate: float, base: float = 1000.0, error: str = "") -> ScalingPoint:
    speedup = 0.0 if error else rate / base
    return ScalingPoint(
        replicas=replicas,
        examples_per_sec=0.0 if error else rate,
        speedup=speedup,
        efficiency=0.0 if error else speedup / replicas,
        run_dir=f"/study/replicas-{replicas}",
        error=error,
    )


def fake_study(mode: str = "normal"):
    """The study command, as a fake process: "normal" reports 1 replica 1000/s, 2 replicas 1500/s and
    4 replicas failed (what the real study reports, without training); "block" stays in its first count
    until told to stop, like a long training."""

    def command(config_path: Path, counts: list[int], root: Path) -> list[str]:
        return [
            sys.executable,
            str(FAKE_STUDY),
            mode,
            "--config",
            str(config_path),
            "--replicas",
            *map(str, counts),
            "--out",
            str(root),
            "--events",
        ]

    return command


def make_dialog(qtbot, tmp_path: Path, counts: str = "1, 2, 4", **kwargs) -> ScalingDialog:
    """The dialog on TINY; `command_for=` injects the study's command (the default runs the real study)."""
    dialog = ScalingDialog(tmp_path / "runs", **kwargs)
    qtbot.addWidget(dialog)
    dialog.set_config(TINY)
    dialog.counts.setText(counts)
    return dialog


def bars(plot: pg.PlotWidget) -> list[float]:
    items = [i for i in plot.getPlotItem().items if isinstance(i, pg.BarGraphItem)]
    return list(items[0].opts["height"]) if items else []


def labels(plot: pg.PlotWidget) -> list[str]:
    return [i.textItem.toPlainText() for i in plot.getPlotItem().items if isinstance(i, pg.TextItem)]


def test_parse_counts():
    assert parse_counts("4, 1 2,2") == ([1, 2, 4], "")
    assert parse_counts("1, two")[1] and parse_counts("")[1] and parse_counts("0, 2")[1]


def test_counts_the_engine_would_reject_disable_start(qtbot, tmp_path: Path):
    dialog = make_dialog(qtbot, tmp_path, counts="1, 3", command_for=fake_study())
    assert not dialog.start_button.isEnabled()
    assert "divisible by the 3 replicas" in dialog.problems.text()
    assert count_problems(TINY, [1, 2, 4]) == []
    dialog.counts.setText("1, 2")
    assert dialog.start_button.isEnabled() and dialog.problems.isHidden()


def test_the_note_says_virtual_cpus_share_the_cores():
    assert "virtual CPU devices" in device_note(TINY, [1, 2, 4]) and "cores" in device_note(TINY, [1, 2, 4])
    gpus = TINY.replace(devices=("GPU:0", "GPU:1"))
    assert "GPUs" in device_note(gpus, [1, 2]) and "virtual" not in device_note(gpus, [1, 2])


def test_verdict_in_plain_words():
    assert verdict([point(1, 1000.0), point(2, 1500.0)]).startswith("2 replicas were fastest: 1.50×")
    assert verdict([point(1, 1000.0), point(2, 700.0)]).startswith("More replicas did not help")
    assert "Fewer than two" in verdict([point(1, 1000.0), point(2, 0, error="x")])


def test_a_study_charts_every_count_and_shows_the_failed_one(qtbot, tmp_path: Path):
    dialog = make_dialog(qtbot, tmp_path, command_for=fake_study())
    assert dialog.start_button.isEnabled()
    dialog.start()
    assert not dialog.start_button.isEnabled() and dialog.cancel_button.isEnabled()
    qtbot.waitUntil(lambda: not dialog.running, timeout=10_000)
    assert [p.replicas for p in dialog.points] == [1, 2, 4]
    assert bars(dialog.throughput_plot) == [1000.0, 1500.0, 0.0]
    assert labels(dialog.throughput_plot) == ["1,000", "1,500", "failed"]
    assert labels(dialog.efficiency_plot) == ["100%", "75%", "failed"]
    assert dialog.table.rowCount() == 3
    assert dialog.table.item(2, 4).text() == "failed: the trainer ran out of memory"
    assert dialog.table.item(1, 2).text() == "1.50×"
    assert dialog.verdict.text().startswith("2 replicas were fastest")
    assert dialog.progress.text() == "done: 3 of 3 counts measured"
    assert dialog.start_button.isEnabled()
    study_dirs = list((tmp_path / "runs" / "scaling-studies").iterdir())
    assert len(study_dirs) == 1 and str(study_dirs[0]) in dialog.folder.text()


def test_cancel_stops_the_count_in_training_and_starts_no_other(qtbot, tmp_path: Path):
    dialog = make_dialog(qtbot, tmp_path, counts="1, 2", command_for=fake_study("block"))
    dialog.start()
    qtbot.waitUntil(lambda: "training with 1 replica " in dialog.progress.text(), timeout=10_000)
    dialog.cancel()
    qtbot.waitUntil(lambda: not dialog.running, timeout=10_000)
    assert dialog.points == []
    assert dialog.progress.text() == "cancelled after 0 of 2 counts measured"


def test_the_window_opens_it_with_the_forms_config_and_cancels_it_on_shutdown(qtbot, make_window):
    window = make_window()
    window.form.epochs.setValue(4)
    run_menu = next(a.menu() for a in window.menuBar().actions() if a.text() == "&Run")
    next(a for a in run_menu.actions() if a.text() == "&Scaling study…").trigger()
    dialog = window.scaling_dialog
    assert dialog is not None and dialog.isVisible() and dialog.config.epochs == 4
    window.open_scaling_study()  # a second time: the same dialog, brought forward
    assert window.scaling_dialog is dialog
    dialog.command_for = fake_study("block")
    dialog.counts.setText("1")
    dialog.start()
    qtbot.waitUntil(lambda: "training with 1 replica " in dialog.progress.text(), timeout=10_000)
    window.shutdown()
    assert not dialog.running or not dialog.thread.isRunning()


@pytest.mark.slow
def test_a_real_study_of_one_and_two_replicas(qtbot, tmp_path: Path):
    dialog = make_dialog(qtbot, tmp_path, counts="1, 2")
    dialog.start()
    qtbot.waitUntil(lambda: not dialog.running, timeout=300_000)
    assert [p.replicas for p in dialog.points] == [1, 2]
    assert all(not p.error for p in dialog.points), [p.error for p in dialog.points]
    assert all(h > 0 for h in bars(dialog.throughput_plot))
    assert dialog.points[0].efficiency == 1.0 and dialog.verdict.text()
    assert (Path(dialog.points[1].run_dir) / "metrics.csv").is_file()


@pytest.mark.slow
def test_cancelling_a_real_study_leaves_no_trainer(qtbot, tmp_path: Path):
    """The conftest fixture fails the test if a trainer process is left behind."""
    dialog = make_dialog(qtbot, tmp_path, counts="1, 2")
    dialog.start()
    root = dialog.root
    qtbot.waitUntil(lambda: (root / "replicas-1" / "events.jsonl").is_file(), timeout=60_000)
    dialog.cancel()
    qtbot.waitUntil(lambda: not dialog.running, timeout=30_000)
    assert dialog.points == [] and not (root / "replicas-2").exists()


def test_a_study_shows_each_counts_step_anatomy_and_what_happened_to_a_step(qtbot, qapp, tmp_path: Path):
    dialog = make_dialog(qtbot, tmp_path, command_for=fake_study())
    dialog.show()
    dialog.start()
    qtbot.waitUntil(lambda: not dialog.running, timeout=10_000)
    plot = dialog.anatomy_plot
    assert plot.labels == ["1", "2", "4"]  # the failed count has no bar
    assert plot.bar_tops() == {"input": [1.0, 1.0], "compute": [9.0, 3.5], "sync": [9.0, 9.0], "rest": [10.0, 10.0]}
    sentence = "From 1 to 2 replicas the computing time per step fell 3.2×, synchronising grew from 0 to 55 %."
    assert dialog.anatomy_sentence.text() == sentence and dialog.anatomy_sentence.isVisible()
    i18n.install(qapp, "zh_CN")
    try:
        dialog._draw()
        chinese = dialog.anatomy_sentence.text()
        assert "3.2" in chinese and "55" in chinese and "replicas" not in chinese
    finally:
        i18n.install(qapp, "en")
