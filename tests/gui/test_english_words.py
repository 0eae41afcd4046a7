"""The helper that finds untranslated text: words are found, names every language keeps are not."""

from __future__ import annotations

import pytest

from tests.gui.english_words import english_texts, english_words


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("Start", ["Start"]),
        ("开始 (&S)", []),
        ("&Start", ["Start"]),
        ("全局批处理大小 64 = 32 × 2 个副本", []),
        ("策略: MirroredStrategy, 通信: NCCL", []),
        ("TF_CONFIG 无效: data/train.csv 不存在", []),
        ("每步 12 ms, 3.5 GB", []),
        ("<b>损失</b>&nbsp;&nbsp;<span style='color:#08519c'>━</span>&nbsp;per batch", ["per", "batch"]),
        ("运行 --epochs 3 于 127.0.0.1:2222", []),
        ("wrong type; expected int", ["wrong", "type", "expected", "int"]),
    ],
)
def test_english_words_are_found_and_names_are_not(text: str, words: list[str]) -> None:
    assert english_words(text) == words


def test_the_walk_finds_an_untranslated_window(make_window) -> None:
    window = make_window()
    window.show()
    found = english_texts(window)
    assert any("'Start'" in f for f in found)
    assert any("Loss" in f for f in found)
