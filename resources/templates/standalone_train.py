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

# ---- data --------------------------------------------------------------------------

IMAGE_EXTENSIONS = (".png", ".jpg", ".jpeg", ".bmp", ".gif")


def user_file(path):
    """A user's file: relative paths are beside this script (the exporter copies Python files here)."""
    return path if os.path.isabs(path) else os.path.join(os.path.dirname(os.path.abspath(__file__)), path)


def import_function(path, name):
    """`name` from the user's Python file at `path`."""
    spec = importlib.util.spec_from_file_location("user_" + os.path.basename(path)[:-3], user_file(path))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return getattr(module, name)


def as_labels(y, num_classes):
    """Binary labels are float (n, 1), for one logit; multi-class labels int32 class ids."""
    return tf.cast(y, tf.float32)[..., None] if num_classes == 2 else tf.cast(y, tf.int32)


class Data:
    """The examples of config["data"]: unbatched training and validation examples in file order, decoded
    before batching (images) or after (CSV lines, TFRecord floats); epoch_dataset shuffles and batches."""

    def __init__(self, config):
        self.config = config
        data = config["data"]
        self.kind = data["kind"]
        self.files = sorted(glob.glob(data["path"])) if self.kind in ("csv", "tfrecord") else []
        self.num_classes = data["num_classes"]
        if self.kind in ("synthetic", "npz"):
            x, y = self.arrays(data)
            self.num_classes = max(int(y.max()) + 1, 2) if self.kind == "npz" else self.num_classes
            self.input_shape, count = x.shape[1:], len(x)
            self.held = (x, as_labels(y, self.num_classes))
            self.base = tf.data.Dataset.from_tensor_slices(self.held)
        elif self.kind == "csv":
            with open(self.files[0], newline="", encoding="utf-8-sig") as f:
                header = [h.strip() for h in next(csv.reader(f))]
            self.label_col, self.columns = header.index(data["label"]), len(header)
            labels = [int(float(r[self.label_col])) for r in self.csv_rows()]
            self.num_classes, count, self.input_shape = max(max(labels) + 1, 2), len(labels), (len(header) - 1,)
            lines = tf.data.Dataset.from_tensor_slices(self.files)
            lines = lines.interleave(lambda f: tf.data.TextLineDataset(f).skip(1), cycle_length=1)
            self.base = lines.map(tf.strings.strip).filter(lambda line: tf.strings.length(line) > 0)
        elif self.kind == "image_folder":
            root = data["path"]
            classes = sorted(d for d in os.listdir(root) if os.path.isdir(os.path.join(root, d)) and d[0] != ".")
            paths, labels = [], []
            for k, name in enumerate(c for c in classes if self.images(os.path.join(root, c))):
                found = self.images(os.path.join(root, name))
                paths, labels = paths + found, labels + [k] * len(found)
            order = np.random.default_rng(config["seed"]).permutation(len(paths))  # validation holds every class
            paths, labels = np.asarray(paths)[order], np.asarray(labels)[order]
            self.num_classes, count = int(labels.max()) + 1, len(paths)
            first = tf.io.decode_image(tf.io.read_file(paths[0]), expand_animations=False).shape
            channels = {"rgb": 3, "grayscale": 1}.get(data["color_mode"], first[-1])
            self.input_shape = (*(data["image_size"] or first[:2]), channels)
            self.held = (paths, labels)
            self.base = tf.data.Dataset.from_tensor_slices(self.held)
        elif self.kind == "tfrecord":
            self.input_shape = tuple(data["feature_shape"])
            count = sum(1 for _ in tf.data.TFRecordDataset(self.files))
            files = tf.data.Dataset.from_tensor_slices(self.files)
            self.base = files.interleave(tf.data.TFRecordDataset, cycle_length=1)
        else:  # python: the user's make_dataset(input_context) gives (features, label) examples
            self.make = import_function(data["path"], data["function"])
            spec = self.make(tf.distribute.InputContext(1, 0, 1)).element_spec
            self.input_shape, count = tuple(spec[0].shape), data["num_samples"]
        self.n_val = int(count * config["validation_split"])
        self.n_train = count - self.n_val
        self.steps = self.n_train // config["global_batch_size"]  # full global batches only

    def arrays(self, data):
        if self.kind == "synthetic":  # the tutorial's data: labels from a noisy random linear rule
            rng = np.random.default_rng(self.config["seed"])
            n, f, k = data["num_samples"], data["num_features"], data["num_classes"]
            x = rng.standard_normal((n, f), dtype=np.float32)
            width = 1 if k == 2 else k
            coeffs = rng.standard_normal((f, width), dtype=np.float32)
            logits = x @ coeffs + rng.normal(0.0, 0.1, (n, width)).astype(np.float32)
            y = (logits[:, 0] > 0) if k == 2 else logits.argmax(axis=1)
            return x, y.astype(np.int64)
        with np.load(data["path"]) as npz:
            x = np.asarray(npz[data["features_key"]], dtype=np.float32)
            return (x[:, None] if x.ndim == 1 else x), np.asarray(npz[data["labels_key"]]).astype(np.int64)

    def csv_rows(self):
        for path in self.files:
            with open(path, newline="", encoding="utf-8-sig") as f:
                yield from (r for r in list(csv.reader(f))[1:] if any(c.strip() for c in r))

    @staticmethod
    def images(folder):
        return sorted(
            os.path.join(d, f)
            for d, _, names in os.walk(folder)
            for f in names
            if f.lower().endswith(IMAGE_EXTENSIONS) and f[0] != "."
        )

    def examples(self, train):
        return self.base.take(self.n_train) if train else self.base.skip(self.n_train)

    def decode(self, ds):
        """Per example, before batching: image files, or TFRecord images."""
        config = self.config
        data = config["data"]
        if self.kind == "image_folder":
            height, width, channels = self.input_shape

            def load(path, y):
                image = tf.io.decode_image(tf.io.read_file(path), channels=channels, expand_animations=False)
                image = tf.cast(image, tf.float32)
                if data["image_size"]:
                    image = tf.image.resize(image, [height, width])
                return tf.ensure_shape(image / 255.0, self.input_shape), as_labels(y, self.num_classes)

            return ds.map(load, num_parallel_calls=tf.data.AUTOTUNE)
        if self.kind == "tfrecord" and data["feature_type"] == "image":
            height, width, channels = self.input_shape

            def parse(record):
                example = tf.io.parse_single_example(record, self.spec())
                image = tf.io.decode_image(example[data["features_key"]], channels=channels, expand_animations=False)
                image = tf.image.resize(tf.cast(image, tf.float32), [height, width]) / 255.0
                return tf.ensure_shape(image, self.input_shape), as_labels(
                    example[data["labels_key"]], self.num_classes
                )

            return ds.map(parse, num_parallel_calls=tf.data.AUTOTUNE)
        return ds

    def decode_batch(self, ds):
        """Per batch, after batching: CSV lines and TFRecord floats, vectorised."""
        config = self.config
        data = config["data"]
        if self.kind == "csv":

            def parse_lines(lines):
                columns = tf.io.decode_csv(lines, record_defaults=[[0.0]] * self.columns)
                features = tf.stack([c for i, c in enumerate(columns) if i != self.label_col], axis=1)
                return features, as_labels(columns[self.label_col], self.num_classes)

            return ds.map(parse_lines, num_parallel_calls=tf.data.AUTOTUNE)
        if self.kind == "tfrecord" and data["feature_type"] == "float":

            def parse_records(records):
                examples = tf.io.parse_example(records, self.spec())
                return examples[data["features_key"]], as_labels(examples[data["labels_key"]], self.num_classes)

            return ds.map(parse_records, num_parallel_calls=tf.data.AUTOTUNE)
        return ds

    def spec(self):
        config = self.config
        data = config["data"]
        feature = (
            tf.io.FixedLenFeature([], tf.string)
            if data["feature_type"] == "image"
            else tf.io.FixedLenFeature(list(data["feature_shape"]), tf.float32)
        )
        return {data["features_key"]: feature, data["labels_key"]: tf.io.FixedLenFeature([], tf.int64)}


