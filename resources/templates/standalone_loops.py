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
