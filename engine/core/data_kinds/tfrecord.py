"""tfrecord: tf.train.Example records in the files `path` matches (a glob).

`features_key` holds `feature_type` float values or an encoded image of
`feature_shape`; `labels_key` an int64 class id below `num_classes`. Every
record is counted from the framing and the first ones are compared with
this description (engine.core.data_kinds.tfrecord_reader, no TensorFlow), so a wrong key,
type or shape is named before TensorFlow starts.
"""

from __future__ import annotations

import io
import math
from collections import Counter

from engine.core.data_kinds.base import DataConfig, DataKind, SourceInfo, classes_problems, files_problems
from engine.core.data_kinds.image_folder import mode_channels
from engine.core.data_kinds.tfrecord_reader import Feature, RecordError, count_records, parse_example, records
from engine.core.messages import msg
from engine.core.problems import DataError, Problem, positive_ints
from engine.core.user_code import matching_files

TFRECORD_FEATURE_TYPES = ("float", "image")
QUICK_RECORDS = 200  # records the preview parses
FULL_RECORDS = 1000  # records the trainer parses to check the description (all are counted)


def check(data: DataConfig, validation_split: float) -> list[Problem]:
    p = classes_problems(data) + files_problems(data, msg("TFRecord files"))
    if data.feature_type not in TFRECORD_FEATURE_TYPES:
        p.append(Problem("data.feature_type", data.feature_type, msg("must be float (a list of numbers) or image")))
    if not positive_ints(data.feature_shape):
        p.append(
            Problem(
                "data.feature_shape",
                data.feature_shape,
                msg("the shape of one example's features, e.g. [10] or [32, 32, 3] for an image"),
            )
        )
    return p


def inspect(data: DataConfig, quick: bool) -> SourceInfo:
    files = matching_files(str(data.path))
    if not files:
        raise DataError(msg("no TFRecord file matches {path}; check data.path", path=data.path))
    per_file: list[int] = []
    for path in files:
        try:
            per_file.append(count_records(path))
        except (RecordError, OSError) as exc:
            raise DataError(msg("TFRecord file {path}: {exc}", path=path, exc=exc)) from None
    if not sum(per_file):
        raise DataError(msg("TFRecord files {path} hold no records", path=data.path))
    labels: Counter[int] = Counter()
    limit = QUICK_RECORDS if quick else FULL_RECORDS
    for path in files:
        try:
            for n, record in enumerate(records(path, limit - sum(labels.values())), start=1):
                labels[
                    _check_example(parse_example(record), data, msg("TFRecord file {path}, record {n}", path=path, n=n))
                ] += 1
        except RecordError as exc:
            raise DataError(msg("TFRecord file {path}: {exc}", path=path, exc=exc)) from None
        if sum(labels.values()) >= limit:
            break
    k = data.num_classes
    channels = data.feature_shape[-1] if data.feature_type == "image" else 0
    return SourceInfo(
        "tfrecord",
        sum(per_file),
        tuple(data.feature_shape),
        k,
        tuple(map(str, range(k))),
        tuple(labels.get(i, 0) for i in range(k)),
        files=tuple(files),
        file_examples=tuple(per_file),
        channels=channels,
        sampled=True,
        notes=(msg("classes counted in the first {records:,} records", records=sum(labels.values())),),
    )


def _check_example(example: dict[str, Feature], data: DataConfig, where: str) -> int:
    """The example's label, after checking it against the feature description."""
    names = ", ".join(sorted(example)) or "none"
    for key, field_name in ((data.features_key, "data.features_key"), (data.labels_key, "data.labels_key")):
        if key not in example:
            raise DataError(
                msg("{where} has no feature {key!r}; its features are: {names}", where=where, key=key, names=names),
                field_name,
                key,
            )
    feature, label = example[data.features_key], example[data.labels_key]
    if label.kind != "int64" or len(label.values) != 1:
        raise DataError(
            msg(
                "{where}: label {labels_key!r} holds {n_values} {kind} value(s); it must be one int64 class id",
                where=where,
                labels_key=data.labels_key,
                n_values=len(label.values),
                kind=label.kind,
            ),
            "data.labels_key",
            data.labels_key,
        )
    y = int(label.values[0])
    if not 0 <= y < data.num_classes:
        raise DataError(
            msg(
                "{where}: label {y} is not a class id below data.num_classes = {num_classes}; raise "
                "num_classes or fix the labels",
                where=where,
                y=y,
                num_classes=data.num_classes,
            ),
            "data.num_classes",
            data.num_classes,
        )
    if data.feature_type == "float":
        _check_floats(feature, data, where)
    else:
        _check_image(feature, data, where)
    return y


def _check_floats(feature: Feature, data: DataConfig, where: str) -> None:
    shape = tuple(data.feature_shape)
    if feature.kind != "float":
        raise DataError(
            msg(
                "{where}: feature {features_key!r} holds {kind} values, the description says float (set "
                "data.feature_type to image for encoded images)",
                where=where,
                features_key=data.features_key,
                kind=feature.kind,
            ),
            "data.feature_type",
            data.feature_type,
        )
    if len(feature.values) != math.prod(shape):
        raise DataError(
            msg(
                "{where}: feature {features_key!r} has {n_values} values; feature_shape {shape} needs {math}",
                where=where,
                features_key=data.features_key,
                n_values=len(feature.values),
                shape=list(shape),
                math=math.prod(shape),
            ),
            "data.feature_shape",
            list(shape),
        )


def _check_image(feature: Feature, data: DataConfig, where: str) -> None:
    from PIL import Image, UnidentifiedImageError

    shape, key = tuple(data.feature_shape), data.features_key
    if feature.kind != "bytes" or len(feature.values) != 1:
        raise DataError(
            msg(
                "{where}: feature {features_key!r} holds {kind} values, not one encoded image (set "
                "data.feature_type to float for a list of numbers)",
                where=where,
                features_key=key,
                kind=feature.kind,
            ),
            "data.feature_type",
            data.feature_type,
        )
    if len(shape) != 3:
        raise DataError(
            msg(
                "{where}: an image feature needs feature_shape [height, width, channels], not {shape}",
                where=where,
                shape=list(shape),
            ),
            "data.feature_shape",
            list(shape),
        )
    try:
        with Image.open(io.BytesIO(feature.values[0])) as im:
            mode = im.mode
    except (UnidentifiedImageError, Image.DecompressionBombError, OSError) as exc:
        raise DataError(
            msg("{where}: feature {key!r} is not an encoded image ({exc})", where=where, key=key, exc=exc),
            "data.features_key",
            key,
        ) from None
    if mode_channels(mode) not in (shape[2], 1, 3, 4):
        raise DataError(
            msg("{where}: image mode {mode} cannot become {shape} channels", where=where, mode=mode, shape=shape[2]),
            "data.feature_shape",
        )


def feature_names(path: str) -> list[str]:
    """Feature names of the first record of the first file."""
    first = next(records(matching_files(path)[0], 1), None)
    return sorted(parse_example(first)) if first else []


KIND = DataKind(
    name="tfrecord",
    hint=msg("tf.train.Example records: features and an int64 label"),
    fields=("num_classes", "path", "features_key", "labels_key", "feature_type", "feature_shape"),
    check=check,
    inspect=inspect,
    file_readers=True,
    file_filter=msg("TFRecord files (*.tfrecord *.tfrecords *.tfr);;All files (*)"),
    names=feature_names,
)
