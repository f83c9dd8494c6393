"""Lady Jane: one test (or more) per bullet of RULES.md."""

from __future__ import annotations

import pytest

from engine_builders import after, build, cards, moves_of, pile_text
from patience import IllegalMoveError, get_game, new_game, play
from patience.cards import RANK

LJ = "lady-jane"
rules = get_game(LJ)


# --- Deal ---------------------------------------------------------------------------


@pytest.mark.parametrize("deal", [0, 1, 7, 40000])
def test_deal_tableau_as_klondike_then_reserves_then_base_card_then_16_in_stock(
    deal: int,
) -> None:
    p = new_game(LJ, deal)
    k = new_game("klondike", deal)
    assert p.tableau == k.tableau and p.down == k.down
    assert [len(r) for r in p.reserve] == [1] * 7
    assert len(p.foundations[0]) == 1 and p.foundations[1:] == ((), (), ())
    assert p.base == RANK[p.foundations[0][0]]
    assert len(p.stock) == 16 and not p.waste
    assert rules.score(p) == 1
    # the stock's order continues Klondike's talon: reserves, base card, then the stock
    talon = list(reversed(k.stock))
    assert [r[0] for r in p.reserve] == talon[:7]
    assert p.foundations[0][0] == talon[7]
    assert list(reversed(p.stock)) == talon[8:]
    assert sorted(p.cards_in_play()) == list(range(52))


# --- Stock ---------------------------------------------------------------------------


def test_deal_puts_one_card_on_each_reserve_top_card_to_r1() -> None:
    stock = "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AD 2D 3D 4D"
    p = build(LJ, stock=stock, r=["AS"] * 0, base="7")
    q = play(p, "deal")
    assert [pile_text(r) for r in q.reserve] == ["4D", "3D", "2D", "AD", "KC", "QC", "JC"]
    assert len(q.stock) == 9
    r = play(q, "deal")
    assert [pile_text(x) for x in r.reserve] == [
        "4D TC",
        "3D 9C",
        "2D 8C",
        "AD 7C",
        "KC 6C",
        "QC 5C",
        "JC 4C",
    ]
    assert pile_text(r.stock) == "2C 3C"


def test_deal_fills_empty_reserves_too() -> None:
    p = build(LJ, stock="2C 3C 4C 5C 6C 7C 8C 9C TC", r=["AH", "", "KH"], base="7")
    q = play(p, "deal")
    assert [pile_text(r) for r in q.reserve][:3] == ["AH TC", "9C", "KH 8C"]


def test_last_two_cards_one_to_waste_one_face_up_on_stock_both_playable() -> None:
    p = build(LJ, stock="5H 6S", t=["6C", "7D"], base="2")
    q = play(p, "deal")
    assert pile_text(q.waste) == "6S" and pile_text(q.stock) == "5H"
    legal = moves_of(q)
    assert "w>t2" in legal  # 6S on 7D
    assert "s>t1" in legal  # 5H on 6C, from the stock itself
    assert "deal" not in legal


def test_stock_card_is_played_from_the_stock_itself() -> None:
    p = build(LJ, stock="6H 5S", t=["7C", "6D"], base="2")
    q = play(p, "deal")
    assert pile_text(q.stock) == "6H"
    r = play(q, "s>t1")
    assert r.stock == () and pile_text(r.tableau[0]) == "7C 6H"
    with pytest.raises(IllegalMoveError, match="no redeal"):
        play(r, "deal")


def test_stock_cards_are_not_playable_before_the_last_deal() -> None:
    p = build(LJ, stock="6H 5S", t=["7C", "6D"], base="2")
    assert not any(m.startswith("s>") for m in moves_of(p))
    with pytest.raises(IllegalMoveError, match="face down"):
        play(p, "s>t2")


def test_no_redeal() -> None:
    p = build(LJ, waste="5S", t=["KD"], base="2")
    assert "deal" not in moves_of(p)


# --- Reserves ------------------------------------------------------------------------


def test_reserve_top_card_plays_to_tableau_or_foundation() -> None:
    p = build(LJ, f=("7S", "", "", ""), r=["2C 8S", "9C 7H"], t=["9D"], base="7")
    legal = moves_of(p)
    assert "r1>f1" in legal  # 8S follows 7S
    assert "r1>t1" in legal  # 8S on 9D
    assert {"r2>f2", "r2>f3", "r2>f4"} <= set(legal)  # 7H starts a foundation
    assert not any(m.startswith("r1>") and "2C" in m for m in legal)