def epoch_dataset(config, data, epoch):
    """A fixed shuffle order per epoch, full global batches only. Arrays and image files (data.held) are
    permuted whole; the others stream through a shuffle buffer."""
    ds = data.examples(train=True)
    seed = (config["seed"] * 1_000_003 + epoch) % (2**31 - 1)
    if config["shuffle_buffer"] > 1 and data.kind in ("synthetic", "npz", "image_folder"):
        order = np.random.default_rng(seed).permutation(data.n_train).astype(np.int32)
        ds = tf.data.Dataset.from_tensor_slices(tuple(tf.gather(t[: data.n_train], order) for t in data.held))
    elif config["shuffle_buffer"] > 1:
        ds = ds.shuffle(config["shuffle_buffer"], seed=seed, reshuffle_each_iteration=False)
    ds = data.decode_batch(data.decode(ds).batch(config["global_batch_size"], drop_remainder=True))
    return ds.prefetch(tf.data.AUTOTUNE)


def validation_dataset(config, data):
    """Every validation example in global batches, the last one possibly short."""
    ds = data.decode(data.examples(train=False)).batch(config["global_batch_size"])
    return data.decode_batch(ds).prefetch(tf.data.AUTOTUNE)


def python_pipeline(config, make, train):
    """A python dataset through distribute_datasets_from_function: examples batched per replica."""

    def dataset_fn(context):
        ds = make(context).map(lambda x, y: (tf.cast(x, tf.float32), as_labels(y, config["data"]["num_classes"])))
        ds = ds.repeat() if train else ds
        return ds.batch(context.get_per_replica_batch_size(config["global_batch_size"]), drop_remainder=train)

    return dataset_fn


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
    """The tf.distribute strategy; the all-reduce is the config's, or the dashboard's automatic choice
    (engine/core/plan.py)."""
    name, linux, choice = config["strategy"], platform.system() == "Linux", config["all_reduce"]
    if name == "default":
        return tf.distribute.get_strategy()  # no distribution: the one visible device
    if name == "one_device":
        return tf.distribute.OneDeviceStrategy(devices[0])
    if name == "mirrored":
        if choice == "auto" and gpu_count > 1:  # NCCL is the fast path between GPUs, on Linux only
            choice = "nccl" if linux else "hierarchical_copy"
        elif choice == "auto":  # the CPU, or logical devices of one GPU
            choice = "reduction_to_one_device"
        reduce = {
            "nccl": tf.distribute.NcclAllReduce,
            "hierarchical_copy": tf.distribute.HierarchicalCopyAllReduce,
            "reduction_to_one_device": tf.distribute.ReductionToOneDevice,
        }[choice]()
        return tf.distribute.MirroredStrategy(devices, cross_device_ops=reduce)
    # multi_worker_mirrored: the TF_CONFIG environment variable names the cluster and this worker's task;
    # every worker runs this same script, and each visible device is one replica
    if choice == "auto":
        choice = "nccl" if gpu_count and linux else "ring"
    comm = tf.distribute.experimental.CommunicationImplementation
    options = tf.distribute.experimental.CommunicationOptions(
        implementation=comm.NCCL if choice == "nccl" else comm.RING,
        bytes_per_pack=config["bytes_per_pack"],  # gradients all-reduced in packs of this size; 0: TF's own
        timeout_seconds=config["collective_timeout_s"],  # a hung all-reduce fails instead of waiting for ever
    )
    return tf.distribute.MultiWorkerMirroredStrategy(communication_options=options)


