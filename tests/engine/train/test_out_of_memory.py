"""What an out-of-GPU-memory failure tells the user, with the run's own numbers (no TensorFlow needed)."""

from __future__ import annotations

from engine.core.config import RunConfig
from engine.core.plan import plan_devices
from engine.core.protocol.channel import StopSignal
from engine.train.trainer import Trainer


class ResourceExhaustedError(Exception):
    """Named as TensorFlow's: the trainer recognises the error by its name."""


GPU_OOM = ResourceExhaustedError(
    "in user code:\n  File train_step\n"
    "{{function_node __wrapped__MatMul_device_/job:localhost/replica:0/task:0/device:GPU:1}} OOM when allocating "
    "tensor with shape[256,8192] and type float on /job:localhost/replica:0/task:0/device:GPU:1 by allocator "
    "GPU_1_bfc [Op:MatMul] name: "
)


def trainer_for(tmp_path, **config) -> Trainer:
    trainer = Trainer(RunConfig(**config), tmp_path / "run", [], StopSignal())
    trainer._plan = plan_devices(trainer.config, ["GPU:0", "GPU:1"])
    return trainer


def test_out_of_gpu_memory_during_training(tmp_path):
    trainer = trainer_for(tmp_path, strategy="mirrored", global_batch_size=1024)
    trainer._started = True
    message = trainer._out_of_memory(GPU_OOM)
    assert message.startswith("Out of GPU memory on GPU:1 with a per-replica batch of 512 (global batch 1024 over 2")
    assert "lower global_batch_size to 512 (256 per replica)" in message
    assert 'turn on mixed precision ("bfloat16" or "float16")' in message
    assert "OOM when allocating tensor with shape[256,8192]" in message
    assert "function_node" not in message and "[Op:" not in message and "before the first step" not in message


def test_virtual_gpus_are_named_as_a_cause(tmp_path):
    trainer = trainer_for(
        tmp_path, strategy="mirrored", global_batch_size=64, virtual_devices=2, mixed_precision="bfloat16"
    )
    trainer._started = True
    message = trainer._out_of_memory(GPU_OOM)
    assert "over 4 replicas" in message and "per-replica batch of 16" in message
    assert "fewer virtual devices per GPU" in message and "mixed precision" not in message
