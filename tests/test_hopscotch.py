"""Hopscotch: one test (or more) per bullet of RULES.md."""

from __future__ import annotations

import pytest

from engine_builders import after, build, moves_of, pile_text
from patience import IllegalMoveError, InvalidPositionError, get_game, new_game, play
from patience.cards import parse_card
from patience.games import position_from_json, position_to_json

H = "hopscotch"
rules = get_game(H)
START = ("AC", "2C", "3C", "4C")


@pytest.mark.parametrize("deal", [0, 1, 2, 33000])
def test_deck_48_cards_in_the_stock_and_a_c_to_4c_on_the_foundations(deal: int) -> None:
    p = new_game(H, deal)
    assert [pile_text(f) for f in p.foundations] == list(START)
    assert len(p.stock) == 48 and not p.waste and all(not r for r in p.reserve)
    assert len(p.reserve) == 4 and p.tableau == ()
    assert sorted(p.cards_in_play()) == list(range(52))
    assert rules.score(p) == 0


def test_the_stock_order_is_the_shared_shuffle_less_the_four_clubs() -> None:
    k = new_game("klondike", 9)
    order = [c for t in k.tableau for c in t]  # just the same cards
    assert sorted(order + list(k.stock)) == sorted(new_game(H, 9).cards_in_play())


@pytest.mark.parametrize(
    ("k", "sequence"),
    [
        (1, "A 2 3 4 5 6 7 8 9 T J Q K"),
        (2, "2 4 6 8 T Q A 3 5 7 9 J K"),
        (3, "3 6 9 Q 2 5 8 J A 4 7 T K"),
        (4, "4 8 Q 3 7 J 2 6 T A 5 9 K"),
    ],
)
def test_foundation_k_builds_up_by_k_suits_ignored_cyclically(k: int, sequence: str) -> None:
    suits = "HSDH"
    ranks = sequence.split()
    pile = START[k - 1]
    for i, rank in enumerate(ranks[1:]):
        card = f"{rank}{suits[i % 4]}"
        f = ["", "", "", ""]
        f[k - 1] = pile
        p = build(H, f=tuple(f), waste=card)
        assert f"w>f{k}" in moves_of(p), (pile, card)
        pile += " " + card
    f = ["", "", "", ""]
    f[k - 1] = pile
    full = build(H, f=tuple(f), waste="5D")
    assert len(full.foundations[k - 1]) == 13
    assert rules.foundation_accepts(full, k - 1) is None  # ends on a King: takes nothing more


def test_foundation_refuses_a_card_of_the_wrong_step() -> None:
    p = build(H, f=START, waste="3H")
    legal = moves_of(p)
    assert "w>f2" not in legal and "w>f1" not in legal and "w>f3" not in legal
    with pytest.raises(IllegalMoveError, match="3H does not follow 2C on f2"):
        play(p, "w>f2")
    assert "w>f4" not in legal


def test_cards_on_a_foundation_are_out_of_play() -> None:
    p = build(H, f=("AC 2H", "2C", "3C", "4C"))
    assert not any(m.startswith("f") for m in moves_of(p))
    with pytest.raises(IllegalMoveError, match="stay there"):
        play(p, "f1>r1")


def test_deal_turns_one_card_only_when_the_waste_is_empty() -> None:
    p = build(H, f=START, stock="9H 8D")
    q = play(p, "deal")
    assert pile_text(q.waste) == "8D" and pile_text(q.stock) == "9H"
    assert "deal" not in moves_of(q)
    with pytest.raises(IllegalMoveError, match="must be played"):
        play(q, "deal")


def test_waste_card_goes_to_any_reserve_or_a_foundation() -> None:
    p = build(H, f=START, waste="2D", r=["KS", "", "5H"])
    assert moves_of(p) == ["w>f1", "w>r1", "w>r2", "w>r3", "w>r4"]


def test_reserve_top_card_plays_only_to_a_foundation() -> None:
    p = build(H, f=START, r=["9S 2D", "QH"])
    legal = moves_of(p)
    assert legal == ["r1>f1"]
    with pytest.raises(IllegalMoveError, match="only the waste card goes to a reserve"):
        play(p, "r2>r3")


def test_no_redeal() -> None:
    p = build(H, f=START, r=["9S"])
    assert "deal" not in moves_of(p)
    with pytest.raises(IllegalMoveError, match="no redeal"):
        play(p, "deal")


def test_score_counts_cards_moved_max_48_and_won_when_all_piles_empty() -> None:
    seqs = [
        "A 2 3 4 5 6 7 8 9 T J Q K",
        "2 4 6 8 T Q A 3 5 7 9 J K",
        "3 6 9 Q 2 5 8 J A 4 7 T K",
        "4 8 Q 3 7 J 2 6 T A 5 9 K",
    ]
    used: set[str] = set(START)
    piles = []
    for k, seq in enumerate(seqs):
        pile = [START[k]]
        for rank in seq.split()[1:]:
            card = next(f"{rank}{s}" for s in "DHSC" if f"{rank}{s}" not in used)
            used.add(card)
            pile.append(card)
        piles.append(" ".join(pile))
    won = build(H, f=tuple(piles))
    assert rules.is_won(won) and rules.score(won) == 48
    last = piles[3].rsplit(" ", 1)
    almost = build(H, f=(piles[0], piles[1], piles[2], last[0]), stock=last[1])
    assert rules.score(almost) == 47 and not rules.is_won(almost)
    assert rules.is_won(after(almost, "deal", "w>f4"))


def test_stuck_when_stock_and_waste_are_empty_and_no_reserve_card_fits() -> None:
    p = build(H, f=START, r=["9S"])
    assert rules.is_stuck(p)


def test_card_parse_sanity() -> None:
    assert parse_card("ac") == parse_card("AC")


@pytest.mark.parametrize("start", [["AH"], []], ids=["another-ace", "empty"])
def test_a_loaded_position_keeps_the_four_clubs_on_the_foundations(start: list[str]) -> None:
    d = position_to_json(new_game("hopscotch", 1))
    d["stock"].append("AC")  # the club goes to the stock: every card is still there once
    for card in start:
        d["stock"].remove(card)
    d["foundations"][0] = start
    with pytest.raises(InvalidPositionError, match="f1 must start with AC"):
        position_from_json(d)


def test_a_foundation_started_with_the_wrong_rank_is_named_once_in_plain_words() -> None:
    d = position_to_json(new_game("hopscotch", 1))
    d["foundations"][0], d["foundations"][1] = d["foundations"][1], d["foundations"][0]
    with pytest.raises(InvalidPositionError) as err:
        position_from_json(d)
    text = str(err.value)
    assert "f1 must start with an Ace, not 2C" in text
    assert "f2 must start with a 2, not AC" in text
    assert text.count("f1") == 1 and text.count("f2") == 1, text
