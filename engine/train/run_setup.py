"""What a run trains, made once by the trainer, and the log lines that say how it is set up."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.core.config import RunConfig
from engine.core.messages import msg
from engine.core.plan import DevicePlan
from engine.core.tfconfig import TaskRole


@dataclass(frozen=True)
class SetUp:
    """Devices, strategy, input, model, optimizer and checkpoints of one run."""

    plan: DevicePlan
    strategy: Any
    coordinator: Any  # parameter_server's ClusterCoordinator, else None
    source: Any  # engine.train.datasets.InputSource
    built: Any  # engine.train.models.BuiltModel
    optimizer: Any
    checkpointer: Any  # engine.train.checkpoints.Checkpointer

    @property
    def model(self) -> Any:
        return self.built.model

    def log_lines(
        self, config: RunConfig, role: TaskRole, shard_policy: str, steps_per_call: int | None
    ) -> list[tuple[str, str]]:
        """(message, level) lines: the strategy and its devices, the data, the model."""
        plan, strategy, built = self.plan, self.strategy, self.built
        if self.coordinator:
            placement = msg(
                "{strategy}: this coordinator schedules blocks of {steps} steps on {workers} worker(s); "
                "{ps} parameter server(s) hold the variables (sharding: {sharding}); mixed precision: {precision}",
                strategy=type(strategy).__name__,
                steps=steps_per_call,
                workers=role.num_workers,
                ps=role.num_ps,
                sharding=config.variable_partitioner,
                precision=config.mixed_precision,
            )
        else:
            placement = msg(
                "{strategy} on {devices}; all-reduce: {all_reduce}; memory growth: {growth}; "
                "mixed precision: {precision}; {workers} worker(s)",
                strategy=type(strategy).__name__,
                devices=", ".join(plan.strategy_devices),
                all_reduce=plan.all_reduce,
                growth=msg("on") if plan.memory_growth and plan.uses_gpu else msg("off"),
                precision=config.mixed_precision,
                workers=role.num_workers,
            )
        outputs = (
            msg("outputs logits") if built.from_logits else msg("ends in softmax/sigmoid: the loss takes probabilities")
        )
        lines = [
            (placement, "info"),
            (msg("data: {source}; shard policy: {policy}", source=self.source.describe(), policy=shard_policy), "info"),
            (
                msg(
                    "model: {where}, {params} parameters; {outputs}",
                    where=built.where,
                    params=f"{self.model.count_params():,}",
                    outputs=outputs,
                ),
                "info",
            ),
        ]
        if built.warning:
            lines.append((built.warning, "warning"))
        return lines
