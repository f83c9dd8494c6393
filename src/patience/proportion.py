"""Estimates from counts, shared by the fair advisor and the studies: the Wilson interval
of a proportion, a Beta posterior's mean and credible interval, and nearest-rank
percentiles. Pure arithmetic."""

from __future__ import annotations

import math


def wilson(successes: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval (95% by default) of a proportion, as fractions."""
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    # At p = 0 or 1 the interval ends exactly at p; rounding could leave it a hair short
    # of the rate it must contain (60 won of 60 gave 0.9999999999999999).
    lo = 0.0 if successes == 0 else max(0.0, centre - half)
    hi = 1.0 if successes == n else min(1.0, centre + half)
    return lo, hi


def percentile(values: list[float], q: float) -> float:
    """The ``q`` quantile (0..1) by the nearest-rank rule; 0 for no values."""
    if not values:
        return 0.0
    ordered = sorted(values)
    k = max(0, min(len(ordered) - 1, math.ceil(q * len(ordered)) - 1))
    return ordered[k]


def posterior_mean(won: int, played: int, ab: tuple[float, float]) -> float:
    """A chance given ``won`` successes of ``played`` tries, under the Beta prior
    ``ab``: the mean of its Beta posterior."""
    a, b = ab
    return (a + won) / (a + b + played)


def posterior_interval(
    won: int, played: int, ab: tuple[float, float], level: float = 0.95
) -> tuple[float, float]:
    """The equal-tailed ``level`` credible interval of a chance given ``won``
    successes of ``played`` tries, under the Beta prior ``ab``."""
    a, b = ab[0] + won, ab[1] + played - won
    tail = (1 - level) / 2
    return beta_quantile(tail, a, b), beta_quantile(1 - tail, a, b)


def beta_cdf(x: float, a: float, b: float) -> float:
    """The Beta(a, b) distribution function at ``x`` (the regularized incomplete beta
    function, by its continued fraction, Numerical Recipes' ``betai``)."""
    if x <= 0.0:
        return 0.0
    if x >= 1.0:
        return 1.0
    log_front = (
        math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x)
    )
    if x < (a + 1) / (a + b + 2):
        return math.exp(log_front) * _beta_fraction(x, a, b) / a
    return 1.0 - math.exp(log_front) * _beta_fraction(1 - x, b, a) / b


def _beta_fraction(x: float, a: float, b: float) -> float:
    """The incomplete beta function's continued fraction (modified Lentz)."""
    tiny = 1e-300
    c, d = 1.0, 1.0 - (a + b) * x / (a + 1)
    d = 1.0 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 500):
        for num in (
            m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m)),
            -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1)),
        ):
            d = 1.0 + num * d
            d = 1.0 / (d if abs(d) > tiny else tiny)
            c = 1.0 + num / c
            c = c if abs(c) > tiny else tiny
            h *= d * c
        if abs(d * c - 1.0) < 1e-14:
            break
    return h


def beta_quantile(q: float, a: float, b: float) -> float:
    """The ``q`` quantile of Beta(a, b), by bisection of ``beta_cdf`` (60 halvings: to
    1e-18, where a prior below 1 makes the distribution function steep near 0 or 1)."""
    lo, hi = 0.0, 1.0
    for _ in range(60):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if beta_cdf(mid, a, b) < q else (lo, mid)
    return (lo + hi) / 2
