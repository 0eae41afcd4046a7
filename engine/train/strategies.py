"""RunConfig + DevicePlan -> a tf.distribute.Strategy."""

from __future__ import annotations

import contextlib
import os
import signal
import threading
from collections.abc import Callable, Iterator
from typing import Any

from engine.core import events as ev
from engine.core.config import RunConfig, Strategy
from engine.core.plan import DevicePlan
from engine.core.protocol.channel import StopSignal
from engine.core.tfconfig import EVALUATOR_JOB, TF_CONFIG_ENV, parse_tf_config
from engine.train.peers import wait_for_peers
from engine.train.tf_runtime import tf

# The tutorial's minimum shard: a variable smaller than this stays whole on one ps task.
MIN_SHARD_BYTES = 256 << 10


def cross_device_ops(plan: DevicePlan) -> Any:
    """MirroredStrategy's all-reduce: the config's, or the plan's automatic choice (engine.core.plan)."""
    return {
        "nccl": tf.distribute.NcclAllReduce,
        "hierarchical_copy": tf.distribute.HierarchicalCopyAllReduce,
        "reduction_to_one_device": tf.distribute.ReductionToOneDevice,
    }[plan.all_reduce]()


def training_cluster_resolver() -> Any:
    """TF_CONFIG's cluster without its evaluator, as the strategies should see it.

    The evaluator stands beside the cluster and serves nothing: a
    ParameterServerStrategy coordinator that finds it in the cluster waits
    for it to answer, silently and for ever (measured). Kubeflow's TFJob lists
    it too, so it is filtered here rather than left out by the launcher.
    """
    doc = parse_tf_config(os.environ.get(TF_CONFIG_ENV) or "{}")
    cluster = doc.cluster.without(EVALUATOR_JOB)
    return tf.distribute.cluster_resolver.SimpleClusterResolver(
        tf.train.ClusterSpec(cluster.to_dict()),
        task_type=doc.task_type,
        task_id=doc.task_index or 0,
        rpc_layer="grpc",
    )


def variable_partitioner(config: RunConfig, num_ps: int) -> Any:
    """How parameter_server splits variables across the ps tasks (engine.core.config.VARIABLE_PARTITIONERS)."""
    partitioners = tf.distribute.experimental.partitioners
    if config.variable_partitioner == "min_size":
        return partitioners.MinSizePartitioner(min_shard_bytes=MIN_SHARD_BYTES, max_shards=num_ps)
    if config.variable_partitioner == "fixed":
        return partitioners.FixedShardsPartitioner(num_shards=num_ps)
    return None


@contextlib.contextmanager
def _own_sigterm() -> Iterator[None]:
    """Building a MultiWorkerMirroredStrategy installs TensorFlow's preemption notifier as SIGTERM's handler,
    which only logs "SIGTERM caught" (measured): this process's own handler, its graceful stop, is put back."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    handler = signal.getsignal(signal.SIGTERM)
    try:
        yield
    finally:
        if handler is not None:
            signal.signal(signal.SIGTERM, handler)


def make_strategy(
    config: RunConfig,
    plan: DevicePlan,
    stop: StopSignal | None = None,
    emit: ev.Sink | None = None,
) -> Any:
    """The strategy; with `stop` and `emit`, a multi_worker_mirrored task first waits for its peers where it
    can be heard and stopped (engine.train.peers)."""
    if config.strategy == Strategy.PARAMETER_SERVER:
        resolver = training_cluster_resolver()
        num_ps = len(resolver.cluster_spec().as_dict().get("ps", []))
        return tf.distribute.experimental.ParameterServerStrategy(
            resolver, variable_partitioner=variable_partitioner(config, num_ps)
        )
    if config.strategy == Strategy.DEFAULT:
        return tf.distribute.get_strategy()
    if config.strategy == Strategy.ONE_DEVICE:
        return tf.distribute.OneDeviceStrategy(plan.strategy_devices[0])
    if config.strategy == Strategy.MIRRORED:
        return tf.distribute.MirroredStrategy(list(plan.strategy_devices), cross_device_ops=cross_device_ops(plan))
    implementation = (
        tf.distribute.experimental.CommunicationImplementation.NCCL
        if plan.all_reduce == "nccl"
        else tf.distribute.experimental.CommunicationImplementation.RING
    )
    options = tf.distribute.experimental.CommunicationOptions(
        bytes_per_pack=config.bytes_per_pack,  # 0: TensorFlow's own packing
        timeout_seconds=config.collective_timeout_s,
        implementation=implementation,
    )
    if stop is not None and emit is not None:
        wait_for_peers(config.strategy, stop, emit)
    with _own_sigterm():
        return tf.distribute.MultiWorkerMirroredStrategy(communication_options=options)


def measure_replica_batches(strategy: Any, distributed: Any) -> list[int]:
    """The batch each replica really receives: the first epoch's own distributed dataset's static
    per-replica shapes (batches drop their remainder, so TensorFlow knows them), else one batch measured."""
    features_spec = tf.nest.flatten(distributed.element_spec, expand_composites=False)[0]
    specs = getattr(features_spec, "_value_specs", None) or (features_spec,)
    sizes = [spec.shape[0] if spec.shape.rank else None for spec in specs]
    if sizes and all(isinstance(n, int) for n in sizes):
        return [int(n) for n in sizes]
    batch = next(iter(distributed))
    measured = tf.function(lambda b: strategy.run(lambda x, y: tf.shape(x)[0], args=b))(batch)
    return [int(v) for v in strategy.experimental_local_results(measured)]


def stop_agreement(strategy: Any) -> Callable[[bool], bool]:
    """Multi-worker: stop only when all agree to (any one asked), or workers would hang
    waiting for a peer that left the collective. SUM, because ReduceOp has no MAX."""

    @tf.function
    def any_worker(local: Any) -> Any:
        return strategy.reduce("SUM", strategy.run(lambda: tf.identity(local)), axis=None)

    def agreed(local: bool) -> bool:
        return float(any_worker(tf.constant(1.0 if local else 0.0))) > 0

    return agreed
