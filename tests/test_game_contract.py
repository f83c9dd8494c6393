"""What ``Game`` declares for every layer to read: a new game sets it once, no layer guesses."""

from __future__ import annotations

from dataclasses import replace

from patience.games import get_game
from patience.solver.base import Adapter
from toy_game import ToyCourt


class EndlessToy(ToyCourt):
    """A game with a stock dealt again without limit (only the declaration matters here)."""

    has_redeals = True
    max_redeals = None


def test_a_game_without_redeals_has_none_left() -> None:
    game = ToyCourt()
    p = game.layout(1)
    assert game.max_redeals == 0 and game.redeals_left(p) == 0
    assert Adapter(game).count_redeals


def test_unlimited_redeals_are_unlimited_in_the_view_and_left_out_of_the_search_key() -> None:
    game = EndlessToy()
    p = replace(game.layout(1), redeals=5)
    assert game.redeals_left(p) is None
    assert not Adapter(game).count_redeals


def test_klondike_modes_declare_their_redeals() -> None:
    expected = {"single": 2, "three": None, "no-redeal": 0, "unlimited": None}
    for mode, limit in expected.items():
        game = get_game("klondike", {"mode": mode})
        assert game.max_redeals == limit
        p = replace(game.layout(1), redeals=1)
        assert game.redeals_left(p) == (None if limit is None else max(limit - 1, 0))