def test_nothing_is_built_on_a_reserve() -> None:
    p = build(LJ, r=["9C"], t=["8H"], base="2")
    assert not any(m.endswith(">r1") for m in moves_of(p))
    with pytest.raises(IllegalMoveError, match="nothing is built on a reserve"):
        play(p, "t1>r1")


def test_an_emptied_reserve_stays_empty_until_the_next_deal() -> None:
    p = build(LJ, r=["", "9C"], t=["8H", ""], base="2")
    assert not any(m.endswith(">r1") for m in moves_of(p))


# --- Foundations ---------------------------------------------------------------------


def test_foundations_start_with_any_card_of_the_base_rank() -> None:
    p = build(LJ, f=("7S", "", "", ""), t=["7D", "8D", "AD"], base="7")
    legal = moves_of(p)
    assert {"t1>f2", "t1>f3", "t1>f4"} <= set(legal)
    assert not any(m.startswith("t3>f") for m in legal)
    with pytest.raises(IllegalMoveError, match="only 7s start it"):
        play(p, "t3>f2")


def test_foundations_build_up_in_suit_cyclically_to_13_cards() -> None:
    up = "JS QS KS AS 2S 3S 4S 5S 6S 7S 8S 9S"
    p = build(LJ, f=("JS QS KS", "", "", ""), t=["AS"], base="J")
    assert "t1>f1" in moves_of(p)  # an Ace goes on a King
    full = build(LJ, f=(up, "", "", ""), t=["TS"], base="J")
    assert "t1>f1" in moves_of(full)
    done = play(full, "t1>f1")
    assert len(done.foundations[0]) == 13
    assert rules.foundation_accepts(done, 0) is None  # complete: takes nothing more


def test_foundation_top_card_goes_back_to_the_tableau() -> None:
    p = build(LJ, f=("7S 8S", "", "", ""), t=["9H"], base="7")
    q = play(p, "f1>t1")
    assert rules.score(q) == 1 and pile_text(q.tableau[0]) == "9H 8S"


# --- Tableau -------------------------------------------------------------------------


def test_tableau_builds_down_in_alternating_colours_cyclically() -> None:
    p = build(LJ, t=["AS", "KH", "KC", "2H"], base="7")
    legal = moves_of(p)
    assert "t2>t1" in legal  # red King on black Ace
    assert "t3>t1" not in legal
    assert "t1>t4" in legal


def test_nothing_is_built_on_a_card_of_the_base_rank() -> None:
    p = build(LJ, t=["7S", "6H"], base="7")
    assert "t2>t1" not in moves_of(p)
    with pytest.raises(IllegalMoveError, match="base rank ends a sequence"):
        play(p, "t2>t1")


def test_runs_move_as_units_and_stop_at_the_base_rank() -> None:
    p = build(LJ, t=["9S 8H 7C", "9D", "TD"], base="7")
    legal = moves_of(p)
    assert "t1>t3/3" in legal
    q = build(LJ, t=["8H 7C 6D", "8S"], base="7")
    assert "t1>t2/2" not in moves_of(q)  # 7C 6D is no run: nothing builds on a 7


@pytest.mark.parametrize(("base", "empty"), [("7", "6H"), ("A", "KH"), ("2", "AH")])
def test_empty_pile_takes_only_the_rank_below_the_base(base: str, empty: str) -> None:
    p = build(LJ, t=["", f"QS | {empty}", "5C"], base=base)
    legal = moves_of(p)
    assert "t2>t1" in legal
    assert "t3>t1" not in legal


def test_empty_pile_takes_a_run_led_by_the_rank_below_the_base() -> None:
    p = build(LJ, t=["", "QS | 6H 5C"], base="7")
    assert "t2>t1/2" in moves_of(p)
    p2 = build(LJ, t=["", "QS | 5H 4C"], base="7")
    assert "t2>t1/2" not in moves_of(p2)
    with pytest.raises(IllegalMoveError, match="only 6s"):
        play(p2, "t2>t1/2")


def test_score_starts_at_one_and_counts_foundation_cards() -> None:
    p = new_game(LJ, 3)
    assert rules.score(p) == 1
    q = build(LJ, f=("7S 8S", "7H", "", ""), base="7")
    assert rules.score(q) == 3


def test_after_helper() -> None:
    p = build(LJ, stock="5H 6S", base="2")
    assert after(p, "deal").stock == cards("5H")
