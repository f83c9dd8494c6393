"""Klondike's two cuts of issue 56, session 40: the runs on twin parents exchanged in the
key (``alternating.swapped_runs``) and, in draw 3, a state whose pointer only reaches the
multiples of 3 dominated by the same state with its pointer elsewhere
(``KlondikeAdapter.dominators``). Their claims are checked here on positions from real
deals (the exchanged position gets the same verdict from a search without the cuts) and
each cut against the same search without it (the same verdicts, native and reference);
the exact end games (``test_solver_endgames``) hold both searches to the exact verdicts."""

from __future__ import annotations

import random
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace

import pytest

from engine_builders import solver_positions
from patience import game_for, new_game
from patience.cards import RANK, RED, TEXT
from patience.position import Position
from patience.solver import alternating
from patience.solver import klondike as klondike_module
from patience.solver.alternating import arrangement, swapped_runs
from patience.solver.dfs import search
from patience.solver.search import adapter_for
from test_solver_returns import adapter, klondike

EMPTY = ("", "")
native = alternating.native


def texts(piles: list[list[int]]) -> list[list[str]]:
    return [[TEXT[c] for c in pile] for pile in piles]


def parallel(mode: str = "unlimited") -> tuple[Position, Position]:
    """Two runs on twin parents (5H on 6S, 5D on 6C; 6C is the lower-numbered twin and
    5D the lower-numbered base; and within them 4S on 5H, 4C on 5D), and the same state
    with the runs exchanged on the 6s."""
    piles = [("KD", "6S 5H 4S"), ("QD", "6C 5D 4C"), ("", "9H"), EMPTY, EMPTY, EMPTY, EMPTY]
    swapped = [("KD", "6S 5D 4C"), ("QD", "6C 5H 4S"), *piles[2:]]
    return klondike({"S": 0, "H": 0, "C": 0, "D": 0}, piles, mode), klondike(
        {"S": 0, "H": 0, "C": 0, "D": 0}, swapped, mode
    )


@contextmanager
def native_cuts(swaps: bool, dominance: bool) -> Iterator[None]:
    """The native search with each cut on or off."""
    assert native is not None
    was = native.run_swaps(swaps), native.dominance(dominance)
    try:
        yield
    finally:
        native.run_swaps(was[0])
        native.dominance(was[1])


def exhaustive(p: Position, max_states: int = 400_000) -> tuple[int, int]:
    """The native exhaustive search of ``p``: (verdict code, states)."""
    assert native is not None
    g = game_for(p)
    limit = -1 if g.max_redeals is None else g.max_redeals
    args = (*alternating.native_position(p), p.redeals, g.draw, limit, True)
    code, _, states = native.search(*args, -1, 60.0, max_states, 1 << 20, None)
    return code, states


def test_runs_on_twins_are_keyed_alike_in_their_order() -> None:
    p, q = parallel()
    assert texts(swapped_runs(arrangement(q, RANK), q.down, RANK))[:2] == [
        ["KD", "6S", "5H", "4S"],
        ["QD", "6C", "5D", "4C"],
    ]
    assert swapped_runs(arrangement(p, RANK), p.down, RANK) == [list(t) for t in p.tableau]
    # Only the 4s exchanged (on 5D and 5H): keyed alike too.
    inner = replace(
        p, tableau=(p.tableau[0][:-1] + (3,), p.tableau[1][:-1] + (29,), *p.tableau[2:])
    )
    assert TEXT[3] == "4C" and adapter(p).key(inner) == adapter(p).key(p)
    assert adapter(p).key(p) == adapter(q).key(q)
    assert adapter(p, prune=False).key(p) != adapter(q, prune=False).key(q)


def test_runs_on_a_face_down_card_or_in_one_pile_stay() -> None:
    # 5D lies on the face-down 6C: its pile's first face-up card, no twin to exchange with.
    down = klondike(
        {"S": 0, "H": 0, "C": 0, "D": 0},
        [("KD", "6S 5D"), ("QD 6C", "5H"), EMPTY, EMPTY, EMPTY, EMPTY, EMPTY],
    )
    assert swapped_runs(arrangement(down, RANK), down.down, RANK) == [list(t) for t in down.tableau]


