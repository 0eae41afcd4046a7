"""Local multi-worker runs from the window: the workers box, replicas, the launch, failures.

The fast tests drive a fake relay (fake_cluster.py); the slow ones click Start
on the real `main.py cluster launch` with two TensorFlow workers on 127.0.0.1.
"""

from __future__ import annotations

import json
import os
import re
import signal
import sys
import time
from pathlib import Path

import pytest
from PySide6.QtCore import Qt, QTimer

from engine.core.config import DataConfig, RunConfig
from engine.core.protocol.codes import CLUSTER_GRACE_S
from engine.core.protocol.paths import RunPaths
from engine.core.runs.rundir import read_metrics
from engine.core.runs.runlock import holder
from gui.form.device_probe import DeviceInfo, ProbeResult
from gui.form.run_form import RunForm
from gui.live.workers_panel import MESSAGE, ROLE, STEPS
from gui.main_window import MainWindow
from tests.gui.closing_helpers import answer_closing, wait_for_holder
from tests.gui.stacks_shown import assert_stacks_show

FAKE_CLUSTER = Path(__file__).parents[1] / "fake_cluster.py"
CPU_ONLY = ProbeResult(tensorflow="2.21.0", devices=(DeviceInfo("CPU:0", "CPU", "Xeon", 24000, 2),))
TWO_GPUS = ProbeResult(
    tensorflow="2.21.0",
    devices=(
        DeviceInfo("CPU:0", "CPU", "Xeon", 24000, 2),
        DeviceInfo("GPU:0", "GPU", "NVIDIA A100", 40960, nvml_index=0),
        DeviceInfo("GPU:1", "GPU", "NVIDIA A100", 40960, nvml_index=1),
    ),
)
MULTI = "multi_worker_mirrored"


