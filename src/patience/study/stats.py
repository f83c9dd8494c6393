"""Counting verdicts: the Wilson interval of a win rate, nearest-rank percentiles, and
the summary of a range of deals."""

from __future__ import annotations

import math
import statistics
from collections.abc import Iterable
from dataclasses import dataclass


def wilson(successes: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval (95% by default) of a proportion, as fractions."""
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def percentile(values: list[float], q: float) -> float:
    """The ``q`` quantile (0..1) by the nearest-rank rule; 0 for no values."""
    if not values:
        return 0.0
    ordered = sorted(values)
    k = max(0, min(len(ordered) - 1, math.ceil(q * len(ordered)) - 1))
    return ordered[k]


@dataclass(frozen=True)
class Summary:
    """The verdicts of a range of deals."""

    deals: int
    won: int
    lost: int
    unknown: int
    win_low: float
    win_high: float
    median: float
    p90: float
    max: float

    @property
    def win_rate(self) -> float:
        """Won among the decided deals (0 when none is decided)."""
        decided = self.won + self.lost
        return self.won / decided if decided else 0.0


def summarise(rows: Iterable[tuple[str, float]]) -> Summary:
    """Count (result, seconds) rows and time them."""
    counts = {"won": 0, "lost": 0, "unknown": 0}
    times: list[float] = []
    for result, seconds in rows:
        counts[result] = counts.get(result, 0) + 1
        times.append(seconds)
    low, high = wilson(counts["won"], counts["won"] + counts["lost"])
    return Summary(
        len(times),
        counts["won"],
        counts["lost"],
        counts["unknown"],
        low,
        high,
        statistics.median(times) if times else 0.0,
        percentile(times, 0.9),
        max(times, default=0.0),
    )
