"""An example dataset file for `"data": {"kind": "python", "path": "my_dataset.py"}`.

The contract: make_dataset(input_context) returns a tf.data.Dataset of (features, label) examples, not
batches (the dashboard batches them at input_context.get_per_replica_batch_size). It is called once per
input pipeline (one per worker): shard with input_context.input_pipeline_id / num_input_pipelines.
Labels are class ids 0 .. num_classes-1; data.num_samples examples make an epoch.
"""

import numpy as np
import tensorflow as tf


def _examples(seed, n):
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((n, 8)).astype("float32")
    y = (x[:, 0] * x[:, 1] + x[:, 2] > 0).astype("int64")
    return x, y


def make_dataset(input_context):
    x, y = _examples(0, 20_000)
    dataset = tf.data.Dataset.from_tensor_slices((x, y))
    dataset = dataset.shard(input_context.num_input_pipelines, input_context.input_pipeline_id)
    return dataset.shuffle(10_000, seed=input_context.input_pipeline_id)


def make_validation(input_context):
    x, y = _examples(1, 2_000)
    return tf.data.Dataset.from_tensor_slices((x, y))
