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

from engine.core.config import DataConfig, RunConfig
from engine.core.sources import inspect
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


def test_decoding_up_front_or_in_training_gives_the_same_batches(tmp_path, monkeypatch):
    """Each epoch trains on a permutation of every image (InputSource.order): decoded up front, the batches
    are gathered from memory; past the cache's budget, the files are decoded in that same order. So
    caching never changes the batches (and the losses), from the step a resume skips to."""
    from engine.train.datasets import images as images_module
    from tests.data_factory import write_image_folder

    folder = write_image_folder(tmp_path / "images", classes=3, per_class=8, size=(8, 8))
    config = RunConfig(
        data=DataConfig(kind="image_folder", path=str(folder)), global_batch_size=4, validation_split=0.25
    )
    info = inspect(config)
    cached = ImageFolderSource(config, info, "off", 1)
    monkeypatch.setattr(images_module, "CACHE_BUDGET_BYTES", 0)
    streamed = ImageFolderSource(config, info, "off", 1)
    assert cached.cached is not None and streamed.cached is None and streamed.in_memory() is None
    for epoch in (0, 1):
        pairs = list(zip(cached.train(epoch, skip_steps=1), streamed.train(epoch, skip_steps=1), strict=True))
        assert len(pairs) == 3
        for (x, y), (x_streamed, y_streamed) in pairs:
            np.testing.assert_array_equal(x.numpy(), x_streamed.numpy())
            np.testing.assert_array_equal(y.numpy(), y_streamed.numpy())
