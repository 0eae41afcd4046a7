"""Which language the window speaks, the catalogues it loads, and engine messages translated in the window."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from PySide6.QtCore import QCoreApplication, QLocale, QTranslator
from PySide6.QtWidgets import QDialogButtonBox

from engine.core.messages import msg
from gui import i18n, translations


@pytest.fixture(autouse=True)
def english_afterwards(qapp):
    yield
    i18n.install(qapp, i18n.ENGLISH)


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("zh_CN", "zh_CN"),
        ("zh-CN", "zh_CN"),
        ("zh", "zh_CN"),
        ("zh_SG", "zh_CN"),
        ("zh_Hans_CN", "zh_CN"),
        ("zh_TW", None),
        ("zh_Hant_HK", None),
        ("en_US", "en"),
        ("en", "en"),
        ("C", "en"),
        ("de_DE", None),
        ("", None),
    ],
)
def test_language_names_are_normalised(name: str, expected: str | None) -> None:
    assert i18n.normalise(name) == expected


def test_the_system_locale_picks_simplified_chinese_or_english() -> None:
    assert i18n.system_language(QLocale("zh_CN")) == "zh_CN"
    assert i18n.system_language(QLocale("de_DE")) == "en"
    assert i18n.system_language(QLocale("zh_TW")) == "en"  # Traditional-script readers are not served by 简体


def test_environment_beats_the_menu_choice_which_beats_the_system(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(i18n, "system_language", lambda: "zh_CN")
    monkeypatch.delenv(i18n.ENV, raising=False)
    assert i18n.resolve_language() == "zh_CN"
    i18n.store_choice("en")
    assert i18n.resolve_language() == "en"
    monkeypatch.setenv(i18n.ENV, "zh_CN")
    assert i18n.resolve_language() == "zh_CN"
    monkeypatch.setenv(i18n.ENV, "klingon")  # not a language we have: the next source decides
    assert i18n.resolve_language() == "en"
    i18n.store_choice(None)
    assert i18n.stored_choice() is None


def test_chinese_installs_ours_and_qts_catalogues_and_english_removes_them(qapp) -> None:
    assert i18n.install(qapp, "zh_CN") == "zh_CN"
    files = i18n.installed_catalogues()
    assert [Path(f).name for f in files] == ["tfdd_zh_CN.qm", "qtbase_zh_CN.qm"]
    box = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel)  # Qt's own words come from Qt's catalogue
    assert box.button(QDialogButtonBox.StandardButton.Cancel).text() == "取消"
    i18n.install(qapp, "en")
    assert [Path(f).name for f in i18n.installed_catalogues()] == ["tfdd_en.qm"]
    box = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel)
    assert box.button(QDialogButtonBox.StandardButton.Cancel).text() == "Cancel"


def test_engine_messages_are_translated_from_their_template(qapp, tmp_path: Path) -> None:
    ts = tmp_path / "t.ts"
    ts.write_text(
        """<?xml version="1.0" encoding="utf-8"?><!DOCTYPE TS><TS version="2.1" language="zh_CN"><context><name></name>
<message><source>must be at most {high:,}</source><translation>最多为 {high:,}</translation></message>
<message><source>{what} is wrong</source><translation>{what}有误</translation></message>
<message><source>the batch</source><translation>批次</translation></message>
<message><source>broken {x}</source><translation>坏了 {y}</translation></message>
</context></TS>""",
        encoding="utf-8",
    )
    qm = tmp_path / "t.qm"
    translations.lrelease(ts, qm)
    translator = QTranslator()
    assert translator.load(str(qm))
    QCoreApplication.installTranslator(translator)
    try:
        assert i18n.translate(msg("must be at most {high:,}", high=12345)) == "最多为 12,345"
        assert i18n.translate(msg("{what} is wrong", what=msg("the batch"))) == "批次有误"  # nested messages too
        assert i18n.translate(msg("broken {x}", x=1)) == "broken 1"  # a translation that lost a placeholder
        assert i18n.translate("data.csv") == "data.csv"  # plain text (a file name) is left alone
        assert i18n.translate(msg("not in the catalogue {n}", n=2)) == "not in the catalogue 2"
    finally:
        QCoreApplication.removeTranslator(translator)


def test_lupdate_extracts_engine_templates_and_window_strings(tmp_path: Path) -> None:
    """The msg() marker is recognised by Qt's lupdate in Python sources (with the tool's alias)."""
    source = tmp_path / "sample.py"
    source.write_text(
        'from engine.core.messages import msg\n\ndef check(n):\n    return msg("must be at most {high:,}", high=n)\n\n'
        'class Panel:\n    def title(self, n):\n        return self.tr("%n run(s)", "", n)\n',
        encoding="utf-8",
    )
    ts = tmp_path / "sample.ts"
    tool = translations._tool("lupdate")
    subprocess.run(
        [tool, str(source), "-tr-function-alias", "QT_TR_NOOP+=msg", "-ts", str(ts)], check=True, capture_output=True
    )
    text = ts.read_text(encoding="utf-8")
    assert "<source>must be at most {high:,}</source>" in text
    assert '<message numerus="yes">' in text and "<source>%n run(s)</source>" in text


def test_a_run_failed_event_is_translated_from_its_template(qapp) -> None:
    from engine.core import events as ev
    from engine.core.problems import ConfigError, Problem, failure_message

    i18n.install(qapp, "zh_CN")
    error = ConfigError([Problem("epochs", 0, msg("must be a number >= {low:g}", low=1.0))])
    event = ev.decode(ev.encode(ev.RunFailed(message=failure_message(error))))
    assert i18n.event_message(event.message, event.message_template) == "epochs = 0：必须是 >= 1 的数"
    assert i18n.event_message("plain words", {}) == "plain words"
    forged = {"template": "must be a number >= {low:g}", "params": {"low": 5}}  # does not say the same thing
    assert i18n.event_message("epochs = 0: must be a number >= 1", forged) == "epochs = 0: must be a number >= 1"
