"""Klondike's and Lady Jane's keys by arrangement (``solver.alternating.arrangement``): a
run lying on one of its base's two parents while the other is a pile's top is keyed as if
it lay on the lower-numbered one. The claim the cut rests on, that the two states are one legal move
from each other both ways, is checked here on positions from real deals; that the
search with it keeps every verdict, by ``test_solver_pruning`` (which fails if the
child of such a move is cut as covered by its own parent) and the exact end games."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from engine_builders import solver_positions
from patience import game_for
from patience.cards import RANK, RED, TEXT
from patience.games import position_from_json
from patience.moves import Move
from patience.solver import alternating, solve
from patience.solver.alternating import arrangement, relative_rank
from patience.solver.base import Twin
from patience.solver.dfs import search
from patience.solver.search import adapter_for
from test_solver_returns import adapter, klondike

EMPTY = ("", "")


def other_parent(c: int, p: int, rel: tuple[int, ...] = RANK) -> int:
    """The card of the other colour a rank up (ranks ``rel``) that is not ``p``."""
    return next(d for d in range(52) if RED[d] != RED[c] and rel[d] == rel[c] + 1 and d != p)


def texts(piles: list[list[int]]) -> list[list[str]]:
    return [[TEXT[c] for c in pile] for pile in piles]


def test_a_run_on_the_higher_parent_is_keyed_on_the_lower() -> None:
    # 5H lies on 6S (card 31) while 6C (card 5), its other parent, is a pile's top.
    p = klondike(
        {"S": 0, "H": 0, "C": 0, "D": 0},
        [("KD", "6S 5H 4C"), ("QD", "6C"), ("", "9H"), EMPTY, EMPTY, EMPTY, EMPTY],
    )
    assert texts(arrangement(p, RANK))[:2] == [["KD", "6S"], ["QD", "6C", "5H", "4C"]]
    there = game_for(p).play(p, Move("t1", "t2", 2))
    back = game_for(p).play(there, Move("t2", "t1", 2))
    assert back == p
    a = adapter(p)
    assert a.key(p) == a.key(there)
    assert adapter(p, prune=False).key(p) != adapter(p, prune=False).key(there)


def test_a_run_on_the_lower_parent_and_twins_on_both_stay() -> None:
    lower = klondike(
        {"S": 0, "H": 0, "C": 0, "D": 0},
        [("KD", "6C 5H"), ("QD", "6S"), EMPTY, EMPTY, EMPTY, EMPTY, EMPTY],
    )
    assert arrangement(lower, RANK) == [list(t) for t in lower.tableau]
    # 5D covers 6C: 5H cannot move to it, so it stays where it is.
    both = klondike(
        {"S": 0, "H": 0, "C": 0, "D": 0},
        [("KD", "6S 5H"), ("QD", "6C 5D"), EMPTY, EMPTY, EMPTY, EMPTY, EMPTY],
    )
    assert arrangement(both, RANK) == [list(t) for t in both.tableau]


def test_the_move_to_the_twin_carries_a_twin_obligation() -> None:
    p = klondike(
        {"S": 0, "H": 0, "C": 0, "D": 0},
        [("KD", "6S 5H 4C"), ("QD", "6C"), ("", "9H"), EMPTY, EMPTY, EMPTY, EMPTY],
    )
    tags = {moves: tag for moves, _, _, tag in adapter(p).children(p)}
    tag = tags[(Move("t1", "t2", 2),)]
    # It names 6S, the parent left free, and equals that card's obligation.
    assert isinstance(tag, Twin) and tag == 31 and hash(tag) == hash(31)


# Lost (draw 3): two runs may move to their twin parent, 6C onto 7H or 7D and 4C onto 5D
# or 5H; every other line is soon lost.
TWINS_LOST = {
    "game": "klondike",
    "options": {"mode": "three"},
    "deal": 1,
    "stock": ["6H", "9C", "6S", "TC", "8C", "3D"],
    "waste": ["4H", "7S", "3S", "TD", "4S", "8H", "2C", "JH", "6D", "8D", "QS"],
    "foundations": [[], ["AH", "2H", "3H"], ["AC"], ["AS"]],
    "tableau": [
        {"down": [], "up": ["KS", "QH", "JS", "TH"]},
        {"down": ["7H"], "up": ["TS", "9D", "8S", "7D", "6C"]},
        {"down": ["5D", "9S"], "up": ["5C", "4D", "3C"]},
        {"down": ["JC", "KC", "KH"], "up": ["4C"]},
        {"down": ["9H", "KD"], "up": ["QC"]},
        {"down": ["2D", "5H", "AD", "2S"], "up": ["QD"]},
        {"down": ["JD", "7C"], "up": ["5S"]},
    ],
    "reserve": [],
    "redeals": 4,
    "base": None,
    "score": 5,
}


def test_after_a_move_to_the_twin_the_move_back_is_not_searched() -> None:
    """The search opens the state after a move to the twin parent (it has its parent's
    key) without its table, and leaves out its move back, whose children are the
    parent's own: the start is opened once, not again under the twins' obligations.
    The native search opens the same states."""
    p = position_from_json(TWINS_LOST)
    a = adapter_for(game_for(p))
    opened: list[tuple[object, object]] = []
    children = a.children

    def spy(q: object, tag: object = None) -> object:
        opened.append((q, tag))
        return children(q, tag)  # type: ignore[arg-type]

    a.children = spy  # type: ignore[method-assign]
    verdict, _, states = search(p, a)
    assert verdict == "lost"
    assert sum(isinstance(tag, Twin) for _, tag in opened) >= 2
    assert [tag for q, tag in opened if q == p] == [None]
    g = game_for(p)
    native = alternating.native
    if native is not None:
        args = (*alternating.native_position(p), p.redeals, g.draw, -1, True)
        assert native.search(*args, -1, 30.0, -1, 1 << 16, None) == (1, [], states)


@pytest.mark.parametrize(
    ("game", "options"),
    [("klondike", {"mode": m}) for m in ("single", "three", "no-redeal", "unlimited")]
    + [("lady-jane", {})],
)
def test_each_arrangement_is_one_legal_move_from_the_state_both_ways(
    game: str, options: dict[str, str]
) -> None:
    rng = random.Random(f"arrangement{game}{options}")
    checked = 0
    for p in solver_positions(game, options, rng):
        rules = game_for(p)
        a = adapter_for(rules)
        rel = relative_rank(p.base)
        for i, pile in enumerate(p.tableau):
            for k in range(p.down[i] + 1, len(pile)):
                o = other_parent(pile[k], pile[k - 1], rel)
                j = next((j for j, t in enumerate(p.tableau) if t and t[-1] == o), None)
                if j is None:
                    continue
                count = len(pile) - k
                there = rules.play(p, Move(f"t{i + 1}", f"t{j + 1}", count))
                assert rules.play(there, Move(f"t{j + 1}", f"t{i + 1}", count)) == p
                assert a.key(there) == a.key(p)
                checked += 1
        # The arrangement is a state of the same cards, keyed as the state itself.
        arranged = replace(p, tableau=tuple(tuple(t) for t in arrangement(p, rel)))
        assert a.key(arranged) == a.key(p)
    assert checked >= 10, checked


def test_the_same_state_in_either_arrangement_gets_the_same_verdict() -> None:
    rng = random.Random("arrangement verdicts")
    compared = 0
    for p in solver_positions("klondike", {"mode": "single"}, rng):
        arranged = replace(p, tableau=tuple(tuple(t) for t in arrangement(p, RANK)))
        if arranged == p:
            continue
        one, other = solve(p, timeout=20), solve(arranged, timeout=20)
        if "unknown" not in (one.result, other.result):
            assert one.result == other.result
            compared += 1
    assert compared >= 3, compared


def test_lady_jane_wins_that_need_a_run_moved_to_its_twin_are_found() -> None:
    # Won only through a move of a run to its base's twin parent (found by a search
    # that cut such a move's child as covered by its parent: it said "lost" here).
    data = {
        "game": "lady-jane",
        "options": {},
        "deal": 2154,
        "stock": [],
        "waste": [],
        "foundations": [
            ["JD", "QD", "KD", "AD", "2D", "3D", "4D", "5D"],
            ["JH", "QH", "KH", "AH", "2H"],
            ["JC", "QC", "KC", "AC", "2C"],
            ["JS", "QS", "KS", "AS", "2S", "3S", "4S", "5S", "6S", "7S"],
        ],
        "tableau": [
            {"down": [], "up": []},
            {"down": [], "up": []},
            {"down": [], "up": ["TD", "9C", "8D", "7C", "6H"]},
            {"down": [], "up": ["TS", "9D"]},
            {"down": ["8S", "9S"], "up": ["6D", "5C", "4H"]},
            {"down": [], "up": []},
            {"down": [], "up": ["TC", "9H", "8C", "7D", "6C", "5H", "4C"]},
        ],
        "reserve": [[], ["TH"], [], [], [], ["3C", "8H"], ["3H", "7H"]],
        "redeals": 0,
        "base": "J",
        "score": 28,
    }
    p = position_from_json(data)
    assert search(p, adapter_for(game_for(p)))[0] == "won"
    assert solve(p, timeout=20).result == "won"


def test_a_run_on_a_card_it_is_not_built_on_stays_and_keys_apart() -> None:
    # A position given by hand: 8H lies on 4S, not on a parent, while both its parents
    # (9S, 9C) are piles' tops. It has no twin to be keyed as: the run stays, and the
    # state with 8H on a 9 (one move away, with no way back) keeps a key of its own.
    # (Until 2026-12-07 the search took a parent for the 4S and keyed the two alike, the
    # native one cutting the run off its pile's key.)
    p = klondike(
        {"S": 0, "H": 0, "C": 0, "D": 0},
        [("KD", "4S 8H"), ("QD", "9S"), ("JD", "9C"), EMPTY, EMPTY, EMPTY, EMPTY],
    )
    assert arrangement(p, RANK) == [list(t) for t in p.tableau]
    a = adapter(p)
    for dst in ("t2", "t3"):
        there = game_for(p).play(p, Move("t1", dst, 1))
        assert a.key(p) != a.key(there)
    assert solve(p, timeout=10).result == search(p, adapter(p, prune=False))[0]
