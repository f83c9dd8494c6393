"""The proven cuts of Klondike and Lady Jane (the obligations of
``solver.alternating.obligation``, the relaxed game of ``solver.relaxed.Relaxed``)
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

from engine_builders import VARIANTS, random_play, solver_positions
from patience import Move, Position, game_for, get_game, new_game
from patience.cards import RANK, TEXT, parse_card
from patience.games import position_from_json, position_to_json
from patience.solver import solve
from patience.solver.dfs import search
from patience.solver.relaxed import Ordered, Relaxed, loose
from patience.solver.search import adapter_for

CASES = [v for v in VARIANTS if v[0] in ("klondike", "lady-jane")]
DEAL_MOVE = Move.deal()


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
        assert pruned == plain, position_to_json(p)
        seen[plain] += 1
        if seen["won"] >= 5 and seen["lost"] >= 5:
            break
    assert seen["won"] >= 2 and seen["lost"] >= 2, seen


@pytest.mark.parametrize("mode", ["single", "three", "no-redeal", "unlimited"])
def test_a_state_of_lower_cost_reaches_the_others_by_dealing(mode: str) -> None:
    """What ``KlondikeAdapter.cost`` claims: of two states with the same key, the one of
    lower cost reaches the other by dealing alone."""
    rng = random.Random(f"deal{mode}")
    rules = get_game("klondike", {"mode": mode})
    adapter = adapter_for(rules)
    unlimited = rules.max_redeals is None
    limit = 3 if unlimited else rules.max_redeals

    def state(q: Position) -> Position:  # with unlimited redeals, their count is no state
        return replace(q, redeals=0) if unlimited else q

    for deal in range(1, 6):
        p = random_play(new_game("klondike", deal, {"mode": mode}), rng.randrange(40), rng)
        seq = p.waste + tuple(reversed(p.stock))
        reached = {state(p)}
        todo = [p]
        while todo:
            q = todo.pop()
            if not rules.is_legal(q, DEAL_MOVE):
                continue
            q = rules.play(q, DEAL_MOVE)
            if q.redeals <= p.redeals + limit and state(q) not in reached:
                reached.add(state(q))
                todo.append(q)
        for redeals in range(p.redeals, (p.redeals if unlimited else limit) + 1):
            for ptr in range(len(seq) + 1):
                other = replace(
                    p, waste=seq[:ptr], stock=tuple(reversed(seq[ptr:])), redeals=redeals
                )
                if adapter.key(other) == adapter.key(p) and adapter.cost(other) >= adapter.cost(p):
                    assert state(other) in reached, (deal, ptr, redeals)


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
            assert not adapter.lost(p), (position_to_json(p), str(m))
            p = rules.play(p, m)
        if found == 4:
            break
    assert found


@pytest.mark.parametrize(("game", "options"), CASES)
def test_the_ordered_game_proves_every_loss_the_pooling_game_proves(
    game: str, options: dict[str, str]
) -> None:
    """The native search may run ``Ordered`` alone (``lost`` in ``_tableau.c``): it
    must lose no cut ``Relaxed`` makes."""
    rng = random.Random(f"subsume{game}{options}")
    adapter = adapter_for(game_for(new_game(game, 1, options)))
    relaxed = ordered = 0
    for deal in range(1, 13):
        p = new_game(game, deal, options)
        for _ in range(12):
            lost = adapter._ordered_lost(p)
            if adapter._relaxed_lost(p):
                relaxed += 1
                assert lost, position_to_json(p)
            ordered += lost
            p = random_play(p, 8, rng)
    assert 0 < relaxed <= ordered, (relaxed, ordered)


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


@pytest.mark.parametrize(
    ("mode", "deals", "aces_home"),
    [
        ("unlimited", 10, 4),  # all: two lie under the waste's top (a redeal), two in the stock
        ("single", 3, 1),  # the waste's top alone
        ("single", 10, 0),  # none: under the waste's top or in the stock
        ("no-redeal", 3, 1),
        ("three", 1, 0),  # three cards a deal: none
    ],
)
def test_safe_cards_of_the_stock_go_home_at_once_with_one_card_a_deal(
    mode: str, deals: int, aces_home: int
) -> None:
    """Deal 2's four Aces are all in the stock, 3rd, 5th, 14th and 21st to come up.
    With one card a deal ``auto`` plays a safe card home from the waste's top, and
    with unlimited redeals from anywhere in the stock or waste, dealing it up first
    (the engine takes the moves). Elsewhere taking a card out of the stock would
    change what later deals bring up, or cost a redeal."""
    rules = get_game("klondike", {"mode": mode})
    p = new_game("klondike", 2, {"mode": mode})
    assert [i for i, c in enumerate(p.stock[::-1]) if RANK[c] == 1] == [2, 4, 13, 20]
    for _ in range(deals):
        p = rules.play(p, DEAL_MOVE)
    moves, q = adapter_for(rules).auto(p)
    replayed = p
    for m in moves:
        replayed = rules.play(replayed, m)
    assert replayed == q
    assert sum(1 for f in q.foundations if f) == aces_home
    assert (q.redeals > p.redeals) == (mode == "unlimited")


@pytest.mark.parametrize("mode", ["unlimited", "three"])
def test_a_stock_card_goes_home_when_every_card_two_ranks_below_it_is_home(mode: str) -> None:
    """Deal 2 with AH 2H and the other three Aces home: 3H, in the stock, goes home at
    once with one card a deal (unlimited redeals here), though the black 2s are not
    home. No card not home can need the foundation under 3H back, and a line that
    plays 3H from the stock onto a card can bring it from its foundation there
    instead. (On the tableau, where it is a card to build on in its place, it would
    need the black 2s home: ``alternating.is_safe``.) With three cards a deal it
    stays."""
    rules = get_game("klondike", {"mode": mode})
    p = new_game("klondike", 2, {"mode": mode})
    home = [parse_card(t) for t in ("AH", "2H", "AD", "AC", "AS")]
    assert all(c in p.stock for c in [*home, parse_card("3H")])
    p = replace(
        p,
        stock=tuple(c for c in p.stock if c not in home),
        foundations=(tuple(home[:2]), (home[2],), (home[3],), (home[4],)),
    )
    moves, q = adapter_for(rules).auto(p)
    replayed = p
    for m in moves:
        replayed = rules.play(replayed, m)
    assert replayed == q
    assert (parse_card("3H") in q.foundations[0]) == (mode == "unlimited")


# Lady Jane deal 3 (base 3) after its first deal, rearranged: 3C 4C and the other 3s
# home, 5C on top of reserve r1. The red 4s are not home, so 5C is not safe on the
# tableau, but on a reserve every card two ranks below it is enough.
RESERVE_FIVE = {
    "game": "lady-jane",
    "options": {},
    "deal": 3,
    "stock": ["KD", "5S", "4S", "8C", "5H", "JC", "2H", "AH", "9H"],
    "waste": [],
    "foundations": [["3C", "4C"], ["3D"], ["3H"], ["3S"]],
    "tableau": [
        {"down": [], "up": ["8D"]},
        {"down": ["8H"], "up": ["JD"]},
        {"down": ["6S", "9D"], "up": ["AS"]},
        {"down": ["7H", "JH", "9C"], "up": ["4H"]},
        {"down": ["QC", "7D", "8S", "QH"], "up": ["AD"]},
        {"down": ["2D", "4D", "QS", "TC", "5D"], "up": ["7C"]},
        {"down": ["KC", "TH", "JS", "QD", "TS", "6H"], "up": ["KS"]},
    ],
    "reserve": [["AC", "5C"], ["6D"], ["7S"], ["KH"], ["6C", "9S"], ["TD", "2C"], ["2S"]],
    "redeals": 0,
    "base": "3",
    "score": 5,
}


@pytest.mark.parametrize("prune", [True, False])
def test_a_lady_jane_reserve_card_goes_home_when_every_card_two_ranks_below_is_home(
    prune: bool,
) -> None:
    p = position_from_json(RESERVE_FIVE)
    adapter = adapter_for(game_for(p))
    adapter.prune = prune
    moves, q = adapter.auto(p)
    assert (Move.parse("r1>f1") in moves) == prune
    assert (parse_card("5C") in q.foundations[0]) == prune


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
    assert adapter._relaxed_lost(p)
    assert solve(p, timeout=5).result == "lost"
    # Without the twins' condition the relaxed game is won: it is what proves the loss.
    init = Relaxed.__init__

    def forget_twins(self: Relaxed, p: Position, rel: tuple[int, ...], *stacks: Any) -> None:
        init(self, p, rel, *stacks)
        self.twin = {}

    monkeypatch.setattr(Relaxed, "__init__", forget_twins)
    assert not adapter_for(game_for(p))._relaxed_lost(p)
    # With KS swapped for a stock card, QD and QH have a parent each: no loss proven.
    monkeypatch.undo()
    ks, other = p.tableau[5][2], p.stock[0]
    t6 = tuple(other if c == ks else c for c in p.tableau[5])
    stock = tuple(ks if c == other else c for c in p.stock)
    freed = replace(p, tableau=(*p.tableau[:5], t6, p.tableau[6]), stock=stock)
    assert not adapter_for(game_for(p))._relaxed_lost(freed)


# Klondike no-redeal deal 300 after random play. With no redeal the waste is a stack:
# QH lies above its twin QD there and leaves first, for KS or KC (or home), so QD then
# needs the other one. The relaxed game keeps the waste's twins apart, and that alone
# proves the loss.
WASTE_TWINS = {
    "game": "klondike",
    "options": {"mode": "no-redeal"},
    "deal": 300,
    "stock": ["KC", "AS", "2C", "TS", "4D", "3C", "4S", "KD", "AH", "4C", "TH", "JC", "2D"],
    "waste": ["9S", "JH", "2H", "6S", "QS", "QD", "QH", "2S"],
    "foundations": [[], [], [], []],
    "tableau": [
        {"down": [], "up": ["9H", "8C"]},
        {"down": [], "up": ["KH"]},
        {"down": ["JS", "3S"], "up": ["6C", "5D"]},
        {"down": ["7D", "AD"], "up": ["7C", "6H", "5S", "4H"]},
        {"down": ["TD", "8S", "7H"], "up": ["KS"]},
        {"down": ["5C", "JD", "8D", "QC", "AC"], "up": ["3D"]},
        {"down": ["8H", "9C", "5H", "6D", "3H", "7S"], "up": ["TC", "9D"]},
    ],
    "reserve": [],
    "redeals": 0,
}


def test_the_relaxed_game_keeps_twins_apart_in_a_waste_with_no_redeal(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    p = position_from_json(WASTE_TWINS)
    assert adapter_for(game_for(p))._relaxed_lost(p)
    assert solve(p, timeout=10).result == "lost"
    init = Relaxed.__init__

    def waste_unstacked(self: Relaxed, p: Position, rel: tuple[int, ...], *stacks: Any) -> None:
        init(self, p, rel)

    monkeypatch.setattr(Relaxed, "__init__", waste_unstacked)
    assert not adapter_for(game_for(p))._relaxed_lost(p)
    # With a redeal left, the waste is no stack: no loss proven by the relaxed game.
    single = position_from_json({**WASTE_TWINS, "options": {"mode": "single"}})
    monkeypatch.undo()
    assert not adapter_for(game_for(single))._relaxed_lost(single)


# Klondike (unlimited) deal 19 after random play: lost, and only because face-up cards
# that sit on a parent keep their twins to the other parent (7H on 8C, 5D on 6C, ...).
POOL_TWINS = {
    "game": "klondike",
    "options": {"mode": "unlimited"},
    "deal": 19,
    "stock": [
        "6D",
        "6S",
        "2C",
        "5H",
        "QH",
        "4C",
        "3C",
        "AS",
        "KH",
        "8D",
        "AC",
        "7S",
        "JD",
        "TC",
        "QD",
        "QC",
        "KS",
        "TS",
        "3H",
    ],
    "waste": ["2S", "JS"],
    "foundations": [[], [], [], []],
    "tableau": [
        {"down": [], "up": []},
        {"down": ["AD"], "up": ["8C", "7H", "6C", "5D"]},
        {"down": [], "up": ["5C"]},
        {"down": [], "up": ["KD", "QS"]},
        {"down": ["3D", "JH"], "up": ["4S"]},
        {"down": ["8S", "8H", "2D", "AH", "7D"], "up": ["JC", "TD", "9S"]},
        {"down": ["KC", "9H", "9C", "TH", "4H", "9D"], "up": ["7C", "6H", "5S", "4D", "3S", "2H"]},
    ],
    "reserve": [],
    "redeals": 1,
}


def test_the_relaxed_game_keeps_a_card_off_the_parent_its_twin_holds(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    p = position_from_json(POOL_TWINS)
    assert adapter_for(game_for(p))._relaxed_lost(p)
    assert solve(p, timeout=10).result == "lost"
    init = Relaxed.__init__

    def pool_twins_forgotten(
        self: Relaxed, p: Position, rel: tuple[int, ...], *stacks: Any
    ) -> None:
        init(self, p, rel, *stacks)
        self.twin = {y: x for y, x in self.twin.items() if x not in self.pool}

    monkeypatch.setattr(Relaxed, "__init__", pool_twins_forgotten)
    assert not adapter_for(game_for(p))._relaxed_lost(p)


def test_loose_cards_are_told_apart() -> None:
    # A loaded position may hold face-up cards that sit on no parent: the twins rule
    # must not count them as holding one, and the memo keys on them.
    p = position_from_json(POOL_TWINS)
    assert loose(p, RANK) == b""
    assert "7D" in {TEXT[c] for c in Relaxed(p, RANK).twin}  # 7H sits on 8C
    t2 = {"down": ["AD"], "up": ["8C", "6C", "7H", "5D"]}
    odd = position_from_json(
        {**POOL_TWINS, "tableau": [POOL_TWINS["tableau"][0], t2, *POOL_TWINS["tableau"][2:]]}
    )
    assert [TEXT[c] for c in loose(odd, RANK)] == ["6C", "7H", "5D"]
    assert "7D" not in {TEXT[c] for c in Relaxed(odd, RANK).twin}


# Klondike unlimited, found by random play. 6S and 7S can only go home straight from
# the stock here, before any red 7 or 8 is in play, so neither can come back to hold a
# red 5 or 6: the relaxed game no longer counts a card home as a parent unless it
# could return onto one of its own, and that alone proves the loss.
HOME_PARENTS = {
    "game": "klondike",
    "options": {"mode": "unlimited"},
    "deal": 211151,
    "stock": [
        "4C",
        "7H",
        "6H",
        "7S",
        "QC",
        "QD",
        "KC",
        "2C",
        "9C",
        "7D",
        "QH",
        "JS",
        "6C",
        "AS",
        "JC",
        "6S",
        "KS",
        "TD",
        "9S",
        "AD",
        "5S",
        "7C",
        "9H",
    ],
    "waste": [],
    "foundations": [[], [], [], []],
    "tableau": [
        {"down": [], "up": ["9D"]},
        {"down": [], "up": ["KD", "QS", "JD"]},
        {"down": ["3S", "TS"], "up": ["4S", "3H", "2S"]},
        {"down": ["TC", "4D"], "up": ["JH"]},
        {"down": ["AH", "8S", "3D", "AC"], "up": ["6D"]},
        {"down": ["TH", "8H", "5H", "2H", "8C"], "up": ["3C", "2D"]},
        {"down": ["KH", "4H", "8D", "5C"], "up": ["5D"]},
    ],
    "reserve": [],
    "redeals": 0,
}


def test_a_card_home_is_a_parent_only_if_it_could_come_back(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    p = position_from_json(HOME_PARENTS)
    assert adapter_for(game_for(p))._relaxed_lost(p)
    assert solve(p, timeout=10).result == "lost"
    assert search(p, adapter_for(game_for(p)), max_states=200_000)[0] == "lost"
    # Counting every card home as a parent, as the relaxed game first did: no proof.
    monkeypatch.setattr(Relaxed, "_recall", Relaxed._open)
    assert not adapter_for(game_for(p))._relaxed_lost(p)


def test_cards_home_become_parents_as_their_own_parents_come_into_play() -> None:
    # Clubs and hearts home to 6 and 5, 7H alone on the tableau: 6C could come back onto
    # 7H, then 5H onto 6C, 4C onto 5H, 3H, 2C and AH in turn. 5C (on 6D or 6H), 4H
    # (on 5C or 5S) and so 3C, 2H and AC could not: they are no parents.
    p = position_from_json(HOME_PARENTS)
    clubs = tuple(c for c in range(52) if TEXT[c][1] == "C" and RANK[c] <= 6)
    hearts = tuple(c for c in range(52) if TEXT[c][1] == "H" and RANK[c] <= 5)
    h7 = next(c for c in range(52) if TEXT[c] == "7H")
    home = replace(
        p,
        stock=tuple(c for c in range(52) if c not in (*clubs, *hearts, h7)),
        foundations=(clubs, hearts, (), ()),
        tableau=((h7,), (), (), (), (), (), ()),
        down=(0,) * 7,
    )
    available = {TEXT[c] for c in range(52) if Relaxed(home, RANK).avail[c]}
    assert available == {"7H", "6C", "5H", "4C", "3H", "2C", "AH"}


# A state inside the proof that Klondike deal 72 (unlimited) is lost. Every card is
# face up but for four in t5 (2H at the bottom), two in t6 and three in t7 (2C under
# 8H). Each run that covers them can only move onto a card that lies under it or
# under another of them (8C onto 9D or 9H, both under 8C; 7C onto 8H, under it, or
# 8D, under 7S in t6; ...), or go home after a card they cover. The relaxed game that
# pools the face-up cards frees them all at once and finds no loss; the ordered one,
# which moves a card only once what lies on it has moved, proves it.
ORDERED = {
    "game": "klondike",
    "options": {"mode": "unlimited"},
    "deal": 72,
    "stock": ["6S", "8S", "QD", "7D"],
    "waste": [],
    "foundations": [["AC"], ["AD", "2D"], ["AS", "2S", "3S"], ["AH"]],
    "tableau": [
        {"down": [], "up": ["5D", "4C", "3D"]},
        {"down": [], "up": ["KH", "QS", "JD", "TC"]},
        {"down": [], "up": ["KC", "QH", "JC", "TH", "9S"]},
        {"down": [], "up": ["KD", "QC", "JH"]},
        {"down": ["2H", "KS", "9H", "9D"], "up": ["8C", "7H", "6C", "5H", "4S", "3H"]},
        {"down": ["JS", "TS"], "up": ["TD", "9C", "8D", "7S", "6H", "5S"]},
        {"down": ["4D", "2C", "8H"], "up": ["7C", "6D", "5C", "4H", "3C"]},
    ],
    "reserve": [],
    "redeals": 0,
}


def test_the_ordered_relaxed_game_moves_a_card_only_once_what_lies_on_it_has_moved(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    p = position_from_json(ORDERED)
    adapter = adapter_for(game_for(p))
    assert not adapter._relaxed_lost(p)
    assert adapter.lost(p)
    assert solve(p, timeout=10).result == "lost"
    game = Ordered(p, RANK)
    assert adapter._played_out(p, game)
    assert game.h == [1, 3, 6, 1]  # 2C and 2H never come free, nor 4D or 7S
    # Without it, nothing proves the loss at once.
    monkeypatch.setattr(Ordered, "won", lambda self: True)
    assert not adapter_for(game_for(p)).lost(p)


# Klondike deal 27 (no redeal), on a winning line. 3S lies face down under JC; once JC
# has moved it could go home at once, but the line first builds 2H on it, and only
# the ordered game that counts it as a parent on its way home keeps the win.
HOME_BOUND_PARENT = {
    "game": "klondike",
    "options": {"mode": "no-redeal"},
    "deal": 27,
    "stock": ["9C", "7C", "3C", "6S", "TH", "5S", "9S"],
    "waste": ["4S", "3D", "7D", "4D", "5H", "5D", "JS", "6D", "QD", "4H"],
    "foundations": [["AS"], [], [], []],
    "tableau": [
        {"down": [], "up": ["KD", "QC", "JH", "TS", "9D"]},
        {"down": [], "up": ["KH", "QS", "JD", "TC"]},
        {"down": ["2C"], "up": ["4C", "3H"]},
        {"down": ["2S", "8S"], "up": ["9H"]},
        {"down": ["AC", "KC", "7S", "3S"], "up": ["JC"]},
        {"down": ["2D", "6C", "8C", "AH", "8D"], "up": ["8H"]},
        {"down": ["6H", "AD", "5C", "7H", "2H", "TD"], "up": ["KS", "QH"]},
    ],
    "reserve": [],
    "redeals": 0,
}


def test_the_ordered_game_counts_a_card_as_a_parent_on_its_way_home() -> None:
    p = position_from_json(HOME_BOUND_PARENT)
    assert solve(p, timeout=10).result == "won"
    adapter = adapter_for(game_for(p))
    assert not adapter.lost(p)
    game = Ordered(p, RANK, adapter._stacks(p))
    assert not adapter._played_out(p, game)
    assert game.top[next(c for c in range(52) if TEXT[c] == "3S")]
