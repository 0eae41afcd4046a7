"""What a data source holds, found without TensorFlow: counts, shapes, classes, files.

Two callers: the trainer, before TensorFlow starts (`inspect(config)`:
every row, image header and record framing is checked, so a wrong folder
or a bad file is reported in a second with the file named, not after
TensorFlow's start-up), and the window's data preview (`inspect(config,
quick=True)`: a bounded sample, fast enough to run as the user types).
Memory stays bounded either way: files are streamed, never loaded whole.
Image headers are read with Pillow (it reads the header, not the pixels).
"""

from __future__ import annotations

import math
import os
import zipfile
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from engine.csv_rows import count_rows
from engine.kinds import FILE_KINDS, IMAGE_EXTENSIONS, matching_files
from engine.messages import msg
from engine.problems import DataError, Problem
from engine.tfrecord_reader import RecordError, count_records, parse_example, records

QUICK_IMAGES_PER_CLASS = 40  # headers read per class by the preview
QUICK_CSV_ROWS = 2000  # rows the preview reads from the first CSV file
QUICK_RECORDS = 200  # records the preview parses
FULL_RECORDS = 1000  # records the trainer parses to check the description (all are counted)
THUMBNAILS = 12


@dataclass(frozen=True)
class SourceInfo:
    """A data source as the trainer and the preview see it."""

    kind: str
    examples: int | None  # None: known only once the run starts (python sources)
    input_shape: tuple[int, ...] | None  # one example's features; None: known once the run starts
    num_classes: int
    class_names: tuple[str, ...] = ()
    class_counts: tuple[int, ...] = ()  # per class (of the sample, when `sampled`)
    files: tuple[str, ...] = field(default=(), repr=False)  # images, or CSV/TFRecord files
    file_examples: tuple[int, ...] = ()  # examples per file (CSV/TFRecord), for file sharding
    labels: np.ndarray | None = field(default=None, repr=False)  # image_folder: one label per file
    channels: int = 0  # images: channels after decoding
    sampled: bool = False  # counts or classes come from a sample (the preview)
    notes: tuple[str, ...] = ()  # said beside the numbers, e.g. "counted from the first 2,000 rows"

    @property
    def binary(self) -> bool:
        return self.num_classes == 2

    def thumbnails(self, n: int = THUMBNAILS) -> list[str]:
        """Up to n image files, taken round-robin across classes."""
        if self.kind != "image_folder" or self.labels is None:
            return []
        per_class = [
            [f for f, y in zip(self.files, self.labels, strict=True) if y == k] for k in range(self.num_classes)
        ]
        out: list[str] = []
        for i in range(n):
            for files in per_class:
                if i < len(files) and len(out) < n:
                    out.append(files[i])
        return out


def inspect(config, *, quick: bool = False) -> SourceInfo:  # noqa: ANN001 - RunConfig (kept TF- and cycle-free)
    """The source of `config.data`; DataError with one clear line when it cannot train."""
    data = config.data
    reader = {
        "synthetic": _synthetic,
        "npz": _npz,
        "csv": _csv,
        "image_folder": _image_folder,
        "tfrecord": _tfrecord,
        "python": _python,
    }.get(data.kind)
    if reader is None:
        raise DataError(msg("unknown data.kind {kind!r}", kind=data.kind), "data.kind", data.kind)
    return reader(data, quick)


def split_sizes(examples: int, validation_split: float) -> tuple[int, int]:
    """(training, validation) examples: the last share validates, as Keras's validation_split does."""
    n_val = int(examples * validation_split)
    return examples - n_val, n_val


def check_fits_batch(info: SourceInfo, validation_split: float, global_batch: int) -> None:
    if info.examples is None:
        return
    n_train, _ = split_sizes(info.examples, validation_split)
    if n_train < global_batch:
        raise DataError(
            msg(
                "{info}: {n_train} training examples are fewer than one global batch of {global_batch}; "
                "use more data or a smaller global_batch_size",
                info=describe(info),
                n_train=n_train,
                global_batch=global_batch,
            ),
            "global_batch_size",
            global_batch,
        )


def describe(info: SourceInfo) -> str:
    if info.kind in ("synthetic", "python"):
        return msg("{kind} data", kind=info.kind)
    return f"{info.kind} {info.files[0] if len(info.files) == 1 else Path(info.files[0]).parent}"


# ---- sharding -----------------------------------------------------------------------------


