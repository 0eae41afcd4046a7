"""What the dashboard remembers between launches: the last run config and the window layout.

The config is stored as the engine's own JSON. It is restored leniently: a
form left in an invalid state (a batch size not divisible yet, a CSV file
since moved) must come back as it was, with its problems shown, rather than
be thrown away by strict parsing.
"""

from __future__ import annotations

import json

from PySide6.QtCore import QByteArray, QSettings

from engine.config import RunConfig
from engine.problems import ConfigError

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


def load_last_config() -> RunConfig | None:
    """The config of the last session, or None when there is none usable."""
    text = _settings().value(CONFIG_KEY)
    if not isinstance(text, str) or not text:
        return None
    try:
        return RunConfig.from_json(text)
    except ConfigError:
        try:
            return RunConfig.from_dict(json.loads(text), check=False)
        except ValueError:
            return None


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
