"""What the dashboard remembers between launches: the last run config and the window layout.

The config is stored as the engine's own JSON. It is restored leniently: a
form left in an invalid state (a batch size not divisible yet, a CSV file
since moved) must come back as it was, with its problems shown, rather than
be thrown away by strict parsing.
"""

from __future__ import annotations

import json

from PySide6.QtCore import QByteArray, QSettings

from engine.core.config import RunConfig
from engine.core.problems import ConfigError, printable

ORGANIZATION = "tfdd"
APPLICATION = "dashboard"
CONFIG_KEY = "run/last_config"
GEOMETRY_KEY = "window/geometry"
STATE_KEY = "window/state"
WARM_TRAINER_KEY = "run/warm_trainer"


def _settings() -> QSettings:
    """INI files in the user scope (tests redirect them with QSettings.setPath)."""
    return QSettings(QSettings.Format.IniFormat, QSettings.Scope.UserScope, ORGANIZATION, APPLICATION)


def save_last_config(config: RunConfig) -> None:
    _settings().setValue(CONFIG_KEY, config.to_json())


def load_last_config() -> tuple[RunConfig | None, str]:
    """The config of the last session (None when none is stored or usable) and, when it cannot be used, why.

    A config with problems comes back as it was (the form shows them); one
    that cannot be read at all (not JSON, nested without end, not text) gives
    None and the reason, and the window starts from the defaults and says so.
    """
    text = _settings().value(CONFIG_KEY)
    if text is None or text == "":
        return None, ""
    if not isinstance(text, str):
        return None, "the stored run config is not text"
    try:
        return RunConfig.from_json(text), ""
    except ConfigError:
        pass
    try:
        return RunConfig.from_dict(json.loads(text), check=False), ""
    except (ValueError, TypeError, RecursionError) as exc:
        return None, f"the stored run config cannot be read: {printable(str(exc), 120)}"


def save_window(geometry: QByteArray, state: QByteArray) -> None:
    s = _settings()
    s.setValue(GEOMETRY_KEY, geometry)
    s.setValue(STATE_KEY, state)


def load_window() -> tuple[QByteArray | None, QByteArray | None]:
    s = _settings()
    geometry, state = s.value(GEOMETRY_KEY), s.value(STATE_KEY)
    return (geometry if isinstance(geometry, QByteArray) else None, state if isinstance(state, QByteArray) else None)


def save_warm_trainer(enabled: bool) -> None:
    _settings().setValue(WARM_TRAINER_KEY, bool(enabled))


def load_warm_trainer() -> bool:
    """Whether to keep a trainer warm (on unless the user turned it off)."""
    value = _settings().value(WARM_TRAINER_KEY, True)
    return value not in (False, "false", "0", 0)


LANGUAGE_KEY = "ui/language"
COLOR_SCHEME_KEY = "ui/color_scheme"


def save_language(language: str) -> None:
    """The Language menu's choice; "" follows the system."""
    _settings().setValue(LANGUAGE_KEY, language)


def load_language() -> str:
    value = _settings().value(LANGUAGE_KEY, "")
    return value if isinstance(value, str) else ""


def save_color_scheme(scheme: str) -> None:
    """The View menu's colour scheme: "system", "light" or "dark"."""
    _settings().setValue(COLOR_SCHEME_KEY, scheme)


def load_color_scheme() -> str:
    value = _settings().value(COLOR_SCHEME_KEY, "")
    return value if isinstance(value, str) else ""


LIVE_FRAME_RATE_KEY = "ui/live_frames_per_second"


def save_live_frame_rate(rate: int) -> None:
    """View ▸ Live plots: frames a second while a run streams."""
    _settings().setValue(LIVE_FRAME_RATE_KEY, int(rate))


def load_live_frame_rate() -> int | None:
    """The stored choice; None when there is none or it is not a whole number (the caller checks it is offered)."""
    value = _settings().value(LIVE_FRAME_RATE_KEY)
    try:
        return int(value) if value is not None else None
    except (TypeError, ValueError):
        return None
