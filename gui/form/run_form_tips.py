"""The run form's hints and tooltips, marked for translation in the RunForm context (gui.form.run_form
translates them with its own tr)."""

from __future__ import annotations

from PySide6.QtCore import QT_TRANSLATE_NOOP

from engine.core.config import Strategy

STRATEGY_HINTS = {
    Strategy.DEFAULT: QT_TRANSLATE_NOOP("RunForm", "No distribution: one replica on the first GPU, else the CPU."),
    Strategy.ONE_DEVICE: QT_TRANSLATE_NOOP("RunForm", "Everything on the one device you tick."),
    Strategy.MIRRORED: QT_TRANSLATE_NOOP(
        "RunForm", "One replica per ticked device (times virtual devices); gradients averaged by all-reduce."
    ),
    Strategy.MULTI_WORKER_MIRRORED: QT_TRANSLATE_NOOP(
        "RunForm",
        "Mirrored across worker processes: Start runs the local workers on 127.0.0.1, one replica per ticked "
        "device each (the CPU is one device). The Cluster tab exports a cluster for other machines.",
    ),
    Strategy.PARAMETER_SERVER: QT_TRANSLATE_NOOP(
        "RunForm",
        "Asynchronous: a coordinator hands steps to the workers, parameter servers hold the variables, and a "
        "lost worker does not stop the run. Start runs them all on 127.0.0.1.",
    ),
}
PARTITIONER_TIPS = {
    "min_size": QT_TRANSLATE_NOOP(
        "RunForm",
        "Split a variable only when it is at least 256 KiB, into at most one shard per parameter server "
        "(TensorFlow's tutorial; a small model's variables stay whole)",
    ),
    "fixed": QT_TRANSLATE_NOOP(
        "RunForm", "Split every variable into one shard per parameter server (shows sharding even on a small model)"
    ),
    "none": QT_TRANSLATE_NOOP(
        "RunForm", "Keep every variable whole; variables are placed on the parameter servers in turn"
    ),
}
ALL_REDUCE_TIPS = {
    "auto": QT_TRANSLATE_NOOP(
        "RunForm",
        "The engine's choice: NCCL between GPUs on Linux, hierarchical copy between other GPUs, reduction to one "
        "device on the CPU, a ring between CPU workers",
    ),
    "nccl": QT_TRANSLATE_NOOP("RunForm", "NVIDIA's collective library: the fast path between GPUs; Linux only"),
    "ring": QT_TRANSLATE_NOOP("RunForm", "multi_worker_mirrored: the gradients pass around a ring of the workers"),
    "hierarchical_copy": QT_TRANSLATE_NOOP(
        "RunForm", "mirrored: GPUs sum in groups, then across the groups (made for eight GPUs)"
    ),
    "reduction_to_one_device": QT_TRANSLATE_NOOP(
        "RunForm", "mirrored: every replica's gradients summed on one device and copied back"
    ),
}
PRECISION_TIPS = {
    "off": QT_TRANSLATE_NOOP("RunForm", "float32 throughout"),
    "float16": QT_TRANSLATE_NOOP(
        "RunForm",
        "float16 maths, float32 variables; fast on GPUs of compute capability 7.0 or more; the loss is scaled",
    ),
    "bfloat16": QT_TRANSLATE_NOOP(
        "RunForm",
        "bfloat16 maths, float32 variables; fast on GPUs of compute capability 8.0 or more and CPUs with AMX or "
        "AVX512-BF16",
    ),
}
VIRTUAL_TIP = QT_TRANSLATE_NOOP("RunForm", "Split each device into N logical devices (N replicas with mirrored)")
