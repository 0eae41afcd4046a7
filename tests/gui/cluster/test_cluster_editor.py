"""The TF_CONFIG editor: table and JSON in step, problems as you type, clipboard, files, export.

Documents that need a non-loopback host use 192.0.2.0/24 (TEST-NET-1, reserved
for documentation): nothing here ever contacts an address.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QMessageBox, QWidget

from engine.core.config import RunConfig
from engine.core.tfconfig import ClusterSpec, TFConfig
from gui import theme
from gui.cluster.editor import ClusterEditor
from gui.cluster.task_table import HOST, JOB, PORT, TASK, join_address, split_address
from gui.form.device_probe import DeviceInfo, ProbeResult

LOCAL_3 = {
    "cluster": {"chief": ["127.0.0.1:20001"], "worker": ["127.0.0.1:20002", "127.0.0.1:20003"]},
    "task": {"type": "worker", "index": 1},
}
CPU_ONLY = ProbeResult(tensorflow="2.21.0", devices=(DeviceInfo("CPU:0", "CPU", "Xeon", 24000, 2),))


def make_editor(qtbot, strategy: str = "multi_worker_mirrored") -> ClusterEditor:
    editor = ClusterEditor()
    qtbot.addWidget(editor)
    editor.set_strategy(strategy)
    return editor


def shown(editor: ClusterEditor) -> dict:
    return json.loads(editor.json.toPlainText())


def rows(editor: ClusterEditor) -> list[tuple[str, str, str]]:
    t = editor.table
    return [(t.item(r, JOB).text(), t.item(r, HOST).text(), t.item(r, PORT).text()) for r in range(t.rowCount())]


def listed(editor: ClusterEditor) -> list[tuple[str, str]]:
    """(severity, text) of every problem in the list."""
    items = [editor.problem_list.item(i) for i in range(editor.problem_list.count())]
    return [(item.data(Qt.ItemDataRole.UserRole), item.text()) for item in items]


@pytest.mark.parametrize("address", ["127.0.0.1:20001", "[::1]:2222", "::1:2222", "localhost", "host:", "[::1]"])
def test_addresses_split_and_join_back(address):
    host, port = split_address(address)
    assert join_address(host, port) == address or (address, host, port) == ("host:", "host", "")


def test_json_edits_rebuild_the_table_and_table_edits_rewrite_the_json(qtbot):
    editor = make_editor(qtbot)
    editor.json.setPlainText(json.dumps(LOCAL_3))
    assert rows(editor) == [
        ("chief", "127.0.0.1", "20001"),
        ("worker", "127.0.0.1", "20002"),
        ("worker", "127.0.0.1", "20003"),
    ]
    assert (editor.task_type.currentText(), editor.task_index.value()) == ("worker", 1)
    assert "this process" in editor.table.item(2, TASK).text()
    assert editor.tf_config().to_dict() == LOCAL_3
    editor.table.item(1, PORT).setText("20012")  # what a finished cell edit does
    assert shown(editor)["cluster"]["worker"] == ["127.0.0.1:20012", "127.0.0.1:20003"]
    editor.table.item(0, JOB).setText("worker")  # the chief becomes worker 0: indexes follow the order
    assert shown(editor)["cluster"] == {"worker": ["127.0.0.1:20001", "127.0.0.1:20012", "127.0.0.1:20003"]}
    assert [editor.table.item(r, TASK).text().split("  ")[0] for r in range(3)] == ["worker 0", "worker 1", "worker 2"]
    editor.task_type.setCurrentText("(none)")
    editor.task_index.setValue(-1)
    assert "task" not in shown(editor)
    editor.json.setPlainText(editor.json.toPlainText())  # the rendered JSON reads back to the same table
    assert editor.tf_config() == TFConfig(ClusterSpec.from_dict(shown(editor)["cluster"]))


def test_add_and_remove_tasks(qtbot):
    editor = make_editor(qtbot)
    before = shown(editor)["cluster"]["worker"]
    qtbot.mouseClick(editor.findChild(QWidget, "addTaskButton"), Qt.MouseButton.LeftButton)
    assert shown(editor)["cluster"]["worker"] == [*before, "127.0.0.1:20003"]
    editor.table.selectRow(0)
    qtbot.mouseClick(editor.findChild(QWidget, "removeTaskButton"), Qt.MouseButton.LeftButton)
    assert shown(editor)["cluster"]["worker"] == [*before[1:], "127.0.0.1:20003"]


def test_a_json_syntax_error_is_shown_inline_and_keeps_the_table(qtbot):
    editor = make_editor(qtbot)
    editor.json.setPlainText(json.dumps(LOCAL_3))
    editor.json.setPlainText('{"cluster": {"worker": ["127.0.0.1:20001",')
    assert not editor.json_error.isHidden()
    assert "not JSON" in editor.json_error.text() and "keeps the last valid cluster" in editor.json_error.text()
    assert len(rows(editor)) == 3
    assert editor.tf_config().to_dict() == LOCAL_3
    editor.json.setPlainText(json.dumps({"cluster": {"worker": ["127.0.0.1:20001"]}}))
    assert editor.json_error.isHidden() and len(rows(editor)) == 1


BAD_DOCUMENTS = [
    ({"cluster": {"worker": ["127.0.0.1:20001", "127.0.0.1:20001"]}}, "error", "cluster.worker[1]", "same machine"),
    ({"cluster": {"worker": ["192.0.2.10:2222"]}}, "warning", "cluster.worker[0]", "no authentication"),
    ({"cluster": {"chief": ["127.0.0.1:1", "127.0.0.1:2"]}}, "error", "cluster.chief", "at most one chief"),
    (
        {"cluster": {"worker": ["127.0.0.1:20001"]}, "task": {"type": "worker", "index": 3}},
        "error",
        "task.index",
        "must be 0-0",
    ),
    (
        {"cluster": {"worker": ["127.0.0.1:20001"], "ps": ["127.0.0.1:20002"]}},
        "error",
        "cluster.ps",
        "no parameter servers",
    ),
    ({"cluster": {"worker": ["127.0.0.1:http"]}}, "error", "cluster.worker[0]", "not a number"),
    (
        {"cluster": {"worker": ["127.0.0.1:20001"], "ps": ["127.0.0.1:20002"]}},
        "error",
        "cluster.ps",
        "uses no parameter servers",
    ),
    ({"cluster": {}}, "error", "cluster", "silently train"),
]


@pytest.mark.parametrize(
    ("document", "severity", "location", "words"), BAD_DOCUMENTS, ids=[d[2] + ":" + d[3] for d in BAD_DOCUMENTS]
)
def test_problems_are_listed_with_their_severity(qtbot, document, severity, location, words):
    editor = make_editor(qtbot)
    editor.json.setPlainText(json.dumps(document))
    assert (severity, location) in {(p.severity, p.location) for p in editor.problems()}
    assert any(s == severity and text.startswith(f"{location}: ") and words in text for s, text in listed(editor))
    n_errors = sum(p.severity == "error" for p in editor.problems())
    assert f"{n_errors} error" in editor.problem_summary.text()
    assert editor.export_button.isEnabled() == (n_errors == 0)


def test_problems_follow_typing_and_tint_the_rows(qtbot):
    editor = make_editor(qtbot)
    assert editor.problems() == [] and "No problems" in editor.problem_summary.text()
    editor.table.item(1, PORT).setText("20001")  # a clash, as typed into the table
    assert [(p.severity, p.location) for p in editor.problems()] == [("error", "cluster.worker[1]")]
    # the theme in force paints it (an earlier test in the process may have left the dark one)
    assert editor.table.item(1, HOST).background().color().name() == theme.current().ui.bad.background
    assert "same machine and port" in editor.table.item(1, HOST).toolTip()
    assert editor.table.item(0, HOST).background().style() == Qt.BrushStyle.NoBrush
    editor.json.setPlainText(json.dumps({"cluster": {"worker": ["127.0.0.1:20001"]}}))
    cursor = editor.json.textCursor()
    cursor.setPosition(editor.json.toPlainText().index('"]'))
    editor.json.setTextCursor(cursor)
    qtbot.keyClicks(editor.json, '", "192.0.2.7:2222')  # typed key by key: every prefix is judged
    assert shown(editor)["cluster"]["worker"] == ["127.0.0.1:20001", "192.0.2.7:2222"]
    assert {(p.severity, p.location) for p in editor.problems()} == {
        ("warning", "cluster.worker[0]"),
        ("warning", "cluster.worker[1]"),
    }
    assert editor.table.item(1, HOST).background().color().name() == theme.current().ui.waiting.background
    assert editor.export_button.isEnabled()


def test_the_form_strategy_changes_the_verdict(qtbot):
    editor = make_editor(qtbot, "multi_worker_mirrored")
    assert editor.problems() == []
    editor.set_strategy("mirrored")
    assert [p.location for p in editor.problems()] == ["cluster"]
    assert "use strategy multi_worker_mirrored" in listed(editor)[0][1]
    assert "mirrored" in editor.problem_summary.text()


def test_paste_and_copy_through_the_clipboard(qtbot):
    editor = make_editor(qtbot)
    clipboard = QGuiApplication.clipboard()
    clipboard.setText(json.dumps(LOCAL_3))
    qtbot.mouseClick(editor.findChild(QWidget, "pasteClusterButton"), Qt.MouseButton.LeftButton)
    assert editor.tf_config().to_dict() == LOCAL_3
    assert "Imported the clipboard" in editor.status.text()
    clipboard.setText("export TF_CONFIG=nonsense")
    assert not editor.paste_from_clipboard()
    assert "holds no TF_CONFIG" in editor.status.text()
    assert editor.tf_config().to_dict() == LOCAL_3, "a failed import changes nothing"
    clipboard.clear()
    qtbot.mouseClick(editor.findChild(QWidget, "copyClusterButton"), Qt.MouseButton.LeftButton)
    copied = clipboard.text()
    assert "\n" not in copied and json.loads(copied) == LOCAL_3


def test_import_from_a_file(qtbot, tmp_path: Path):
    editor = make_editor(qtbot)
    good = tmp_path / "cluster.json"
    good.write_text(json.dumps({"cluster": {"worker": ["127.0.0.1:20011"]}}))
    assert editor.import_file(good)
    assert rows(editor) == [("worker", "127.0.0.1", "20011")]
    run_config = tmp_path / "run.json"
    RunConfig().save(run_config)
    assert not editor.import_file(run_config)
    assert "is it a run config?" in editor.status.text()
    assert not editor.import_file(tmp_path / "missing.json")
    assert rows(editor) == [("worker", "127.0.0.1", "20011")]


def test_export_from_the_window_writes_the_bundle(qtbot, make_window, tmp_path: Path, monkeypatch):
    window = make_window()
    window.form.strategy.setCurrentText("multi_worker_mirrored")
    window.form.epochs.setValue(3)
    window.cluster.json.setPlainText(json.dumps({"cluster": LOCAL_3["cluster"]}))
    window.tabs.setCurrentWidget(window.cluster)
    qtbot.mouseClick(window.cluster.export_button, Qt.MouseButton.LeftButton)
    dialog = window.export_dialog
    assert dialog is not None and dialog.isVisible() and dialog.blockers.isHidden()
    out = tmp_path / "bundle"
    dialog.folder.setText(str(out))
    qtbot.mouseClick(dialog.export_button, Qt.MouseButton.LeftButton)
    names = {str(p.relative_to(out)) for p in dialog.written}
    assert {"README.md", "cluster.json", "tfjob.yaml"} <= names
    for task in ("chief-0", "worker-0", "worker-1"):
        assert {f"{task}/{f}" for f in ("tf_config.json", "run.json", "start.sh", "start.ps1")} <= names
    assert json.loads((out / "cluster.json").read_text()) == {"cluster": LOCAL_3["cluster"]}
    assert json.loads((out / "worker-1" / "tf_config.json").read_text())["task"] == {"type": "worker", "index": 1}
    assert RunConfig.load(out / "chief-0" / "run.json") == window.form.evaluate()[0]
    assert dialog.files.count() == len(dialog.written)
    assert "copy to machine" in dialog.readme.toPlainText() and "Wrote" in dialog.result.text()
    assert dialog.open_folder.isEnabled()
    asked = []
    monkeypatch.setattr(
        QMessageBox, "question", staticmethod(lambda *a, **k: asked.append(a[1]) or QMessageBox.StandardButton.No)
    )
    assert not dialog.export(), "a bundle exported before is not replaced without asking"
    assert asked == ["Replace the bundle?"]
    dialog.close()


def test_export_into_a_folder_of_the_users_files_proposes_a_fresh_one(qtbot, make_window, tmp_path: Path):
    window = make_window()
    window.form.strategy.setCurrentText("multi_worker_mirrored")
    window.cluster.json.setPlainText(json.dumps({"cluster": LOCAL_3["cluster"]}))
    dialog = window.export_cluster()
    mine = tmp_path / "project"
    mine.mkdir()
    (mine / "README.md").write_text("my readme")
    dialog.folder.setText(str(mine))
    assert not dialog.export()
    assert [p.name for p in mine.iterdir()] == ["README.md"] and (mine / "README.md").read_text() == "my readme"
    assert dialog.folder.text() == str(tmp_path / "project-2") and "holds other files" in dialog.result.text()
    assert dialog.export()  # the proposed folder
    assert (tmp_path / "project-2" / "README.md").is_file()
    dialog.close()


def test_export_is_refused_while_the_cluster_or_the_form_has_errors(qtbot, make_window):
    window = make_window()
    window.apply_probe(CPU_ONLY)
    window.form.strategy.setCurrentText("mirrored")  # a 2-worker cluster under mirrored is an error
    dialog = window.export_cluster()
    assert not dialog.export_button.isEnabled()
    assert "use strategy multi_worker_mirrored" in dialog.blockers.text()
    window.form.strategy.setCurrentText("multi_worker_mirrored")
    window.form.batch_size.setValue(65)  # not divisible by the exported cluster's 2 workers
    dialog = window.export_cluster()
    assert not dialog.export_button.isEnabled()
    assert "run form, global_batch_size" in dialog.blockers.text()
    dialog.close()


def test_every_role_is_accepted_under_parameter_server_and_start_here_needs_loopback(qtbot):
    editor = make_editor(qtbot, "parameter_server")
    document = {
        "cluster": {
            "chief": ["127.0.0.1:20001"],
            "worker": ["127.0.0.1:20002", "127.0.0.1:20003"],
            "ps": ["127.0.0.1:20004"],
            "evaluator": ["127.0.0.1:20005"],
        }
    }
    editor.json.setPlainText(json.dumps(document))
    assert editor.problems() == [] and editor.start_button.isEnabled() and editor.export_button.isEnabled()
    assert json.loads(editor.cluster_json()) == document
    editor.json.setPlainText(json.dumps({"cluster": {k: v for k, v in document["cluster"].items() if k != "ps"}}))
    assert [p.location for p in editor.problems()] == ["cluster.ps"]
    assert not editor.start_button.isEnabled() and "errors" in editor.start_button.toolTip()
    document["cluster"]["worker"][1] = "10.0.0.7:20003"
    editor.json.setPlainText(json.dumps(document))
    assert not editor.start_button.isEnabled() and "10.0.0.7:20003" in editor.start_button.toolTip()
    assert editor.export_button.isEnabled()  # other machines are what export is for


def test_export_as_a_slurm_job_judges_only_the_shape(qtbot, make_window, tmp_path: Path):
    window = make_window()
    window.form.strategy.setCurrentText("parameter_server")
    window.cluster.json.setPlainText(
        json.dumps({"cluster": {"chief": ["a:1"], "worker": ["b:1", "c:1"], "ps": ["d:1"]}})  # hosts Slurm replaces
    )
    dialog = window.export_cluster()
    dialog.target.setCurrentIndex(dialog.target.findData("slurm"))
    assert dialog.slurm_row.isVisibleTo(dialog) and dialog.export_button.isEnabled()
    dialog.gpus.setValue(1)
    dialog.port.setValue(24000)
    dialog.folder.setText(str(tmp_path / "job"))
    assert dialog.export()
    assert sorted(p.name for p in dialog.written) == ["README.md", "run.json", "task.sh", "tfdd.sbatch"]
    assert "#SBATCH --gpus-per-node=1" in (tmp_path / "job" / "tfdd.sbatch").read_text()
    assert "--port-base 24000" in (tmp_path / "job" / "task.sh").read_text()
    assert "how to submit it" in dialog.result.text() and "sbatch" in dialog.readme.toPlainText()
    window.cluster.json.setPlainText(json.dumps({"cluster": {"chief": ["a:1"], "worker": ["b:1"]}}))
    dialog = window.export_cluster()
    dialog.target.setCurrentIndex(dialog.target.findData("slurm"))
    assert not dialog.export_button.isEnabled() and "at least one ps task" in dialog.blockers.text()
    dialog.close()


def test_start_on_these_machines_says_what_is_missing(qtbot):
    editor = ClusterEditor()
    qtbot.addWidget(editor)
    button = editor.machines_button
    assert not button.isEnabled() and "Machine column" in button.toolTip()
    editor.table.set_machines(["ana@lab1", "lab2:99999"])
    assert not button.isEnabled() and button.toolTip() == "worker 1: a port is between 1 and 65535"
    editor.table.set_machines(["ana@lab1", "lab2:2222 venv=~/tfdd"])
    assert button.isEnabled()
    assert editor.machine_rows() == ["ana@lab1", "lab2:2222 venv=~/tfdd"]
    editor.table.add_task()  # a new task starts on the last row's machine
    assert editor.machine_rows()[-1] == "lab2:2222 venv=~/tfdd"
    editor.set_tf_config(editor.tf_config())  # the table rebuilt from its JSON keeps each task's machine
    assert editor.machine_rows() == ["ana@lab1", "lab2:2222 venv=~/tfdd", "lab2:2222 venv=~/tfdd"]


def test_a_tasks_machine_sets_its_host(qtbot):
    editor = make_editor(qtbot)
    editor.table.set_machines(["ana@lab1", "[2001:db8::7]:2222 venv=~/tfdd"])
    assert [editor.table.item(row, HOST).text() for row in (0, 1)] == ["lab1", "[2001:db8::7]"]
    assert shown(editor)["cluster"]["worker"] == ["lab1:20001", "[2001:db8::7]:20002"]
    editor.table.set_machines(["lab2:99999", "lab3"])  # a row that does not parse leaves the host alone
    assert [editor.table.item(row, HOST).text() for row in (0, 1)] == ["lab1", "lab3"]
