"""Standalone training script exported by the TensorFlow distributed training dashboard.

It reproduces one configured run with plain TensorFlow and tf-keras, no
dashboard needed: the same data, model, strategy and loop, and so the same
per-epoch losses for the same seed. Run it with:

    pip install "tensorflow>=2.21,<2.22" "tf-keras>=2.21,<2.22"
    python THIS_FILE.py

It is the tutorial's recipe done right: batches come from
strategy.experimental_distribute_dataset (each replica gets global / replicas
examples), the loss is averaged over the *global* batch, and several steps
run per tf.function call.
"""
import os

os.environ.setdefault("TF_USE_LEGACY_KERAS", "1")  # tf-keras: the Keras tf.distribute was built with

import csv  # noqa: E402
import time  # noqa: E402

import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402
import tf_keras as keras  # noqa: E402

CONFIG = {}  # the exporter writes the run's config here

# ---- data --------------------------------------------------------------------------


def load_data(config):
    """Features and integer labels as NumPy arrays."""
    data = config["data"]
    if data["kind"] == "synthetic":
        rng = np.random.default_rng(config["seed"])
        n, f, k = data["num_samples"], data["num_features"], data["num_classes"]
        x = rng.standard_normal((n, f), dtype=np.float32)
        width = 1 if k == 2 else k
        coeffs = rng.standard_normal((f, width), dtype=np.float32)
        logits = x @ coeffs + rng.normal(0.0, 0.1, (n, width)).astype(np.float32)
        y = (logits[:, 0] > 0) if k == 2 else logits.argmax(axis=1)
        return x, y.astype(np.int64)
    if data["kind"] == "csv":
        with open(data["path"], newline="", encoding="utf-8-sig") as f:
            rows = [r for r in csv.reader(f) if any(c.strip() for c in r)]
        header = [h.strip() for h in rows[0]]
        values = np.array(rows[1:], dtype=np.float64)
        col = header.index(data["label"])
        return np.delete(values, col, axis=1).astype(np.float32), values[:, col].astype(np.int64)
    with np.load(data["path"]) as npz:
        x = np.asarray(npz[data["features_key"]], dtype=np.float32)
        return (x[:, None] if x.ndim == 1 else x), np.asarray(npz[data["labels_key"]]).astype(np.int64)


def split(config, x, y):
    """The last validation_split share validates, as in Keras."""
    n_val = int(len(x) * config["validation_split"])
    n_train = len(x) - n_val
    return (x[:n_train], y[:n_train]), ((x[n_train:], y[n_train:]) if n_val else None)


def as_labels(y, num_classes):
    return y.astype(np.float32)[:, None] if num_classes == 2 else y.astype(np.int32)


def epoch_dataset(config, base, epoch):
    """A fixed shuffle order per epoch, full global batches only."""
    ds = base
    if config["shuffle_buffer"] > 1:
        seed = (config["seed"] * 1_000_003 + epoch) % (2**31 - 1)
        ds = ds.shuffle(config["shuffle_buffer"], seed=seed, reshuffle_each_iteration=False)
    return ds.batch(config["global_batch_size"], drop_remainder=True).prefetch(tf.data.AUTOTUNE)


# ---- strategy and model -------------------------------------------------------------


def make_strategy(config):
    name, split_n = config["strategy"], config["virtual_devices"]
    gpus = tf.config.list_physical_devices("GPU")
    if name == "mirrored" and not gpus and split_n > 1:  # practise Mirrored on N logical CPUs
        cpu = tf.config.list_physical_devices("CPU")[0]
        tf.config.set_logical_device_configuration(cpu, [tf.config.LogicalDeviceConfiguration()] * split_n)
    if name == "one_device":
        return tf.distribute.OneDeviceStrategy("/gpu:0" if gpus else "/cpu:0")
    if name == "mirrored":
        devices = [d.name for d in tf.config.list_logical_devices("GPU")] or \
                  [d.name for d in tf.config.list_logical_devices("CPU")]
        return tf.distribute.MirroredStrategy(devices)
    if name == "multi_worker_mirrored":
        return tf.distribute.MultiWorkerMirroredStrategy()  # reads TF_CONFIG
    return tf.distribute.get_strategy()


def build_model(config, num_features, num_classes):
    model = keras.Sequential([keras.Input(shape=(num_features,), name="features")] + [
        keras.layers.Dense(units, activation=config["model"]["activation"], name=f"dense_{i}")
        for i, units in enumerate(config["model"]["hidden_units"])
    ] + [keras.layers.Dense(1 if num_classes == 2 else num_classes, dtype="float32", name="logits")], name="mlp")
    optimizer = {"adam": keras.optimizers.Adam, "sgd": keras.optimizers.SGD, "rmsprop": keras.optimizers.RMSprop,
                 "adagrad": keras.optimizers.Adagrad}[config["optimizer"]](learning_rate=config["learning_rate"])
    return model, optimizer