def resolve_shard_policy(policy: str, info: SourceInfo, workers: int, validation_split: float) -> str:
    """The policy a run uses: "auto" is decided here, before TensorFlow, so it is the same on every
    worker and can be explained (file when every worker gets a file and no validation split must be
    cut from the same rows, else data)."""
    if policy != "auto" or info.kind == "python":
        return policy if info.kind != "python" else "off"
    if info.kind in FILE_KINDS and len(info.files) >= workers > 1 and validation_split == 0:
        return "file"
    return "data"


def sharding_workers(strategy: str, workers: int) -> int:
    """Across how many workers the data is split. parameter_server: none; each worker streams the whole
    set in its own order and the coordinator counts an epoch's steps (so the set is read as for one)."""
    return 1 if strategy == "parameter_server" else workers


def shard_problem(policy: str, info: SourceInfo, workers: int) -> Problem | None:
    """`file` needs at least as many files as workers (TensorFlow gives each worker whole files)."""
    if policy == "file" and workers > len(info.files):
        return Problem(
            "data.shard_policy",
            "file",
            msg(
                "{workers} workers need at least {workers} files to split by file, and data.path matches "
                "{n_files}; split the data into more files, or use data",
                workers=workers,
                n_files=len(info.files),
            ),
        )
    return None


def worker_examples(info: SourceInfo, policy: str, workers: int) -> int:
    """Examples of the worker with the fewest (file sharding gives file i to worker i mod workers)."""
    if policy != "file" or workers <= 1:
        return info.examples or 0
    return min(sum(info.file_examples[w::workers]) for w in range(workers))


# ---- the kinds ----------------------------------------------------------------------------


def _synthetic(data, quick: bool) -> SourceInfo:  # noqa: ANN001
    return SourceInfo("synthetic", data.num_samples, (data.num_features,), max(data.num_classes, 2))


def _python(data, quick: bool) -> SourceInfo:  # noqa: ANN001
    return SourceInfo(
        "python",
        data.num_samples,
        None,
        data.num_classes,
        notes=(
            msg(
                "examples come from {file}:{function}() when the run starts",
                file=Path(str(data.path)).name,
                function=data.function,
            ),
        ),
    )


def check_every_class(present: Sequence[int], source: str, field_name: str = "data.path") -> None:
    """A file's labels use every class number 0..K-1, and at least two: labels {3, 7} would otherwise
    train an 8-class model with six classes that never occur, and one class trains nothing."""
    present = sorted(present)
    if len(present) < 2:
        raise DataError(
            msg(
                "{source}: only one class ({present}) in the labels; a classifier needs at least two",
                source=source,
                present=present[0] if present else msg("none"),
            ),
            field_name,
        )
    if len(present) < present[-1] + 1:
        shown = ", ".join(str(c) for c in present[:10]) + (" …" if len(present) > 10 else "")
        wanted = ", ".join(str(c) for c in range(min(len(present), 10))) + (" …" if len(present) > 10 else "")
        raise DataError(
            msg(
                "{source}: the labels are {shown}, but classes are numbered 0, 1, 2 … with every number "
                "used; renumber them {wanted} (otherwise the model gets {present} outputs, {unused} of "
                "them for classes without an example)",
                source=source,
                shown=shown,
                wanted=wanted,
                present=present[-1] + 1,
                unused=present[-1] + 1 - len(present),
            ),
            field_name,
        )


def labels_to_classes(y: np.ndarray, source: str, field_name: str = "data.path") -> tuple[np.ndarray, int]:
    """Binary labels are 0/1; multi-class labels are class numbers 0..K-1, every one of them used."""
    if y.size == 0:
        raise DataError(msg("{source} has no examples", source=source))
    if not np.issubdtype(y.dtype, np.number):
        raise DataError(
            msg("{source}: labels are {dtype}, not class numbers 0, 1, 2, ...", source=source, dtype=y.dtype),
            field_name,
        )
    bad = ~np.isfinite(y) | (y < 0) | (y != np.round(y))
    if bad.any():
        i = int(np.argmax(bad))
        raise DataError(
            msg(
                "{source}: example {i} has label {y!r}; labels must be class numbers 0, 1, 2, ... (0/1 for binary)",
                source=source,
                i=i,
                y=y[i],
            ),
            field_name,
        )
    y = y.astype(np.int64)
    check_every_class(np.unique(y).tolist(), source, field_name)
    return y, max(int(y.max()) + 1, 2)


NPY_MAGIC = b"\x93NUMPY"  # numpy.save's files start with it; numpy.savez writes a zip of them


