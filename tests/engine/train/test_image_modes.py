"""Image folders whose images TensorFlow cannot decode to the run's channels as stored are converted.

Grayscale+alpha PNGs (color_mode auto) and GIFs (color_mode grayscale) passed the check and then failed
in TensorFlow ("channels must be ..."); each case here is decoded by the run's reader and compared with
Pillow's conversion of the same file (issue 23, item 13).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from engine.config import DataConfig, RunConfig
from engine.sources import inspect
from engine.train.datasets.images import ImageFolderSource

CASES = {  # name: (Pillow mode written, format, color_mode, channels the run gets, Pillow mode to compare with)
    "grayscale-alpha-png-auto": ("LA", "png", "auto", 1, "L"),
    "gif-grayscale": ("RGB", "gif", "grayscale", 1, "L"),
    "grayscale-gif-auto": ("L", "gif", "auto", 3, "RGB"),  # Pillow opens it as a palette image
    "gif-auto": ("RGB", "gif", "auto", 3, "RGB"),
    "grayscale-alpha-png-rgb": ("LA", "png", "rgb", 3, "RGB"),
}


def write_folder(root: Path, mode: str, fmt: str) -> list[Path]:
    rng = np.random.default_rng(0)
    files = []
    for k in range(2):
        (root / f"class_{k}").mkdir(parents=True)
        for i in range(3):
            bands = len(mode)
            pixels = rng.integers(0, 256, (8, 8, bands), dtype=np.uint8)
            image = Image.fromarray(pixels[..., 0] if bands == 1 else pixels, mode)
            files.append(root / f"class_{k}" / f"img_{i}.{fmt}")
            image.save(files[-1])
    return files


@pytest.mark.parametrize("name", CASES)
def test_every_image_is_decoded_to_the_runs_channels(tmp_path, name):
    mode, fmt, color_mode, channels, compare = CASES[name]
    write_folder(tmp_path / "images", mode, fmt)
    config = RunConfig(
        data=DataConfig(kind="image_folder", path=str(tmp_path / "images"), color_mode=color_mode),
        global_batch_size=2,
    )
    info = inspect(config)
    assert info.input_shape == (8, 8, channels)
    source = ImageFolderSource(config, info, "off", 1)
    assert source.cached is not None
    images, _ = source.cached
    for path, image in zip(source.paths, images, strict=True):
        with Image.open(path) as im:
            expected = np.asarray(im.convert(compare), np.float32).reshape(8, 8, channels) / 255
        np.testing.assert_allclose(image, expected, atol=1.5 / 255)
