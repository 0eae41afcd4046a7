"""The CSV pre-check (engine.core.sources, before TensorFlow) and the tf.data reader (CsvSource) read one way.

Every file here is given to both: either the check refuses it, naming the file and line, or the reader
yields exactly the rows the check counted, value for value (issue 23, item 9b).
"""

from __future__ import annotations

import numpy as np
import pytest

from engine.core.config import DataConfig, RunConfig
from engine.core.problems import DataError
from engine.core.sources import inspect
from engine.train.datasets.csv_stream import CsvSource

GOOD = "a,b,label\n1,2,0\n3,4,1\n5,6,0\n7,8,1\n"
GOOD_ROWS = [[1, 2, 0], [3, 4, 1], [5, 6, 0], [7, 8, 1]]

REFUSED = {
    "blank-line-before-header": ("\n" + GOOD, "line 1"),
    "underscore-in-number": (GOOD + "1_000,2,0\n", "line 6"),
    "quoted-newline": (GOOD + '"1\n2",2,0\n', "line 6"),
    "row-of-empty-cells": (GOOD.replace("3,4,1\n", ",,\n"), "line 3"),
    "empty-cell": (GOOD + "1,,0\n", "line 6"),
    "non-ascii-digits": (GOOD + "\u0661,2,0\n", "line 6"),
}
READ = {
    "plain": (GOOD, GOOD_ROWS),
    "blank-lines-between-rows": ("a,b,label\n1,2,0\n\n   \n3,4,1\n5,6,0\n7,8,1\n\n", GOOD_ROWS),
    "crlf-and-bom": ("\ufeff" + GOOD.replace("\n", "\r\n"), GOOD_ROWS),
    "number-forms": ("a,b,label\n+1,.5,0\n-1.,1e2,1\n1E-1,2.50,0\n", [[1, 0.5, 0], [-1, 100, 1], [0.1, 2.5, 0]]),
    "quoted-numbers-and-spaces": ('a,b,label\n"1", 2 ,0\n3,"4",1\n', [[1, 2, 0], [3, 4, 1]]),
}


def config_for(path) -> RunConfig:
    return RunConfig(data=DataConfig(kind="csv", path=str(path), label="label"), global_batch_size=1)


def read_by_tensorflow(config: RunConfig) -> np.ndarray:
    info = inspect(config)
    source = CsvSource(config, info, "off", 1)
    rows = []
    for x, y in source._decode_batch(source._examples(train=True).batch(100)):
        rows += np.column_stack([x.numpy(), y.numpy().reshape(len(x), -1)]).tolist()
    assert len(rows) == info.examples  # every row the check counted, and no other
    return np.asarray(rows)


@pytest.mark.parametrize("name", REFUSED)
def test_a_file_the_reader_cannot_read_as_written_is_refused_naming_file_and_line(tmp_path, name):
    text, line = REFUSED[name]
    path = tmp_path / "d.csv"
    path.write_bytes(text.encode("utf-8"))
    with pytest.raises(DataError) as info:
        inspect(config_for(path))
    assert str(path) in str(info.value) and line in str(info.value)


@pytest.mark.parametrize("name", READ)
def test_the_reader_yields_exactly_the_rows_the_check_accepted(tmp_path, name):
    text, rows = READ[name]
    path = tmp_path / "d.csv"
    path.write_bytes(text.encode("utf-8"))
    np.testing.assert_allclose(read_by_tensorflow(config_for(path)), np.asarray(rows, dtype=float), rtol=1e-6)
