"""How many training steps run per `tf.function` call: fixed, or tuned while training ("auto").

Python's per-call overhead dominates small models (the tutorial's MLP: about
40k examples/s at one step per call, 80k at 10, 92k at 50 on two logical
CPUs), so several steps run per call; but the plots should move and a stop
should be honoured within a fraction of a second for a big model. This
module is the one place that turns `steps_per_execution` into a policy the
controller asks before each call.
"""

from __future__ import annotations

from engine.core.config import Loop, RunConfig, Strategy

AUTO = "auto"
CLUSTER_AND_FIT_AUTO = 32


class StepsPerCall:
    """The size of the next call; `observe` tells it how long the last one took.

    Fixed: always `fixed` (capped by what is left of the epoch). Auto: grows
    the call while calls are short and shrinks it while they are long,
    aiming at TARGET_S per call. The first call is not measured: it holds the
    tracing.
    """

    TARGET_S = 0.1
    START, LIMIT = 4, 1024

    def __init__(self, fixed: int | None = None):
        self.fixed = fixed
        self.size = fixed or self.START
        self._first = True

    def next(self, remaining: int) -> int:
        return max(1, min(self.size, remaining))

    def observe(self, steps: int, seconds: float) -> None:
        if self.fixed or self._first:
            self._first = False
            return
        if seconds < self.TARGET_S / 2 and steps == self.size:
            self.size = min(self.size * 2, self.LIMIT)
        elif seconds > self.TARGET_S * 2 and self.size > 1:
            self.size //= 2


def steps_per_call(config: RunConfig, steps_per_epoch: int, workers: int = 1) -> StepsPerCall:
    """The policy for this run.

    "auto" is tuned only for the custom loop of a single process. Workers of
    a cluster must run calls of equal size, or their collectives stop
    matching and they deadlock, so a tuner that listens to each worker's own
    clock is no good there; and tf-keras's own "auto" tuner for fit ran at a
    quarter of fit's speed at 32 steps per call (BENCHMARKS.md); and a
    parameter-server coordinator has several calls in flight on different
    workers, so the time between results says little about one call. All
    get a fixed 32, capped at an epoch.
    """
    spe = config.steps_per_execution
    if spe != AUTO:
        return StepsPerCall(max(1, min(int(spe), steps_per_epoch)))
    if workers > 1 or config.loop == Loop.FIT or config.strategy == Strategy.PARAMETER_SERVER:
        return StepsPerCall(min(CLUSTER_AND_FIT_AUTO, steps_per_epoch))
    return StepsPerCall()
