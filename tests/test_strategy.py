"""Every game's "How to play" has a Strategy section, in English, Spanish and French."""

from __future__ import annotations

import pytest

from patience.games import GAMES
from patience.i18n import catalog_json

TITLE = {"es": "Estrategia", "fr": "Stratégie"}


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_game_has_a_strategy_in_every_language(game: str) -> None:
    sections = dict(GAMES[game].help.sections)
    assert "Tips" in sections
    strategy = sections["Strategy"]
    assert len(strategy) >= 3
    for lang, title in TITLE.items():
        messages = catalog_json(lang)["messages"]
        assert messages["Strategy"] == title
        for item in strategy:
            translated = messages.get(item.text)
            assert translated and translated != item.text, (lang, item.text)


def test_no_two_games_share_a_strategy() -> None:
    seen: set[str] = set()
    for game in GAMES.values():
        texts = {item.text for item in dict(game.help.sections)["Strategy"]}
        assert not texts & seen
        seen |= texts
