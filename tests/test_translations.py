"""The CI check: the committed .ts matches the code's strings, all are translated, and the .qm matches the .ts."""

from __future__ import annotations

import re
import shutil
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from gui import translations


@pytest.mark.parametrize("language", translations.LANGUAGES)
def test_translations_are_up_to_date_and_complete(language: str) -> None:
    found = translations.problems(translations.ts_path(language), translations.qm_path(language))
    assert found == [], "\n".join(found)


def test_the_check_notices_a_stale_ts_and_a_stale_qm(tmp_path: Path) -> None:
    ts, qm = tmp_path / "tfdd_zh_CN.ts", tmp_path / "tfdd_zh_CN.qm"
    ts.write_text('<?xml version="1.0" encoding="utf-8"?>\n<!DOCTYPE TS>\n<TS version="2.1" language="zh_CN">\n</TS>\n')
    found = translations.problems(ts, qm)
    assert any("out of date with the code" in f for f in found)
    assert any("not translated" in f for f in found)
    assert any(f"{qm.name} is out of date" in f for f in found)
    shutil.copyfile(translations.ts_path("zh_CN"), ts)
    translations.lrelease(ts, qm)
    assert translations.problems(ts, qm) == []
    qm.write_bytes(qm.read_bytes()[:-1] + b"x")
    assert translations.problems(ts, qm) == [
        f"{qm.name} is out of date with {ts.name}: run `python -m gui.translations build`"
    ]


PLACEHOLDER = re.compile(r"(?<!\{)\{[^{}]*\}(?!\})|%n|%\d")


@pytest.mark.parametrize("language", translations.LANGUAGES)
def test_every_translation_keeps_the_placeholders_of_its_source(language: str) -> None:
    """A lost {name} or %n would show a raw template or the wrong number (i18n.translate falls back to
    English for a broken template, but that is a fallback, not a translation)."""
    root = ET.parse(translations.ts_path(language)).getroot()
    broken = []
    for message in root.iter("message"):
        source = message.findtext("source", "")
        forms = [t.text or "" for t in message.iter("numerusform")] or [message.findtext("translation", "")]
        for text in forms:
            if sorted(PLACEHOLDER.findall(text)) != sorted(PLACEHOLDER.findall(source)):
                broken.append(f"{source!r} -> {text!r}")
    assert broken == []