# ---- model --------------------------------------------------------------------------


# ---- fused Adam: the exporter writes the dashboard's own step here ----
def fuse_updates(optimizer):
    """Run as it is, the template keeps Keras's own Adam step; an exported script has the dashboard's."""
    return optimizer


# ---- end of fused Adam ----


def build_model(config, input_shape, num_classes):
    """The model and its optimizer; call inside strategy.scope().

    The engine's models end in float32 logits (a float16 output is the classic source of NaN losses under
    mixed precision); a user's model may end in softmax/sigmoid, detected by from_logits().
    """
    m = config["model"]
    units = 1 if num_classes == 2 else num_classes
    if m["kind"] == "mlp":
        flatten = [keras.layers.Flatten(name="flatten")] if len(input_shape) > 1 else []
        hidden = [
            keras.layers.Dense(size, activation=m["activation"], name=f"dense_{i}")
            for i, size in enumerate(m["hidden_units"])
        ]
        logits = keras.layers.Dense(units, dtype="float32", name="logits")
        model = keras.Sequential(
            [keras.Input(shape=input_shape, name="features"), *flatten, *hidden, logits], name="mlp"
        )
    elif m["kind"] == "cnn":  # synchronized batch norm: the global batch's statistics, so 1 and N replicas agree
        inputs = keras.Input(shape=input_shape)
        x, height, width = inputs, input_shape[0], input_shape[1]
        for filters in m["filters"]:
            x = keras.layers.Conv2D(filters, m["kernel_size"], padding="same", use_bias=not m["batch_norm"])(x)
            if m["batch_norm"]:
                x = keras.layers.BatchNormalization(synchronized=True, momentum=0.9)(x)  # the engine's momentum
            x = keras.layers.Activation(m["activation"])(x)
            if min(height, width) >= 2:
                x, height, width = keras.layers.MaxPooling2D(2)(x), height // 2, width // 2
        x = keras.layers.GlobalAveragePooling2D()(x)
        for size in m["hidden_units"]:
            x = keras.layers.Dense(size, activation=m["activation"])(x)
        model = keras.Model(inputs, keras.layers.Dense(units, dtype="float32", name="logits")(x), name="cnn")
    elif m["kind"] == "keras_application":  # random weights, or a local file: never a download
        base = getattr(keras.applications, m["name"])(
            include_top=False, weights=None, input_shape=tuple(input_shape), pooling="avg"
        )
        if m["weights"]:
            base.load_weights(m["weights"])
        model = keras.Model(base.input, keras.layers.Dense(units, dtype="float32", name="logits")(base.output))
    elif m["kind"] == "python":  # the user's build_model(input_shape, num_classes, **kwargs)
        model = import_function(m["path"], m["function"])(tuple(input_shape), num_classes, **m["kwargs"])
    else:  # saved: a .keras model trained further
        model = keras.models.load_model(user_file(m["path"]), compile=False)
    optimizer = {
        "adam": keras.optimizers.Adam,
        "sgd": keras.optimizers.SGD,
        "rmsprop": keras.optimizers.RMSprop,
        "adagrad": keras.optimizers.Adagrad,
    }[config["optimizer"]](learning_rate=config["learning_rate"])
    optimizer = fuse_updates(optimizer)  # the dashboard's Adam step: the same rounding, the same losses
    if config["mixed_precision"] == "float16" and config["loop"] == "custom":
        # float16 gradients underflow: scale the loss up, and the gradients back down (model.compile
        # does this wrapping by itself for fit; bfloat16 has float32's range and needs no scaling)
        optimizer = keras.mixed_precision.LossScaleOptimizer(optimizer)
    return model, optimizer


