"""Data the tests make for themselves: image folders, TFRecord files, user model and dataset files.

Nothing is downloaded. Images are PNGs written with Pillow, with a
class-dependent pattern so that a small CNN learns them; TFRecord files are
written here in pure Python (framing with masked CRC-32C, tf.train.Example
encoded by hand), so GUI tests make them without importing TensorFlow.
"""

from __future__ import annotations

import struct
from pathlib import Path

import numpy as np

# ---- images ---------------------------------------------------------------------------------------


def class_image(label: int, index: int, size: tuple[int, int], channels: int, seed: int = 0) -> np.ndarray:
    """A uint8 image: class k is a bright band at a class-specific row, in a class-specific colour, on noise."""
    rng = np.random.default_rng(seed * 100_003 + label * 1009 + index)
    h, w = size
    image = rng.integers(0, 80, (h, w, channels), dtype=np.uint8)
    band = (label * h // 4) % h
    colour = [200 + rng.integers(0, 40) if (label + c) % 3 or channels == 1 else 60 for c in range(channels)]
    image[band : band + max(h // 4, 1), :, :] = np.asarray(colour, dtype=np.uint8)
    return image


def write_image_folder(
    root: Path,
    classes: int = 3,
    per_class: int = 24,
    size: tuple[int, int] = (16, 16),
    channels: int = 3,
    fmt: str = "png",
    seed: int = 0,
) -> Path:
    """root/class_<k>/img_<i>.png, one subfolder per class."""
    from PIL import Image

    mode = {1: "L", 3: "RGB", 4: "RGBA"}[channels]
    for k in range(classes):
        folder = root / f"class_{k}"
        folder.mkdir(parents=True, exist_ok=True)
        for i in range(per_class):
            pixels = class_image(k, i, size, channels, seed)
            Image.fromarray(pixels[..., 0] if channels == 1 else pixels, mode).save(folder / f"img_{i:04d}.{fmt}")
    return root


# ---- TFRecord ---------------------------------------------------------------------------------------


def _crc32c_table() -> list[int]:
    table = []
    for n in range(256):
        c = n
        for _ in range(8):
            c = (c >> 1) ^ 0x82F63B78 if c & 1 else c >> 1
        table.append(c)
    return table


_TABLE = _crc32c_table()


def crc32c(data: bytes) -> int:
    crc = 0xFFFFFFFF
    for byte in data:
        crc = _TABLE[(crc ^ byte) & 0xFF] ^ (crc >> 8)
    return crc ^ 0xFFFFFFFF


def masked_crc(data: bytes) -> int:
    crc = crc32c(data)
    return (((crc >> 15) | (crc << 17)) + 0xA282EAD8) & 0xFFFFFFFF


def _varint(n: int) -> bytes:
    n &= (1 << 64) - 1
    out = bytearray()
    while True:
        byte = n & 0x7F
        n >>= 7
        out.append(byte | (0x80 if n else 0))
        if not n:
            return bytes(out)


def _field(number: int, payload: bytes) -> bytes:
    return _varint(number << 3 | 2) + _varint(len(payload)) + payload


def encode_example(features: dict[str, tuple[str, list]]) -> bytes:
    """{name: ("float" | "int64" | "bytes", values)} as a serialized tf.train.Example."""
    entries = b""
    for name, (kind, values) in features.items():
        if kind == "float":
            inner = _field(2, _field(1, struct.pack(f"<{len(values)}f", *values)))
        elif kind == "int64":
            inner = _field(3, _field(1, b"".join(_varint(int(v)) for v in values)))
        else:
            inner = _field(1, b"".join(_field(1, v) for v in values))
        entries += _field(1, _field(1, name.encode()) + _field(2, inner))
    return _field(1, entries)


def write_tfrecord(path: Path, examples: list[bytes]) -> Path:
    with open(path, "wb") as f:
        for record in examples:
            length = struct.pack("<Q", len(record))
            f.write(length + struct.pack("<I", masked_crc(length)) + record + struct.pack("<I", masked_crc(record)))
    return path


def write_float_tfrecords(folder: Path, files: int = 4, per_file: int = 64, features: int = 6, seed: int = 0) -> Path:
    """folder/part-<i>.tfrecord; feature "x" (float, `features`), label "y"; x[0] is the example's id."""
    folder.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(seed)
    coeffs = rng.standard_normal(features - 1)
    for f in range(files):
        records = []
        for i in range(per_file):
            x = rng.standard_normal(features - 1)
            ident = f * per_file + i
            records.append(encode_example({"x": ("float", [float(ident), *x]), "y": ("int64", [int(x @ coeffs > 0)])}))
        write_tfrecord(folder / f"part-{f}.tfrecord", records)
    return folder


def write_image_tfrecords(folder: Path, files: int = 2, per_file: int = 24, size: tuple[int, int] = (16, 16)) -> Path:
    """Encoded PNGs under "image", 3 classes under "label"."""
    import io

    from PIL import Image

    folder.mkdir(parents=True, exist_ok=True)
    for f in range(files):
        records = []
        for i in range(per_file):
            label = (f * per_file + i) % 3
            buffer = io.BytesIO()
            Image.fromarray(class_image(label, i, size, 3)).save(buffer, "PNG")
            records.append(encode_example({"image": ("bytes", [buffer.getvalue()]), "label": ("int64", [label])}))
        write_tfrecord(folder / f"images-{f}.tfrecord", records)
    return folder


# ---- user code ---------------------------------------------------------------------------------------

PYTHON_MODEL = '''
"""A user's model file: a small CNN with synchronized batch normalisation."""
import tf_keras as keras


def build_model(input_shape, num_classes):
    inputs = keras.Input(shape=input_shape)
    x = keras.layers.Conv2D(8, 3, padding="same", use_bias=False)(inputs)
    x = keras.layers.BatchNormalization(synchronized=True)(x)
    x = keras.layers.Activation("relu")(x)
    x = keras.layers.GlobalAveragePooling2D()(x)
    outputs = keras.layers.Dense(1 if num_classes == 2 else num_classes{activation})(x)
    return keras.Model(inputs, outputs)
'''

PYTHON_DATA = '''
"""A user's dataset file: examples, sharded by input pipeline."""
import numpy as np
import tensorflow as tf


def _arrays(seed):
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((512, 6)).astype("float32")
    return x, (x[:, 0] + x[:, 1] > 0).astype("int64")


def make_dataset(input_context):
    x, y = _arrays(0)
    ds = tf.data.Dataset.from_tensor_slices((x, y))
    return ds.shard(input_context.num_input_pipelines, input_context.input_pipeline_id)


def make_validation(input_context):
    x, y = _arrays(1)
    return tf.data.Dataset.from_tensor_slices((x[:128], y[:128]))
'''


def write_python_model(path: Path, final_activation: str | None = None) -> Path:
    activation = f', activation="{final_activation}"' if final_activation else ""
    path.write_text(PYTHON_MODEL.replace("{activation}", activation), encoding="utf-8")
    return path


def write_python_data(path: Path) -> Path:
    path.write_text(PYTHON_DATA, encoding="utf-8")
    return path
