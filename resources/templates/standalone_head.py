"""Standalone training script exported by the TensorFlow distributed training dashboard.

It reproduces one configured run with plain TensorFlow and tf-keras, no
dashboard needed: the same devices, data, model, strategy (and all-reduce),
mixed precision, XLA and loop, and so the same per-epoch losses and validation losses for the
same seed. Run it with:

    pip install "tensorflow>=2.21,<2.22" "tf-keras>=2.21,<2.22"
    python THIS_FILE.py

It is the tutorial's recipe done right: batches come from
strategy.experimental_distribute_dataset (each replica gets global / replicas
examples), the loss is averaged over the *global* batch, and several steps
run per tf.function call.

main() does things in the order TensorFlow needs: devices are configured
before anything else touches them (TF fixes its devices at first use), the
mixed precision policy is set before the model is built, and the model and
optimizer are created inside strategy.scope() so their variables are
mirrored on every replica.
"""

# NOT REPRODUCED: the exporter lists here the config fields this script ignores, and why.
import os

os.environ.setdefault("TF_USE_LEGACY_KERAS", "1")  # tf-keras: the Keras tf.distribute was built with

import csv  # noqa: E402
import glob  # noqa: E402
import importlib.util  # noqa: E402
import platform  # noqa: E402
import time  # noqa: E402

import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402
import tf_keras as keras  # noqa: E402

CONFIG = {}  # the exporter writes the run's config here
