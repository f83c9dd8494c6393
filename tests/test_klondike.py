"""Klondike: one test (or more) per bullet of RULES.md."""

from __future__ import annotations

import pytest

from engine_builders import after, build, cards, moves_of, pile_text
from patience import IllegalMoveError, Move, get_game, new_game, play
from patience.cards import RANK
from patience.games import position_to_json

K = "klondike"


# --- Deal ---------------------------------------------------------------------------


@pytest.mark.parametrize("deal", [0, 1, 2, 617, 32000, 32001, 123456789])
def test_deal_28_cards_in_7_piles_top_face_up_24_in_stock(deal: int) -> None:
    p = new_game(K, deal)
    assert [len(t) for t in p.tableau] == [1, 2, 3, 4, 5, 6, 7]
    assert list(p.down) == [0, 1, 2, 3, 4, 5, 6]
    assert len(p.stock) == 24 and not p.waste
    assert sorted(p.cards_in_play()) == list(range(52))
    assert p.foundations == ((), (), (), ())


# --- Tableau -------------------------------------------------------------------------


def test_tableau_builds_down_in_alternating_colours() -> None:
    p = build(K, t=["9S", "8H", "8C", "TD"])
    legal = moves_of(p)
    assert "t2>t1" in legal  # red 8 on black 9
    assert "t3>t1" not in legal  # black 8 on black 9
    assert "t1>t4" in legal  # black 9 on red 10
    with pytest.raises(IllegalMoveError, match="alternating colours"):
        play(p, "t3>t1")


def test_tableau_does_not_build_up_or_skip_ranks() -> None:
    p = build(K, t=["9S", "TH", "7H"])
    assert "t2>t1" not in moves_of(p) and "t3>t1" not in moves_of(p)


def test_tableau_no_card_goes_on_an_ace() -> None:
    p = build(K, t=["AS", "KH"])
    assert not any(m.endswith(">t1") for m in moves_of(p))
    with pytest.raises(IllegalMoveError, match="nothing ranks below an Ace"):
        play(p, "t2>t1")


def test_a_face_up_run_moves_as_a_unit() -> None:
    p = build(K, t=["4C | TS 9H 8C", "JD"])
    assert "t1>t2/3" in moves_of(p)
    q = play(p, "t1>t2/3")
    assert pile_text(q.tableau[1]) == "JD TS 9H 8C"
    assert pile_text(q.tableau[0]) == "4C" and q.down[0] == 0


def test_only_the_part_that_is_a_sequence_moves_as_a_unit() -> None:
    p = build(K, t=["TS 9S 8H", "TD"])
    legal = moves_of(p)
    assert "t1>t2/2" in legal  # 9S 8H onto TD
    assert "t1>t2/3" not in legal
    with pytest.raises(IllegalMoveError, match="not a sequence"):
        play(p, "t1>t2/3")


def test_face_down_cards_never_move() -> None:
    p = build(K, t=["KH | QS", ""])
    assert "t1>t2/2" not in moves_of(p)
    with pytest.raises(IllegalMoveError, match="does not have that many face-up cards"):
        play(p, "t1>t2/2")


def test_empty_pile_takes_only_a_king() -> None:
    p = build(K, t=["", "QH", "KS", "5C | KD QC"], waste="KC")
    legal = moves_of(p)
    assert "t2>t1" not in legal
    assert "t3>t1" in legal
    assert "w>t1" in legal
    assert "t4>t1/2" in legal  # a run whose bottom card is a King
    assert "t4>t1" not in legal  # QC alone may not
    with pytest.raises(IllegalMoveError, match="only Kings"):
        play(p, "t2>t1")


def test_a_pointless_move_is_still_legal_king_pile_to_empty_pile() -> None:
    p = build(K, t=["KS QH", ""])
    assert "t1>t2/2" in moves_of(p)
    q = play(p, "t1>t2/2")
    assert q.tableau[0] == () and pile_text(q.tableau[1]) == "KS QH"


def test_uncovered_face_down_card_turns_up_as_part_of_the_move() -> None:
    p = build(K, t=["7D 3C | 2H", "3S"])
    q = play(p, "t1>t2")
    assert q.down[0] == 1  # 3C now face up, 7D still down
    assert pile_text(q.tableau[0]) == "7D 3C"


# --- Foundations ---------------------------------------------------------------------


def test_foundation_starts_with_an_ace_of_any_empty_foundation() -> None:
    p = build(K, t=["AH", "2H"])
    legal = moves_of(p)
    assert {"t1>f1", "t1>f2", "t1>f3", "t1>f4"} <= set(legal)
    assert not any(m.startswith("t2>f") for m in legal)


def test_foundation_builds_up_in_suit() -> None:
    p = build(K, f=("AH", "", "", ""), t=["2H", "2D", "3H"])
    legal = moves_of(p)
    assert "t1>f1" in legal and "t2>f1" not in legal and "t3>f1" not in legal
    with pytest.raises(IllegalMoveError, match="2D does not follow AH on f1"):
        play(p, "t2>f1")


def test_foundation_is_complete_at_king() -> None:
    full = " ".join(f"{r}S" for r in "A23456789TJQK")
    p = build(K, f=(full, "", "", ""), t=["AS"])
    assert "t1>f1" not in moves_of(p)


def test_foundation_top_card_goes_back_to_the_tableau_and_score_drops() -> None:
    p = build(K, f=("AH 2H 3H", "", "", ""), t=["4S", ""])
    rules = get_game(K)
    assert "f1>t1" in moves_of(p)
    q = play(p, "f1>t1")
    assert rules.score(q) == rules.score(p) - 1 == 2
    assert pile_text(q.tableau[0]) == "4S 3H"


