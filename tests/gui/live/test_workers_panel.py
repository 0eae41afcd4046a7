"""The workers panel and the worker-tagged log, fed with synthetic events."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QSplitter, QWidget

from engine.core import events as ev
from engine.core.protocol.codes import WorkerState
from gui import theme
from gui.live.workers_panel import MESSAGE, PID, ROLE, STATE, STEPS, WorkersPanel
from gui.runner import log_line
from gui.statuses import worker_state_tone


def tint(state: str) -> str:
    return worker_state_tone(state, theme.current()).background


def state(worker: str, value: str, pid: int | None = None, message: str = "") -> ev.WorkerState:
    return ev.WorkerState(
        worker=worker, state=value, pid=pid, message=message, log_path=f"/runs/x/workers/{worker}.log"
    )


def make_panel(qtbot) -> WorkersPanel:
    panel = WorkersPanel()
    qtbot.addWidget(panel)
    return panel


def test_one_row_per_worker_with_its_latest_state(qtbot):
    panel = make_panel(qtbot)
    panel.reset(expected=2)
    assert "launching 2 tasks" in panel.summary.text()
    panel.add_events(
        [
            state("worker-0", "starting", 11),
            state("worker-1", "starting", 12),
            ev.BatchEnd(epoch=1, step=1, global_step=1, loss=1.0, accuracy=0.5, examples_per_sec=1.0),
            state("worker-1", "waiting_for_peers", 12),
            state("worker-0", "training", 11),
        ]
    )
    assert panel.workers() == ["worker-0", "worker-1"]
    assert panel.table.rowCount() == 2
    assert [panel.table.item(r, PID).text() for r in range(2)] == ["11", "12"]
    assert panel.state("worker-1") == "waiting_for_peers"
    assert panel.table.item(1, STATE).text() == "waiting for peers"
    assert panel.summary.text() == "1 waiting for peers · 1 training"
    assert "/runs/x/workers/worker-1.log" in panel.table.item(1, 0).toolTip()


def test_a_failed_worker_is_red_with_its_reason(qtbot):
    panel = make_panel(qtbot)
    panel.add_events([state("worker-0", "training", 11), state("worker-1", "training", 12)])
    panel.add_events(
        [
            state("worker-1", "failed", 12, "killed by SIGKILL"),
            state("worker-0", "stopped", 11, "stopped because worker 1 (pid 12) failed"),
        ]
    )
    item = panel.table.item(1, STATE)
    assert (item.text(), item.background().color().name()) == ("failed", tint("failed"))
    assert panel.table.item(1, MESSAGE).text() == "killed by SIGKILL"
    assert panel.table.item(0, STATE).background().color().name() == tint("stopped")
    assert panel.summary.text().startswith("1 failed")


def test_every_state_has_its_own_colour(qtbot):
    panel = make_panel(qtbot)
    panel.add_events([state(f"worker-{i}", s) for i, s in enumerate(WorkerState)])
    colours = {panel.table.item(r, STATE).background().color().name() for r in range(len(WorkerState))}
    assert len(colours) == len(WorkerState)


def test_reset_empties_and_double_click_names_the_worker(qtbot):
    panel = make_panel(qtbot)
    panel.add_events([state("worker-0", "training"), state("worker-1", "training")])
    with qtbot.waitSignal(panel.worker_chosen, check_params_cb=lambda w: w == "worker-1"):
        panel.table.cellDoubleClicked.emit(1, MESSAGE)
    panel.reset()
    assert panel.table.rowCount() == 0 and panel.workers() == []
    assert "Start launches" in panel.summary.text()


def test_log_lines_carry_the_worker():
    assert log_line(ev.Log(level="info", message="hi", source="worker-1")) == "[worker-1] INFO: hi"
    assert log_line(ev.Log(level="warning", message="hi")) == "WARNING: hi"
    assert log_line(state("worker-1", "starting", 12)) == "[worker-1] starting (pid 12)"
    assert log_line(state("worker-1", "failed", 12, "killed")) == "[worker-1] failed: killed"
    evaluation = ev.Evaluation(
        epoch=2,
        step=0,
        global_step=20,
        val_loss=0.5,
        val_accuracy=0.75,
        examples=9,
        seconds=0.1,
        checkpoint="/r/ckpt-2",
    )
    assert log_line(evaluation) == "[evaluator-0] ckpt-2 (epoch 2, step 0): val loss 0.5000, val accuracy 0.7500"


def test_the_window_shows_states_and_filters_the_log_by_worker(qtbot, make_window):
    window = make_window()
    window.form.strategy.setCurrentText("multi_worker_mirrored")
    assert not window.workers.isHidden(), "shown while the strategy is multi-worker"
    window.run.on_events([state("worker-0", "training", 11), state("worker-1", "failed", 12, "killed")])
    assert window.workers.state("worker-1") == "failed"
    window.log.append_lines(["[worker-0] INFO: a", "[worker-1] INFO: b", "[worker-1] failed: killed"])
    window.workers.table.cellDoubleClicked.emit(1, 0)
    assert window.log.filter.text() == "[worker-1]"
    assert window.log.shown_text() == "[worker-1] INFO: b\n[worker-1] failed: killed"
    window.form.strategy.setCurrentText("mirrored")
    assert not window.workers.isHidden(), "the last cluster run's workers stay visible"
    window.workers.reset()
    window.form.strategy.setCurrentText("default")
    assert window.workers.isHidden()
    assert window.workers.table.item(0, 0) is None


def test_every_task_shows_its_role_and_a_lost_worker_that_rejoins(qtbot):
    """A parameter-server cluster: the panel shows each role, the loss of a worker and its return."""
    panel = make_panel(qtbot)
    roles = {
        "chief-0": "coordinator: runs the training program",
        "worker-0": "worker: runs the coordinator's steps",
        "worker-1": "worker: runs the coordinator's steps",
        "ps-0": "parameter server: holds variables",
        "evaluator-0": "evaluator: validates each checkpoint",
    }
    panel.add_events(
        [ev.WorkerState(worker=w, state="training", pid=10 + i, role=r) for i, (w, r) in enumerate(roles.items())]
    )
    assert [panel.cell(w, ROLE) for w in roles] == list(roles.values())
    panel.add_events(
        [
            ev.TaskSteps(steps={"worker-0": 320, "worker-1": 288}),
            ev.WorkerState(
                worker="worker-1", state="lost", pid=11, message="killed by SIGKILL; the coordinator reruns its steps"
            ),
        ]
    )
    assert panel.state("worker-1") == "lost" and panel.summary.text().startswith("1 lost")
    assert panel.table.item(2, STATE).background().color().name() == tint("lost")
    panel.add_events(
        [
            ev.WorkerState(worker="worker-1", state="rejoined", pid=99, message="rejoined after restart 1"),
            ev.TaskSteps(steps={"worker-0": 2048, "worker-1": 352}),
        ]
    )
    assert (panel.state("worker-1"), panel.pid("worker-1")) == ("rejoined", 99)
    assert [panel.cell(w, STEPS) for w in ("worker-0", "worker-1")] == ["2,048", "352"]
    assert panel.cell("ps-0", STEPS) == ""


def test_a_stalled_task_is_marked_until_it_steps_again(qtbot):
    panel = make_panel(qtbot)
    panel.add_events([state("worker-0", "training", 11), state("worker-1", "training", 12)])
    stalled = ev.TaskStalled(worker="worker-1", pid=12, idle_s=42.0, step_s=0.3, threshold_s=30.0)
    panel.add_events([stalled])
    assert panel.stalled() == ["worker-1"]
    assert panel.table.item(1, STATE).text() == "stalled"
    assert panel.table.item(1, STATE).background().color().name() == tint("stalled") != tint("training")
    assert panel.cell("worker-1", MESSAGE) == "worker-1: no step for 42 s (its steps took 0.3 s)"
    assert panel.summary.text() == "1 stalled · 1 training"
    assert log_line(stalled) == "[worker-1] worker-1: no step for 42 s (its steps took 0.3 s)"
    menu = panel.menu_for("worker-1")  # what a right-click on its row pops up
    assert [(a.text(), a.isEnabled()) for a in menu.actions()] == [("Show Python stacks", True)]
    panel.add_events([ev.TaskStalled(worker="worker-1", pid=12, resumed=True)])
    assert panel.stalled() == [] and panel.state("worker-1") == "training"
    assert panel.table.item(1, STATE).text() == "training"
    assert panel.cell("worker-1", MESSAGE) == "worker-1: stepping again"
    panel.add_events([stalled, state("worker-1", "failed", 12, "killed by SIGKILL")])
    assert panel.stalled() == [] and panel.summary.text() == "1 failed · 1 training"


def test_make_room_takes_rows_for_the_tasks_from_the_view_above(qtbot):
    """A cluster run's tasks panel grows to show its rows (at most a third of the splitter), the plots above
    giving the height; a panel already tall enough keeps its size."""
    splitter = QSplitter(Qt.Orientation.Vertical)
    qtbot.addWidget(splitter)
    panel = WorkersPanel()
    for widget in (QWidget(), panel, QWidget()):
        splitter.addWidget(widget)
    splitter.resize(400, 900)
    splitter.show()
    splitter.setSizes([560, 130, 200])
    before = splitter.sizes()
    panel.make_room(4)
    wanted = min(60 + panel.table.verticalHeader().defaultSectionSize() * 5, sum(before) // 3)
    after = splitter.sizes()
    assert wanted > before[1]
    assert after == [before[0] - (wanted - before[1]), wanted, before[2]]
    panel.make_room(1)  # fewer rows than it has room for: nothing moves
    assert splitter.sizes() == after
