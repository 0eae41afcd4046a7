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
