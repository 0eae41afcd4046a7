"""image_folder: `path` has one subfolder of images per class, named after the class.

`image_size` [height, width] resizes (null: as stored, all alike);
`color_mode` auto keeps the images' channels, rgb or grayscale converts.
Headers are read with Pillow (the header, not the pixels): every image
before TensorFlow starts, a bounded sample per class for the preview.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from engine.core.data_kinds.base import DataConfig, DataKind, SourceInfo
from engine.core.messages import msg
from engine.core.problems import DataError, Problem, positive_ints

if TYPE_CHECKING:
    import numpy as np  # at run time numpy is imported where it is used: see engine/core/data_kinds/__init__.py

COLOR_MODES = ("auto", "rgb", "grayscale")
IMAGE_EXTENSIONS = (".png", ".jpg", ".jpeg", ".bmp", ".gif")
QUICK_IMAGES_PER_CLASS = 40  # headers read per class by the preview


def check(data: DataConfig, validation_split: float) -> list[Problem]:
    p: list[Problem] = []
    if not data.path:
        p.append(Problem("data.path", data.path, msg("give a folder with one subfolder of images per class")))
    elif not Path(data.path).expanduser().is_dir():
        p.append(Problem("data.path", data.path, msg("no such folder")))
    if data.image_size is not None and not positive_ints(data.image_size, 2):
        p.append(Problem("data.image_size", data.image_size, msg("[height, width] in pixels, or null for as stored")))
    if data.color_mode not in COLOR_MODES:
        p.append(
            Problem(
                "data.color_mode",
                data.color_mode,
                msg("must be one of: {color_modes}", color_modes=", ".join(COLOR_MODES)),
            )
        )
    return p


def mode_channels(mode: str) -> int:
    """Channels a Pillow mode decodes to: TensorFlow has no two-channel images, so grayscale+alpha is grayscale."""
    return {"1": 1, "L": 1, "LA": 1, "La": 1, "I": 1, "I;16": 1, "F": 1, "RGBA": 4, "PA": 4}.get(mode, 3)


def inspect(data: DataConfig, quick: bool) -> SourceInfo:
    import numpy as np

    classes, files, labels = _images_by_class(data)
    checked = _sample_per_class(labels, len(classes)) if quick else range(len(files))
    sizes, channel_counts = _headers(files, checked, data, quick)
    _check_alike(data, sizes, channel_counts)
    channels = {"rgb": 3, "grayscale": 1}.get(data.color_mode) or next(iter(channel_counts))
    height, width = tuple(data.image_size) if data.image_size else next(iter(sizes))
    counts = np.bincount(labels, minlength=len(classes))
    return SourceInfo(
        "image_folder",
        len(files),
        (height, width, channels),
        len(classes),
        tuple(classes),
        tuple(int(c) for c in counts),
        files=tuple(files),
        labels=labels,
        channels=channels,
        notes=(msg("headers of {checked:,} of {files:,} images checked", checked=len(checked), files=len(files)),)
        if quick
        else (),
    )


def _images_by_class(data: DataConfig) -> tuple[list[str], list[str], np.ndarray]:
    """(class names, image files, one label per file): a class per subfolder holding images."""
    import numpy as np

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
    return classes, files, np.asarray(labels, dtype=np.int64)


def _headers(
    files: list[str], checked: range | list[int], data: DataConfig, quick: bool
) -> tuple[dict[tuple[int, int], str], dict[int, str]]:
    """The (height, width) and the channel counts found, each with the first file that has it; the whole
    file is verified unless `quick`."""
    from PIL import Image, UnidentifiedImageError

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
        channel_counts.setdefault(mode_channels(mode), path)
    return sizes, channel_counts


def _check_alike(data: DataConfig, sizes: dict[tuple[int, int], str], channel_counts: dict[int, str]) -> None:
    """Images of one size and one channel count, unless the config converts them all."""
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


def _sample_per_class(labels: np.ndarray, k: int) -> list[int]:
    import numpy as np

    out: list[int] = []
    for c in range(k):
        idx = np.flatnonzero(labels == c)
        out += idx[np.linspace(0, len(idx) - 1, min(len(idx), QUICK_IMAGES_PER_CLASS)).astype(int)].tolist()
    return out


KIND = DataKind(
    name="image_folder",
    hint=msg("one subfolder of images per class (PNG, JPEG, BMP, GIF)"),
    fields=("path", "image_size", "color_mode"),
    check=check,
    inspect=inspect,
    folder=True,
)
