"""The custom loop's compiled steps, read from their graph: what each step costs beyond the expert's."""

from __future__ import annotations

import json

import pytest

from tests.engine.train.worker_process import base_config, run_python, write_config

GATHERED_STEPS_GRAPH = """
import json, sys
from engine.core.config import RunConfig
from engine.core.plan import plan_devices
from engine.core.sources import inspect
from engine.train.datasets import make_source
from engine.train.devices import apply_plan
from engine.train.loops import Session, block_of_gathered_steps
from engine.train.models import build_model, build_optimizer
from engine.train.strategies import make_strategy
from engine.train.tf_runtime import tf
config = RunConfig.from_dict(json.loads(open(sys.argv[1]).read()))
plan = plan_devices(config, [])
apply_plan(plan)
strategy = make_strategy(config, plan)
source = make_source(config, inspect(config), "auto", 1)
with strategy.scope():
    built = build_model(config, source.input_shape(), source.num_classes)
    optimizer = build_optimizer(config)
    optimizer.build(built.model.trainable_variables)
s = Session(config, strategy, built.model, optimizer, source, built.from_logits, None)
steps = tf.function(block_of_gathered_steps(s, *source.in_memory()))
order = tf.constant(source.order(0))
graph = steps.get_concrete_function(order, tf.constant(0), tf.constant(4)).graph
loops = [op for op in graph.get_operations() if op.type in ("While", "StatelessWhile")]
body = loops[0]._body_graph.get_operations()
gathered = [op.outputs[0].shape for op in body if op.type == "GatherV2" and op.outputs[0].shape.rank]
print(json.dumps({
    "loops": len(loops),
    "gathered": [shape.as_list() for shape in gathered],
    "kept": sum(op.type == "TensorListSetItem" for op in body),
    "counted": sum(op.type == "Cast" and op.inputs[0].dtype == tf.bool for op in body),
}))
"""


@pytest.mark.slow
def test_each_replicas_gathered_batch_has_a_static_shape(tmp_path):
    """A slice of the epoch's order by tensors has no static length, so every shape in the step (the loss,
    its gradients, the mean's) was computed at run time, step after step: about a fifth of the MLP's step.
    Each replica's slice is global batch / replicas long, known when the step is traced."""
    config = base_config(virtual_devices=2, global_batch_size=64)
    run = run_python("-c", GATHERED_STEPS_GRAPH, str(write_config(tmp_path, config)))
    assert run.returncode == 0, run.stderr[-3000:]
    graph = json.loads(run.stdout.strip().splitlines()[-1])
    assert graph["loops"] == 1
    assert graph["gathered"] == [[32, 10], [32, 1]] * 2, graph  # features and labels, on each replica
    assert graph["kept"] == 2, graph  # a step keeps its loss and its right answers (bool, one an example)
    assert graph["counted"] == 0, graph  # counted once after the loop: in each step they cost it a tenth