def loss_and_metric(num_classes, reduction=None):
    kwargs = {"reduction": reduction} if reduction else {}
    if num_classes == 2:
        return (keras.losses.BinaryCrossentropy(from_logits=True, **kwargs),
                keras.metrics.BinaryAccuracy(name="accuracy", threshold=0.0))
    return (keras.losses.SparseCategoricalCrossentropy(from_logits=True, **kwargs),
            keras.metrics.SparseCategoricalAccuracy(name="accuracy"))


# ---- loops --------------------------------------------------------------------------


def custom_loop(config, strategy, model, optimizer, base, steps, spe, num_classes):
    global_batch = config["global_batch_size"]
    with strategy.scope():
        loss_object, _ = loss_and_metric(num_classes, keras.losses.Reduction.NONE)

    def correct(labels, logits):
        if num_classes == 2:
            predicted = tf.cast(logits > 0, tf.float32)
        else:
            predicted = tf.cast(tf.argmax(logits, axis=-1, output_type=tf.int32), labels.dtype)
        return tf.reduce_sum(tf.cast(tf.equal(predicted, labels), tf.float32))

    def train_step(features, labels):
        with tf.GradientTape() as tape:
            logits = model(features, training=True)
            loss = tf.nn.compute_average_loss(loss_object(labels, logits), global_batch_size=global_batch)
        grads = tape.gradient(loss, model.trainable_variables)
        optimizer.apply_gradients(zip(grads, model.trainable_variables))
        return loss, correct(labels, logits)

    @tf.function
    def train_steps(iterator, n):
        losses = tf.TensorArray(tf.float32, size=n)
        accuracies = tf.TensorArray(tf.float32, size=n)
        for i in tf.range(n):
            loss, right = strategy.run(train_step, args=next(iterator))
            losses = losses.write(i, strategy.reduce("SUM", loss, axis=None))
            accuracies = accuracies.write(i, strategy.reduce("SUM", right, axis=None) / global_batch)
        return losses.stack(), accuracies.stack()

    for epoch in range(config["epochs"]):
        t0, done, loss_sum, acc_sum = time.perf_counter(), 0, 0.0, 0.0
        iterator = iter(strategy.experimental_distribute_dataset(epoch_dataset(config, base, epoch)))
        while done < steps:
            n = min(spe, steps - done)
            losses, accuracies = train_steps(iterator, tf.constant(n))
            loss_sum += float(np.sum(losses.numpy()))
            acc_sum += float(np.sum(accuracies.numpy()))
            done += n
        report(epoch, loss_sum / steps, acc_sum / steps, steps * global_batch / (time.perf_counter() - t0))


def fit_loop(config, strategy, model, optimizer, base, spe, num_classes):
    with strategy.scope():
        loss, metric = loss_and_metric(num_classes)
        model.compile(optimizer=optimizer, loss=loss, metrics=[metric], steps_per_execution=spe)
    for epoch in range(config["epochs"]):
        t0 = time.perf_counter()
        history = model.fit(epoch_dataset(config, base, epoch), initial_epoch=epoch, epochs=epoch + 1, verbose=0)
        logs = {k: v[-1] for k, v in history.history.items()}
        steps = len(base) // config["global_batch_size"]
        report(epoch, logs["loss"], logs["accuracy"], steps * config["global_batch_size"] / (time.perf_counter() - t0))


def report(epoch, loss, accuracy, rate):
    print(f"epoch {epoch + 1}: loss={loss:.8f} accuracy={accuracy:.6f} examples_per_sec={rate:.0f}", flush=True)


def main(config):
    x, y = load_data(config)
    num_classes = max(int(y.max()) + 1, 2)
    (x_train, y_train), _validation = split(config, x, y)
    strategy = make_strategy(config)
    print(f"{config['strategy']}: {strategy.num_replicas_in_sync} replica(s); global batch "
          f"{config['global_batch_size']} = {config['global_batch_size'] // strategy.num_replicas_in_sync} per replica")
    keras.utils.set_random_seed(config["seed"])
    with strategy.scope():
        model, optimizer = build_model(config, x_train.shape[1], num_classes)
    base = tf.data.Dataset.from_tensor_slices((x_train, as_labels(y_train, num_classes)))
    steps = len(x_train) // config["global_batch_size"]
    spe = config["steps_per_execution"]
    spe = max(1, min(32 if spe == "auto" else int(spe), steps))  # the dashboard tunes "auto" as it trains
    if config["loop"] == "fit":
        fit_loop(config, strategy, model, optimizer, base, spe, num_classes)
    else:
        custom_loop(config, strategy, model, optimizer, base, steps, spe, num_classes)


if __name__ == "__main__":
    main(CONFIG)
