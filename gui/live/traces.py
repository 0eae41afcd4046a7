"""The live plots' data, without Qt: every point kept, a bounded number drawn.

A curve handed N points costs O(N) a frame however pyqtgraph downsamples it, so a `Trace` keeps every point
and an incremental min/max envelope: the whole run is drawn from at most about 2 × MAX_BUCKETS points, a zoomed
view from the raw points in it. `sticky_range` changes the axes only when the data outgrows them.
"""

from __future__ import annotations

import math

import numpy as np

MAX_BUCKETS = 1024  # min/max pairs in a whole-run view: about two per pixel of a wide plot
EMA_ALPHA_PER_STEP = 0.02  # about a 50-step window: smooth, yet follows a falling loss
X_AXES = ("step", "time")


class Column:
    """A float array that doubles when full, so appends are amortised O(1)."""

    def __init__(self, capacity: int = 1024) -> None:
        self._data = np.empty(capacity)
        self._n = 0

    def __len__(self) -> int:
        return self._n

    def extend(self, values: np.ndarray) -> None:
        end = self._n + len(values)
        if end > len(self._data):
            self._data = np.resize(self._data, max(end, 2 * len(self._data)))
        self._data[self._n : end] = values
        self._n = end

    @property
    def values(self) -> np.ndarray:
        return self._data[: self._n]

    def truncate(self, n: int) -> None:
        self._n = min(n, self._n)


