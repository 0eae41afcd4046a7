"""The live plots' data without Qt: every point kept, a bounded number drawn, peaks never lost."""

from __future__ import annotations

import math

import numpy as np
import pytest

from gui.live.traces import MAX_BUCKETS, Column, Ema, Trace, decimate, sticky_range


def filled(n: int, seed: int = 0, chunk: int = 997) -> Trace:
    """A trace fed in uneven chunks, as batches of events arrive."""
    y = np.random.default_rng(seed).random(n)
    trace = Trace()
    for start in range(0, n, chunk):
        end = min(start + chunk, n)
        steps = np.arange(start + 1, end + 1, dtype=float)
        trace.extend(steps, steps / 100, y[start:end])
    return trace


def test_column_keeps_everything():
    c = Column(capacity=2)
    for i in range(1000):
        c.extend(np.array([i], dtype=float))
    assert len(c) == 1000 and c.values[-1] == 999


@pytest.mark.parametrize("n", [10, 2 * MAX_BUCKETS, 5_000, 1_000_000])
def test_whole_run_view_is_bounded_and_keeps_every_peak(n):
    trace = filled(n)
    trace.y.values[n // 3] = 7.0  # one spike, anywhere: it must show
    trace.y_max = 7.0
    for _ in range(2):  # drawn twice: the envelope is extended, not rebuilt
        x, y = trace.whole("step")
        assert len(x) == len(y) <= 2 * MAX_BUCKETS + MAX_BUCKETS // 2 + 2
        assert y.max() == 7.0 and y.min() == pytest.approx(trace.y.values.min())
        assert x[0] == 1 and x[-1] == n, "from the first step to the newest"
        assert np.all(np.diff(x) >= 0)
    tx, _ = trace.whole("time")
    assert tx[-1] == pytest.approx(n / 100), "the same points on the time axis"


def test_envelope_grows_with_the_run():
    trace = filled(3_000)
    first = trace.whole("step")
    more = filled(3_000, seed=1)
    trace.extend(more.step.values + 3_000, more.time.values + 30, more.y.values)
    x, y = trace.whole("step")
    assert x[-1] == 6_000 and len(x) <= 2 * MAX_BUCKETS + MAX_BUCKETS // 2 + 2
    assert len(first[0]) > 0


def test_a_zoomed_window_shows_raw_points():
    trace = filled(100_000)
    x, y = trace.window("step", 500, 600)
    assert x[0] <= 500 and x[-1] >= 600 and len(x) == 103, "every raw point in view, one beyond each edge"
    np.testing.assert_array_equal(y, trace.y.values[498:601])
    wide_x, _ = trace.window("step", 0, 100_000)
    assert len(wide_x) <= 2 * MAX_BUCKETS + 2 * math.ceil(100_000 / MAX_BUCKETS)


def test_decimate_keeps_min_and_max_of_each_bucket():
    x = np.arange(10_000, dtype=float)
    y = np.sin(x / 50)
    y[4321] = -5
    dx, dy = decimate(x, y, buckets=100)
    assert len(dx) <= 2 * 100 + 100 and dy.min() == -5 and dy.max() == pytest.approx(y.max())


def test_sticky_range_moves_only_when_data_leaves_it():
    first = sticky_range(0.0, 0.93, None)
    assert first[0] <= 0.0 and first[1] > 0.93
    assert sticky_range(0.01, 0.95, first) == first, "data inside: the axis stays put"
    grown = sticky_range(0.0, 1.7, first)
    assert grown[1] > 1.7 and grown != first
    assert sticky_range(5.0, 5.0, None)[0] < 5.0 < sticky_range(5.0, 5.0, None)[1]


def test_a_growing_axis_changes_a_few_dozen_times_in_a_million_steps():
    current, changes = None, 0
    for step in range(1, 1_000_001, 97):
        new = sticky_range(0.0, float(step), current, headroom=0.5)
        changes += new != current
        current = new
    assert changes <= 40


def test_a_falling_loss_moves_the_lower_edge_in_a_few_steps():
    current, changes = None, 0
    for step in range(1, 10_001):
        loss = 0.7 * 0.9995**step  # from 0.7 to about 0.005
        new = sticky_range(loss, 0.7, current, headroom=0.25)
        changes += new != current
        current = new
    assert current[0] <= 0.005 and changes <= 15
    assert current[1] <= 1.0, "the upper edge stays near the data while the lower one moves"


def test_ema_skips_non_finite_values():
    ema = Ema(alpha_per_step=0.5)
    assert ema.update(2.0) == 2.0
    assert ema.update(math.nan) == 2.0
    assert ema.update(4.0) == 3.0


def test_ema_weighs_an_event_by_the_steps_it_covers():
    one_by_one, at_once = Ema(alpha_per_step=0.1), Ema(alpha_per_step=0.1)
    one_by_one.update(0.0)
    at_once.update(0.0)
    for _ in range(10):
        one_by_one.update(1.0)
    assert at_once.update(1.0, steps=10) == pytest.approx(one_by_one.value)
