"""Under the Live tab's verdict, the changes that address it: Try measures one with a real trial in the background,
Apply puts it into the run form."""

from __future__ import annotations

import json

import pytest
from PySide6.QtCore import Qt

from engine.core import events as ev
from engine.core.config import RunConfig
from engine.core.protocol.paths import RunPaths
from engine.core.resources import resource_path
from tests.engine.train.worker_process import base_config
from tests.gui.live.plot_feed import T0, batch


def started(run_dir, replicas: int = 2) -> ev.RunStarted:
    return ev.RunStarted(
        strategy="mirrored",
        num_replicas=replicas,
        devices=[f"/cpu:{i}" for i in range(replicas)],
        global_batch_size=64,
        per_replica_batch_size=64 // replicas,
        loop="custom",
        epochs=2,
        steps_per_epoch=10,
        steps_per_execution=1,
        run_dir=str(run_dir),
        time=T0,
    )


def bound(input_ms: float, compute_ms: float, sync_ms: float, rest_ms: float) -> ev.StepAnatomy:
    step = input_ms + compute_ms + sync_ms + rest_ms
    return ev.StepAnatomy(
        epoch=1, global_step=10, steps=10, step_ms=step, input_ms=input_ms, compute_ms=compute_ms, sync_ms=sync_ms,
        rest_ms=rest_ms, time=T0 + 1,
    )  # fmt: skip


def a_run(tmp_path, config: dict) -> RunPaths:
    """A run folder holding its config, as the trainer leaves it."""
    paths = RunPaths(tmp_path / "run")
    paths.root.mkdir()
    RunConfig.from_dict(config).save(paths.config)
    return paths


def finished(paths: RunPaths) -> ev.RunFinished:
    return ev.RunFinished(status="completed", epochs_completed=2, run_dir=str(paths.root))


def feed(window, *events: ev.Event) -> None:
    window.plots.add_events([*(batch(s) for s in range(1, 11)), *events])


def test_a_sync_bound_run_offers_a_larger_batch_tried_after_the_run_and_applied_to_the_form(
    qtbot, make_window, tmp_path
):
    paths = a_run(tmp_path, base_config(virtual_devices=2, steps_per_execution=1))
    window = make_window()
    window.form.learning_rate.setValue(0.05)  # an edit of the form since the run started: Apply keeps it
    feed(window, started(paths.root), bound(1, 2, 6, 1))
    panel = window.plots.anatomy.remedies
    assert panel.isVisible()
    labels = [row.label.text() for row in panel.rows]
    assert labels == ["virtual_devices=1", "global_batch_size=128", 'steps_per_execution="auto"'], labels
    larger = panel.rows[1]
    assert "twice the examples" in larger.label.toolTip()
    assert not larger.try_button.isEnabled(), "a trial waits for the run's end"
    feed(window, finished(paths))
    assert larger.try_button.isEnabled()
    qtbot.mouseClick(larger.apply_button, Qt.MouseButton.LeftButton)
    config = window.form.evaluate()[0]
    assert config.global_batch_size == 128 and config.learning_rate == pytest.approx(0.05)
    assert window.form.batch_size.value() == 128


def test_an_input_bound_run_is_offered_the_cache_and_advice_without_a_trial(make_window, tmp_path):
    (tmp_path / "x.csv").write_text("a,y\n1,0\n2,1\n", encoding="utf-8")
    paths = a_run(tmp_path, base_config(data={"kind": "csv", "path": str(tmp_path / "x.csv"), "label": "y"}))
    window = make_window()
    feed(window, started(paths.root, 1), bound(8, 1, 0, 1), finished(paths))
    cache, advice = window.plots.anatomy.remedies.rows
    assert cache.label.text() == "data.cache=true" and cache.try_button.isVisible()
    assert advice.remedy.changes == {} and "CSV" in advice.label.text()
    assert not advice.try_button.isVisible() and not advice.apply_button.isVisible()
    cache.apply_button.click()
    assert window.form.evaluate()[0].data.cache is True


def tutorial(**changes) -> dict:
    """The tutorial's example config: mirrored over 2 logical CPU devices."""
    return {**json.loads(resource_path("examples", "mirrored-2-virtual-cpus.json").read_text("utf-8")), **changes}


def test_a_compute_bound_run_on_logical_cpu_devices_is_offered_one_replica(make_window, tmp_path):
    paths = a_run(tmp_path, tutorial())
    window = make_window()
    feed(window, started(paths.root), bound(0.2, 8, 1, 0.8), finished(paths))
    panel = window.plots.anatomy.remedies
    assert panel.isVisible() and panel.rows[0].label.text() == "virtual_devices=1"
    assert "share its cores" in panel.rows[0].label.toolTip()
    assert panel.rows[0].try_button.isVisible() and panel.rows[0].try_button.isEnabled()


