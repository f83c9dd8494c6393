"""The committed winnability results (results/*.csv.gz) stand up to the solver as it is
now: a sample of each file's decided deals, solved again, gets the same verdict. A
change to the rules, the deal numbers or the solver that would make the published
tables wrong fails here, before the tables are made again."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from patience.study.results import SUFFIX, read_csv
from patience.study.work import solve_deal

RESULTS = Path(__file__).resolve().parent.parent / "results"
FILES = sorted(p for p in RESULTS.glob(f"*{SUFFIX}") if not p.name.endswith(".fair" + SUFFIX))
PER_VERDICT = 3
"""Deals sampled of each verdict in each file."""
QUICK = 0.5
"""Only deals decided within this many seconds are sampled, to keep the test short."""


def options_of(text: str) -> dict[str, str]:
    return dict(pair.split("=", 1) for pair in text.split(",")) if text else {}


def test_every_game_has_committed_results() -> None:
    games = {p.name.split("_")[0].removesuffix(SUFFIX) for p in FILES}
    assert games == {"klondike", "lady-jane", "bakers-dozen", "hopscotch", "freecell"}


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name.removesuffix(SUFFIX))
def test_a_sample_of_decided_deals_solves_to_the_same_verdict(path: Path) -> None:
    rows = list(read_csv(path))
    rng = random.Random(path.name)
    sample = []
    for verdict in ("won", "lost"):
        quick = [r for r in rows if r[3] == verdict and r[4] < QUICK]
        sample += rng.sample(quick, min(PER_VERDICT, len(quick)))
    assert any(r[3] == "won" for r in sample)
    for game, options, deal, verdict, *_ in sample:
        _, again, *_ = solve_deal((game, options_of(options), deal, 30.0, None))
        assert again == verdict, f"{path.name}: deal {deal} was {verdict}, now {again}"


def verdicts(name: str) -> dict[int, str]:
    """Deal -> verdict of one committed file."""
    return {deal: verdict for _, _, deal, verdict, *_ in read_csv(RESULTS / f"{name}{SUFFIX}")}


# (stricter, looser): every line of the stricter game is a line of the looser one, so a
# deal won in the first is won in the second, and one lost in the second is lost in the
# first. Klondike: a redeal limit only removes deals, and dealing three at a time only
# brings up cards that dealing one at a time brings up in the same order; Baker's Dozen:
# building on another suit only is a subset of building on any.
STRICTER_LOOSER = [
    ("klondike_mode=single", "klondike_mode=unlimited"),
    ("klondike_mode=three", "klondike_mode=unlimited"),
    ("klondike_mode=no-redeal", "klondike_mode=unlimited"),
    ("klondike_mode=no-redeal", "klondike_mode=single"),
    (
        "bakers-dozen_build=other-suit_kings=to-bottom",
        "bakers-dozen_build=any-suit_kings=to-bottom",
    ),
]


@pytest.mark.parametrize(("stricter", "looser"), STRICTER_LOOSER, ids=lambda n: n)
def test_the_committed_verdicts_agree_across_rules_that_contain_each_other(
    stricter: str, looser: str
) -> None:
    strict, loose = verdicts(stricter), verdicts(looser)
    both = strict.keys() & loose.keys()
    assert len(both) >= 500
    assert [d for d in sorted(both) if strict[d] == "won" and loose[d] == "lost"] == []
