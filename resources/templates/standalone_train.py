"""Standalone training script exported by the TensorFlow distributed training dashboard.

It reproduces one configured run with plain TensorFlow and tf-keras, no
dashboard needed: the same devices, data, model, strategy, mixed precision
and loop, and so the same per-epoch losses and validation losses for the
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
import platform  # noqa: E402
import time  # noqa: E402

import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402
import tf_keras as keras  # noqa: E402

CONFIG = {}  # the exporter writes the run's config here

# ---- data --------------------------------------------------------------------------


def load_data(config):
    """Features and integer labels as NumPy arrays."""
    data = config["data"]
    if data["kind"] == "synthetic":  # the tutorial's data: labels from a noisy random linear rule
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
    """The last validation_split share of the examples validates, as in Keras; the rest trains."""
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


def validation_dataset(config, x, y, num_classes):
    """Every validation example in global batches, the last one possibly short."""
    ds = tf.data.Dataset.from_tensor_slices((x, as_labels(y, num_classes)))
    return ds.batch(config["global_batch_size"]).prefetch(tf.data.AUTOTUNE)


# ---- devices and strategy -------------------------------------------------------------


def configure_devices(config):
    """Make the chosen devices visible, split them, and return (device names for the strategy, GPU count).

    Runs before anything else touches TensorFlow's devices: after that TF refuses to change them.
    """
    gpus = tf.config.list_physical_devices("GPU")
    machine_gpus = [f"GPU:{i}" for i in range(len(gpus))]
    wanted = [d.upper() for d in config["devices"] or machine_gpus or ["CPU:0"]]  # default: every GPU
    if config["strategy"] in ("default", "one_device"):
        wanted = wanted[:1]  # one device trains
    if not (set(wanted) <= set(machine_gpus) or wanted == ["CPU:0"]):
        raise SystemExit(
            f"devices {wanted}: this machine has {machine_gpus or 'no GPU'} and CPU:0; "
            "list some of its GPUs, or the CPU alone"
        )
    # Mirrored can split each device into N logical ones, to practise on one GPU or the CPU;
    # the other strategies run one replica per device (multi-worker: one per worker on a CPU).
    split_n = config["virtual_devices"] if config["strategy"] == "mirrored" else 1
    chosen = [gpus[machine_gpus.index(d)] for d in wanted if d != "CPU:0"]
    if gpus:
        tf.config.set_visible_devices(chosen, "GPU")  # a CPU run hides every GPU; the chosen become /gpu:0..
        for gpu in chosen:
            if split_n > 1:  # N logical GPUs sharing one, each with its own memory limit
                tf.config.set_logical_device_configuration(
                    gpu, [tf.config.LogicalDeviceConfiguration(memory_limit=config["virtual_gpu_memory_mb"])] * split_n
                )
            elif config["memory_growth"]:  # allocate as needed, not all at once; TF forbids it with a split
                tf.config.experimental.set_memory_growth(gpu, True)
    if chosen:
        return [f"/gpu:{k}" for k in range(len(chosen) * split_n)], len(chosen)
    if split_n > 1:  # N logical CPUs: mirrored training without a GPU
        cpu = tf.config.list_physical_devices("CPU")[0]
        tf.config.set_logical_device_configuration(cpu, [tf.config.LogicalDeviceConfiguration()] * split_n)
    return [f"/cpu:{k}" for k in range(split_n)], 0


def make_strategy(config, devices, gpu_count):
    """The tf.distribute strategy; the all-reduce is the dashboard's choice (engine/plan.py)."""
    name, linux = config["strategy"], platform.system() == "Linux"
    if name == "default":
        return tf.distribute.get_strategy()  # no distribution: the one visible device
    if name == "one_device":
        return tf.distribute.OneDeviceStrategy(devices[0])
    if name == "mirrored":
        if gpu_count > 1:  # NCCL is the fast path between GPUs, on Linux only
            reduce = tf.distribute.NcclAllReduce() if linux else tf.distribute.HierarchicalCopyAllReduce()
        else:  # the CPU, or logical devices of one GPU
            reduce = tf.distribute.ReductionToOneDevice()
        return tf.distribute.MirroredStrategy(devices, cross_device_ops=reduce)
    # multi_worker_mirrored: the TF_CONFIG environment variable names the cluster and this worker's task;
    # every worker runs this same script, and each visible device is one replica
    comm = tf.distribute.experimental.CommunicationImplementation
    options = tf.distribute.experimental.CommunicationOptions(
        implementation=comm.NCCL if gpu_count and linux else comm.RING
    )
    return tf.distribute.MultiWorkerMirroredStrategy(communication_options=options)


