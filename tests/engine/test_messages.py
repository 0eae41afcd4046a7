"""Engine messages: English text that keeps its template and parameters for the window to translate."""

from __future__ import annotations

import copy
import json
import pickle

from engine.messages import Message, msg
from engine.problems import ConfigError, Problem


def test_a_message_is_its_english_text_and_keeps_template_and_params() -> None:
    m = msg("must be at most {high:,}", high=12345)
    assert m == "must be at most 12,345" and isinstance(m, str)
    assert (m.template, m.params) == ("must be at most {high:,}", {"high": 12345})


def test_a_template_without_params_is_not_formatted() -> None:
    m = msg('must be a JSON object {"cluster": ..., "task": ...}')
    assert m == 'must be a JSON object {"cluster": ..., "task": ...}' and m.params == {}


def test_pickle_copy_and_json_keep_working() -> None:
    m = msg("{count} problem(s)", count=3)
    for clone in (pickle.loads(pickle.dumps(m)), copy.deepcopy(m)):
        assert isinstance(clone, Message) and clone == m and clone.template == m.template and clone.params == m.params
    assert json.dumps({"message": m}) == '{"message": "3 problem(s)"}'


def test_problems_and_the_command_line_see_plain_english() -> None:
    error = ConfigError([Problem("epochs", 0, msg("must be a number >= {low:g}", low=1.0))])
    assert str(error) == "epochs = 0: must be a number >= 1"
