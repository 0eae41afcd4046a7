# ---- model --------------------------------------------------------------------------


# ---- fused Adam: the exporter writes the dashboard's own step here ----
def fuse_updates(optimizer):
    """Keras's own Adam step: the exporter replaces this with the dashboard's."""
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
