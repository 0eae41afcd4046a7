"""Start, Stop and the progress bar, with the reason Start is disabled.

`RunProgress` turns the event stream into epoch, step and ETA; it is plain
Python so tests feed it events without widgets. The ETA is the engine's own
timestamps extrapolated, not a timer of the GUI.
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QCoreApplication, QTimer, Signal
from PySide6.QtWidgets import QHBoxLayout, QLabel, QProgressBar, QPushButton, QSpinBox, QVBoxLayout, QWidget

from engine.core import events as ev
from engine.core.config import Strategy
from engine.core.protocol.profile import MAX_PROFILE_STEPS
from gui.theme import WidgetRole, set_role


def format_duration(seconds: float) -> str:
    seconds = int(round(max(seconds, 0)))
    hours, rest = divmod(seconds, 3600)
    return f"{hours}:{rest // 60:02d}:{rest % 60:02d}" if hours else f"{rest // 60}:{rest % 60:02d}"


# the bar's text counts the time left in seconds; each repaint of the styled bar repaints the window's
# panels beneath it, and at 4 a second that was about 5 % of the window's CPU while a run streams
PROGRESS_REFRESH_MS = 1000


@dataclass
class RunProgress:
    """Where a run is, from RunStarted and BatchEnd events."""

    epochs: int = 0
    steps_per_epoch: int = 0
    epoch: int = 0
    step: int = 0
    global_step: int = 0
    _first: tuple[float, int] | None = None
    _last_time: float = 0.0

    @property
    def total_steps(self) -> int:
        return self.epochs * self.steps_per_epoch

    def update(self, events: list[ev.Event]) -> None:
        """Take a batch of events; only the run start and the first and last batch matter."""
        last: ev.BatchEnd | None = None
        for event in events:
            if type(event) is ev.BatchEnd:
                last = event
                if self._first is None:
                    self._first = (event.time, event.global_step)
            elif isinstance(event, ev.RunStarted):
                self.epochs, self.steps_per_epoch = event.epochs, event.steps_per_epoch
                self.epoch = self.step = self.global_step = 0
                self._first, last = None, None
        if last is not None:
            self.epoch, self.step, self.global_step = last.epoch, last.step, last.global_step
            self._last_time = last.time

    def eta_seconds(self) -> float | None:
        if self._first is None or self.global_step <= self._first[1] or not self.total_steps:
            return None
        rate = (self.global_step - self._first[1]) / max(self._last_time - self._first[0], 1e-9)
        return (self.total_steps - self.global_step) / rate

    def text(self) -> str:
        if not self.total_steps:
            return QCoreApplication.translate("RunProgress", "starting…")
        eta = self.eta_seconds()
        eta_text = (
            QCoreApplication.translate("RunProgress", " · ETA {eta}").format(eta=format_duration(eta))
            if eta is not None
            else ""
        )
        return (
            QCoreApplication.translate(
                "RunProgress", "epoch {epoch}/{epochs} · step {step}/{steps} · {percent:.0f}%"
            ).format(
                epoch=self.epoch,
                epochs=self.epochs,
                step=self.step,
                steps=self.steps_per_epoch,
                percent=100 * self.global_step / self.total_steps,
            )
            + eta_text
        )


class RunControls(QWidget):
    """The Start/Stop buttons, the progress of the current run, and "Capture a profile of the next N steps"."""

    PROGRESS_SCALE = 1000
    PROFILE_STEPS = 20  # what the steps box proposes: a few calls of most runs, a trace TensorBoard opens quickly

    profile_requested = Signal(int)
    """Capture a TensorFlow profile of the run's next N steps (the window's runner asks the trainer)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.start = QPushButton(self.tr("Start"), objectName="startButton")
        set_role(self.start, WidgetRole.PRIMARY)
        self.stop = QPushButton(objectName="stopButton")
        self.profile_steps = QSpinBox(objectName="profileStepsBox", minimum=1, maximum=MAX_PROFILE_STEPS)
        self.profile_steps.setValue(self.PROFILE_STEPS)
        self.profile_steps.setSuffix(self.tr(" steps"))
        self.profile_steps.setAccessibleName(self.tr("Steps to profile"))
        self.profile = QPushButton(self.tr("Capture profile"), objectName="profileButton")
        self.profile.setAccessibleDescription(self.tr("Writes a TensorFlow profile of the run's next steps"))
        self.profile.clicked.connect(lambda: self.profile_requested.emit(self.profile_steps.value()))
        self.set_running(False)
        self.progress_bar = QProgressBar(objectName="progressBar")
        self.progress_bar.setRange(0, self.PROGRESS_SCALE)
        self.progress_bar.setValue(0)
        self.progress_bar.setTextVisible(True)
        self.progress_bar.setFormat(self.tr("no run yet"))
        self.progress_bar.setAccessibleName(self.tr("Run progress"))
        self.start.setAccessibleDescription(self.tr("Starts a run of the run form's config"))
        self.stop.setAccessibleDescription(self.tr("Asks the trainer to save a checkpoint and stop"))
        self.reason = QLabel(objectName="startBlockedLabel")
        self.reason.setWordWrap(True)
        set_role(self.reason, WidgetRole.PROBLEM)
        row = QHBoxLayout()
        row.addWidget(self.start)
        row.addWidget(self.stop)
        row.addWidget(self.progress_bar, 1)
        row.addWidget(self.profile_steps)
        row.addWidget(self.profile)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(row)
        layout.addWidget(self.reason)
        self.progress = RunProgress()
        # a styled progress bar repaints the window's panels beneath it: at every batch of events
        # (30 times a second) that was more of the window's CPU than the plots
        self._refresh = QTimer(self, interval=PROGRESS_REFRESH_MS)
        self._refresh.timeout.connect(self._refresh_tick)
        self._behind = False

    def set_start_allowed(self, allowed: bool, reason: str = "") -> None:
        self.start.setEnabled(allowed)
        self.start.setToolTip(self.tr("Start a run (Ctrl+Return)") if allowed else reason)
        self.reason.setText("" if allowed else reason)
        self.reason.setVisible(not allowed and bool(reason))

    def set_running(self, running: bool) -> None:
        self._allow_profile(running)
        self.stop.setEnabled(running)
        self.stop.setText(self.tr("Stop"))
        self.stop.setToolTip(self.tr("Stop the run: the trainer saves a checkpoint first (Esc)"))
        if running:
            self.progress = RunProgress()
            self.progress_bar.setValue(0)
            self.progress_bar.setFormat(self.tr("starting the trainer…"))

    def set_watching(self, stoppable: bool, why: str) -> None:
        """A run another process trains: Stop asks it to checkpoint and stop when it trains on this machine;
        `why` says what Stop does, or where the run trains when it cannot."""
        self.stop.setEnabled(stoppable)
        self.stop.setToolTip(why)
        self._allow_profile(False, self.tr("Only a run this window started can be asked for a profile"))

    def _allow_profile(self, allowed: bool, why: str = "") -> None:
        """Offer the capture, or say in its tooltip why it is not offered."""
        for widget in (self.profile, self.profile_steps):
            widget.setEnabled(allowed)
        self.profile.setToolTip(
            self.tr(
                "Write a TensorFlow profile of the next N steps into the run's tensorboard/ folder; view it with "
                "TensorBoard's profile plugin (pip install tensorboard-plugin-profile)"
            )
            if allowed or not why
            else why
        )

    def refuse_profile(self, why: str) -> None:
        """The window's run cannot be asked for a profile (e.g. its tasks run on other machines): `why`."""
        self._allow_profile(False, why)

    def _profile_offered_for(self, started: ev.RunStarted) -> None:
        """A parameter_server coordinator runs no step to profile. A local cluster's launcher passes the request
        on to every task that trains (engine.cluster.group)."""
        if started.strategy == Strategy.PARAMETER_SERVER:
            self._allow_profile(False, self.tr("A parameter_server coordinator runs no steps of its own to profile"))

    def set_stopping(self) -> None:
        self._allow_profile(False)
        self.stop.setEnabled(False)
        self.stop.setText(self.tr("Stopping…"))

    def add_events(self, events: list[ev.Event]) -> None:
        """Follow the run; the bar itself is redrawn at most every PROGRESS_REFRESH_MS."""
        for started in (e for e in events if isinstance(e, ev.RunStarted)):
            self._profile_offered_for(started)
        self.progress.update(events)
        self._behind = True
        if not self._refresh.isActive():
            self._show_progress()
            self._refresh.start()

    def _refresh_tick(self) -> None:
        if self._behind:
            self._show_progress()
        else:
            self._refresh.stop()  # nothing new: sleep until the next events

    def _show_progress(self) -> None:
        self._behind = False
        p = self.progress
        if p.total_steps:
            # the text first: setFormat only schedules a paint, and setValue's immediate repaint then draws both
            # (the other way round the bar and every styled panel beneath it were painted twice)
            self.progress_bar.setFormat(p.text())
            self.progress_bar.setValue(int(self.PROGRESS_SCALE * min(p.global_step / p.total_steps, 1.0)))

    def show_end(self, text: str) -> None:
        self._refresh.stop()
        self._show_progress()
        self.progress_bar.setFormat(text)
