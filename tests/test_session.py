"""The session: unlimited undo/redo, restart, resume from JSON."""

from __future__ import annotations

import json

import pytest

from patience import IllegalMoveError, Move, new_game
from patience.fair import Knowledge
from patience.session import Session


def test_undo_and_redo_are_unlimited_and_exact() -> None:
    s = Session(new_game("klondike", 1, {"mode": "unlimited"}))
    seen = [s.position]
    for _ in range(60):
        s.play(Move.deal())
        seen.append(s.position)
    while s.can_undo:
        s.undo()
        assert s.position == seen[len(s.moves)]
    assert s.position == seen[0]
    while s.can_redo:
        s.redo()
    assert s.position == seen[-1]


def test_a_new_move_clears_redo() -> None:
    s = Session(new_game("klondike", 1))
    s.play(Move.deal())
    s.undo()
    assert s.can_redo
    s.play(Move.deal())
    assert not s.can_redo


def test_illegal_move_changes_nothing() -> None:
    s = Session(new_game("klondike", 1))
    s.play(Move.deal())
    state = s.to_json()
    with pytest.raises(IllegalMoveError):
        s.play(Move.parse("t1>f1"))
    assert s.to_json() == state


def test_undo_with_nothing_to_undo_raises() -> None:
    s = Session(new_game("hopscotch", 1))
    with pytest.raises(IndexError):
        s.undo()
    with pytest.raises(IndexError):
        s.redo()


def test_restart_goes_back_to_the_deal() -> None:
    s = Session(new_game("lady-jane", 2))
    s.play(Move.deal())
    s.restart()
    assert s.position == new_game("lady-jane", 2) and not s.can_undo and not s.can_redo


def test_resume_from_json_keeps_history_and_redo() -> None:
    s = Session(new_game("klondike", 4))
    for _ in range(5):
        s.play(Move.deal())
    s.undo()
    s.undo()
    s.elapsed = 12.5
    t = Session.from_json(s.to_json())
    assert t.position == s.position and t.moves == s.moves and t.redo_stack == s.redo_stack
    assert t.elapsed == 12.5
    t.undo()
    assert t.position == s.history[-2]


def test_auto_finish_and_foundation_move() -> None:
    s = Session(new_game("bakers-dozen", 1))
    m = s.foundation_move("t1")
    assert m is None or m.dst.startswith("f")
    played = s.auto_finish()
    assert all(m.dst.startswith("f") for m in played)
    assert s.moves == played


def test_knowledge_keeps_every_card_seen_through_undo_redo_restart_and_a_save() -> None:
    start = new_game("klondike", deal=7)
    s = Session(start)
    assert s.knowledge == Knowledge.start(start)
    s.play(Move.parse("deal"))
    turned = s.position.waste[-1]
    assert turned in s.knowledge.seen
    s.undo()
    assert turned in s.knowledge.seen  # undo never un-sees a card
    s.restart()
    assert turned in s.knowledge.seen
    again = Session.from_json(json.loads(json.dumps(s.to_json())))
    assert again.knowledge == s.knowledge
    assert turned not in Session(start).knowledge.seen


def test_an_old_save_without_knowledge_gets_what_its_moves_and_redo_stack_show() -> None:
    s = Session(new_game("klondike", deal=7))
    s.play(Move.parse("deal"))
    s.play(Move.parse("deal"))
    second = s.position.waste[-1]
    s.undo()
    data = s.to_json()
    del data["knowledge"]
    old = Session.from_json(data)
    assert second in old.knowledge.seen  # the redo stack's move was seen when played
    assert old.knowledge == s.knowledge


def test_a_turn_is_the_players_move_with_the_automatic_moves_after_it() -> None:
    s = Session(new_game("klondike", deal=1))
    moves = [m for m in s.legal_moves() if m.is_deal][:1] * 3
    s.play(moves[0])
    s.play(moves[1], automatic=True)
    s.play(moves[2], automatic=True)
    s.play(moves[0])
    # Saved and resumed, the session keeps which moves were automatic.
    s = Session.from_json(json.loads(json.dumps(s.to_json())))
    assert s.undo_turn() == [moves[0]]
    assert len(s.undo_turn()) == 3 and not s.can_undo
    assert len(s.redo_turn()) == 3 and len(s.moves) == 3
    assert s.redo_turn() == [moves[0]] and not s.can_redo
    # A new move after an undo forgets what the redo stack held.
    s.undo_turn()
    s.undo_turn()
    s.play(moves[0])
    assert s.automatic == set() and s.undo_turn() == [moves[0]]
