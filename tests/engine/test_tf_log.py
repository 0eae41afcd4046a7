"""Folding TensorFlow's stderr: captured real output of TensorFlow 2.21 (tests/engine/tf_stderr/)."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.core.logs import tf_log
from engine.core.logs.tf_log import LogFolder, fold_all, without_chatter

CAPTURED = Path(__file__).with_name("tf_stderr")


def lines_of(name: str) -> list[str]:
    return (CAPTURED / name).read_text(encoding="utf-8").splitlines()


@pytest.mark.parametrize("name", sorted(p.name for p in CAPTURED.glob("*.txt")))
def test_every_captured_line_is_recognised_and_kept(name):
    lines = lines_of(name)
    entries = fold_all(lines)
    assert all(e.folded for e in entries), [e.text for e in entries if not e.folded]
    assert sorted(line for e in entries for line in e.raw) == sorted(lines), "nothing is thrown away"
    assert len(entries) <= 5, "a handful of plain lines instead of a screen of chatter"


def test_cpu_only_start_up_reads_as_plain_words():
    entries = fold_all(lines_of("mirrored_stderr_0.txt"))
    texts = [e.text for e in entries]
    assert texts[1] == "TensorFlow: No CUDA driver: training on the CPU (an error only if you expected a GPU)"
    no_gpu = entries[1]
    assert len(no_gpu.raw) == 3 and any("failed call to cuInit" in line for line in no_gpu.raw)
    assert no_gpu.level == "info", "the cuInit E-line is not an error on a CPU-only machine"
    assert not any("absl" in t or "E0000" in t for t in texts)


def test_onednn_line_says_what_it_means():
    texts = [e.text for e in fold_all(lines_of("onednn_on_stderr.txt"))]
    assert any("oneDNN custom operations are on" in t and "TF_ENABLE_ONEDNN_OPTS=0" in t for t in texts)


def test_cluster_topic_shows_the_state_that_matters():
    chief = fold_all(lines_of("mw_stderr_unset_worker0.txt"))
    straggler = fold_all(lines_of("mw_straggler_stderr.txt"))
    assert any(e.text.endswith("all workers connected; training can start") for e in chief)
    assert any(e.text.endswith("not joined yet: /job:worker/replica:0/task:1") for e in straggler)
    sigterm = [e for e in straggler if e.topic == "sigterm"]
    assert sigterm and sigterm[0].level == "warning"


def test_later_lines_join_their_topic_wherever_they_come():
    lines = lines_of("mirrored_stderr_0.txt")
    folder = LogFolder()
    first = folder.feed(lines[:4])  # absl, cuda stub, cpu feature guard and its continuation
    assert [e.topic for e in first.new] == ["startup", "no_gpu"]
    plain = folder.feed(["epoch 1/2: loss 0.5"])
    assert [e.text for e in plain.new] == ["epoch 1/2: loss 0.5"] and not plain.new[0].folded
    later = folder.feed(lines[4:])
    assert [e.topic for e in later.new] == ["input"]
    assert {e.topic for e in later.grown} == {"startup", "no_gpu"}
    startup = first.new[0]
    assert len(startup.raw) == 4, "the continuation line and the second absl line belong to it"


def test_each_source_folds_on_its_own():
    worker = lines_of("mirrored_stderr_0.txt")
    tagged = [f"[worker-{i}] {line}" for i in (0, 1) for line in worker]
    entries = fold_all(tagged)
    assert len(entries) == 6
    assert entries[3].text.startswith("[worker-1] TensorFlow: started")
    assert all(line.startswith("[worker-1]") for line in entries[4].raw)


def test_unknown_native_lines_are_put_in_words_and_kept():
    raw = "W0000 00:00:1796076349.630818   28769 some_new_thing.cc:42] Something new happened."
    (entry,) = fold_all([raw])
    assert entry.text == "TensorFlow warning: Something new happened. (some_new_thing.cc:42)"
    assert entry.raw == [raw] and entry.level == "warning"
    (fatal,) = fold_all(["F0000 00:00:1.0 7 gpu_device.cc:1] Check failed: x"])
    assert fatal.level == "error"


def test_plain_lines_keep_their_words_and_get_a_level():
    entries = fold_all(["Traceback (most recent call last):", "WARNING: slow", "epoch 1 done", "[worker-1] failed: x"])
    assert [e.level for e in entries] == ["error", "warning", "info", "error"]
    assert [e.text for e in entries][2] == "epoch 1 done"


def test_chatter_is_never_a_failure_reason():
    fatal = "F0000 00:00:1.0 7 gpu_device.cc:1] Check failed: x"
    lines = [*lines_of("mirrored_stderr_0.txt"), "Traceback (most recent call last):", "ValueError: bad", fatal]
    assert without_chatter(lines) == lines[-3:]
    assert all(p.topic in tf_log.TOPICS for p in tf_log.PATTERNS)
