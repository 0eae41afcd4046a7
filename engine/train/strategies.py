"""RunConfig + DevicePlan -> a tf.distribute.Strategy."""

from __future__ import annotations

from typing import Any

from engine.config import RunConfig, Strategy
from engine.plan import DevicePlan
from engine.train.tf_runtime import tf


def cross_device_ops(plan: DevicePlan) -> Any:
    """The all-reduce the plan chose (NCCL between Linux GPUs, see engine.plan.choose_all_reduce)."""
    return {
        "nccl": tf.distribute.NcclAllReduce,
        "hierarchical_copy": tf.distribute.HierarchicalCopyAllReduce,
        "reduction_to_one_device": tf.distribute.ReductionToOneDevice,
    }[plan.all_reduce]()


def make_strategy(config: RunConfig, plan: DevicePlan) -> Any:
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
    return tf.distribute.MultiWorkerMirroredStrategy(
        communication_options=tf.distribute.experimental.CommunicationOptions(implementation=implementation)
    )
