"""FreeCell: one test (or more) per rule of docs/rules.md."""

from __future__ import annotations

import pytest

from engine_builders import after, build, moves_of, pile_text
from patience import IllegalMoveError, InvalidPositionError, Position, get_game, new_game, play
from patience.games import position_from_json, position_to_json
from patience.games.describe import describe

FC = "freecell"
rules = get_game(FC)


@pytest.mark.parametrize("deal", [0, 1, 2, 11982, 32000, 10**12])
def test_deal_eight_cascades_7_7_7_7_6_6_6_6_all_face_up(deal: int) -> None:
    p = new_game(FC, deal)
    assert [len(t) for t in p.tableau] == [7, 7, 7, 7, 6, 6, 6, 6]
    assert p.down == (0,) * 8
    assert p.reserve == ((),) * 4 and p.foundations == ((),) * 4
    assert not p.stock and not p.waste
    assert sorted(p.cards_in_play()) == list(range(52))


def test_no_stock_deal_is_never_legal() -> None:
    p = new_game(FC, 1)
    assert "deal" not in moves_of(p)
    with pytest.raises(IllegalMoveError, match="has no stock"):
        play(p, "deal")


def test_build_down_in_alternating_colours() -> None:
    p = build(FC, t=["9H", "TC", "TD", "8S"])
    legal = moves_of(p)
    assert "t1>t2" in legal and "t1>t3" not in legal
    assert "t4>t1" in legal
    with pytest.raises(IllegalMoveError, match="alternating colours"):
        play(p, "t1>t3")


def test_an_empty_cascade_takes_any_card() -> None:
    p = build(FC, t=["", "5H", "KS", "AD"])
    legal = moves_of(p)
    assert {"t2>t1", "t3>t1", "t4>t1"} <= set(legal)


def test_an_empty_cascade_takes_any_run_and_any_part_of_it() -> None:
    p = build(FC, t=["", "KS 8D 7C 6H", "2C"])
    legal = moves_of(p)
    assert {"t2>t1", "t2>t1/2", "t2>t1/3"} <= set(legal)
    assert "t2>t1/4" not in legal  # 8D does not lie on KS: not part of the run


def test_a_free_cell_takes_one_card_from_a_cascade() -> None:
    p = build(FC, t=["5H 9C"], r=["", "QD"])
    legal = moves_of(p)
    assert {"t1>r1", "t1>r3", "t1>r4"} <= set(legal)
    assert "t1>r2" not in legal
    with pytest.raises(IllegalMoveError, match="r2 is full"):
        play(p, "t1>r2")
    assert pile_text(after(p, "t1>r1").reserve[0]) == "9C"


def test_a_free_cell_takes_a_single_card_never_a_run() -> None:
    p = build(FC, t=["TC 9H"])
    assert "t1>r1/2" not in moves_of(p)
    with pytest.raises(IllegalMoveError, match="one card at a time"):
        play(p, "t1>r1/2")


def test_a_free_cell_card_goes_to_a_cascade_or_a_foundation_not_to_another_cell() -> None:
    p = build(FC, f=("", "", "AH", ""), t=["TC", ""], r=["9H", "2H"])
    legal = moves_of(p)
    assert {"r1>t1", "r1>t2", "r2>f3", "r2>t2"} <= set(legal)
    assert not any(m.startswith("r") and m.split(">")[1].startswith("r") for m in legal)
    with pytest.raises(IllegalMoveError, match="tableau pile's top card goes to a free cell"):
        play(p, "r1>r3")


def test_foundations_build_up_in_suit_from_the_ace_and_keep_their_cards() -> None:
    p = build(FC, f=("AS", "", "", ""), t=["2S", "2H", "AH"])
    legal = moves_of(p)
    assert "t1>f1" in legal and "t2>f1" not in legal and "t3>f2" in legal
    q = after(p, "t1>f1")
    assert not any(m.startswith("f") for m in moves_of(q))
    with pytest.raises(IllegalMoveError, match="stay there"):
        play(q, "f1>t2")


