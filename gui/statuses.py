"""How a run's status or a problem's severity looks: its name in the window's language, its meaning, its tone.

The engine's statuses are words of the protocol ("completed", "interrupted");
the window shows them translated and coloured by what they mean, the same in
the Runs table, the Live tab and announcements.
"""

from __future__ import annotations

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication

from engine.core.logs.stall import STALLED
from engine.core.protocol.codes import RunStatus, WorkerState
from gui.theme import Theme, Tone

CONTEXT = "Status"
RUN_STATUS_NAMES = {
    RunStatus.COMPLETED: QT_TRANSLATE_NOOP("Status", "completed"),
    RunStatus.STOPPED: QT_TRANSLATE_NOOP("Status", "stopped"),
    RunStatus.PRUNED: QT_TRANSLATE_NOOP("Status", "pruned"),
    RunStatus.FAILED: QT_TRANSLATE_NOOP("Status", "failed"),
    RunStatus.KILLED: QT_TRANSLATE_NOOP("Status", "killed"),
    RunStatus.INTERRUPTED: QT_TRANSLATE_NOOP("Status", "interrupted"),
    RunStatus.RUNNING: QT_TRANSLATE_NOOP("Status", "running"),
    RunStatus.UNREADABLE: QT_TRANSLATE_NOOP("Status", "unreadable"),
}
RUN_STATUS_HINTS = {
    RunStatus.COMPLETED: QT_TRANSLATE_NOOP("Status", "trained every planned epoch"),
    RunStatus.STOPPED: QT_TRANSLATE_NOOP("Status", "stopped on request; it left a checkpoint"),
    RunStatus.PRUNED: QT_TRANSLATE_NOOP("Status", "a sweep's trial its pruner stopped early; it left a checkpoint"),
    RunStatus.FAILED: QT_TRANSLATE_NOOP("Status", "the trainer reported a failure"),
    RunStatus.INTERRUPTED: QT_TRANSLATE_NOOP(
        "Status", "ended without a word (killed or crashed); it resumes from its last checkpoint"
    ),
    RunStatus.KILLED: QT_TRANSLATE_NOOP(
        "Status", "did not stop in time and was killed; it resumes from its last checkpoint"
    ),
    RunStatus.RUNNING: QT_TRANSLATE_NOOP("Status", "a process is training it now"),
    RunStatus.UNREADABLE: QT_TRANSLATE_NOOP("Status", "its files cannot be read"),
}
_RUN_TONES = {
    RunStatus.COMPLETED: "good",
    RunStatus.STOPPED: "waiting",
    RunStatus.PRUNED: "quiet",
    RunStatus.FAILED: "bad",
    RunStatus.INTERRUPTED: "quiet",
    RunStatus.KILLED: "quiet",
    RunStatus.RUNNING: "active",
    RunStatus.UNREADABLE: "bad",
}


SEVERITY_NAMES = {
    "error": QT_TRANSLATE_NOOP("Status", "error"),
    "warning": QT_TRANSLATE_NOOP("Status", "warning"),
}
_SEVERITY_TONES = {"error": "bad", "warning": "waiting"}


WORKER_STATE_NAMES = {
    WorkerState.STARTING: QT_TRANSLATE_NOOP("Status", "starting"),
    WorkerState.WAITING: QT_TRANSLATE_NOOP("Status", "waiting for peers"),
    WorkerState.TRAINING: QT_TRANSLATE_NOOP("Status", "training"),
    WorkerState.EVALUATING: QT_TRANSLATE_NOOP("Status", "evaluating"),
    WorkerState.LOST: QT_TRANSLATE_NOOP("Status", "lost"),
    WorkerState.REJOINED: QT_TRANSLATE_NOOP("Status", "rejoined"),
    WorkerState.FINISHED: QT_TRANSLATE_NOOP("Status", "finished"),
    WorkerState.STOPPED: QT_TRANSLATE_NOOP("Status", "stopped"),
    WorkerState.FAILED: QT_TRANSLATE_NOOP("Status", "failed"),
    STALLED: QT_TRANSLATE_NOOP("Status", "stalled"),
}
# calm while it works, green when done well, amber when lost, red when it failed
_WORKER_TONES = {
    WorkerState.STARTING: "neutral",
    WorkerState.WAITING: "waiting",
    WorkerState.TRAINING: "active",
    WorkerState.EVALUATING: "other",
    WorkerState.LOST: "alarm",
    WorkerState.REJOINED: "recovered",
    WorkerState.FINISHED: "good",
    WorkerState.STOPPED: "quiet",
    WorkerState.FAILED: "bad",
    STALLED: "alarm",
}


def worker_state_name(state: str) -> str:
    """A task's state in the window's language ("waiting for peers", "等待其他工作器")."""
    name = WORKER_STATE_NAMES.get(state)
    return QCoreApplication.translate(CONTEXT, name) if name else str(state).replace("_", " ")


def worker_state_tone(state: str, theme: Theme) -> Tone:
    return getattr(theme.ui, _WORKER_TONES.get(state, "neutral"))


def severity_name(severity: str) -> str:
    """A problem's severity ("error", "warning") in the window's language."""
    name = SEVERITY_NAMES.get(severity)
    return QCoreApplication.translate(CONTEXT, name) if name else severity


def severity_tone(severity: str, theme: Theme) -> Tone:
    return getattr(theme.ui, _SEVERITY_TONES.get(severity, "neutral"))


def run_status_name(status: str) -> str:
    """The status in the window's language (an unknown one as it is)."""
    name = RUN_STATUS_NAMES.get(status)
    return QCoreApplication.translate(CONTEXT, name) if name else str(status)


def run_status_hint(status: str) -> str:
    hint = RUN_STATUS_HINTS.get(status)
    return QCoreApplication.translate(CONTEXT, hint) if hint else ""


def run_status_tone(status: str, theme: Theme) -> Tone:
    return getattr(theme.ui, _RUN_TONES.get(status, "neutral"))
