"""What the player knows: every card ever seen face up, and where it is now.

The model is a player with a perfect memory who watches every move. A card that has
been face up once stays known, wherever it goes afterwards (the player saw it move),
even when it lies face down again: a Klondike stock turned over after one pass is
known card by card, and a card turned up in the tableau and then put back face down
by an undo is still known. Of the cards never seen the player knows only which they
are (the deck less the seen cards), so every arrangement of them over the slots they
may occupy is equally likely (the deal is a uniform shuffle, and which slots get
revealed depends only on what the player has seen).

Seen face up, per game (RULES.md):
- every game: the waste (Klondike's draw 3 shows all three cards it turns, and each
  lies in the waste), the foundations, the reserves, the tableau's face-up parts;
- Lady Jane: the stock's last card, which lies face up after the last deal;
- Baker's Dozen hides nothing; Hopscotch hides the stock until a card is turned;
  Klondike and Lady Jane hide the face-down tableau cards and the unturned stock.

``stock_known`` is the setting of Bjarnason, Fern & Tadepalli (2009) for Klondike: the
stock's cards and their order are known from the start; only the face-down tableau
cards are hidden.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from ..cards import Card, card_text, parse_card
from ..errors import InvalidPositionError
from ..games import game_for, position_to_json
from ..position import Position


def face_up(position: Position) -> set[Card]:
    """The cards of ``position`` that lie face up."""
    p = position
    cards = set(p.waste)
    for pile in (*p.foundations, *p.reserve):
        cards.update(pile)
    for pile, down in zip(p.tableau, p.down, strict=True):
        cards.update(pile[down:])
    if p.stock and game_for(p).stock_playable(p):
        cards.add(p.stock[-1])
    return cards


@dataclass(frozen=True, slots=True)
class Knowledge:
    """The cards the player has seen (immutable: ``observe`` returns a new one)."""

    seen: frozenset[Card] = frozenset()
    stock_known: bool = False
    """The paper's setting: every card of the stock is known from the start."""

    @classmethod
    def start(cls, position: Position, stock_known: bool = False) -> Knowledge:
        """What the player knows at ``position`` having seen nothing before it."""
        return cls(frozenset(), stock_known).observe(position)

    @classmethod
    def of_history(cls, positions: Iterable[Position], stock_known: bool = False) -> Knowledge:
        """What the player knows having seen every position of ``positions``."""
        knowledge = cls(frozenset(), stock_known)
        for p in positions:
            knowledge = knowledge.observe(p)
        return knowledge

    def observe(self, position: Position) -> Knowledge:
        """This knowledge after the player has looked at ``position`` too."""
        cards = face_up(position)
        if self.stock_known:
            cards.update(position.stock)
        if cards <= self.seen:
            return self
        return Knowledge(self.seen | cards, self.stock_known)

    def unseen(self, position: Position) -> list[Card]:
        """The cards of ``position`` never seen, in card order (not where they lie)."""
        known = self.observe(position).seen
        return sorted(c for c in position.cards_in_play() if c not in known)

    def one_arrangement(self, position: Position) -> bool:
        """At most one unseen card: the position itself is the only arrangement of the
        unseen cards, so what is solved about it is proved, not estimated."""
        return len(self.unseen(position)) <= 1

    def to_json(self) -> dict[str, Any]:
        """A JSON object to store with a game (undo must never forget a seen card)."""
        return {"seen": [card_text(c) for c in sorted(self.seen)], "stock_known": self.stock_known}

    @classmethod
    def from_json(cls, data: Any) -> Knowledge:
        """Read what ``to_json`` wrote; raise InvalidPositionError naming the problem."""
        if not isinstance(data, Mapping):
            raise InvalidPositionError(["knowledge must be a JSON object"])
        seen = data.get("seen", [])
        stock_known = data.get("stock_known", False)
        if not isinstance(seen, list) or not all(isinstance(c, str) for c in seen):
            raise InvalidPositionError(["'seen' must be a list of cards"])
        if not isinstance(stock_known, bool):
            raise InvalidPositionError(["'stock_known' must be true or false"])
        try:
            cards = frozenset(parse_card(c) for c in seen)
        except ValueError as exc:
            raise InvalidPositionError([f"seen: {exc}"]) from None
        return cls(cards, stock_known)


def player_view(position: Position, knowledge: Knowledge) -> dict[str, Any]:
    """The position as the player knows it: FORMATS.md JSON with every card never seen
    replaced by ``null`` (pile sizes kept). A seen card keeps its name wherever it lies,
    face down included, since the player remembers it; what is face down is still told
    by the ``down`` lists and the stock, as in the full JSON."""
    hidden = {card_text(c) for c in knowledge.unseen(position)}
    view = position_to_json(position)

    def mask(pile: list[str]) -> list[str | None]:
        return [None if c in hidden else c for c in pile]

    view["stock"] = mask(view["stock"])
    view["tableau"] = [{"down": mask(p["down"]), "up": p["up"]} for p in view["tableau"]]
    return view
