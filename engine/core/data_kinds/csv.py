"""csv: a header row and numeric columns; `label` names the label column; `path` may be a glob.

Every row is read by the tf.data reader's rules (engine.core.data_kinds.csv_rows) before
TensorFlow starts; the preview reads the first rows of the first file and
estimates the rest from the file sizes. Streamed, never loaded whole.
"""

from __future__ import annotations

import os
from collections import Counter

from engine.core.data_kinds.base import DataConfig, DataKind, SourceInfo, files_problems
from engine.core.data_kinds.csv_rows import count_rows, header_of
from engine.core.data_kinds.labels import check_every_class
from engine.core.messages import msg
from engine.core.problems import DataError, Problem
from engine.core.user_code import matching_files

QUICK_CSV_ROWS = 2000  # rows the preview reads from the first CSV file


def check(data: DataConfig, validation_split: float) -> list[Problem]:
    p = files_problems(data, msg("a CSV file (or a glob of several, e.g. data/part-*.csv)"))
    if not data.label:
        p.append(Problem("data.label", data.label, msg("name the CSV column that holds the labels")))
    return p


def inspect(data: DataConfig, quick: bool) -> SourceInfo:
    files = matching_files(str(data.path))
    if not files:
        raise DataError(msg("no CSV file matches {path}; check data.path", path=data.path))
    header: list[str] | None = None
    labels: Counter[int] = Counter()
    per_file: list[int] = []
    for path in files:
        count, file_header = count_rows(path, data.label, labels, QUICK_CSV_ROWS if quick else None)
        if header is not None and file_header != header:
            raise DataError(
                msg(
                    "CSV file {path} has columns {file_header}, unlike {files}",
                    path=path,
                    file_header=", ".join(file_header),
                    files=files[0],
                )
            )
        header = file_header
        per_file.append(count)
        if quick:
            per_file += [_estimate_rows(p, count, path) for p in files[1:]]
            break
    assert header is not None
    k = max(max(labels) + 1, 2)
    counts = tuple(labels.get(i, 0) for i in range(k))
    sampled = quick and (len(files) > 1 or per_file[0] >= QUICK_CSV_ROWS)
    if not sampled:  # a sample may not have met every class yet
        check_every_class(sorted(labels), msg("CSV file {path}", path=data.path), "data.label")
    if sampled:
        per_file[0] = _estimate_rows(files[0], per_file[0], files[0])
    first = msg("classes from the first {rows:,} rows; rows estimated from the file size", rows=sum(counts))
    notes = (first,) if sampled else ()
    return SourceInfo(
        "csv",
        sum(per_file),
        (len(header) - 1,),
        k,
        tuple(map(str, range(k))),
        counts,
        files=tuple(files),
        file_examples=tuple(per_file),
        sampled=sampled,
        notes=notes,
        examples_estimated=sampled,
    )


def _estimate_rows(path: str, rows_read: int, sample_path: str) -> int:
    """Rows of a file from its size and the bytes per row of the sample (the preview's estimate)."""
    if rows_read <= 0:
        return 0
    with open(sample_path, "rb") as f:
        sample = f.read(1 << 20)
    lines = max(sample.count(b"\n"), 1)
    return max(int(os.path.getsize(path) / (len(sample) / lines)) - 1, 0)


def columns(path: str) -> list[str]:
    """The header row of a CSV file (the first of a glob)."""
    return header_of(matching_files(path)[0])


KIND = DataKind(
    name="csv",
    hint=msg("numeric columns and a label column; streamed, so it may be larger than memory"),
    fields=("path", "label"),
    check=check,
    inspect=inspect,
    file_readers=True,
    file_filter=msg("CSV files (*.csv);;All files (*)"),
    names=columns,
)
