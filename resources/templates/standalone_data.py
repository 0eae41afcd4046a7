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