@pytest.mark.skipif(native is None, reason="the native solver was not built")
def test_the_native_search_agrees_with_the_reference_where_the_cuts_act() -> None:
    # Positions of real deals with runs on twins to exchange: the same verdicts natively
    # and in Python (the states differ: the native search asks the relaxed games less).
    rng = random.Random("run swaps native")
    compared = 0
    for p in solver_positions("klondike", {"mode": "three"}, rng):
        verdict = search(p, adapter_for(game_for(p)), max_states=5_000)[0]
        if verdict != "unknown" and next(exchanges(p), None) is not None:
            with native_cuts(True, True):
                assert exhaustive(p)[0] == (0 if verdict == "won" else 1)
            compared += 1
    assert compared >= 3, compared


def exchanges(p: Position) -> Iterator[Position]:
    """Every position that exchanges two runs on face-up twins of ``p`` (once a pair)."""
    piles = [list(t) for t in p.tableau]
    carrying = {
        pile[k - 1]: (i, k) for i, pile in enumerate(piles) for k in range(p.down[i] + 1, len(pile))
    }
    for a, (i, k) in carrying.items():
        for b, (j, q) in carrying.items():
            u, v = piles[i][k], piles[j][q]
            same = RANK[a] == RANK[b] and RED[a] == RED[b] and RANK[u] == RANK[v]
            if a < b and i != j and same and RANK[u] + 1 == RANK[a] and RED[u] != RED[a]:
                t = [list(x) for x in piles]
                t[i][k:], t[j][q:] = piles[j][q:], piles[i][k:]
                yield replace(p, tableau=tuple(tuple(x) for x in t))


@pytest.mark.skipif(native is None, reason="the native solver was not built")
@pytest.mark.parametrize("mode", ["three", "unlimited", "single"])
def test_exchanged_runs_get_the_same_verdict_without_the_cuts(mode: str) -> None:
    """The claim itself: a position and the one with two runs on twins exchanged are
    won or lost alike, by the exhaustive search without either cut."""
    rng = random.Random(f"run swaps {mode}")
    compared = 0
    with native_cuts(False, False):
        for p in solver_positions("klondike", {"mode": mode}, rng):
            for q in exchanges(p):
                one, other = exhaustive(p)[0], exhaustive(q)[0]
                if 2 not in (one, other):
                    assert one == other, (p, q)
                    compared += 1
    assert compared >= 5, compared


@pytest.mark.skipif(native is None, reason="the native solver was not built")
@pytest.mark.parametrize(
    ("mode", "deal"),
    [("three", 60001), ("three", 10189), ("three", 11138), ("unlimited", 10189)],
)
def test_each_cut_keeps_the_verdict_of_the_search_without_it(mode: str, deal: int) -> None:
    """Deals lost only after an exhaustive search (60001: 67,212 states without the cuts;
    10189, 11138: about a million; unlimited 10189: a quarter of a million): the same
    verdict with each cut on or off, and fewer states with both."""
    p = new_game("klondike", deal, {"mode": mode})
    found = {}
    for swaps in (False, True):
        for dominance in (False, True):
            with native_cuts(swaps, dominance):
                found[swaps, dominance] = exhaustive(p, max_states=-1)
    assert {v for v, _ in found.values()} == {1}
    assert found[True, True][1] < found[False, False][1]


@pytest.mark.parametrize("mode", ["three", "unlimited"])
def test_the_reference_search_keeps_its_verdicts_without_the_cuts(
    mode: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The reference search (``dfs``) with both cuts, and with the tableau keyed by its
    arrangement alone and no dominance: the same verdicts."""
    positions = list(solver_positions("klondike", {"mode": mode}, random.Random(mode)))
    with_cuts = [search(p, adapter_for(game_for(p)), max_states=20_000)[0] for p in positions]
    monkeypatch.setattr(klondike_module, "swapped_runs", lambda piles, down, rel: piles)
    compared = 0
    for p, one in zip(positions, with_cuts, strict=True):
        a = adapter_for(game_for(p))
        monkeypatch.setattr(a, "dominators", lambda p: ())
        other = search(p, a, max_states=20_000)[0]
        if "unknown" not in (one, other):
            assert one == other, p
            compared += 1
    assert compared >= 5, compared