class Trace:
    """One curve: x on both axes (step, seconds), y; views bounded in size for drawing."""

    def __init__(self) -> None:
        self.step, self.time, self.y = Column(), Column(), Column()
        self._first, self._lo, self._hi = Column(256), Column(256), Column(256)  # the envelope's buckets
        self._bucket = 1  # raw points per bucket, a power of two
        self._folded = 0  # raw points covered by whole buckets
        self.y_min, self.y_max = math.inf, -math.inf

    def __len__(self) -> int:
        return len(self.y)

    def extend(self, step: np.ndarray, time: np.ndarray, y: np.ndarray) -> None:
        self.step.extend(step)
        self.time.extend(time)
        self.y.extend(y)
        finite = y[np.isfinite(y)]
        if finite.size:
            self.y_min, self.y_max = min(self.y_min, finite.min()), max(self.y_max, finite.max())

    def clear(self) -> None:
        self.__init__()

    def x(self, axis: str) -> np.ndarray:
        return self.step.values if axis == "step" else self.time.values

    def whole(self, axis: str) -> tuple[np.ndarray, np.ndarray]:
        """The whole run: every point while there are few, else the envelope (min and max of each
        bucket, at its first and last x) plus the newest points."""
        n = len(self.y)
        if n <= 2 * MAX_BUCKETS:
            return self.x(axis).copy(), self.y.values.copy()
        self._fold()
        first = self._first.values.astype(np.intp)
        xs = self.x(axis)
        tail_x, tail_y = decimate(xs[self._folded :], self.y.values[self._folded :], MAX_BUCKETS // 4)
        x = np.concatenate([_interleave(xs[first], xs[first + self._bucket - 1]), tail_x])
        y = np.concatenate([_interleave(self._lo.values, self._hi.values), tail_y])
        return x, y

    def window(self, axis: str, lo: float, hi: float) -> tuple[np.ndarray, np.ndarray]:
        """The raw points between x = lo and hi (and one beyond each edge), decimated to min/max pairs."""
        return decimate(*in_window(self.x(axis), self.y.values, lo, hi))

    def _fold(self) -> None:
        """Extend the envelope by the whole buckets that arrived; halve it when it grows too long."""
        n, b = len(self.y), self._bucket
        whole = (n - self._folded) // b
        if whole:
            end = self._folded + whole * b
            chunk = self.y.values[self._folded : end].reshape(whole, b)
            self._first.extend(np.arange(self._folded, end, b, dtype=float))
            self._lo.extend(np.fmin.reduce(chunk, axis=1))
            self._hi.extend(np.fmax.reduce(chunk, axis=1))
            self._folded = end
        while len(self._lo) > MAX_BUCKETS:
            pairs = len(self._lo) // 2
            if len(self._lo) % 2:  # the odd bucket goes back to the raw tail until it has a partner
                self._folded -= self._bucket
            lo, hi, first = self._lo.values, self._hi.values, self._first.values
            merged = (
                first[0 : 2 * pairs : 2].copy(),
                np.fmin(lo[0 : 2 * pairs : 2], lo[1 : 2 * pairs : 2]),
                np.fmax(hi[0 : 2 * pairs : 2], hi[1 : 2 * pairs : 2]),
            )
            for column, values in zip((self._first, self._lo, self._hi), merged, strict=True):
                column.truncate(0)
                column.extend(values)
            self._bucket *= 2


def in_window(x: np.ndarray, y: np.ndarray, lo: float, hi: float) -> tuple[np.ndarray, np.ndarray]:
    """The points of an ascending `x` between lo and hi, and one beyond each edge (the line leaves the view)."""
    i0 = max(int(np.searchsorted(x, lo, side="left")) - 1, 0)
    i1 = min(int(np.searchsorted(x, hi, side="right")) + 1, len(x))
    return x[i0:i1], y[i0:i1]


def decimate(x: np.ndarray, y: np.ndarray, buckets: int = MAX_BUCKETS) -> tuple[np.ndarray, np.ndarray]:
    """At most about 2 × `buckets` points that keep every peak: each bucket's min at its first x,
    its max at its last, so the curve still spans the bucket."""
    n = len(y)
    if n <= 2 * buckets:
        return x.copy(), y.copy()
    size = math.ceil(n / buckets)
    whole = n // size
    chunk = y[: whole * size].reshape(whole, size)
    bx = _interleave(x[: whole * size : size], x[size - 1 : whole * size : size])
    by = _interleave(np.fmin.reduce(chunk, axis=1), np.fmax.reduce(chunk, axis=1))
    return np.concatenate([bx, x[whole * size :]]), np.concatenate([by, y[whole * size :]])


def _interleave(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    out = np.empty(2 * len(a))
    out[0::2], out[1::2] = a, b
    return out


def nice_step(span: float) -> float:
    """A 1, 2 or 5 times a power of ten near span / 8: where a sticky range's edges may fall."""
    if not math.isfinite(span) or span <= 0:
        return 1.0
    raw = span / 8
    power = 10 ** math.floor(math.log10(raw))
    return next(m * power for m in (1, 2, 5, 10) if m * power >= raw)


def sticky_range(
    lo: float, hi: float, current: tuple[float, float] | None, headroom: float = 0.0
) -> tuple[float, float]:
    """A range holding [lo, hi] that changes only when the data leaves it; then the side it left
    moves `headroom` (a share of the span) beyond the data, to a coarse grid (about an eighth of
    the span), and the other side stays. Each change re-lays out an axis, the dearest part of a
    frame: with headroom 0.5 a run's growing x-axis changes about 35 times in a million steps."""
    if current is not None and current[0] <= lo and hi <= current[1]:
        return current
    if not (math.isfinite(lo) and math.isfinite(hi)):
        return current or (0.0, 1.0)
    if hi <= lo:
        lo, hi = lo - 0.5 * (abs(lo) or 1.0), hi + 0.5 * (abs(hi) or 1.0)
    span = max(hi - lo, 0.1 * max(abs(lo), abs(hi)))  # a run's first values span next to nothing
    step = nice_step(span * (1 + headroom))
    new_lo = math.floor((lo - headroom * span) / step) * step
    if lo >= 0:
        new_lo = max(new_lo, 0.0)  # a loss, a rate: no room below zero
    new_hi = math.ceil((hi + headroom * span) / step) * step
    if current is None:
        return new_lo, new_hi
    return (new_lo if lo < current[0] else current[0]), (new_hi if hi > current[1] else current[1])


class Ema:
    """Exponential moving average over steps, skipping non-finite values (a NaN must not poison it).

    An event may average several steps (the fit loop reports once per
    `steps_per_execution`), so it weighs as much as that many single steps:
    the smoothing window is the same in steps whichever loop ran.
    """

    def __init__(self, alpha_per_step: float = EMA_ALPHA_PER_STEP) -> None:
        self.alpha_per_step = alpha_per_step
        self.value = math.nan

    def update(self, value: float, steps: int = 1) -> float:
        if math.isfinite(value):
            alpha = 1.0 - (1.0 - self.alpha_per_step) ** max(steps, 1)
            self.value = value if math.isnan(self.value) else self.value + alpha * (value - self.value)
        return self.value

    def smooth(self, values: list[float], steps: list[int]) -> np.ndarray:
        """The smoothed value after each of `values` (one event each)."""
        return np.fromiter(
            (self.update(v, n) for v, n in zip(values, steps, strict=True)), dtype=float, count=len(values)
        )
