"""FreeCell's search (solver/freecell.py): each proven cut against the same search without
it, and Microsoft's deals won with lines the rules replay."""

from __future__ import annotations

import random

import pytest

from endgames import pinned_brute, tiny
from engine_builders import build, random_play
from patience import get_game, new_game
from patience.solver import solve
from patience.solver.base import Adapter
from patience.solver.dfs import search
from patience.solver.freecell import FreeCellAdapter

FC = "freecell"
rules = get_game(FC)
adapter = FreeCellAdapter(rules)


def test_the_key_ignores_the_order_of_cascades_free_cells_and_foundations() -> None:
    p = build(FC, f=("AS", "AH 2H", "", ""), t=["KS QH", "5C", "", "9D"], r=["3C", "", "7H"])
    q = build(FC, f=("", "AH 2H", "AS", ""), t=["9D", "", "5C", "KS QH"], r=["7H", "3C"])
    assert adapter.key(p) == adapter.key(q)
    other = build(FC, f=("AS", "AH 2H", "", ""), t=["KS QH", "5C", "", "9D"], r=["3C", "7H", "8H"])
    assert adapter.key(p) != adapter.key(other)


def test_a_card_goes_home_at_once_when_both_cards_below_of_the_other_colour_are_home() -> None:
    # 3H: both black 2s home -> safe; 3S: the 2H home but not the 2D (covered) -> not.
    p = build(FC, f=("AC 2C", "AD", "AS 2S", "AH 2H"), t=["3S", "3H", "2D KC"], r=["QD"])
    moves, after = adapter.auto(p)
    assert [str(m) for m in moves] == ["t2>f4"]
    assert after.tableau[0] and not after.tableau[1]


def test_every_ace_goes_home_at_once_into_the_first_empty_foundation() -> None:
    p = build(FC, f=("", "AD", "", ""), t=["5C AS", "KH"])
    moves, _ = adapter.auto(p)
    assert [str(m) for m in moves] == ["t1>f1"]


def test_one_move_stands_for_all_into_an_empty_cell_or_cascade() -> None:
    p = build(FC, t=["KS QH", "5C", "", "9D", ""], r=["", "3C"])
    kids = [str(m) for moves, _, _, _ in adapter.children(p) for m in moves]
    assert not any(m.endswith((">r3", ">r4", ">t5")) for m in kids)
    assert {"t1>r1", "t1>t3", "r2>t3"} <= set(kids)
    assert "t2>t3" not in kids and "t1>t3/2" not in kids  # a whole cascade: the same key
    assert set(kids) <= {str(m) for m in rules.legal_moves(p)}


def test_a_whole_cascade_never_moves_into_an_empty_one() -> None:
    p = build(FC, t=["KS QH", "", "5C"], r=["2C", "3C", "4C", "5D"])
    kids = [str(m) for moves, _, _, _ in adapter.children(p) for m in moves]
    assert "t1>t2/2" not in kids and "t3>t2" not in kids
    assert "t1>t2" in kids  # the QH alone changes the position


@pytest.mark.parametrize("seed", range(2))
def test_the_cuts_agree_with_a_plain_search_on_small_end_games(seed: int) -> None:
    rng = random.Random(f"freecell cuts {seed}")
    checked = 0
    for _ in range(15):
        p = tiny(FC, {}, rng, rng.randint(2, 5))
        if p is None:
            continue
        want = pinned_brute(p, limit=5_000)
        if want is None:
            continue
        assert solve(p, timeout=None, max_states=200_000).result == want
        checked += 1
    assert checked >= 4


def test_positions_near_the_end_of_a_deal_agree_with_the_generic_search() -> None:
    rng = random.Random(3)
    start = new_game(FC, 2)
    line = solve(start, timeout=None, max_states=200_000).moves
    assert line
    generic = Adapter(rules)
    for share in (0.9, 0.95):
        p = start
        for m in line[: int(len(line) * share)]:
            p = rules.play(p, m)
        p = random_play(p, rng.randint(1, 4), rng)
        want, _, _ = search(p, generic, max_states=30_000)
        if want != "unknown":
            assert search(p, adapter, max_states=30_000)[0] == want


@pytest.mark.parametrize("deal", [1, 2, 3])
def test_microsofts_deals_are_won_with_a_line_the_rules_replay(deal: int) -> None:
    # A state budget, no clock: the same verdict on every machine. solve replays the line.
    r = solve(new_game(FC, deal), timeout=None, max_states=300_000)
    assert r.result == "won", (deal, r.states)
    p = new_game(FC, deal)
    for m in r.moves:
        p = rules.play(p, m)
    assert rules.is_won(p)


def test_a_stuck_position_is_lost_after_the_whole_search() -> None:
    # Every cell full, nothing fits anywhere: lost, and only the full search says so.
    p = build(
        FC,
        f=("AC", "AD", "AS", "AH"),
        t=["2C 4C", "2D 4S", "2S 5C", "2H 5S", "3C 7D", "3D 7H", "3S 9D", "3H 9H"],
        r=["KC", "KD", "KS", "KH"],
    )
    assert rules.is_stuck(p)
    assert solve(p, timeout=None, max_states=10_000).result == "lost"


@pytest.mark.slow
def test_microsofts_deal_11982_is_proven_lost_by_the_whole_search() -> None:
    # The one deal of 1..32000 that no one wins: the exhaustive search (every cut proven)
    # meets every state of it, 71,775 of them, and finds no win.
    verdict, line, states = search(new_game(FC, 11982), adapter, max_states=100_000)
    assert (verdict, line) == ("lost", [])
    assert states < 100_000