def _npz(data, quick: bool) -> SourceInfo:  # noqa: ANN001
    path = str(Path(str(data.path)).expanduser())
    source = msg("NPZ file {path}", path=data.path)
    try:
        with open(path, "rb") as f:
            single_array = f.read(len(NPY_MAGIC)) == NPY_MAGIC
    except OSError as exc:
        raise DataError(
            msg("{source} cannot be read ({value}); check data.path", source=source, value=exc.strerror or exc)
        ) from None
    if single_array:
        raise DataError(
            msg(
                "{source} holds a single array (.npy), not named arrays of features and labels; save "
                "them with numpy.savez(path, x=features, y=labels)",
                source=source,
            )
        )
    try:
        with zipfile.ZipFile(path) as z, np.load(path, allow_pickle=False) as npz:
            names = [n[:-4] if n.endswith(".npy") else n for n in z.namelist()]
            missing = [k for k in (data.features_key, data.labels_key) if k not in names]
            if missing:
                raise DataError(
                    msg(
                        "{source} has no array {missing!r}; its arrays are: {value} (set data.features_key and "
                        "data.labels_key)",
                        source=source,
                        missing=missing[0],
                        value=", ".join(names) or msg("none"),
                    ),
                    "data.features_key" if missing[0] == data.features_key else "data.labels_key",
                    missing[0],
                )
            with z.open(data.features_key + ".npy") as f:
                major, _ = np.lib.format.read_magic(f)
                read_header = np.lib.format.read_array_header_1_0 if major == 1 else np.lib.format.read_array_header_2_0
                shape, _, dtype = read_header(f)  # the header only, not the array
            y = np.asarray(npz[data.labels_key])
    except DataError:
        raise
    except (zipfile.BadZipFile, ValueError, OSError, KeyError) as exc:
        raise DataError(
            msg("{source} cannot be read ({exc}); save it with numpy.savez", source=source, exc=exc)
        ) from None
    if not np.issubdtype(dtype, np.number):
        raise DataError(
            msg("{source}: features are {dtype}, not numbers", source=source, dtype=dtype),
            "data.features_key",
            data.features_key,
        )
    shape = tuple(shape) if len(shape) > 1 else (shape[0], 1)
    if y.ndim != 1 or shape[0] != len(y) or len(shape) != 2:
        raise DataError(
            msg(
                "{source}: features must be (samples, features) and labels (samples,); got {shape} and {shape2}",
                source=source,
                shape=shape,
                shape2=y.shape,
            )
        )
    y, k = labels_to_classes(y, source, "data.labels_key")
    counts = np.bincount(y, minlength=k)
    names = tuple(map(str, range(k)))
    return SourceInfo("npz", len(y), (shape[1],), k, names, tuple(int(c) for c in counts), files=(path,))


def _csv(data, quick: bool) -> SourceInfo:  # noqa: ANN001
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
    )


def _estimate_rows(path: str, rows_read: int, sample_path: str) -> int:
    """Rows of a file from its size and the bytes per row of the sample (the preview's estimate)."""
    if rows_read <= 0:
        return 0
    with open(sample_path, "rb") as f:
        sample = f.read(1 << 20)
    lines = max(sample.count(b"\n"), 1)
    return max(int(os.path.getsize(path) / (len(sample) / lines)) - 1, 0)


def _image_mode_channels(mode: str) -> int:
    """Channels a Pillow mode decodes to: TensorFlow has no two-channel images, so grayscale+alpha is grayscale."""
    return {"1": 1, "L": 1, "LA": 1, "La": 1, "I": 1, "I;16": 1, "F": 1, "RGBA": 4, "PA": 4}.get(mode, 3)