def alive(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


# ---- the form: workers × devices per worker ------------------------------------------------


def test_the_workers_box_drives_replicas_and_the_batch_check(qtbot):
    form = RunForm()
    qtbot.addWidget(form)
    form.set_probe(CPU_ONLY)
    assert not form.workers.isVisibleTo(form)
    form.strategy.setCurrentText(MULTI)
    assert form.workers.isVisibleTo(form) and not form.virtual.isEnabled()
    form.workers.setValue(3)
    config, replicas, problems = form.evaluate()
    assert replicas == 3
    assert [p.field for p in problems] == ["global_batch_size"] and "63 or 66" in problems[0].message
    form.batch_size.setValue(66)
    config, replicas, problems = form.evaluate()
    form.show_per_replica(config, replicas)
    assert problems == [] and form.per_replica.text() == "= 22 per replica × 3 replicas (1\u00a0per\u00a0worker)"
    assert form.evaluate(workers=2)[1] == 2, "an exported cluster's worker count overrides the box"
    form.set_probe(TWO_GPUS)
    for name, box in form._device_boxes.items():
        box.setChecked(name.startswith("GPU"))
    assert form.evaluate()[1] == 6


# ---- the window with a fake relay ------------------------------------------------------


@pytest.fixture
def cluster_window(make_window):
    """A window whose multi-worker Start runs fake_cluster.py in `mode`; the commands it built are kept."""

    def make(mode: str) -> MainWindow:
        built: list[tuple[Path, Path, int]] = []

        def command(config: Path, run_dir: Path, workers: int, ps: int = 0, evaluator: bool = False) -> list[str]:
            built.append((config, run_dir, workers))
            return [sys.executable, str(FAKE_CLUSTER), mode, "--workers", str(workers), "--run-dir", str(run_dir)]

        window = make_window(cluster_command_for=command)
        window.built = built
        window.apply_probe(CPU_ONLY)
        window.form.strategy.setCurrentText(MULTI)
        return window

    return make


def test_start_launches_the_workers_and_shows_each_one(qtbot, cluster_window):
    window = cluster_window("complete")
    window.form.workers.setValue(4)
    assert window.status_labels["replicas"].text() == "replicas: 4"
    qtbot.mouseClick(window.controls.start, Qt.MouseButton.LeftButton)
    assert window.runner.grace_seconds == CLUSTER_GRACE_S
    qtbot.waitUntil(lambda: window.runner is None, timeout=30_000)
    assert [built[2] for built in window.built] == [4]
    assert window.workers.workers() == [f"worker-{i}" for i in range(4)]
    assert {window.workers.state(w) for w in window.workers.workers()} == {"finished"}
    assert "completed" in window.status_labels["state"].text()
    assert window.status_labels["replicas"].text() == "replicas: 4", "num_replicas counts all workers already"
    log = window.log.shown_text()
    assert "[worker-0] INFO: CollectiveAllReduceStrategy" in log, "the relay tags the chief's lines too"
    assert "[worker-1] INFO: CollectiveAllReduceStrategy" in log
    assert "[worker-3] finished" in log
    # the last events are drawn at the next frame (at most REDRAW_PERIOD_MS + FRAME_SLACK_MS after they came),
    # which may be after the run's end reached the window
    qtbot.waitUntil(lambda: window.plots.plotted_points() == 4, timeout=2_000)


def test_a_failed_worker_is_named_and_the_window_stays_usable(qtbot, cluster_window):
    window = cluster_window("fail")
    window.start_run()
    qtbot.waitUntil(lambda: window.runner is None, timeout=30_000)
    qtbot.waitUntil(lambda: window.last_dialog is not None)
    assert "worker 1 (pid 1001) failed" in window.last_dialog.text()
    assert "[worker-1] failed: killed by SIGKILL" in window.last_dialog.detailedText()
    assert window.workers.state("worker-1") == "failed"
    assert "failed" in window.status_labels["state"].text()
    window.last_dialog.close()
    assert window.controls.start.isEnabled() and window.form.isEnabled()


def test_stop_stops_every_worker(qtbot, cluster_window):
    window = cluster_window("wait")
    window.start_run()
    qtbot.waitUntil(lambda: window.workers.state("worker-1") == "training", timeout=30_000)
    window.stop_run()
    qtbot.waitUntil(lambda: window.runner is None, timeout=30_000)
    assert {window.workers.state(w) for w in window.workers.workers()} == {"stopped"}
    assert "stopped" in window.status_labels["state"].text()


def test_a_stalled_worker_is_shown_with_its_python_stacks(qtbot, cluster_window):
    window = cluster_window("stall")
    window.start_run()
    qtbot.waitUntil(lambda: window.workers.stalled() == ["worker-1"], timeout=30_000)
    assert window.workers.summary.text() == "1 stalled · 1 training"
    assert "[worker-1] worker-1: no step for 42 s (its steps took 0.3 s)" in window.log.shown_text()
    assert_stacks_show(
        qtbot, window.workers.show_stacks("worker-1"), "held_in_the_fake_cluster"
    )  # the row's context menu
    window.stop_run()
    qtbot.waitUntil(lambda: window.runner is None, timeout=30_000)
    assert window.workers.stalled() == []


# ---- the real thing ----------------------------------------------------------------------


def real_cluster_window(make_window, **config: object) -> MainWindow:
    """Multi-worker Start runs the real launcher; any other strategy runs the fast fake trainer."""
    window = make_window("normal", "--epochs", "1", "--steps", "3", "--delay", "0")
    window.apply_probe(CPU_ONLY)
    window.form.set_config(RunConfig(strategy=MULTI, loop="custom", global_batch_size=64, **config))
    window.form.workers.setValue(2)
    assert window.controls.start.isEnabled(), window.controls.reason.text()
    return window


@pytest.mark.slow
def test_a_real_two_worker_cluster_finishes_from_the_window(qtbot, make_window, tmp_path: Path):
    window = real_cluster_window(make_window, epochs=2, data=DataConfig(num_samples=512))
    qtbot.mouseClick(window.controls.start, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: window.runner is None, timeout=240_000)
    assert "completed" in window.status_labels["state"].text(), window.log.tail(60)
    assert [window.workers.state(w) for w in ("worker-0", "worker-1")] == ["finished", "finished"]
    # the run's last events are drawn at the next frame, which may come after the run's end reached the window
    qtbot.waitUntil(lambda: window.plots.loss.plotted_points("epoch") == 2)
    assert window.plots.plotted_points() > 0
    assert window.status_labels["replicas"].text() == "replicas: 2"
    assert window.status_labels["per_replica"].text() == "per-replica batch: 32"
    assert "[worker-1] INFO:" in window.log.shown_text()
    (run_dir,) = (tmp_path / "runs").iterdir()
    assert {p.name for p in (run_dir / "workers").iterdir()} == {"worker-0.log", "worker-1.log", "states.jsonl"}
    pids = [window.workers.pid(w) for w in ("worker-0", "worker-1")]
    assert not any(alive(pid) for pid in pids)


@pytest.mark.slow
def test_a_killed_worker_fails_the_run_by_name_the_other_stops_within_seconds_and_the_window_stays_usable(
    qtbot, make_window
):
    window = real_cluster_window(make_window, epochs=50, data=DataConfig(num_samples=20_000))
    window.start_run()
    qtbot.waitUntil(
        lambda: window.workers.state("worker-1") == "training" and window.plots.plotted_points() > 0, timeout=240_000
    )
    pids = [window.workers.pid(w) for w in ("worker-0", "worker-1")]
    os.kill(pids[1], signal.SIGKILL)
    killed_at = time.monotonic()
    qtbot.waitUntil(lambda: window.runner is None, timeout=120_000)
    assert time.monotonic() - killed_at < 30  # "within seconds": the launcher's grace to stop, then kill
    assert window.workers.state("worker-1") == "failed"
    assert "SIGKILL" in window.workers.cell("worker-1", MESSAGE)
    assert window.workers.state("worker-0") == "stopped" and "worker 1" in window.workers.cell("worker-0", MESSAGE)
    assert "failed" in window.status_labels["state"].text()
    qtbot.waitUntil(lambda: window.last_dialog is not None)
    assert f"worker 1 (pid {pids[1]}) failed: killed by SIGKILL" in window.last_dialog.text()
    assert not any(alive(pid) for pid in pids)
    window.last_dialog.close()
    window.form.strategy.setCurrentText("mirrored")  # usable: another run starts and completes
    window.start_run()
    qtbot.waitUntil(lambda: window.runner is None, timeout=30_000)
    assert "completed" in window.status_labels["state"].text()


@pytest.mark.slow
def test_a_cluster_kept_running_when_the_window_closes_finishes_without_it(qtbot, make_window, tmp_path: Path):
    window = real_cluster_window(make_window, epochs=3, steps_per_execution=1, data=DataConfig(num_samples=8_000))
    window.start_run()
    run_dir = window.session.launch.run_dir
    qtbot.waitUntil(lambda: window.plots.loss.plotted_points("epoch") >= 1, timeout=240_000)
    said: list[str] = []
    QTimer.singleShot(0, lambda: answer_closing("keepRunningButton", said))
    window.close()
    assert said and not window.isVisible()
    background = wait_for_holder(run_dir)
    try:
        assert background is not None and background.pid != os.getpid(), "nothing continues the run"
        assert "cluster launch" in background.command
        deadline = time.monotonic() + 240
        while holder(RunPaths(run_dir)) is not None and time.monotonic() < deadline:
            time.sleep(0.5)
        assert holder(RunPaths(run_dir)) is None, "the cluster kept running did not finish"
    finally:
        held = holder(RunPaths(run_dir))
        if held is not None and held.pid and held.pid != os.getpid():
            os.kill(held.pid, signal.SIGTERM)
    assert [r["epoch"] for r in read_metrics(RunPaths(run_dir).metrics)] == ["1", "2", "3"]
    assert "completed" in RunPaths(run_dir).launcher_log.read_text(encoding="utf-8")


@pytest.mark.slow
def test_capture_profile_on_a_local_cluster_keeps_every_training_tasks_profile_and_closing_stops_every_worker(
    qtbot, make_window, tmp_path: Path
):
    """Capture profile sends "profile N" on the launcher's stdin (engine.core.protocol.profile); each training task
    profiles the steps asked and writes its own session. Closing the window mid-run then stops every worker."""
    window = real_cluster_window(make_window, epochs=50, steps_per_execution=1, data=DataConfig(num_samples=20_000))
    window.start_run()
    qtbot.waitUntil(lambda: window.plots.plotted_points() > 0, timeout=240_000)
    assert window.controls.profile.isEnabled(), window.controls.profile.toolTip()
    window.controls.profile_steps.setValue(3)
    qtbot.mouseClick(window.controls.profile, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: window.log.shown_text().count("profile of steps") >= 2, timeout=120_000)
    pids = [window.workers.pid(w) for w in ("worker-0", "worker-1")]
    asked: list[str] = []
    QTimer.singleShot(0, lambda: answer_closing("stopOnCloseButton", asked))
    window.close()
    assert asked, "closing did not ask"
    qtbot.waitUntil(lambda: not window.isVisible(), timeout=90_000)
    assert [window.workers.state(w) for w in ("worker-0", "worker-1")] == ["stopped", "stopped"]
    assert "stopped" in window.status_labels["state"].text(), window.log.tail(60)
    assert not any(alive(pid) for pid in pids)
    (run_dir,) = (tmp_path / "runs").iterdir()
    sessions = sorted((run_dir / "tensorboard" / "plugins" / "profile").iterdir())
    assert [s.name.rpartition("-")[2] for s in sessions] == ["0", "1"], sessions
    shown = re.findall(r"profile of steps (\d+)-(\d+) \((worker-\d)\) written to (\S+);", window.log.shown_text())
    said = {task: (int(first), int(last), path) for first, last, task, path in shown}
    for session, task in zip(sessions, ("worker-0", "worker-1"), strict=True):
        assert session.name.endswith(task) and list(session.glob("*.xplane.pb")), list(session.iterdir())
        first, last, path = said[task]
        assert last - first == 2 and path == str(session), said  # the 3 steps asked, in the task's own session


# ---- parameter_server and the evaluator from the window --------------------------------------


def test_the_form_offers_parameter_servers_sharding_and_an_evaluator(qtbot):
    form = RunForm()
    qtbot.addWidget(form)
    form.set_probe(CPU_ONLY)
    for widget in (form.ps, form.partitioner, form.evaluator):
        assert not widget.isVisibleTo(form)
    form.strategy.setCurrentText("parameter_server")
    assert all(w.isVisibleTo(form) for w in (form.workers, form.ps, form.partitioner, form.evaluator))
    form.ps.setValue(2)
    form.partitioner.setCurrentText("fixed")
    form.evaluator.setChecked(True)
    config, replicas, problems = form.evaluate()
    assert config.variable_partitioner == "fixed" and replicas == 1
    assert [p.field for p in problems] == ["validation_split"] and "evaluator" in problems[0].message
    form.validation.setValue(0.2)
    assert form.evaluate()[2] == []
    assert form.local_cluster_shape() == (2, 2, True)
    form.show_per_replica(*form.evaluate()[:2])
    assert "2 workers take steps in turn" in form.per_replica.text()
    form.strategy.setCurrentText(MULTI)
    assert form.evaluator.isVisibleTo(form) and not form.ps.isVisibleTo(form)
    assert form.local_cluster_shape() == (2, 0, True)


def test_a_parameter_server_run_shows_every_role_a_lost_worker_rejoining_and_the_evaluators_curve(qtbot, make_window):
    built: list[tuple] = []

    def command(config: Path, run_dir: Path, workers: int, ps: int = 0, evaluator: bool = False) -> list[str]:
        built.append((workers, ps, evaluator))
        return [sys.executable, str(FAKE_CLUSTER), "ps", "--run-dir", str(run_dir)]

    window = make_window(cluster_command_for=command)
    window.apply_probe(CPU_ONLY)
    window.form.set_config(RunConfig(strategy="parameter_server", validation_split=0.2))
    window.form.evaluator.setChecked(True)
    assert not window.workers.isHidden()
    qtbot.mouseClick(window.controls.start, Qt.MouseButton.LeftButton)
    assert window.runner.grace_seconds == CLUSTER_GRACE_S
    qtbot.waitUntil(lambda: window.runner is None, timeout=30_000)
    assert built == [(2, 1, True)]
    panel = window.workers
    assert panel.workers() == ["chief-0", "worker-0", "worker-1", "ps-0", "evaluator-0"]
    assert panel.cell("ps-0", ROLE) == "parameter server: holds variables"
    assert panel.cell("chief-0", ROLE).startswith("coordinator")
    assert panel.state("worker-1") == "finished" and panel.pid("worker-1") == 2099
    assert panel.cell("worker-0", STEPS) == "6"
    log = window.log.shown_text()
    assert "[worker-1] lost: killed by SIGKILL" in log and "[worker-1] rejoined: rejoined after restart 1" in log
    assert "[evaluator-0] ckpt-2 (epoch 2, step 0): val loss 0.1500" in log
    window.plots.redraw_all()
    assert list(window.plots.loss.traces["val"].step.values) == [4.0, 8.0]  # at the epochs' points
    assert list(window.plots.loss.traces["epoch"].step.values) == [4.0, 8.0]
    assert "completed" in window.status_labels["state"].text()


def test_the_cluster_tab_starts_its_own_tasks(qtbot, make_window, tmp_path):
    started: list[tuple[Path, Path, Path]] = []

    def command(cluster_file: Path, config: Path, run_dir: Path) -> list[str]:
        started.append((cluster_file, config, run_dir))
        return [sys.executable, str(FAKE_CLUSTER), "ps", "--run-dir", str(run_dir)]

    window = make_window(cluster_file_command_for=command)
    window.apply_probe(CPU_ONLY)
    window.form.set_config(RunConfig(strategy="parameter_server", validation_split=0.2))
    document = {
        "cluster": {
            "chief": ["127.0.0.1:20001"],
            "worker": ["127.0.0.1:20002", "127.0.0.1:20003"],
            "ps": ["127.0.0.1:20004"],
            "evaluator": ["127.0.0.1:20005"],
        }
    }
    window.cluster.json.setPlainText(json.dumps(document))
    window.tabs.setCurrentWidget(window.cluster)
    qtbot.mouseClick(window.cluster.start_button, Qt.MouseButton.LeftButton)
    assert window.tabs.currentWidget() is window.live_tab
    qtbot.waitUntil(lambda: window.runner is None, timeout=30_000)
    ((cluster_file, config, run_dir),) = started
    window.form.validation.setValue(0.0)  # the table's evaluator has nothing to validate on now
    window.cluster.start_button.click()
    assert len(started) == 1 and "validation_split is 0" in window.last_dialog.text()
    window.last_dialog.close()
    assert json.loads(cluster_file.read_text()) == document and cluster_file.parent == run_dir
    assert config.suffix == ".json" and run_dir.parent == tmp_path / "runs"
    assert len(window.workers.workers()) == 5


def test_export_script_says_why_there_is_none_for_parameter_server(qtbot, make_window, monkeypatch):
    asked: list[str] = []
    monkeypatch.setattr("gui.exports.ask_save_path", lambda *a: asked.append("asked") or None)
    window = make_window()
    window.form.set_config(RunConfig(strategy="parameter_server"))
    window.export_form_script()
    assert asked == [] and "does not support parameter_server" in window.last_dialog.text()
    window.last_dialog.close()


@pytest.mark.slow
def test_the_cluster_tab_runs_a_real_parameter_server_cluster_with_an_evaluator(qtbot, make_window):
    from engine.core.tfconfig import free_loopback_ports

    window = make_window()
    window.apply_probe(CPU_ONLY)
    window.form.set_config(
        RunConfig(strategy="parameter_server", epochs=2, validation_split=0.2, data=DataConfig(num_samples=4096))
    )
    ports = [f"127.0.0.1:{p}" for p in free_loopback_ports(5)]
    jobs = {"chief": ports[:1], "worker": ports[1:3], "ps": ports[3:4], "evaluator": ports[4:]}
    window.cluster.json.setPlainText(json.dumps({"cluster": jobs}))
    assert window.cluster.start_button.isEnabled(), window.cluster.start_button.toolTip()
    qtbot.mouseClick(window.cluster.start_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: window.runner is None, timeout=300_000)
    assert "completed" in window.status_labels["state"].text(), window.log.tail(60)
    panel = window.workers
    assert panel.workers() == ["chief-0", "worker-0", "worker-1", "ps-0", "evaluator-0"]
    assert [panel.cell(w, ROLE).split(":")[0] for w in panel.workers()] == [
        "coordinator",
        "worker",
        "worker",
        "parameter server",
        "evaluator",
    ]
    assert {panel.state(w) for w in panel.workers()} == {"finished"}
    assert all(int(panel.cell(w, STEPS).replace(",", "")) > 0 for w in ("worker-0", "worker-1"))
    window.plots.redraw_all()
    assert window.plots.loss.plotted_points("epoch") == 2 and window.plots.loss.plotted_points("val") == 2
    assert not any(alive(panel.pid(w)) for w in panel.workers())
