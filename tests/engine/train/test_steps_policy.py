"""The steps-per-call policy: fixed, or tuned by call duration ("auto"), decided in one place."""

from __future__ import annotations

from engine.core.config import RunConfig
from engine.train.steps_policy import CLUSTER_AND_FIT_AUTO, StepsPerCall, steps_per_call


def test_fixed_sizes_are_capped_by_the_epoch_and_ignore_timing():
    policy = steps_per_call(RunConfig(steps_per_execution=50), steps_per_epoch=20)
    assert policy.fixed == 20 and policy.next(remaining=20) == 20 and policy.next(remaining=7) == 7
    policy.observe(20, seconds=10.0)
    assert policy.next(remaining=20) == 20


def test_auto_is_fixed_for_fit_and_for_clusters():
    assert steps_per_call(RunConfig(loop="fit"), 100).fixed == CLUSTER_AND_FIT_AUTO
    assert steps_per_call(RunConfig(loop="custom"), 100, workers=2).fixed == CLUSTER_AND_FIT_AUTO
    assert steps_per_call(RunConfig(loop="fit"), 10).fixed == 10
    assert steps_per_call(RunConfig(loop="custom"), 100).fixed is None


def test_auto_grows_short_calls_and_shrinks_long_ones_after_the_first():
    policy = StepsPerCall()
    assert policy.next(1000) == StepsPerCall.START
    policy.observe(StepsPerCall.START, seconds=0.001)  # the first call holds the tracing: not measured
    assert policy.next(1000) == StepsPerCall.START
    policy.observe(StepsPerCall.START, seconds=0.001)
    assert policy.next(1000) == 2 * StepsPerCall.START
    policy.observe(2 * StepsPerCall.START, seconds=StepsPerCall.TARGET_S * 3)
    assert policy.next(1000) == StepsPerCall.START
    policy.observe(2, seconds=0.001)  # a call cut short by the end of an epoch says nothing about its size
    assert policy.next(1000) == StepsPerCall.START


def test_auto_stays_within_its_limits():
    policy = StepsPerCall()
    for _ in range(30):
        policy.observe(policy.next(10**6), seconds=0.0001)
    assert policy.next(10**6) == StepsPerCall.LIMIT
    for _ in range(30):
        policy.observe(policy.next(10**6), seconds=100.0)
    assert policy.next(10**6) == 1 and policy.next(0) == 1
