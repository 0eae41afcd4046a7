"""Reading TFRecord files without TensorFlow: record framing and the tf.train.Example message.

The data preview and the trainer's early check count records and compare the first ones with the config, so a
wrong key, type or shape is named in a second, not after TensorFlow's start-up; TensorFlow's protobuf classes
would import all of it, and both formats are small. TFRecord: a uint64 length, its CRC, the bytes, their CRC.
Example: features (field 1) maps name -> Feature holding bytes_list (1), float_list (2) or int64_list (3).
"""

from __future__ import annotations

import struct
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

FEATURE_KINDS = {1: "bytes", 2: "float", 3: "int64"}


class RecordError(ValueError):
    """The file is not a TFRecord file, or a record is not a tf.train.Example."""


@dataclass(frozen=True)
class Feature:
    kind: str  # "bytes", "float" or "int64"
    values: tuple  # bytes, floats or ints


def count_records(path: str | Path) -> int:
    """Records in a file, reading only the framing (the records themselves are skipped)."""
    n = 0
    with open(path, "rb") as f:
        size = f.seek(0, 2)
        f.seek(0)
        while f.tell() < size:
            head = f.read(12)
            if len(head) < 12:
                raise RecordError(f"record {n + 1} is cut short: not a TFRecord file, or a truncated one")
            (length,) = struct.unpack("<Q", head[:8])
            if f.tell() + length + 4 > size:
                raise RecordError(f"record {n + 1} claims {length:,} bytes, more than the file holds")
            f.seek(length + 4, 1)
            n += 1
    return n


def records(path: str | Path, limit: int | None = None) -> Iterator[bytes]:
    """The first `limit` records' bytes (all when None)."""
    with open(path, "rb") as f:
        n = 0
        while limit is None or n < limit:
            head = f.read(12)
            if not head:
                return
            if len(head) < 12:
                raise RecordError(f"record {n + 1} is cut short: not a TFRecord file, or a truncated one")
            (length,) = struct.unpack("<Q", head[:8])
            data = f.read(length)
            if len(data) < length or len(f.read(4)) < 4:
                raise RecordError(f"record {n + 1} is cut short: not a TFRecord file, or a truncated one")
            n += 1
            yield data


def _varint(buf: bytes, pos: int) -> tuple[int, int]:
    result = shift = 0
    while True:
        if pos >= len(buf):
            raise RecordError("a record ends inside a number: not a tf.train.Example")
        byte = buf[pos]
        pos += 1
        result |= (byte & 0x7F) << shift
        if not byte & 0x80:
            return result, pos
        shift += 7


def _fields(buf: bytes) -> Iterator[tuple[int, int, object]]:
    """(field number, wire type, value) of a protobuf message: ints for varints, bytes otherwise."""
    pos = 0
    while pos < len(buf):
        tag, pos = _varint(buf, pos)
        number, wire = tag >> 3, tag & 7
        if wire == 0:
            value, pos = _varint(buf, pos)
        elif wire == 1:
            value, pos = buf[pos : pos + 8], pos + 8
        elif wire == 2:
            length, pos = _varint(buf, pos)
            value, pos = buf[pos : pos + length], pos + length
        elif wire == 5:
            value, pos = buf[pos : pos + 4], pos + 4
        else:
            raise RecordError(f"unexpected protobuf wire type {wire}: not a tf.train.Example")
        if pos > len(buf):
            raise RecordError("a field runs past the end of the record: not a tf.train.Example")
        yield number, wire, value


def _feature(buf: bytes) -> Feature:
    for number, _, inner in _fields(buf):
        kind = FEATURE_KINDS.get(number)
        if kind is None or not isinstance(inner, bytes):
            continue
        values: list = []
        for field_no, wire, value in _fields(inner):
            if field_no != 1:
                continue
            if kind == "bytes":
                values.append(value)
            elif kind == "float":
                data = value if wire == 2 else value  # packed (wire 2) or one fixed32 (wire 5)
                values.extend(struct.unpack(f"<{len(data) // 4}f", data))
            elif wire == 2:  # packed int64 varints
                pos = 0
                while pos < len(value):
                    v, pos = _varint(value, pos)
                    values.append(v - (1 << 64) if v >= 1 << 63 else v)
            else:
                values.append(value - (1 << 64) if value >= 1 << 63 else value)
        return Feature(kind, tuple(values))
    return Feature("empty", ())


def parse_example(record: bytes) -> dict[str, Feature]:
    """A serialized tf.train.Example as {name: Feature}."""
    out: dict[str, Feature] = {}
    for number, wire, features in _fields(record):
        if number != 1 or wire != 2:
            continue
        for entry_no, _, entry in _fields(features):  # map entries: key (1), value (2)
            if entry_no != 1:
                continue
            key, value = "", b""
            for k, _, v in _fields(entry):
                if k == 1:
                    key = v.decode("utf-8", "replace")
                elif k == 2:
                    value = v
            out[key] = _feature(value)
    return out