def from_logits(model):
    """False when the last layer applies softmax or sigmoid: the loss then takes probabilities."""
    last = model.layers[-1]
    activation = getattr(getattr(last, "activation", None), "__name__", "")
    return not (isinstance(last, keras.layers.Softmax) or activation in ("softmax", "sigmoid"))


def loss_and_metric(num_classes, logits, reduction=None):
    kwargs = {"reduction": reduction} if reduction else {}
    if num_classes == 2:
        return (
            keras.losses.BinaryCrossentropy(from_logits=logits, **kwargs),
            keras.metrics.BinaryAccuracy(name="accuracy", threshold=0.0 if logits else 0.5),
        )
    return (
        keras.losses.SparseCategoricalCrossentropy(from_logits=logits, **kwargs),
        keras.metrics.SparseCategoricalAccuracy(name="accuracy"),
    )


# ---- loops --------------------------------------------------------------------------


def correct_count(num_classes, labels, outputs, logits):
    if num_classes == 2:  # a logit above 0, or a probability above 0.5
        predicted = tf.cast(outputs > (0.0 if logits else 0.5), tf.float32)
    else:
        predicted = tf.cast(tf.argmax(outputs, axis=-1, output_type=tf.int32), labels.dtype)
    return tf.reduce_sum(tf.cast(tf.equal(predicted, labels), tf.float32))


