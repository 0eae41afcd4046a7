"""engine.train.ps_loop.RateWindow: a parameter-server run's throughput when results come in bursts."""

from __future__ import annotations

import pytest

from engine.train.ps_loop import RATE_WINDOW_S, RateWindow


def test_a_burst_of_results_does_not_spike_the_rate():
    rates = RateWindow()
    assert rates.add(0, 0.0) is None
    assert rates.add(32, 0.5) == pytest.approx(64.0)
    assert rates.add(32, 0.501) == pytest.approx(64 / 0.501)  # fetched back to back: no 32 / 0.001
    assert rates.add(32, 1.0) == pytest.approx(96.0)


def test_the_window_forgets_old_results():
    rates = RateWindow()
    rates.add(0, 0.0)
    rates.add(1000, 0.1)  # a fast start ...
    for t in range(1, 40):
        rate = rates.add(10, 0.1 + t * 0.1)  # ... then 100 steps/s
    assert rate == pytest.approx(100.0, rel=0.15) and RATE_WINDOW_S < 3.9
