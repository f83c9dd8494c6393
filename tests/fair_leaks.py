"""What a reply may not hold: the name of a card the player has never seen.

Shared by the API test and the browser test of "no leak to the browser" (issue 16):
each finds, for every reply, the cards unseen at that moment from the real session on
the server, and looks for any of them anywhere in the reply's text.
"""

from __future__ import annotations

import re

from patience import new_game
from patience.cards import card_text
from patience.fair import Knowledge
from patience.session import Session

CARD = re.compile(r"(?<![0-9A-Za-z])([A2-9TJQK][CDHS])(?![0-9A-Za-z])")
"""A card's name (FORMATS.md) standing alone: "7H", never part of a word or a move."""


def unseen(session: Session) -> set[str]:
    """The names of the cards of the session's game the player has never seen."""
    return {card_text(c) for c in session.knowledge.unseen(session.position)}


def leaks(text: str, hidden: set[str]) -> set[str]:
    """The cards of ``hidden`` that ``text`` names."""
    return set(CARD.findall(text)) & hidden


def hides_cards(game: str) -> bool:
    """Whether ``game``'s deal 1 starts with a card the player has not seen (Baker's Dozen,
    say, deals every card face up)."""
    start = new_game(game, 1)
    return bool(Knowledge.start(start).unseen(start))