def distributed_train(config, strategy, data, epoch):
    if data.kind == "python":  # the user shards: one pipeline per worker, batched per replica
        return strategy.distribute_datasets_from_function(python_pipeline(config, data.make, True))
    return strategy.experimental_distribute_dataset(epoch_dataset(config, data, epoch))


def distributed_validation(config, strategy, data):
    """The validation batches for strategy.run, or None without validation."""
    name = config["data"]["validation_function"]
    if data.kind == "python":
        make = import_function(config["data"]["path"], name) if name else None
        return (
            None if make is None else strategy.distribute_datasets_from_function(python_pipeline(config, make, False))
        )
    return strategy.experimental_distribute_dataset(validation_dataset(config, data)) if data.n_val else None


def make_evaluate(config, strategy, model, data, logits):
    """Sum of per-example losses / examples, over every validation example (the last batch may be short)."""
    with strategy.scope():
        loss_object, _ = loss_and_metric(data.num_classes, logits, keras.losses.Reduction.NONE)

    def eval_step(features, labels):
        outputs = tf.cast(model(features, training=False), tf.float32)
        examples = tf.cast(tf.shape(labels)[0], tf.float32)
        return (
            tf.reduce_sum(loss_object(labels, outputs)),
            correct_count(data.num_classes, labels, outputs, logits),
            examples,
        )

    @tf.function
    def evaluate_batch(batch):
        return [strategy.reduce("SUM", t, axis=None) for t in strategy.run(eval_step, args=batch)]

    def evaluate():
        batches = distributed_validation(config, strategy, data)
        if batches is None:
            return None
        loss_sum = right = count = 0.0
        for batch in batches:
            batch_loss, batch_right, n = (float(t) for t in evaluate_batch(batch))
            loss_sum, right, count = loss_sum + batch_loss, right + batch_right, count + n
        return loss_sum / count, right / count

    return evaluate


def custom_loop(config, strategy, model, optimizer, data, spe, logits):
    global_batch, steps, num_classes = config["global_batch_size"], data.steps, data.num_classes
    scales_loss = isinstance(optimizer, keras.mixed_precision.LossScaleOptimizer)
    with strategy.scope():
        loss_object, _ = loss_and_metric(num_classes, logits, keras.losses.Reduction.NONE)

    def train_step(features, labels):
        with tf.GradientTape() as tape:
            outputs = tf.cast(model(features, training=True), tf.float32)
            loss = tf.nn.compute_average_loss(loss_object(labels, outputs), global_batch_size=global_batch)
            if model.losses:
                loss += tf.nn.scale_regularization_loss(tf.add_n(model.losses))
            # float16: gradients of the loss scaled up, so small ones do not underflow; scaled down below
            scaled = optimizer.get_scaled_loss(loss) if scales_loss else loss
        grads = tape.gradient(scaled, model.trainable_variables)
        if scales_loss:
            grads = optimizer.get_unscaled_gradients(grads)
        optimizer.apply_gradients(zip(grads, model.trainable_variables, strict=True))
        return loss, correct_count(num_classes, labels, outputs, logits)

    if config["jit_compile"]:  # XLA compiles each replica's step (the loop around it reads an iterator)
        train_step = tf.function(train_step, jit_compile=True)

    @tf.function
    def train_steps(iterator, n):
        losses = tf.TensorArray(tf.float32, size=n)
        accuracies = tf.TensorArray(tf.float32, size=n)
        for i in tf.range(n):
            loss, right = strategy.run(train_step, args=next(iterator))
            losses = losses.write(i, strategy.reduce("SUM", loss, axis=None))
            accuracies = accuracies.write(i, strategy.reduce("SUM", right, axis=None) / global_batch)
        return losses.stack(), accuracies.stack()

    evaluate = make_evaluate(config, strategy, model, data, logits)
    for epoch in range(config["epochs"]):
        t0, done, loss_sum, acc_sum = time.perf_counter(), 0, 0.0, 0.0
        iterator = iter(distributed_train(config, strategy, data, epoch))
        while done < steps:
            n = min(spe, steps - done)
            losses, accuracies = train_steps(iterator, tf.constant(n))
            loss_sum += sum(float(v) for v in losses.numpy())
            acc_sum += sum(float(v) for v in accuracies.numpy())
            done += n
        rate = steps * global_batch / (time.perf_counter() - t0)
        report(epoch, loss_sum / steps, acc_sum / steps, evaluate(), rate)


