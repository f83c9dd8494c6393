"""Hopscotch's chance is calibrated (issue 55): the chance shown is the posterior mean of
the advice's win probability given its playouts won, under a Beta prior for the cards
left in the stock fitted on the advice's own games of deals 30001..32100
(``hopscotch_advice.PRIOR``, ``bench/hopscotch_chance.py --fit``); checked on deals never
used for fitting (40001..42100, ``results/hopscotch.chance-check.jsonl.gz``), whose rows a
small sample replayed here reproduces."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from bench_scripts import load_bench
from patience.fair.hopscotch_advice import (
    CHANCE_PLAYOUTS,
    PRIOR,
    prior,
)
from patience.proportion import (
    beta_cdf,
    beta_quantile,
    posterior_interval,
    posterior_mean,
    wilson,
)
from patience.solver.hopscotch import native

RESULTS = Path(__file__).resolve().parent.parent / "results"
FITTED = ("hopscotch.chance.jsonl.gz", "hopscotch.chance-fit.jsonl.gz")
"""The rows the prior is fitted on (deals 30001..32100)."""
CHECK = "hopscotch.chance-check.jsonl.gz"
"""The rows it is checked on (deals 40001..42100, never fitted)."""

bench = load_bench("hopscotch_chance")


def test_the_beta_distribution_function_meets_its_closed_forms() -> None:
    for x in (0.01, 0.3, 0.5, 0.77, 0.999):
        assert beta_cdf(x, 2.5, 1) == pytest.approx(x**2.5, abs=1e-12)
        assert beta_cdf(x, 1, 0.3) == pytest.approx(1 - (1 - x) ** 0.3, abs=1e-12)
        assert beta_cdf(x, 2, 2) == pytest.approx(3 * x**2 - 2 * x**3, abs=1e-12)
    for q in (0.01, 0.025, 0.3, 0.5, 0.77, 0.975):
        for a, b in ((0.6, 0.9), (12.9, 1.6), (3.3, 7.2), (1.2, 0.2)):
            assert beta_cdf(beta_quantile(q, a, b), a, b) == pytest.approx(q, abs=1e-9)
    assert beta_cdf(0.0, 2, 3) == 0.0 and beta_cdf(1.0, 2, 3) == 1.0


def test_the_posterior_is_the_beta_posterior_of_the_prior() -> None:
    a, b = prior(14)
    assert posterior_mean(7, 10, (a, b)) == pytest.approx((a + 7) / (a + b + 10))
    low, high = posterior_interval(7, 10, (a, b))
    assert beta_cdf(low, a + 7, b + 3) == pytest.approx(0.025, abs=1e-7)
    assert beta_cdf(high, a + 7, b + 3) == pytest.approx(0.975, abs=1e-7)
    # Ten playouts all won or all lost are not said as certain: the prior weighs them.
    assert 0.0 < posterior_mean(0, 10, (a, b)) < 0.2 < 0.9 < posterior_mean(10, 10, (a, b)) < 1


def test_the_prior_is_the_fit_of_the_committed_rows_and_is_interpolated_between() -> None:
    rows = [r for name in FITTED for r in bench.read(RESULTS / name)]
    assert {r["deal"] for r in rows} == set(range(30001, 32101))
    assert bench.fit(rows) == PRIOR
    stages = sorted(PRIOR)
    for c in stages:
        assert prior(c) == PRIOR[c]
    assert prior(48) == PRIOR[stages[-1]] and prior(2) == PRIOR[stages[0]]
    for lo, hi in zip(stages, stages[1:], strict=False):
        means = [a / (a + b) for a, b in (prior(c) for c in range(lo, hi + 1))]
        assert means == sorted(means) or means == sorted(means, reverse=True)


def _brier(chances: list[tuple[float, bool]]) -> float:
    return sum((c - w) ** 2 for c, w in chances) / len(chances)


def test_the_chance_shown_is_calibrated_on_deals_never_fitted() -> None:
    # Per tenth of the chance shown, over the checked deals: the share of decisions in
    # games won holds the mean chance shown in its 99% interval (every tenth with 30
    # decisions or more), overall within 2 points, and the chance shown predicts the
    # games better (Brier) than the share of the playouts shown before, which failed
    # here at its extremes (none of 10 won: a game won 23% of the time).
    rows = bench.read(RESULTS / CHECK)
    assert len({r["deal"] for r in rows}) >= 2000
    assert not {r["deal"] for r in rows} & set(range(30001, 32101))
    decisions = bench.decisions(rows)
    shown = [(bench.shown(stage, bits), won) for stage, bits, won, _ in decisions]
    raw = [(bench.raw(stage, bits), won) for stage, bits, won, _ in decisions]
    tested = 0
    for tenth in range(10):
        cell = [(c, w) for c, w in shown if min(int(c * 10 + 1e-9), 9) == tenth]
        if len(cell) >= 30:
            low, high = wilson(sum(w for _, w in cell), len(cell), z=2.576)
            assert low <= sum(c for c, _ in cell) / len(cell) <= high, tenth
            tested += 1
    assert tested >= 5
    assert abs(sum(c for c, _ in shown) - sum(w for _, w in shown)) / len(shown) < 0.02
    assert _brier(shown) < _brier(raw)


@pytest.mark.skipif(native is None, reason="the native module was not built")
def test_a_small_sample_replayed_gives_the_committed_rows() -> None:
    # The checked rows are what the code gives now: 12 of their deals played again
    # (those recorded where 8 or 4 cards are left: the cheapest) give the same game,
    # the same playouts and so the same chance shown; and their chances shown are in
    # line with the games won (12 decisions: a loose bound, 3 standard errors).
    committed = {r["deal"]: r for r in bench.read(RESULTS / CHECK)}
    deals = [d for d in sorted(committed) if committed[d]["stages"] in ([8], [4])][:12]
    said, won = [], []
    for deal in deals:
        row = bench.play(deal, CHANCE_PLAYOUTS, tuple(committed[deal]["stages"]))
        assert (row["won"], row["outcomes"]) == (
            committed[deal]["won"],
            committed[deal]["outcomes"],
        ), deal
        said.append(bench.shown(row["stages"][0], row["outcomes"][0]))
        won.append(row["won"])
    mean = sum(said) / len(said)
    spread = math.sqrt(max(mean * (1 - mean), 0.05) / len(said))
    assert abs(sum(won) / len(won) - mean) < 3 * spread
