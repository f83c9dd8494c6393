"""The proven cuts of Klondike and Lady Jane (the obligations of
``solver.alternating.obligation``, the relaxed game of ``solver.alternating.Relaxed``)
never change a verdict: checked against the same exhaustive search without them, on
positions from real deals.

The positions are taken late in a winning line and then pushed off it by a few random
moves, so that both won and lost ones come up, with twin parents, emptied piles and
cards that can come back from the foundations: what the obligations and compound
moves of ``solver.alternating`` and ``solver.klondike`` are about.
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

import pytest

from engine_builders import VARIANTS, solver_positions
from patience import Position, game_for, new_game
from patience.cards import TEXT
from patience.solver import solve
from patience.solver.alternating import Relaxed
from patience.solver.search import adapter_for, search

CASES = [v for v in VARIANTS if v[0] in ("klondike", "lady-jane")]


@pytest.mark.parametrize(("game", "options"), CASES)
def test_cuts_keep_every_verdict(game: str, options: dict[str, str]) -> None:
    rng = random.Random(f"{game}{options}")
    seen = {"won": 0, "lost": 0}
    for p in solver_positions(game, options, rng):
        free = adapter_for(game_for(p))
        free.prune = False
        plain, _, _ = search(p, free, max_states=15_000)
        if plain == "unknown":
            continue  # too big to settle without the cuts
        pruned, _, _ = search(p, adapter_for(game_for(p)))
        assert pruned == plain, p.to_json()
        seen[plain] += 1
        if seen["won"] >= 5 and seen["lost"] >= 5:
            break
    assert seen["won"] >= 2 and seen["lost"] >= 2, seen


@pytest.mark.parametrize(("game", "options"), CASES)
def test_relaxation_never_gives_up_a_won_line(game: str, options: dict[str, str]) -> None:
    found = 0
    for deal in (27, 70, 3, 11, 13, 14):
        start = new_game(game, deal, options)
        won = solve(start, max_states=30_000)
        if won.result != "won":
            continue
        found += 1
        rules = game_for(start)
        adapter = adapter_for(rules)
        p = start
        for m in won.moves:
            assert not adapter.lost(p), (p.to_json(), str(m))
            p = rules.play(p, m)
        if found == 4:
            break
    assert found


def test_relaxation_proves_some_deals_lost_at_once() -> None:
    for game, options, first in (
        ("klondike", {"mode": "no-redeal"}, [2, 8, 9]),
        ("lady-jane", {}, [7, 21, 29]),
    ):
        rules = game_for(new_game(game, 1, options))
        adapter = adapter_for(rules)
        lost = [d for d in range(1, 41) if adapter.lost(rules.new_position(d))]
        assert lost[:3] == first
        for d in lost:
            assert solve(rules.new_position(d), timeout=5).result == "lost"


@pytest.mark.parametrize("mode", ["unlimited", "three"])
def test_many_redeals_already_made(mode: str) -> None:
    # A player may go round the stock hundreds of times; nothing may assume a small count.
    p = replace(new_game("klondike", 5, {"mode": mode}), redeals=300)
    assert solve(p, timeout=5).result == "won"


def test_the_relaxed_game_keeps_twins_apart(monkeypatch: pytest.MonkeyPatch) -> None:
    # Deal 12: t6 holds, bottom up, 5H AD KS QD QH 8H. QD and QH cannot go home before
    # AD and 5H, and their other parent KS lies under them: both need KC, in turn.
    p = new_game("klondike", 12, {"mode": "unlimited"})
    assert [TEXT[c] for c in p.tableau[5]] == ["5H", "AD", "KS", "QD", "QH", "8H"]
    adapter = adapter_for(game_for(p))
    assert adapter.lost(p)
    assert solve(p, timeout=5).result == "lost"
    # Without the twins' condition the relaxed game is won: it is what proves the loss.
    init = Relaxed.__init__

    def forget_twins(self: Relaxed, p: Position, rel: tuple[int, ...], *stacks: Any) -> None:
        init(self, p, rel, *stacks)
        self.twin = {}

    monkeypatch.setattr(Relaxed, "__init__", forget_twins)
    assert not adapter_for(game_for(p)).lost(p)
    # With KS swapped for a stock card, QD and QH have a parent each: no loss proven.
    monkeypatch.undo()
    ks, other = p.tableau[5][2], p.stock[0]
    t6 = tuple(other if c == ks else c for c in p.tableau[5])
    stock = tuple(ks if c == other else c for c in p.stock)
    freed = replace(p, tableau=(*p.tableau[:5], t6, p.tableau[6]), stock=stock)
    assert not adapter_for(game_for(p)).lost(freed)


# Klondike no-redeal deal 22 after random play. With no redeal the waste is a stack:
# JD lies above its twin JH and leaves first, and their other parent QC lies under
# both, so JD sits on QS when JH must leave (neither can go home before the face-down
# AD and 2H). The relaxed game keeps the waste's twins apart, and that proves the loss.
WASTE_TWINS = {
    "game": "klondike",
    "options": {"mode": "no-redeal"},
    "deal": 22,
    "stock": ["2C", "5S", "8D", "QS", "KH"],
    "waste": [
        "8C",
        "3D",
        "2D",
        "AC",
        "3S",
        "3H",
        "6C",
        "KC",
        "TS",
        "QC",
        "9S",
        "7C",
        "JH",
        "5D",
        "JD",
        "6H",
        "5C",
    ],
    "foundations": [[], ["AS", "2S"], [], ["AH"]],
    "tableau": [
        {"down": [], "up": ["KD"]},
        {"down": [], "up": ["8S", "7H"]},
        {"down": ["4S", "TD"], "up": ["4C"]},
        {"down": ["QD", "7D"], "up": ["QH", "JS"]},
        {"down": ["9H"], "up": ["4D"]},
        {"down": ["5H", "6S", "KS", "3C", "4H"], "up": ["JC", "TH", "9C", "8H", "7S", "6D"]},
        {"down": ["2H", "9D", "AD"], "up": ["TC"]},
    ],
    "reserve": [],
    "redeals": 0,
}


def test_the_relaxed_game_keeps_twins_apart_in_a_waste_with_no_redeal(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    p = Position.from_json(WASTE_TWINS)
    assert adapter_for(game_for(p)).lost(p)
    assert solve(p, timeout=10).result == "lost"
    init = Relaxed.__init__

    def waste_unstacked(self: Relaxed, p: Position, rel: tuple[int, ...], *stacks: Any) -> None:
        init(self, p, rel)

    monkeypatch.setattr(Relaxed, "__init__", waste_unstacked)
    assert not adapter_for(game_for(p)).lost(p)
    # With a redeal left, the waste is no stack: no loss proven by the relaxed game.
    single = Position.from_json({**WASTE_TWINS, "options": {"mode": "single"}})
    monkeypatch.undo()
    assert not adapter_for(game_for(single)).lost(single)
