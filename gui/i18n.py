"""Which language the window speaks, and the translators that make it speak it.

The language is `TFDD_LANG` (e.g. `zh_CN`, `en`), else the Language menu's choice in the settings, else the
system locale (Simplified Chinese for a simplified-script Chinese locale, English otherwise). A new language
takes effect after a restart, which the window offers: many texts are filled from state, and a live switch
would leave some in the old language. The catalogues are ours (resources/translations/tfdd_<lang>.qm; English
has one for plural forms) and, for Chinese, Qt's own qtbase_zh_CN.qm. Engine messages
(`engine.core.messages.Message`) are translated here too: the template, then its parameters.
"""

from __future__ import annotations

import os

from PySide6.QtCore import QCoreApplication, QLibraryInfo, QLocale, QTranslator
from PySide6.QtGui import QGuiApplication

from engine.core.messages import CONTEXT, Message, from_plain
from engine.core.problems import Problem
from engine.core.resources import resource_path
from gui import settings

ENV = "TFDD_LANG"
ENGLISH = "en"
CHINESE = "zh_CN"
LANGUAGES = {ENGLISH: "English", CHINESE: "简体中文"}  # each shown in its own language, the usual menu
CATALOGUE_PREFIX = "tfdd_"
# Qt's qt_<lang>.qm is only a list of per-module catalogues, some of which PySide6-Essentials does not ship
# (QTranslator.load fails on it); qtbase_<lang>.qm is the one with the widgets' and dialogs' texts.
QT_CATALOGUES = ("qtbase_",)

_installed: list[QTranslator] = []
_language = ENGLISH  # what install() last put in place


def normalise(name: str | None) -> str | None:
    """A supported language code for a user-given name (`zh_CN`, `zh-CN`, `zh`, `en_US`...), else None."""
    if not name:
        return None
    locale = QLocale(name.replace("-", "_"))
    if locale.language() == QLocale.Language.Chinese:
        # a bare "zh" means the simplified script; Traditional Chinese readers are not served by it
        return CHINESE if locale.script() != QLocale.Script.TraditionalChineseScript or name == "zh" else None
    if locale.language() == QLocale.Language.English or name.lower() in ("c", "en"):
        return ENGLISH
    return None


def system_language(locale: QLocale | None = None) -> str:
    """The language of the system locale: Simplified Chinese for a Chinese locale in the simplified
    script, else English. The first Chinese or English entry of the user's languages decides (a
    Taiwanese locale lists a bare "zh" after "zh-Hant-TW"; that fallback must not make it 简体)."""
    locale = locale or QLocale.system()
    for name in [locale.name(), *locale.uiLanguages()]:
        entry = QLocale(name.replace("-", "_"))
        if entry.language() == QLocale.Language.Chinese:
            return CHINESE if entry.script() != QLocale.Script.TraditionalChineseScript else ENGLISH
        if entry.language() == QLocale.Language.English:
            return ENGLISH
    return ENGLISH


def stored_choice() -> str | None:
    """The Language menu's choice, None when the user left it to the system."""
    return normalise(settings.load_language())


def store_choice(language: str | None) -> None:
    """Remember the Language menu's choice (None: follow the system)."""
    settings.save_language(language or "")


def resolve_language() -> str:
    """The language to start in: TFDD_LANG, else the stored choice, else the system's."""
    return normalise(os.environ.get(ENV)) or stored_choice() or system_language()


def catalogue_paths(language: str) -> list[str]:
    """The .qm files that translate the window into `language`. English, the source language, has only
    its plural forms ("%n run(s)" -> "1 run", "2 runs") and needs none of Qt's."""
    ours = str(resource_path("translations", f"{CATALOGUE_PREFIX}{language}.qm"))
    if language == ENGLISH:
        return [ours]
    qt_dir = QLibraryInfo.path(QLibraryInfo.LibraryPath.TranslationsPath)
    return [ours, *(os.path.join(qt_dir, f"{prefix}{language}.qm") for prefix in QT_CATALOGUES)]


def install(app: QCoreApplication, language: str | None = None) -> str:
    """Install the translators for `language` (default: `resolve_language()`) and name the app in it; returns
    the language used.

    Translators installed by an earlier call are removed first, so tests can switch.
    A catalogue that is missing is skipped: the window then shows those texts in English.
    """
    global _language
    language = language or resolve_language()
    _language = language
    for translator in _installed:
        app.removeTranslator(translator)
    _installed.clear()
    for path in catalogue_paths(language):
        translator = QTranslator(app)
        if translator.load(path):
            app.installTranslator(translator)
            _installed.append(translator)
    QLocale.setDefault(QLocale(language))
    if isinstance(app, QGuiApplication):  # the window's title is the app's name (Qt appends it to any other)
        app.setApplicationDisplayName(QCoreApplication.translate("App", "TF Distributed Dashboard"))
    return language


def current_language() -> str:
    """The language the window speaks now (a stored new choice waits for a restart)."""
    return _language


def installed_catalogues() -> list[str]:
    """The files of the translators installed now (for the About box and tests)."""
    return [t.filePath() for t in _installed]


def translate(text: str) -> str:
    """An engine message in the window's language; other text unchanged (a user's file name, a value).

    A message that crossed a process boundary (an event's text) arrives as a plain str; one without
    parameters is still found, by its English text."""
    if not isinstance(text, Message):
        return QCoreApplication.translate(CONTEXT, text) if text else text
    template = QCoreApplication.translate(CONTEXT, text.template)
    if not text.params:
        return template
    params = {k: translate(v) if isinstance(v, Message) else v for k, v in text.params.items()}
    try:
        return template.format(**params)
    except (KeyError, IndexError, ValueError):  # a translation that broke a placeholder: English beats a crash
        return str(text)


def event_text(message: str, template: dict) -> str:
    """An event's message as the engine said it: the Message rebuilt from the template sent with it
    (engine.core.messages.to_plain) when that still gives the same text, else the plain text."""
    rebuilt = from_plain(template) if template else None
    return rebuilt if rebuilt is not None and rebuilt == message else message


def event_message(message: str, template: dict) -> str:
    """An event's message (run_failed, log) in the window's language: by its template, else by its English
    text; nested parameters are translated too."""
    return translate(event_text(message, template))


def problem_text(problem: Problem) -> str:
    """`field = value: message` with the message in the window's language (fields and values are the
    config's own words, the same in every language)."""
    return problem.render(translate(problem.message))