def run_position(cells_used: int, empty_cascades: int) -> Position:
    """A 6-card run on t1 to move onto the 8C of t2 (room filled as asked)."""
    cells = ["2C", "3C", "4C", "5C"][:cells_used]
    tableau = ["KS 7H 6S 5H 4S 3H 2S", "9D 8C"]
    fillers = ["JD", "JC", "QD", "QC", "KD", "KC"]
    tableau += fillers[: 6 - empty_cascades] + [""] * empty_cascades
    return build(FC, t=tableau, r=cells)


@pytest.mark.parametrize(
    ("cells_used", "empty", "most"),
    [(4, 0, 1), (3, 0, 2), (0, 0, 5), (4, 1, 2), (2, 1, 6), (0, 1, 10), (3, 2, 8), (0, 2, 20)],
)
def test_a_run_moves_when_there_is_room_for_it_card_by_card(
    cells_used: int, empty: int, most: int
) -> None:
    p = run_position(cells_used, empty)
    assert rules.max_run_for(p, 0, 1) == most
    legal = set(moves_of(p))
    for n in range(2, 7):
        # Only the 6-card run 7H..2S fits on 8C (7H on 8C); shorter ones do not.
        assert (f"t1>t2/{n}" in legal) == (n == 6 and most >= 6)
    # Into an empty cascade, every length up to the room that is left (target not counted).
    if empty:
        target = f"t{2 + 6 - empty + 1}"
        room = min(6, (4 - cells_used + 1) << (empty - 1))
        for n in range(1, 7):
            move = f"t1>{target}/{n}" if n > 1 else f"t1>{target}"
            assert (move in legal) == (n <= room), move


def test_a_run_too_long_for_the_room_is_refused_with_the_room() -> None:
    p = run_position(3, 0)
    with pytest.raises(IllegalMoveError, match="room to move 2 there"):
        play(p, "t1>t2/6")


def test_the_empty_target_cascade_is_not_counted() -> None:
    p = build(FC, t=["KS QH JC TD", "", "5H", "5C", "6H", "6C", "7H", "7C"], r=["2C", "3C", "4C"])
    # One free cell, one empty cascade (the target): room for (1 + 1) × 2^0 = 2.
    assert rules.max_run_for(p, 0, 1) == 2
    assert "t1>t2/2" in moves_of(p) and "t1>t2/3" not in moves_of(p)


def test_a_free_cell_holds_one_card_in_a_loaded_position() -> None:
    data = position_to_json(new_game(FC, 1))
    data["tableau"][0]["up"], moved = data["tableau"][0]["up"][:-2], data["tableau"][0]["up"][-2:]
    data["reserve"][0] = moved
    with pytest.raises(InvalidPositionError, match="r1 holds 2 cards, more than 1"):
        position_from_json(data)


def test_every_card_is_face_up_in_a_loaded_position() -> None:
    data = position_to_json(new_game(FC, 1))
    data["tableau"][0]["down"], data["tableau"][0]["up"] = (
        data["tableau"][0]["up"][:1],
        data["tableau"][0]["up"][1:],
    )
    with pytest.raises(InvalidPositionError, match="every card is face up"):
        position_from_json(data)


def test_won_with_every_card_home() -> None:
    suits = ("C", "D", "S", "H")
    f = tuple(" ".join(f"{r}{s}" for r in "A23456789TJQ") for s in suits)
    p = build(FC, f=f, t=["KC", "KD"], r=["KS", "KH"])
    q = after(p, "t1>f1", "t2>f2", "r1>f3", "r2>f4")
    assert rules.is_won(q) and rules.score(q) == 52


def test_the_free_cells_are_named_free_cells_and_an_empty_cascade_takes_any_card() -> None:
    # The page names the reserves as the game declares them ("free cell 2 is full", the
    # help's picture says "Free cells"), and the marks say an empty cascade takes anything
    # (empty_tableau_takes alone, null, would say it takes nothing).
    info = describe(rules)
    assert info["reserve_names"] == {"group": "Free cells", "pile": "free cell {n}"}
    assert info["sample"]["marks"]["empty_tableau_takes_any"] is True
    assert describe(get_game("hopscotch"))["reserve_names"]["pile"] == "reserve {n}"
    assert not describe(get_game("hopscotch"))["sample"]["marks"]["empty_tableau_takes_any"]
