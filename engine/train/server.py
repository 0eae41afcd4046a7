"""A parameter_server cluster's worker or ps task: a TensorFlow server that the coordinator drives.

Only the chief runs the training program; workers run its closures and ps tasks hold the variables, through a
`tf.distribute.Server` that never ends by itself. So this process waits for a stop: "stop" or EOF on stdin,
SIGTERM, its parent's death, or the chief going quiet (engine.train.chief_watch). The same `train` command starts
every task (engine.train.task), so exported scripts, Slurm and Kubernetes need one command.
"""

from __future__ import annotations

import os

from engine.core import events as ev
from engine.core.config import RunConfig
from engine.core.plan import plan_devices
from engine.core.protocol.channel import StopSignal
from engine.core.protocol.codes import ExitCode, RunStatus
from engine.core.tfconfig import EVALUATOR_JOB, TF_CONFIG_ENV, TaskRole, parse_tf_config
from engine.train.chief_watch import watch_chief
from engine.train.trainer import Outcome


class Server:
    """Serves one worker or ps task until asked to stop."""

    def __init__(self, config: RunConfig, role: TaskRole, sinks: list[ev.Sink], stop: StopSignal):
        self.config = config
        self.role = role
        self.sinks = sinks
        self.stop = stop

    def emit(self, event: ev.Event) -> None:
        for sink in self.sinks:
            sink(event)

    def run(self) -> Outcome:
        from engine.train.devices import apply_plan
        from engine.train.tf_runtime import tf

        doc = parse_tf_config(os.environ.get(TF_CONFIG_ENV) or "{}")
        cluster = doc.cluster.without(EVALUATOR_JOB)  # the evaluator serves nothing (engine.train.strategies)
        if self.role.job == "ps":
            tf.config.set_visible_devices([], "GPU")  # variables live in host memory; the GPUs are the workers'
        else:
            gpus = [f"GPU:{i}" for i, _ in enumerate(tf.config.list_physical_devices("GPU"))]
            apply_plan(plan_devices(self.config, gpus))
        self._server = tf.distribute.Server(  # held: a collected server stops serving
            tf.train.ClusterSpec(cluster.to_dict()),
            job_name=self.role.job,
            task_index=self.role.index,
            protocol="grpc",
            start=True,
        )
        self.stop.training_reached()  # from here a stop ends the wait below, politely
        address = cluster.addresses(self.role.job)[self.role.index]
        what = "holds variables" if self.role.job == "ps" else "runs the coordinator's steps"
        self.emit(ev.Log(level="info", message=f"{self.role.job} {self.role.index} serves on {address}: it {what}"))
        if cluster.addresses("chief"):
            watch_chief(cluster.chief(), self.stop)
        self.stop.wait()
        self.emit(ev.Log(level="info", message=f"{self.role.job} {self.role.index} stops: {self.stop.reason}"))
        # its run is over (the chief is gone, or its launcher says so), unless Ctrl-C or SIGTERM ended it
        status = RunStatus.COMPLETED if self.stop.exit_code == ExitCode.OK else RunStatus.STOPPED
        self.emit(ev.RunFinished(status=status, epochs_completed=0, run_dir=""))
        return Outcome(status)
