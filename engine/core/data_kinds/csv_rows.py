"""The rows of a CSV file as the tf.data reader reads them, checked before TensorFlow starts.

This check reads the file by the reader's rules (engine.train.datasets.csv_stream: a header line, lines split at
"\\n", stripped, empty ones dropped), so what it counts is what trains. It refuses, naming file and line, what
the reader would crash on or misread: a blank first line, a quoted value over a line break, a row of empty
cells, an empty cell, numbers Python reads but TensorFlow does not (1_000, non-ASCII digits).
"""

from __future__ import annotations

import contextlib
import csv
import math
import re
import string
from collections import Counter
from collections.abc import Iterator
from typing import IO

from engine.core.messages import msg
from engine.core.problems import DataError

# what tf.io.decode_csv reads as a float: ASCII digits, a sign, a point, an exponent, spaces around
NUMBER = re.compile(r" *[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)? *", re.ASCII)


def file_lines(f: IO[str]) -> enumerate[str]:
    """(line number, line without its end) as the reader splits the file: at "\\n" only."""
    return enumerate((line.rstrip("\n").removesuffix("\r") for line in f), start=1)


@contextlib.contextmanager
def open_csv(path: str) -> Iterator[IO[str]]:
    """The file as the reader decodes it, UTF-8; a DataError naming it when it is some other encoding."""
    try:
        with open(path, newline="\n", encoding="utf-8-sig") as f:
            yield f
    except UnicodeDecodeError as exc:
        raise DataError(
            msg(
                "CSV file {path} is not UTF-8 text (byte {byte} at offset {offset:,}); save it as UTF-8",
                path=path,
                byte=f"0x{exc.object[exc.start]:02x}",
                offset=exc.start,
            )
        ) from None


def split_line(path: str, line: int, text: str) -> list[str]:
    """One line's values; a DataError naming file and line where Python's CSV reader cannot split it (a value
    beyond its field limit, 128 KiB: no number is that long)."""
    try:
        return next(csv.reader([text]))
    except csv.Error as exc:
        raise DataError(
            msg(
                "CSV file {path}, line {line} cannot be read ({exc}); fix or remove that line",
                path=path,
                line=line,
                exc=exc,
            )
        ) from None


def header_of(path: str) -> list[str]:
    """Line 1's column names (the reader skips line 1 as the header, blank or not)."""
    with open_csv(path) as f:
        first = next(f, "").rstrip("\n").removesuffix("\r")
    return [h.strip() for h in split_line(path, 1, first)] if first.strip(string.whitespace) else []


def count_rows(path: str, label: str, labels: Counter[int], limit: int | None) -> tuple[int, list[str]]:
    """Rows of one CSV file, every value checked (up to `limit` rows); label counts added to `labels`."""
    with open_csv(path) as f:
        lines = file_lines(f)
        _, first = next(lines, (1, ""))
        if not first.strip(string.whitespace):
            if not any(line.strip(string.whitespace) for _, line in lines):
                raise DataError(
                    msg("CSV file {path} is empty; it needs a header row and at least one data row", path=path)
                )
            raise DataError(
                msg(
                    "CSV file {path}, line 1: blank; the header must be the first line: delete the blank "
                    "lines above it",
                    path=path,
                )
            )
        header = [h.strip() for h in split_line(path, 1, first)]
        _check_header(path, header, label)
        label_col, rows = header.index(label), 0
        for line_number, line in lines:
            if limit is not None and rows >= limit:
                break
            if not line.strip(string.whitespace):
                continue
            rows += 1
            y = _row_label(path, line_number, line, header, label_col, rows)
            labels[y] += 1
    if rows == 0:
        raise DataError(msg("CSV file {path} has a header but no data rows", path=path))
    return rows, header


def _check_header(path: str, header: list[str], label: str) -> None:
    if label not in header:
        raise DataError(
            msg(
                "CSV file {path} has no column {label!r} for the labels; its columns are: {header}",
                path=path,
                label=label,
                header=", ".join(header),
            ),
            "data.label",
            label,
        )
    if len(header) < 2:
        raise DataError(msg("CSV file {path} has only the label column; it needs feature columns too", path=path))


def _row_label(path: str, line: int, text: str, header: list[str], label_col: int, rows: int) -> int:
    """The class id of one data line, after checking it the way the reader will decode it."""
    if text.count('"') % 2:
        raise DataError(
            msg(
                "CSV file {path}, line {line}: a quoted value runs over a line break; each example must be "
                "on one line: remove the line break",
                path=path,
                line=line,
            )
        )
    row = split_line(path, line, text)
    if len(row) != len(header):
        raise DataError(
            msg(
                "CSV file {path}, line {line}: {n_row} values for {width} columns",
                path=path,
                line=line,
                n_row=len(row),
                width=len(header),
            )
        )
    for col, cell in enumerate(row):
        _check_cell(path, line, header[col], cell, rows)
    label, cell = header[label_col], row[label_col]
    y = float(cell)
    if y < 0 or y != int(y):
        raise DataError(
            msg(
                "CSV file {path}, line {line}: label column {label!r} holds {row!r}; labels must be "
                "class numbers 0, 1, 2, ... (0/1 for binary): map the classes to numbers",
                path=path,
                line=line,
                label=label,
                row=cell.strip(),
            ),
            "data.label",
            label,
        )
    return int(y)


def _check_cell(path: str, line: int, column: str, cell: str, rows: int) -> None:
    try:
        value = float(cell)
    except ValueError:
        value = None
    if not cell.strip() or (value is not None and not math.isfinite(value)):
        raise DataError(
            msg(
                "CSV file {path}, line {line} (example {rows}): column {header!r} has a missing or "
                "infinite value; fill or drop that row",
                path=path,
                line=line,
                rows=rows - 1,
                header=column,
            )
        )
    if value is None:
        raise DataError(
            msg(
                "CSV file {path}, line {line}: column {header!r} holds text {row!r}; only numbers can "
                "train a model: encode that column as numbers or remove it",
                path=path,
                line=line,
                header=column,
                row=cell.strip(),
            )
        )
    if not NUMBER.fullmatch(cell):
        raise DataError(
            msg(
                "CSV file {path}, line {line}: column {header!r} holds {row!r}, a number TensorFlow cannot "
                "read; write it with the digits 0-9 only, e.g. 1000, -2.5 or 1e-3",
                path=path,
                line=line,
                header=column,
                row=cell.strip(),
            )
        )