# ---- model --------------------------------------------------------------------------


def build_model(config, num_features, num_classes):
    """The MLP and its optimizer; call inside strategy.scope().

    The output layer gives logits and stays float32 under mixed precision:
    a float16 output is the classic source of NaN losses.
    """
    model = keras.Sequential(
        [keras.Input(shape=(num_features,), name="features")]
        + [
            keras.layers.Dense(units, activation=config["model"]["activation"], name=f"dense_{i}")
            for i, units in enumerate(config["model"]["hidden_units"])
        ]
        + [keras.layers.Dense(1 if num_classes == 2 else num_classes, dtype="float32", name="logits")],
        name="mlp",
    )
    optimizer = {
        "adam": keras.optimizers.Adam,
        "sgd": keras.optimizers.SGD,
        "rmsprop": keras.optimizers.RMSprop,
        "adagrad": keras.optimizers.Adagrad,
    }[config["optimizer"]](learning_rate=config["learning_rate"])
    if config["mixed_precision"] == "float16" and config["loop"] == "custom":
        # float16 gradients underflow: scale the loss up, and the gradients back down (model.compile
        # does this wrapping by itself for fit; bfloat16 has float32's range and needs no scaling)
        optimizer = keras.mixed_precision.LossScaleOptimizer(optimizer)
    return model, optimizer


def loss_and_metric(num_classes, reduction=None):
    kwargs = {"reduction": reduction} if reduction else {}
    if num_classes == 2:
        return (
            keras.losses.BinaryCrossentropy(from_logits=True, **kwargs),
            keras.metrics.BinaryAccuracy(name="accuracy", threshold=0.0),
        )
    return (
        keras.losses.SparseCategoricalCrossentropy(from_logits=True, **kwargs),
        keras.metrics.SparseCategoricalAccuracy(name="accuracy"),
    )


# ---- loops --------------------------------------------------------------------------


def custom_loop(config, strategy, model, optimizer, base, validation, steps, spe, num_classes):
    global_batch = config["global_batch_size"]
    scales_loss = isinstance(optimizer, keras.mixed_precision.LossScaleOptimizer)
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
            # float16: gradients of the loss scaled up, so small ones do not underflow; scaled down below
            scaled = optimizer.get_scaled_loss(loss) if scales_loss else loss
        grads = tape.gradient(scaled, model.trainable_variables)
        if scales_loss:
            grads = optimizer.get_unscaled_gradients(grads)
        optimizer.apply_gradients(zip(grads, model.trainable_variables, strict=True))
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

    def eval_step(features, labels):
        logits = model(features, training=False)
        examples = tf.cast(tf.shape(labels)[0], tf.float32)
        return tf.reduce_sum(loss_object(labels, logits)), correct(labels, logits), examples

    @tf.function
    def evaluate_batch(batch):
        return [strategy.reduce("SUM", t, axis=None) for t in strategy.run(eval_step, args=batch)]

    def evaluate():
        """Sum of per-example losses / examples, over every validation example (the last batch may be short)."""
        loss_sum = right = count = 0.0
        for batch in strategy.experimental_distribute_dataset(validation):
            batch_loss, batch_right, n = (float(t) for t in evaluate_batch(batch))
            loss_sum, right, count = loss_sum + batch_loss, right + batch_right, count + n
        return loss_sum / count, right / count

    for epoch in range(config["epochs"]):
        t0, done, loss_sum, acc_sum = time.perf_counter(), 0, 0.0, 0.0
        iterator = iter(strategy.experimental_distribute_dataset(epoch_dataset(config, base, epoch)))
        while done < steps:
            n = min(spe, steps - done)
            losses, accuracies = train_steps(iterator, tf.constant(n))
            loss_sum += sum(float(v) for v in losses.numpy())
            acc_sum += sum(float(v) for v in accuracies.numpy())
            done += n
        rate = steps * global_batch / (time.perf_counter() - t0)
        report(epoch, loss_sum / steps, acc_sum / steps, evaluate() if validation is not None else None, rate)


