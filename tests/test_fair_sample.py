"""Sampled arrangements: consistent with what was seen, valid, uniform, view-only."""

from __future__ import annotations

import itertools
import random
from collections import Counter

import pytest

from patience import get_game
from patience.cards import DECK
from patience.fair import Knowledge, player_view, sample
from patience.fair.sample import arrangement
from patience.games import variants
from patience.moves import Move
from patience.session import Session

GAMES = variants()


def _played(game: str, options: dict[str, str], deal: int, moves: int) -> Session:
    """A session some random legal moves into the deal (deals favoured, to turn stock)."""
    rng = random.Random(deal)
    s = Session(get_game(game, options).new_position(deal))
    for _ in range(moves):
        legal = s.legal_moves()
        if not legal:
            break
        s.play(Move.deal() if Move.deal() in legal and rng.random() < 0.5 else rng.choice(legal))
    return s


@pytest.mark.parametrize(("game", "options"), GAMES)
@pytest.mark.parametrize("moves", [0, 15, 40])
def test_a_sample_keeps_every_seen_card_in_place_and_is_a_valid_position(
    game: str, options: dict[str, str], moves: int
) -> None:
    s = _played(game, options, 11 + moves, moves)
    k = Knowledge.of_history(s.history, stock_known=False)
    p = s.position
    rng = random.Random(1)
    for _ in range(20):
        q = sample(p, k, rng)
        assert s.game.validate(q) == []
        assert player_view(q, k) == {**player_view(p, k), "deal": None}
        assert sorted(arrangement(q, k)) == k.unseen(p)
        assert (q.down, q.waste, q.foundations, q.reserve) == (
            p.down,
            p.waste,
            p.foundations,
            p.reserve,
        )


def test_samples_are_uniform_over_the_arrangements_chi_square() -> None:
    p = get_game("klondike").new_position(12)
    hidden = [p.tableau[6][0], p.tableau[5][1], p.tableau[3][2]]
    k = Knowledge(frozenset(DECK) - set(hidden))
    rng = random.Random(2024)
    n = 6000
    counts = Counter(arrangement(sample(p, k, rng), k) for _ in range(n))
    assert set(counts) == set(itertools.permutations(arrangement(p, k)))
    expected = n / 6
    chi2 = sum((c - expected) ** 2 / expected for c in counts.values())
    assert chi2 < 20.52  # 5 degrees of freedom, p = 0.001


def test_the_same_view_and_seed_give_the_same_sample_whatever_is_hidden() -> None:
    p = get_game("klondike", {"mode": "three"}).new_position(13)
    k = Knowledge.start(p)
    other = sample(p, k, random.Random(7))
    assert arrangement(other, k) != arrangement(p, k)
    assert sample(p, k, random.Random(3)) == sample(other, k, random.Random(3))


def test_paper_setting_never_moves_a_stock_card() -> None:
    p = get_game("klondike", {"mode": "three"}).new_position(14)
    k = Knowledge.start(p, stock_known=True)
    q = sample(p, k, random.Random(0))
    assert q.stock == p.stock and len(arrangement(q, k)) == 21