def test_foundation_card_never_goes_to_another_foundation() -> None:
    p = build(K, f=("AH", "", "", ""))
    assert "f1>f2" not in moves_of(p)
    with pytest.raises(IllegalMoveError, match="another foundation"):
        play(p, "f1>f2")


def test_foundation_king_goes_back_to_an_empty_pile() -> None:
    full = " ".join(f"{r}S" for r in "A23456789TJQK")
    p = build(K, f=(full, "", "", ""))
    assert "f1>t1" in moves_of(p)


# --- Stock ---------------------------------------------------------------------------


def test_deal_one_turns_the_top_card_to_the_waste() -> None:
    p = build(K, stock="2C 3C 4C")
    q = play(p, "deal")
    assert pile_text(q.stock) == "2C 3C" and pile_text(q.waste) == "4C"


def test_deal_three_turns_three_one_at_a_time_last_on_top() -> None:
    p = build(K, options={"mode": "three"}, stock="2C 3C 4C 5C 6C")
    q = play(p, "deal")
    assert pile_text(q.stock) == "2C 3C"
    assert pile_text(q.waste) == "6C 5C 4C"  # 4C turned last: the waste's top
    r = play(q, "deal")
    assert pile_text(r.waste) == "6C 5C 4C 3C 2C" and r.stock == ()


def test_only_the_waste_top_is_playable() -> None:
    p = build(K, options={"mode": "three"}, waste="AH AS", t=["2D"])
    legal = moves_of(p)
    assert any(m.startswith("w>f") for m in legal)
    q = build(K, options={"mode": "three"}, waste="AS 5C", t=["2D"])
    assert not any(m.startswith("w>") for m in moves_of(q))


def test_redeal_turns_the_waste_back_so_the_next_pass_is_the_same() -> None:
    p = build(K, stock="2C 3C 4C")
    first = after(p, "deal", "deal", "deal")
    assert first.stock == () and pile_text(first.waste) == "4C 3C 2C"
    again = play(first, "deal")
    assert again.redeals == 1 and again.stock == p.stock and again.waste == ()
    assert after(again, "deal", "deal", "deal").waste == first.waste


def test_deal_with_stock_and_waste_empty_is_illegal() -> None:
    p = build(K, t=["KS"])
    assert "deal" not in moves_of(p)
    with pytest.raises(IllegalMoveError, match="both empty"):
        play(p, "deal")


@pytest.mark.parametrize(
    ("mode", "draw", "redeals"),
    [("single", 1, 2), ("three", 3, None), ("no-redeal", 1, 0), ("unlimited", 1, None)],
)
def test_modes_set_cards_per_deal_and_redeals(mode: str, draw: int, redeals: int | None) -> None:
    p = build(K, options={"mode": mode}, stock="2C 3C 4C 5C 6C 7C")
    q = play(p, "deal")
    assert len(q.waste) == draw
    used = 0
    for _ in range(10):
        while q.stock:
            q = play(q, "deal")
        if "deal" not in moves_of(q):
            break
        q = play(q, "deal")
        used += 1
    if redeals is None:
        assert used == 10
    else:
        assert used == redeals
        with pytest.raises(IllegalMoveError, match="no redeals left"):
            play(q, "deal")


def test_default_mode_is_single() -> None:
    assert new_game(K, 1).options == (("mode", "single"),)


# --- Conveniences --------------------------------------------------------------------


def test_double_click_sends_a_card_to_its_foundation() -> None:
    p = build(K, f=("AH", "", "", ""), t=["2H", "5S"], waste="AS")
    rules = get_game(K)
    assert rules.foundation_move(p, "t1") == Move.parse("t1>f1")
    assert rules.foundation_move(p, "w") == Move.parse("w>f2")
    assert rules.foundation_move(p, "t2") is None


def test_auto_finish_plays_every_card_it_can_repeatedly() -> None:
    p = build(K, f=("AH", "AS", "", ""), t=["3H", "2S 2H", "3S"], waste="4H", stock="AD")
    rules = get_game(K)
    moves = rules.auto_finish(p)
    q = after(p, *[str(m) for m in moves])
    assert pile_text(q.foundations[0]) == "AH 2H 3H 4H"
    assert pile_text(q.foundations[1]) == "AS 2S 3S"
    assert q.stock == cards("AD")  # the stock is not dealt


def test_score_counts_foundation_cards_and_won_when_all_are_up() -> None:
    rules = get_game(K)
    suits = [" ".join(f"{r}{s}" for r in "A23456789TJQK") for s in "CDHS"]
    won = build(K, f=tuple(suits))
    assert rules.score(won) == 52 and rules.is_won(won) and not rules.is_stuck(won)
    almost = build(K, f=(suits[0], suits[1], suits[2], suits[3][:-3]), t=["KS"])
    assert rules.score(almost) == 51 and not rules.is_won(almost)
    assert "t1>f4" in moves_of(almost)


def test_stuck_when_no_legal_move_is_left() -> None:
    p = build(K, t=["5C", "5S"], f=("AH 2H", "", "", ""))
    rules = get_game(K)
    assert rules.legal_moves(p) == [] and rules.is_stuck(p)


def test_an_illegal_move_changes_nothing() -> None:
    p = new_game(K, 5)
    before = position_to_json(p)
    with pytest.raises(IllegalMoveError):
        play(p, "t1>t2/5")
    assert position_to_json(p) == before


def test_rank_table_sanity() -> None:
    assert RANK[cards("KS")[0]] == 13
