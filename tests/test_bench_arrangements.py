"""bench/arrangements.py: the rearrangements it counts and its looser game's verdicts."""

from __future__ import annotations

import pytest

from bench_scripts import load_bench
from patience.cards import parse_card
from patience.games import get_game

arrangements = load_bench("arrangements")

OTHER = {"build": "other-suit", "kings": "to-bottom"}


def cards(text: str) -> tuple[int, ...]:
    return tuple(parse_card(t) for t in text.split())


def test_a_built_card_moves_only_onto_a_parent_it_may_be_built_on() -> None:
    valid = arrangements.may_lie_on(other_suit=True)
    assert arrangements.rearrangements((cards("KS QH"), cards("KC")), valid, 100) == 2
    assert arrangements.rearrangements((cards("KS QH"), cards("KH")), valid, 100) == 1
    # A card that does not lie on a card it may be built on does not move back and forth.
    assert arrangements.rearrangements((cards("KH QH"), cards("KC")), valid, 100) == 1


def tableau(deal: int) -> tuple[tuple[int, ...], ...]:
    return tuple(tuple(p) for p in get_game("bakers-dozen", OTHER).new_position(deal).tableau)


@pytest.mark.parametrize("deal", range(1, 9))
def test_the_looser_game_wins_every_deal_the_game_wins(deal: int) -> None:
    # Deals 1..8 are won (results/): a looser game that lost one would prove nothing.
    verdict, _ = arrangements.without_arrangements(tableau(deal), True, 200_000)
    assert verdict == "won"


def test_the_looser_game_proves_a_loss() -> None:
    # 5027 is lost (results/); the search with the arrangements needs 37,569 states.
    verdict, states = arrangements.without_arrangements(tableau(5027), True, 200_000)
    assert verdict == "lost"
    assert states < 37_569
