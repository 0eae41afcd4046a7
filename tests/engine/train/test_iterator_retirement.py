"""The loops' data iterators are destroyed off the training thread (engine.train.retire):
destroying one waits for tf.data's autotuning thread, which held every epoch's end up by seconds;
and a trainer that has written everything ends without waiting for that either."""

from __future__ import annotations

import json

import pytest

from engine.core import events as ev
from engine.core.runs.rundir import read_events
from engine.train.retire import THREAD_NAME
from tests.data_factory import write_float_tfrecords
from tests.engine.train.worker_process import base_config, run_python, write_config

WHERE_ITERATORS_DIE = """
import json, sys, threading, weakref
from engine.train import retire
died = []
handed = retire.retire
def watched(held):
    kind = type(held[0]).__name__
    weakref.finalize(held[0], lambda: died.append([kind, threading.current_thread().name]))
    return handed(held)
retire.retire = watched  # what retire.retired hands its list to
from engine.core.protocol.channel import StopSignal
from engine.core.runs.rundir import open_run
from engine.train.task import run_task
config, run_dir, resume = open_run(sys.argv[1], sys.argv[2], None)
outcome = run_task(config, run_dir, [lambda event: None], StopSignal(), resume=resume)
for thread in threading.enumerate():
    if thread is not threading.main_thread() and not thread.daemon:
        thread.join()
print(json.dumps([str(outcome.status), died]))
"""


@pytest.mark.slow
@pytest.mark.parametrize("loop", ["custom", "fit"])
def test_each_epochs_iterators_die_on_the_retiring_thread(tmp_path, loop):
    """Two epochs with validation on two replicas, data streamed through tf.data (TFRecord files): each
    epoch's training and validation iterator (under fit, those Keras's fit and evaluate make) destroyed
    by the retiring thread, so nothing else held a reference that would have made the training thread
    wait for it. (Examples held in memory, images included once decoded, need no training iterator.)
    The run is also the tfrecord kind's of float features in both loops: 240 training examples, 3 steps."""
    files = write_float_tfrecords(tmp_path / "records", files=3, per_file=100, features=6)
    data = {"kind": "tfrecord", "path": str(files / "*.tfrecord"), "num_classes": 2, "feature_shape": [6]}
    config = base_config(virtual_devices=2, epochs=2, validation_split=0.2, loop=loop, data=data)
    died = iterators_that_died(tmp_path, config)
    assert len(died) == 4, died
    assert {thread for _, thread in died} == {THREAD_NAME}, died
    events = read_events(tmp_path / "run")
    ends = [e for e in events if isinstance(e, ev.EpochEnd)]
    assert len(ends) == 2 and ends[0].val_loss is not None
    assert [e.steps_per_epoch for e in events if isinstance(e, ev.RunStarted)] == [240 // 64]


@pytest.mark.slow
def test_the_custom_loop_makes_no_training_iterator_for_examples_in_memory(tmp_path):
    """Synthetic and npz examples are tensors in memory: the custom loop gathers each step's batch from
    them (engine.train.loops.block_of_gathered_steps), so the only iterators are validation's, one an
    epoch; making and destroying a training iterator every epoch was most of a small epoch's time."""
    config = base_config(virtual_devices=2, epochs=2, validation_split=0.25)
    died = iterators_that_died(tmp_path, config)
    assert len(died) == 2, died
    assert {thread for _, thread in died} == {THREAD_NAME}, died


def iterators_that_died(tmp_path, config) -> list[list[str]]:
    """[iterator class, thread that destroyed it] for each iterator the run handed to retire()."""
    path = write_config(tmp_path, config)
    run = run_python("-c", WHERE_ITERATORS_DIE, str(path), str(tmp_path / "run"))
    assert run.returncode == 0, run.stderr[-2000:]
    status, died = json.loads(run.stdout.strip().splitlines()[-1])
    assert status == "completed"
    return died


ENDING_WHILE_RETIRING = """
import sys, threading
from engine.core.protocol.codes import RunStatus
from engine.train.retire import retire
from engine.train.task import end_process
from engine.train.trainer import Outcome
never = threading.Event()
class Slow:  # an iterator whose destruction waits, as tf.data's can for seconds
    def __del__(self):
        never.wait()
if sys.argv[1] == "retiring":
    retire([Slow()])
print("returned", end_process(3, Outcome(RunStatus.COMPLETED)), flush=True)
"""


@pytest.mark.parametrize("retiring", [True, False])
def test_a_finished_trainer_does_not_wait_for_an_iterator_being_destroyed(retiring):
    """Everything is written when end_process is called: with an iterator still being destroyed the
    process ends there with the run's exit code (the interpreter would otherwise join the retiring
    thread, here never); without one it returns the code for sys.exit as usual."""
    run = run_python("-c", ENDING_WHILE_RETIRING, "retiring" if retiring else "idle", timeout=20)
    assert run.returncode == (3 if retiring else 0), run.stderr[-2000:]
    assert ("returned 3" in run.stdout) is not retiring


TRAINING_ITERATORS_MADE = """
import json, sys
from tensorflow.python.distribute import input_lib
made = []
making = input_lib.DistributedDataset.__iter__
def counted(self):
    made.append(1)
    return making(self)
input_lib.DistributedDataset.__iter__ = counted
from engine.core.protocol.channel import StopSignal
from engine.core.runs.rundir import open_run
from engine.train.trainer import Trainer
config, run_dir, resume = open_run(sys.argv[1], sys.argv[2], None)
outcome = Trainer(config, run_dir, [lambda event: None], StopSignal(), anatomy=False).run()  # its probes read too
print(json.dumps([str(outcome.status), len(made)]))
"""


@pytest.mark.slow
def test_fit_makes_one_training_iterator_an_epoch(tmp_path):
    """Three epochs under fit, no validation: one iterator an epoch, the one Keras's fit reads. Given a
    dataset whose size is its steps_per_epoch, fit makes a second each epoch (tf-keras recreates the
    iterator of a dataset that size), and making one cost more than a small epoch's steps."""
    config = base_config(epochs=3, validation_split=0.0, loop="fit")
    path = write_config(tmp_path, config)
    run = run_python("-c", TRAINING_ITERATORS_MADE, str(path), str(tmp_path / "run"))
    assert run.returncode == 0, run.stderr[-2000:]
    status, made = json.loads(run.stdout.strip().splitlines()[-1])
    assert (status, made) == ("completed", 3)
