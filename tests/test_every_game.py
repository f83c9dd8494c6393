"""The rules RULES.md states for every game, checked on each game."""

from __future__ import annotations

import pytest

from engine_builders import build, moves_of
from patience import GAMES, IllegalMoveError, Move, get_game, new_game, play
from patience.session import Session


@pytest.mark.parametrize("game", list(GAMES))
@pytest.mark.parametrize("deal", [0, 1, 99, 32001])
def test_one_standard_deck_each_card_exactly_once(game: str, deal: int) -> None:
    assert sorted(new_game(game, deal).cards_in_play()) == list(range(52))


@pytest.mark.parametrize(
    ("game", "base", "lone"),
    [("klondike", None, "AH"), ("lady-jane", "7", "7H")],
)
def test_a_foundation_card_never_goes_onto_another_foundation(
    game: str, base: str | None, lone: str
) -> None:
    # a lone first card could "start" an empty foundation: still not legal
    p = build(game, f=(lone, "", "", ""), base=base)
    assert not any(m.startswith("f1>f") for m in moves_of(p))
    with pytest.raises(IllegalMoveError, match="another foundation"):
        play(p, "f1>f2")


@pytest.mark.parametrize(
    ("game", "in_play"),
    [("klondike", True), ("lady-jane", True), ("bakers-dozen", False), ("hopscotch", False)],
)
def test_foundation_top_card_goes_back_to_the_tableau_only_where_in_play(
    game: str, in_play: bool
) -> None:
    assert get_game(game).foundation_to_tableau is in_play


@pytest.mark.parametrize("game", list(GAMES))
def test_an_illegal_move_is_refused_with_a_reason_and_changes_nothing(game: str) -> None:
    s = Session(new_game(game, 3))
    legal = {str(m) for m in s.legal_moves()}
    illegal = next(m for m in ("t1>t2/13", "w>f1", "r1>t1", "f1>t1", "t1>r1") if m not in legal)
    state = s.to_json()
    with pytest.raises(IllegalMoveError) as info:
        s.play(Move.parse(illegal))
    assert info.value.reason
    assert s.to_json() == state


@pytest.mark.parametrize("game", list(GAMES))
def test_score_is_the_cards_moved_to_the_foundations(game: str) -> None:
    rules = get_game(game)
    p = new_game(game, 8)
    assert rules.score(p) == (1 if game == "lady-jane" else 0)


@pytest.mark.parametrize("game", list(GAMES))
def test_won_exactly_when_every_card_is_on_the_foundations(game: str) -> None:
    rules = get_game(game)
    p = new_game(game, 8)
    assert not rules.is_won(p) and not rules.is_stuck(p)
