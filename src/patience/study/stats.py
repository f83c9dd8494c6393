"""Counting verdicts: the summary of a range of deals (win rate with its Wilson interval,
times by nearest-rank percentiles, from ``proportion``)."""

from __future__ import annotations

import statistics
from collections.abc import Iterable
from dataclasses import dataclass

from ..proportion import percentile, wilson


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