def fit_loop(config, strategy, model, optimizer, data, spe, logits):
    with strategy.scope():
        loss, metric = loss_and_metric(data.num_classes, logits)
        model.compile(
            optimizer=optimizer, loss=loss, metrics=[metric], steps_per_execution=spe, jit_compile=config["jit_compile"]
        )
        model.distribute_reduction_method = "first"  # fit's metrics are already reduced: "auto" sums the workers'
    evaluate = make_evaluate(config, strategy, model, data, logits)  # python datasets: their size is unknown
    for epoch in range(config["epochs"]):  # one fit call per epoch: each epoch has its own fixed order
        t0 = time.perf_counter()
        train = distributed_train(config, strategy, data, epoch) if data.kind == "python" else None
        train = train or epoch_dataset(config, data, epoch)
        history = model.fit(train, initial_epoch=epoch, epochs=epoch + 1, steps_per_epoch=data.steps, verbose=0)
        logs = {k: v[-1] for k, v in history.history.items()}
        rate = data.steps * config["global_batch_size"] / (time.perf_counter() - t0)
        val = None
        if data.kind == "python":
            val = evaluate()
        elif data.n_val:
            steps = -(-data.n_val // config["global_batch_size"])
            val_logs = model.evaluate(validation_dataset(config, data), steps=steps, verbose=0, return_dict=True)
            val = val_logs["loss"], val_logs["accuracy"]
        report(epoch, logs["loss"], logs["accuracy"], val, rate)


def report(epoch, loss, accuracy, validation, rate):
    line = f"epoch {epoch + 1}: loss={loss:.8g} accuracy={accuracy:.6f}"
    if validation is not None:
        line += f" val_loss={validation[0]:.8g} val_accuracy={validation[1]:.6f}"
    print(f"{line} examples_per_sec={rate:.0f}", flush=True)


def main(config):
    devices, gpu_count = configure_devices(config)  # before anything else touches TensorFlow's devices
    if config["mixed_precision"] != "off":  # float16/bfloat16 maths, float32 variables
        keras.mixed_precision.set_global_policy(f"mixed_{config['mixed_precision']}")
    strategy = make_strategy(config, devices, gpu_count)
    replicas, global_batch = strategy.num_replicas_in_sync, config["global_batch_size"]
    if global_batch % replicas:
        raise SystemExit(f"global_batch_size {global_batch} must be divisible by the {replicas} replicas")
    data = Data(config)
    if data.steps == 0:
        raise SystemExit(f"{data.n_train} training examples are fewer than one global batch of {global_batch}")
    print(
        f"{config['strategy']} on {', '.join(devices)}: {replicas} replica(s); global batch {global_batch} = "
        f"{global_batch // replicas} per replica; mixed precision: {config['mixed_precision']}; "
        f"XLA: {'on' if config['jit_compile'] else 'off'}"
    )

    keras.utils.set_random_seed(config["seed"])
    with strategy.scope():
        model, optimizer = build_model(config, data.input_shape, data.num_classes)
    # steps per tf.function call. "auto" is a fixed 32 here: the dashboard tunes it while training,
    # for speed and a responsive window, and which steps run does not change, so neither do the losses.
    spe = config["steps_per_execution"]
    spe = max(1, min(32 if spe == "auto" else int(spe), data.steps))
    loop = fit_loop if config["loop"] == "fit" else custom_loop
    loop(config, strategy, model, optimizer, data, spe, from_logits(model))


if __name__ == "__main__":
    main(CONFIG)