def test_when_nothing_is_offered_the_panel_says_why_in_one_line(qtbot, make_window, tmp_path, chinese):
    """One logical CPU device, bfloat16 already chosen, compute-bound: XLA is refused by the device plan, and the
    panel says so (in the window's language) instead of offering nothing."""
    paths = a_run(tmp_path, tutorial(virtual_devices=1, mixed_precision="bfloat16"))
    window = make_window()
    feed(window, started(paths.root, 1), bound(0.2, 8, 0, 0.8), finished(paths))
    panel = window.plots.anatomy.remedies
    (row,) = panel.rows
    assert panel.isVisible() and row.remedy.changes == {} and not row.try_button.isVisible()
    assert row.remedy.why.startswith("no change on offer: jit_compile=true: mirrored compiles its step with XLA")
    line, why = row.label.text(), row.label.toolTip()
    assert "jit_compile=true" in line and "XLA" not in line and len(line) < len(why) / 2, "the line names, the tip says"
    assert "jit_compile=true" in why and "XLA" in why, why
    assert "只在 GPU 上用 XLA 编译训练步" in why and "关闭 jit_compile" not in why, "the reason, not the form's advice"
    for text in (line, why):
        assert not any(word in text for word in ("no change on offer", "compiles its step", "would not")), text
    window.resize(1500, 950)
    plots = window.plots
    qtbot.waitUntil(lambda: plots.anatomy.plot.height() > 0 and row.label.height() > 0)
    assert plots.loss.height() > 0.8 * plots.anatomy.plot.height(), "a wrapped line does not shrink the upper plots"


def test_a_new_run_clears_the_changes(make_window, tmp_path):
    paths = a_run(tmp_path, base_config(virtual_devices=2, steps_per_execution=1))
    window = make_window()
    feed(window, started(paths.root), bound(1, 2, 6, 1))
    window.plots.reset()
    assert window.plots.anatomy.remedies.rows == [] and window.plots.anatomy.remedies.isHidden()


def test_the_changes_are_in_chinese(make_window, tmp_path, chinese):
    paths = a_run(tmp_path, base_config(virtual_devices=2, steps_per_execution=1))
    window = make_window()
    feed(window, started(paths.root), bound(1, 2, 6, 1), finished(paths))
    row = window.plots.anatomy.remedies.rows[0]
    for text in (row.try_button.text(), row.apply_button.text(), row.label.toolTip(), row.try_button.toolTip()):
        assert text and not any(word in text for word in ("Try", "Apply", "examples", "cores", "Run the")), text


@pytest.mark.slow
def test_try_measures_the_change_with_a_real_trial(qtbot, make_window, tmp_path):
    """A host-bound tiny model at one step a call: Try runs the real `tfdd try` (four short trainers, one after
    another) and shows the speed-up; no run folder lands in the run list."""
    tiny = base_config(
        steps_per_execution=1,
        global_batch_size=16,
        model={"hidden_units": [8]},
        data={"num_samples": 2048, "num_features": 4},
        checkpoint={"every_epoch": False},
    )
    paths = a_run(tmp_path, tiny)
    window = make_window()
    feed(window, started(paths.root, 1), bound(1, 1, 0, 8), finished(paths))
    panel = window.plots.anatomy.remedies
    (row,) = panel.rows
    assert row.remedy.changes == {"steps_per_execution": "auto"}
    qtbot.mouseClick(row.try_button, Qt.MouseButton.LeftButton)
    assert row.try_button.text() == "Cancel"
    qtbot.waitUntil(lambda: "run 1 of 4" in row.result.text(), timeout=120_000)
    qtbot.waitUntil(lambda: panel.thread is None, timeout=600_000)
    assert [a.arm for a in panel.arms] == ["current", "changed", "current", "changed"]
    assert all(not a.error for a in panel.arms), [a.error for a in panel.arms]
    assert row.result.text().endswith(")") and "×" in row.result.text(), row.result.text()
    assert 'steps_per_execution="auto": ' in row.result.toolTip() and "pairs of runs" in row.result.toolTip()
    assert row.try_button.text() == "Try" and row.try_button.isEnabled()
    assert not (tmp_path / "runs").exists() or not any((tmp_path / "runs").iterdir()), "nothing in the run list"


@pytest.mark.slow
def test_a_trial_is_cancelled_by_its_button(qtbot, make_window, tmp_path):
    paths = a_run(tmp_path, base_config(steps_per_execution=1, data={"num_samples": 65536}))
    window = make_window()
    feed(window, started(paths.root, 1), bound(1, 1, 0, 8), finished(paths))
    panel = window.plots.anatomy.remedies
    (row,) = panel.rows
    row.try_button.click()
    qtbot.waitUntil(lambda: "run 1 of 4" in row.result.text(), timeout=120_000)
    row.try_button.click()
    assert row.result.text() == "cancelling…"
    qtbot.waitUntil(lambda: panel.thread is None, timeout=60_000)
    assert row.result.text() == "no speed-up measured" and panel.arms == []
    assert row.try_button.text() == "Try" and row.try_button.isEnabled()


def test_a_run_that_trained_on_other_machines_offers_changes_but_no_trial_here(make_window, tmp_path, chinese):
    """Its cluster.json names SSH hosts: a trial on this machine would measure this CPU, so Try is off and says
    why (in the window's language); Apply still puts the change into the form."""
    paths = a_run(tmp_path, base_config(virtual_devices=2, steps_per_execution=1))
    paths.cluster.write_text(json.dumps({"cluster": {"worker": ["10.0.0.5:2222", "10.0.0.6:2222"]}}), "utf-8")
    window = make_window()
    feed(window, started(paths.root), bound(1, 2, 6, 1), finished(paths))
    panel = window.plots.anatomy.remedies
    assert panel.rows and all(row.remedy.changes for row in panel.rows)
    for row in panel.rows:
        assert not row.try_button.isEnabled(), row.label.text()
        tip = row.try_button.toolTip()
        assert "10.0.0.5, 10.0.0.6" in tip and "本机" in tip, tip
    panel.toggle_trial(panel.rows[0])
    assert panel.thread is None, "no trial starts"
