"""A failure as a person reads it: TensorFlow's errors without their decoration, the cause kept.

An error raised inside graph execution (a tf.data generator, a py_function,
a decoder) reaches Python as "<Type>: Graph execution error:" followed by the
node, a traceback and the cause on a later line; the cause is what a person
needs ("corrupted record at 24212", "SystemExit: 3"), with the user's file and
line when the traceback names one.
"""

from __future__ import annotations

import re
import traceback
from pathlib import Path

from engine.core.config import RunConfig
from engine.core.plan import DevicePlan
from engine.core.protocol.codes import PEER_LOST_ERRORS

_REMOTE_TASK = re.compile(r"/job:(\w+)/replica:\d+/task:(\d+)")
_NODE_NOTE = re.compile(r"\s*\[\[[^\]]*\]\]")  # "[[{{node PyFunc}}]]", TensorFlow's node annotations
_FRAME = re.compile(r'^\s*File "([^"]+)", line (\d+), in (\S+)')
_NOT_A_CAUSE = re.compile(
    r"^(Graph execution error:|Detected at node|Detected in the following|<stack traces unavailable>|"
    r"Traceback \(most recent call last\)|File \"|Node: |in user code:)"
)
_ENGINE = str(Path(__file__).resolve().parents[1])


def tensorflow_said(exc: BaseException) -> str:
    """The line of a TensorFlow error that says what went wrong, without its C++ decoration; for an error
    raised inside graph execution or a tf.function, the cause (its last line) and where the user's code
    raised it."""
    text = str(exc).strip()
    lines = [line.strip() for line in _NODE_NOTE.sub("", text).splitlines() if line.strip()]
    if not lines:
        return type(exc).__name__
    asserted = next((line for line in lines if "assertion failed: [" in line), None)
    if asserted:  # an in-graph check's message (e.g. a label beyond num_classes): its parts, unbracketed
        return " ".join(re.findall(r"\[([^\]]*)\]", asserted.partition("assertion failed: ")[2]))
    # decorated: the cause comes last, after the node and its traceback
    said = (_causes(text) or lines)[-1] if _NOT_A_CAUSE.match(lines[0]) else lines[0]
    said = re.sub(r"\{\{function_node [^}]*\}\}\s*", "", said)
    return re.sub(r"\s*\[Op:[^\]]*\].*$", "", said).strip() + _user_frame(text)


def _causes(text: str) -> list[str]:
    """The lines of an error's text that are neither decoration nor a traceback's frames and source."""
    causes: list[str] = []
    under_frame = False
    for line in _NODE_NOTE.sub("", text).splitlines():
        stripped = line.strip()
        if not stripped or set(stripped) <= set("^~ "):  # blank, or a traceback's underline
            continue
        if under_frame and line.startswith(" "):  # the source line a frame quotes
            under_frame = False
            continue
        under_frame = bool(_FRAME.match(line))
        if not under_frame and not _NOT_A_CAUSE.match(stripped):
            causes.append(stripped)
    return causes


def _user_frame(text: str) -> str:
    """ " (my_data.py, line 7, in examples)": the deepest frame of the traceback in the text that is
    neither the engine's nor an installed package's; "" when there is none."""
    frames = [m.groups() for line in text.splitlines() if (m := _FRAME.match(line))]
    mine = [f for f in frames if not f[0].startswith(_ENGINE) and "-packages" not in f[0]]
    if not mine:
        return ""
    file, line, function = mine[-1]
    return f" ({file}, line {line}, in {function})"


def user_exit_message(exc: SystemExit) -> str:
    """sys.exit called by the user's code where the engine does not call it directly (a layer, a loss)."""
    frames = traceback.extract_tb(exc.__traceback__)
    mine = [f for f in frames if not f.filename.startswith(_ENGINE) and "-packages" not in f.filename]
    where = f" in {mine[-1].filename}, line {mine[-1].lineno} ({mine[-1].name})" if mine else ""
    return f"the user's code ended the process with sys.exit({exc.code!r}){where}; it must return or raise instead"


def oom_device(text: str) -> str:
    """ "GPU:0" from "... on /job:localhost/replica:0/task:0/device:GPU:0 by allocator GPU_0_bfc"."""
    match = re.search(r"device:((?:GPU|CPU):\d+)", text)
    return match.group(1) if match else ""


def out_of_memory_message(exc: BaseException, config: RunConfig, plan: DevicePlan | None, started: bool) -> str:
    """Out of memory, in the run's own numbers: the per-replica batch, and what to change; `started`: the
    steps had begun (else it ran out while building the model)."""
    replicas = plan.replicas if plan else 1
    said = tensorflow_said(exc)
    device = oom_device(said)
    per_replica = config.global_batch_size // max(replicas, 1)
    memory = "GPU memory" if device.startswith("GPU") else "memory"
    where = f" on {device}" if device else ""
    lines = [
        f"Out of {memory}{where} with a per-replica batch of {per_replica} "
        f"(global batch {config.global_batch_size} over {replicas} replica{'s' if replicas != 1 else ''})."
    ]
    if not started:
        lines.append("It ran out before the first step, while building the model: its weights do not fit.")
    todo = []
    smaller = (config.global_batch_size // 2) // replicas * replicas
    if smaller >= replicas:
        todo.append(f"lower global_batch_size to {smaller} ({smaller // replicas} per replica)")
    if config.mixed_precision == "off" and device.startswith("GPU"):
        todo.append('turn on mixed precision ("bfloat16" or "float16")')
    if plan is not None and plan.split > 1 and plan.uses_gpu:
        todo.append(f"use fewer virtual devices per GPU (each has {plan.gpu_memory_mb} MB)")
    if not started:
        todo.insert(0, "use a smaller model (fewer or smaller layers)")
    lines.append("Try: " + "; or ".join(todo) + ".")
    lines.append(f"(TensorFlow: {said})")
    return " ".join(lines)


def explain(exc: BaseException) -> str:
    """Turn TensorFlow's errors into what a person can do about them."""
    name = type(exc).__name__
    text = tensorflow_said(exc)
    if name in PEER_LOST_ERRORS:
        task = _REMOTE_TASK.search(str(exc))
        who = f"{task.group(1)} {task.group(2)}" if task else "A task of the cluster"
        return (
            f"{who} stopped responding ({text}). Check that every task is running and reachable; finished "
            "epochs and checkpoints are kept, and --resume continues the run."
        )
    return f"{name}: {text}"
