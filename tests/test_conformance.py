"""What every registered game declares, checked on each one (the toy game of the tests
included): the rules a new game must meet besides its own, as docs/adding-a-game.md lists
them. Each game's rules, moves and JSON are checked over the registry by test_every_game,
test_properties, test_positions, test_perft and test_declare; its translations by
test_i18n and test_strategy; its page by the browser tests that go over the registry."""

from __future__ import annotations

import pytest

from patience.games import GAMES, get_game, variants
from patience.games.describe import describe
from patience.rules import Game

HELP_SECTIONS = ("Setup", "Goal", "Rules", "Scoring", "Options", "Tips", "Strategy")
"""The sections of every "How to play", in this order (the page's help panel)."""


@pytest.mark.parametrize("name", list(GAMES))
def test_the_help_has_every_section_in_order(name: str) -> None:
    game = GAMES[name]
    assert game.help is not None, f"{name} declares no help"
    titles = tuple(title for title, _ in game.help.sections)
    assert titles == HELP_SECTIONS
    sections = dict(game.help.sections)
    assert all(sections[t] for t in HELP_SECTIONS), "a section with nothing in it"
    assert len(sections["Tips"]) >= 3 and len(sections["Strategy"]) >= 3


@pytest.mark.parametrize("name", list(GAMES))
def test_name_title_and_options_are_declared(name: str) -> None:
    game = GAMES[name]
    assert game.name == name and game.name == game.name.lower() and " " not in game.name
    assert game.title
    for key, values in game.option_spec.items():
        assert values and len(set(values)) == len(values)
        assert key in game.option_labels, f"option {key} has no label"
        for value in values:
            assert f"{key}={value}" in game.option_labels, f"{key}={value} has no label"


@pytest.mark.parametrize(("name", "options"), variants(), ids=str)
def test_every_variant_deals_one_deck_and_describes_itself(
    name: str, options: dict[str, str]
) -> None:
    game: Game = get_game(name, options)
    for deal in (1, 2, 3):
        p = game.new_position(deal)
        assert sorted(p.cards_in_play()) == list(range(52))
        assert not game.validate(p)
    described = describe(game)
    assert described["name"] == name and described["selected"] == dict(game.options)
    left = game.redeals_left(game.new_position(1))
    assert left == 0 if not game.has_redeals else (left is None or left >= 0)