def _image_folder(data, quick: bool) -> SourceInfo:  # noqa: ANN001
    from PIL import Image, UnidentifiedImageError

    root = Path(str(data.path)).expanduser()
    if not root.is_dir():
        raise DataError(msg("image folder {path} does not exist; check data.path", path=data.path))
    classes: list[str] = []
    files: list[str] = []
    labels: list[int] = []
    for sub in sorted(p for p in root.iterdir() if p.is_dir() and not p.name.startswith(".")):
        images = sorted(
            str(f) for f in sub.rglob("*") if f.suffix.lower() in IMAGE_EXTENSIONS and not f.name.startswith(".")
        )
        if images:
            labels += [len(classes)] * len(images)
            classes.append(sub.name)
            files += images
    if not files:
        loose = [f.name for f in root.iterdir() if f.suffix.lower() in IMAGE_EXTENSIONS][:1]
        hint = msg(" (images such as {image} lie in the folder itself)", image=loose[0]) if loose else ""
        raise DataError(
            msg(
                "image folder {path} has no images in subfolders{hint}; put each class's images "
                "({image_extensions}) in a subfolder named after the class",
                path=data.path,
                hint=hint,
                image_extensions=", ".join(IMAGE_EXTENSIONS),
            )
        )
    if len(classes) < 2:
        raise DataError(
            msg(
                "image folder {path} has one class ({classes}); a classifier needs at least two "
                "subfolders of images, one per class",
                path=data.path,
                classes=classes[0],
            )
        )
    label_array = np.asarray(labels, dtype=np.int64)
    checked = _sample_per_class(files, label_array, len(classes)) if quick else range(len(files))
    sizes: dict[tuple[int, int], str] = {}
    channel_counts: dict[int, str] = {}
    for i in checked:
        path = files[i]
        try:
            with Image.open(path) as im:
                size, mode = im.size, im.mode
                if not quick:
                    im.verify()
        except (UnidentifiedImageError, Image.DecompressionBombError, OSError, SyntaxError, ValueError) as exc:
            raise DataError(
                msg("image {path} cannot be read ({exc}); replace or delete it", path=path, exc=exc),
                "data.path",
                data.path,
            ) from None
        sizes.setdefault((size[1], size[0]), path)
        channel_counts.setdefault(_image_mode_channels(mode), path)
    if data.image_size is None and len(sizes) > 1:
        (a, fa), (b, fb) = list(sizes.items())[:2]
        raise DataError(
            msg(
                "image folder {path} has images of mixed sizes ({a}x{a2} in {fa}, {b}x{b2} in {fb}); set "
                "data.image_size, e.g. [64, 64], to resize them all",
                path=data.path,
                a=a[0],
                a2=a[1],
                fa=fa,
                b=b[0],
                b2=b[1],
                fb=fb,
            ),
            "data.image_size",
            None,
        )
    if data.color_mode == "auto" and len(channel_counts) > 1:
        (a, fa), (b, fb) = list(channel_counts.items())[:2]
        raise DataError(
            msg(
                "image folder {path} mixes images with {a} channel(s) ({fa}) and {b} ({fb}); set "
                'data.color_mode to "rgb" or "grayscale" to convert them all',
                path=data.path,
                a=a,
                fa=fa,
                b=b,
                fb=fb,
            ),
            "data.color_mode",
            "auto",
        )
    channels = {"rgb": 3, "grayscale": 1}.get(data.color_mode) or next(iter(channel_counts))
    height, width = tuple(data.image_size) if data.image_size else next(iter(sizes))
    counts = np.bincount(label_array, minlength=len(classes))
    return SourceInfo(
        "image_folder",
        len(files),
        (height, width, channels),
        len(classes),
        tuple(classes),
        tuple(int(c) for c in counts),
        files=tuple(files),
        labels=label_array,
        channels=channels,
        notes=(msg("headers of {checked:,} of {files:,} images checked", checked=len(checked), files=len(files)),)
        if quick
        else (),
    )


def _sample_per_class(files: list[str], labels: np.ndarray, k: int) -> list[int]:
    out: list[int] = []
    for c in range(k):
        idx = np.flatnonzero(labels == c)
        out += idx[np.linspace(0, len(idx) - 1, min(len(idx), QUICK_IMAGES_PER_CLASS)).astype(int)].tolist()
    return out


def _tfrecord(data, quick: bool) -> SourceInfo:  # noqa: ANN001
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


def _check_example(example: dict, data, where: str) -> int:  # noqa: ANN001
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
    shape = tuple(data.feature_shape)
    if data.feature_type == "float":
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
    else:
        if feature.kind != "bytes" or len(feature.values) != 1:
            raise DataError(
                msg(
                    "{where}: feature {features_key!r} holds {kind} values, not one encoded image (set "
                    "data.feature_type to float for a list of numbers)",
                    where=where,
                    features_key=data.features_key,
                    kind=feature.kind,
                ),
                "data.feature_type",
                data.feature_type,
            )
        _check_encoded_image(feature.values[0], shape, where, data.features_key)
    return y


def _check_encoded_image(blob: bytes, shape: tuple[int, ...], where: str, key: str) -> None:
    import io

    from PIL import Image, UnidentifiedImageError

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
        with Image.open(io.BytesIO(blob)) as im:
            mode = im.mode
    except (UnidentifiedImageError, Image.DecompressionBombError, OSError) as exc:
        raise DataError(
            msg("{where}: feature {key!r} is not an encoded image ({exc})", where=where, key=key, exc=exc),
            "data.features_key",
            key,
        ) from None
    if _image_mode_channels(mode) not in (shape[2], 1, 3, 4):
        raise DataError(
            msg("{where}: image mode {mode} cannot become {shape} channels", where=where, mode=mode, shape=shape[2]),
            "data.feature_shape",
        )
