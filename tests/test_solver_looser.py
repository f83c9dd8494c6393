"""Baker's Dozen's looser game (``bd_looser_oracle.py`` and its native twin in the
search by classes): it never loses a position that can be won, and it proves the losses
that the search by classes alone cannot end."""

from __future__ import annotations

import random

import pytest

from bd_looser_oracle import LooserGame
from endgames import load_golden, pinned_brute, tiny
from patience.games import get_game
from patience.games.position_json import position_from_json
from patience.solver.alternating import native
from patience.solver.bakers_dozen import BakersDozenAdapter
from patience.solver.schedule import Verdict

LOOSER = BakersDozenAdapter.looser_states


def looser_game(build: str) -> LooserGame:
    game = get_game("bakers-dozen", {"build": build, "kings": "to-bottom"})
    return LooserGame(BakersDozenAdapter(game).parents, LOOSER)


@pytest.mark.parametrize("build", ["any-suit", "other-suit"])
def test_the_looser_game_loses_only_lost_end_games(build: str) -> None:
    """Random end games of 8 to 13 cards and the committed ones, with their exact
    verdicts: none won is called lost, and the looser game proves most of the losses.
    (Each position gets its own looser game: what one remembers names the cards of its
    own start's piles.)"""
    options = {"build": build, "kings": "to-bottom"}
    rng = random.Random(33)
    cases = []
    for _ in range(150):
        p = tiny("bakers-dozen", options, rng, rng.randint(8, 13))
        truth = None if p is None else pinned_brute(p, 10_000)
        if p is not None and truth is not None:
            cases.append((p, truth))
    for entry in load_golden():
        if entry["position"]["game"] == "bakers-dozen" and entry["position"]["options"] == options:
            cases.append((position_from_json(entry["position"]), entry["verdict"]))
    proved = {"won": 0, "lost": 0}
    for p, truth in cases:
        proved[truth] += looser_game(build).lost(p.tableau)
    lost = sum(1 for _, truth in cases if truth == "lost")
    assert proved["won"] == 0
    assert lost > 30 and proved["lost"] > lost // 2


def test_the_looser_game_gives_up_after_its_states() -> None:
    """Other-suit 6826 at the start: lost in the looser game after about 9,200 states;
    given 200 at a time, it gives up, and each later try goes on where the last one
    stopped (only the line it was on is opened again), until one proves it."""
    game = get_game("bakers-dozen", {"build": "other-suit", "kings": "to-bottom"})
    tab = game.new_position(6826).tableau
    full = LooserGame(BakersDozenAdapter(game).parents, 100_000)
    assert full.lost(tab) and full.work > 5_000
    small = LooserGame(BakersDozenAdapter(game).parents, 200)
    tries = 1
    while not small.lost(tab):
        tries += 1
    assert full.work / 200 < tries < 3 * full.work / 200
    assert full.work <= small.work < 1.2 * full.work


@pytest.mark.skipif(native is None, reason="no native module")
@pytest.mark.parametrize(("deal", "children"), [(310, 3_443), (1474, 1_111)])
def test_the_native_search_by_classes_proves_with_it_the_losses_it_could_not(
    deal: int, children: int
) -> None:
    """Other-suit 310 and 1474, which every search of the solver left undecided before
    the looser game (310: 2.4 million classes in 60 s without an end), are lost within a
    few thousand children with it; without it, ten times as many do not end it. The
    children are exactly as many as when the looser game was written (session 33): a
    faster looser game must allow the same moves (solver-log.md, session 34)."""
    game = get_game("bakers-dozen", {"build": "other-suit", "kings": "to-bottom"})
    piles = [bytes(pile) for pile in game.new_position(deal).tableau]
    code, states, _, _, _ = native.bakers_dozen_classes(piles, True, 120.0, -1, -1, None, LOOSER)
    assert Verdict.of_code(code) == Verdict.LOST
    assert states == children
    code, states, _, _, _ = native.bakers_dozen_classes(piles, True, 120.0, 10 * children, -1, None)
    assert Verdict.of_code(code) == Verdict.UNKNOWN
