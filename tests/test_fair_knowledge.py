"""What the player knows, per game: seen cards after deals, redeals, moves and undo."""

from __future__ import annotations

import json

import pytest

from patience import InvalidPositionError, get_game
from patience.cards import DECK, card_text
from patience.fair import Knowledge, player_view
from patience.games import GAMES, position_to_json
from patience.moves import Move
from patience.session import Session


def _deal_until(session: Session, stock_size: int) -> None:
    while len(session.position.stock) > stock_size:
        session.play(Move.deal())


def test_klondike_start_shows_the_seven_top_cards_only() -> None:
    p = get_game("klondike").new_position(1)
    k = Knowledge.start(p)
    assert k.seen == {pile[-1] for pile in p.tableau}
    assert len(k.unseen(p)) == 21 + 24


def test_klondike_paper_setting_knows_the_stock_from_the_start() -> None:
    p = get_game("klondike").new_position(1)
    k = Knowledge.start(p, stock_known=True)
    assert set(p.stock) <= k.seen
    assert sorted(k.unseen(p)) == sorted(
        c for pile, d in zip(p.tableau, p.down, strict=True) for c in pile[:d]
    )


def test_klondike_draw_three_shows_all_three_cards_it_turns() -> None:
    s = Session(get_game("klondike", {"mode": "three"}).new_position(2))
    k = Knowledge.start(s.position)
    turned = s.position.stock[-3:]
    s.play(Move.deal())
    k = k.observe(s.position)
    assert set(turned) <= k.seen and len(k.unseen(s.position)) == 45 - 3


def test_klondike_after_one_pass_the_whole_stock_is_known() -> None:
    s = Session(get_game("klondike", {"mode": "unlimited"}).new_position(3))
    k = Knowledge.start(s.position)
    while s.position.stock:
        s.play(Move.deal())
        k = k.observe(s.position)
    s.play(Move.deal())  # the redeal: the waste turned back over
    k = k.observe(s.position)
    assert set(s.position.stock) <= k.seen
    assert len(k.unseen(s.position)) == 21


def test_a_tableau_move_that_turns_a_card_shows_it_and_undo_never_unsees_it() -> None:
    s = Session(get_game("klondike").new_position(1))
    k = Knowledge.start(s.position)
    turning = next(
        m
        for m in s.legal_moves()
        if m.src.startswith("t") and s.position.down[int(m.src[1:]) - 1] > 0
    )
    i = int(turning.src[1:]) - 1
    hidden = s.position.tableau[i][s.position.down[i] - 1]
    assert hidden not in k.seen
    s.play(turning)
    k = k.observe(s.position)
    assert hidden in k.seen
    s.undo()
    k = k.observe(s.position)
    assert hidden in k.seen and hidden not in k.unseen(s.position)
    assert Knowledge.of_history([*s.history, s.game.play(s.position, turning)]) == k
    assert player_view(s.position, k)["tableau"][i]["down"][-1] == card_text(hidden)


def test_lady_jane_sees_reserves_base_card_and_the_stocks_last_card() -> None:
    s = Session(get_game("lady-jane").new_position(4))
    p = s.position
    k = Knowledge.start(p)
    assert len(k.seen) == 7 + 7 + 1
    assert len(k.unseen(p)) == 21 + 16
    _deal_until(s, 2)
    k = Knowledge.of_history(s.history)
    assert len(k.unseen(s.position)) == 21 + 2
    s.play(Move.deal())  # the last two: one to the waste, the other face up on the stock
    k = k.observe(s.position)
    assert s.position.stock[-1] in k.seen and s.position.waste[-1] in k.seen
    assert len(k.unseen(s.position)) == 21


def test_bakers_dozen_hides_nothing() -> None:
    for options in ({}, {"kings": "empty-piles"}):
        p = get_game("bakers-dozen", options).new_position(5)
        assert Knowledge.start(p).unseen(p) == []


def test_hopscotch_hides_the_stock_until_each_card_is_turned() -> None:
    s = Session(get_game("hopscotch").new_position(6))
    k = Knowledge.start(s.position)
    assert len(k.seen) == 4 and len(k.unseen(s.position)) == 48
    top = s.position.stock[-1]
    s.play(Move.deal())
    k = k.observe(s.position)
    assert top in k.seen and len(k.unseen(s.position)) == 47


@pytest.mark.parametrize("game", list(GAMES))
def test_the_view_holds_no_unseen_card_and_keeps_every_pile_size(game: str) -> None:
    p = get_game(game).new_position(7)
    k = Knowledge.start(p)
    view = player_view(p, k)
    full = position_to_json(p)
    text = json.dumps(view)
    for c in k.unseen(p):
        assert card_text(c) not in text
    assert len(view["stock"]) == len(full["stock"])
    assert [len(t["down"]) + len(t["up"]) for t in view["tableau"]] == [
        len(t["down"]) + len(t["up"]) for t in full["tableau"]
    ]
    nulls = view["stock"].count(None) + sum(t["down"].count(None) for t in view["tableau"])
    assert nulls == len(k.unseen(p))
    assert {k: v for k, v in view.items() if k not in ("stock", "tableau")} == {
        k: v for k, v in full.items() if k not in ("stock", "tableau")
    }


def test_the_view_names_a_face_down_card_the_player_remembers() -> None:
    p = get_game("klondike").new_position(1)
    view = player_view(p, Knowledge.start(p, stock_known=True))
    assert view["stock"] == position_to_json(p)["stock"]


def test_knowledge_round_trips_through_json_and_rejects_bad_input() -> None:
    p = get_game("klondike").new_position(8)
    k = Knowledge.start(p, stock_known=True)
    assert Knowledge.from_json(json.loads(json.dumps(k.to_json()))) == k
    for bad in ([], {"seen": "AS"}, {"seen": ["ZZ"]}, {"seen": [], "stock_known": "yes"}):
        with pytest.raises(InvalidPositionError):
            Knowledge.from_json(bad)


def test_everything_seen_leaves_nothing_unseen() -> None:
    p = get_game("klondike").new_position(9)
    assert Knowledge(frozenset(DECK)).unseen(p) == []