def fit_loop(config, strategy, model, optimizer, base, validation, steps, spe, num_classes):
    with strategy.scope():
        loss, metric = loss_and_metric(num_classes)
        model.compile(optimizer=optimizer, loss=loss, metrics=[metric], steps_per_execution=spe)
    for epoch in range(config["epochs"]):  # one fit call per epoch: each epoch has its own fixed order
        t0 = time.perf_counter()
        history = model.fit(epoch_dataset(config, base, epoch), initial_epoch=epoch, epochs=epoch + 1, verbose=0)
        logs = {k: v[-1] for k, v in history.history.items()}
        rate = steps * config["global_batch_size"] / (time.perf_counter() - t0)
        val = None
        if validation is not None:
            val_logs = model.evaluate(validation, verbose=0, return_dict=True)
            val = val_logs["loss"], val_logs["accuracy"]
        report(epoch, logs["loss"], logs["accuracy"], val, rate)


def report(epoch, loss, accuracy, validation, rate):
    line = f"epoch {epoch + 1}: loss={loss:.8g} accuracy={accuracy:.6f}"
    if validation is not None:
        line += f" val_loss={validation[0]:.8g} val_accuracy={validation[1]:.6f}"
    print(f"{line} examples_per_sec={rate:.0f}", flush=True)


def main(config):
    x, y = load_data(config)
    num_classes = max(int(y.max()) + 1, 2)
    (x_train, y_train), val_arrays = split(config, x, y)
    global_batch = config["global_batch_size"]
    steps = len(x_train) // global_batch  # full global batches only
    if steps == 0:
        raise SystemExit(f"{len(x_train)} training examples are fewer than one global batch of {global_batch}")

    devices, gpu_count = configure_devices(config)
    if config["mixed_precision"] != "off":  # float16/bfloat16 maths, float32 variables
        keras.mixed_precision.set_global_policy(f"mixed_{config['mixed_precision']}")
    strategy = make_strategy(config, devices, gpu_count)
    replicas = strategy.num_replicas_in_sync
    if global_batch % replicas:
        raise SystemExit(f"global_batch_size {global_batch} must be divisible by the {replicas} replicas")
    print(
        f"{config['strategy']} on {', '.join(devices)}: {replicas} replica(s); global batch {global_batch} = "
        f"{global_batch // replicas} per replica; mixed precision: {config['mixed_precision']}"
    )

    keras.utils.set_random_seed(config["seed"])
    with strategy.scope():
        model, optimizer = build_model(config, x_train.shape[1], num_classes)
    base = tf.data.Dataset.from_tensor_slices((x_train, as_labels(y_train, num_classes)))
    validation = None if val_arrays is None else validation_dataset(config, *val_arrays, num_classes)
    # steps per tf.function call. "auto" is a fixed 32 here: the dashboard tunes it while training,
    # for speed and a responsive window, and which steps run does not change, so neither do the losses.
    spe = config["steps_per_execution"]
    spe = max(1, min(32 if spe == "auto" else int(spe), steps))
    loop = fit_loop if config["loop"] == "fit" else custom_loop
    loop(config, strategy, model, optimizer, base, validation, steps, spe, num_classes)


if __name__ == "__main__":
    main(CONFIG)
