"""Engine messages: English text that keeps its template and parameters for the window to translate."""

from __future__ import annotations

import copy
import json
import pickle

from engine.core.messages import Message, msg
from engine.core.problems import ConfigError, Problem


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


def test_a_message_crosses_a_process_boundary_in_a_run_failed_event() -> None:
    from engine.core import events as ev
    from engine.core.messages import from_plain
    from engine.core.problems import DataError, failure_message

    error = DataError(msg("CSV file {path} has no column {label!r}", path="a.csv", label=msg("none")))
    event = ev.decode(ev.encode(ev.RunFailed(message=failure_message(error), error_type="DataError")))
    assert event.message == "CSV file a.csv has no column 'none'"  # the command line's English, unchanged
    rebuilt = from_plain(event.message_template)
    assert rebuilt == event.message and rebuilt.template == "CSV file {path} has no column {label!r}"
    assert rebuilt.params["label"].template == "none"  # nested messages stay messages
    plain = ev.decode(ev.encode(ev.RunFailed(message="killed")))
    assert plain.message_template == {}


def test_a_config_error_with_one_problem_keeps_its_template() -> None:
    from engine.core.problems import failure_message

    one = ConfigError([Problem("epochs", 0, msg("must be a number >= {low:g}", low=1.0))])
    message = failure_message(one)
    assert message == str(one) and isinstance(message, Message)
    two = ConfigError([Problem("a", 1, "x"), Problem("b", 2, "y")])
    assert failure_message(two) == str(two)


def test_a_model_error_is_its_message_without_a_field_prefix() -> None:
    """ "model.path = None: my_model.py:build_model raised ..." named no value: the message names the file."""
    from engine.core.problems import failure_message
    from engine.train.user_code import ModelError

    assert failure_message(ModelError("my_model.py:build_model raised, line 4: ZeroDivisionError")) == (
        "my_model.py:build_model raised, line 4: ZeroDivisionError"
    )


def test_a_message_of_megabytes_is_cut_to_a_few_lines() -> None:
    from engine.core.problems import MAX_MESSAGE_CHARS, MAX_MESSAGE_LINES, capped

    header = ",".join(f"column_{i}" for i in range(1_200_000))
    cut = capped(f"CSV file a.csv: its header has a column too many: {header}")
    assert len(cut) <= MAX_MESSAGE_CHARS and cut.startswith("CSV file a.csv: its header") and "characters)" in cut
    assert capped("\n".join(["line"] * 100)).count("\n") < MAX_MESSAGE_LINES
    short = msg("must be at most {high}", high=3)
    assert capped(short) is short  # within bounds: the message and its template as they are
