"""Baker's Dozen: thirteen open piles, Kings at the bottom, one card at a time."""

from __future__ import annotations

from ..cards import KING, RANK, Card, pysol_order
from ..position import Position
from ..rules import ANY_SUIT, IN_SUIT, OTHER_SUIT, Game


def bakers_dozen_tableau(order: list[Card], kings_to_bottom: bool) -> tuple[tuple[Card, ...], ...]:
    """Lay the deck out as PySolFC's Baker's Dozen does.

    ``pysol_cards`` deals this game from the shuffle's own order (the reverse of the
    talon order) in rows of 13; each King is first swapped with the lowest non-King
    beneath it in its pile, so that no King covers a lower card.
    """
    cards = list(reversed(order))
    if kings_to_bottom:
        for i in [i for i, c in enumerate(cards) if RANK[c] == KING]:
            j = i % 13
            while j < i:
                if RANK[cards[j]] != KING:
                    cards[i], cards[j] = cards[j], cards[i]
                    break
                j += 13
    return tuple(tuple(cards[k] for k in range(i, 52, 13)) for i in range(13))


class BakersDozen(Game):
    """Baker's Dozen, with the traditional any-suit build by default."""

    name = "bakers-dozen"
    title = "Baker's Dozen"
    option_spec = {
        "kings": ("to-bottom", "empty-piles"),
        "build": ("any-suit", "other-suit"),
    }
    tableau_piles = 13
    has_stock = False
    max_run = 1
    foundation_build = IN_SUIT

    def __init__(self, options: dict[str, str] | None = None) -> None:
        super().__init__(options)
        # The French seed's own example (9H not on TH) reads as "another suit".
        self.tableau_build = OTHER_SUIT if self.option["build"] == "other-suit" else ANY_SUIT

    def layout(self, deal: int) -> Position:
        """PySolFC's Baker's Dozen game ``deal`` (Kings left in place with kings=empty-piles)."""
        tableau = bakers_dozen_tableau(pysol_order(deal), self.option["kings"] == "to-bottom")
        return Position(self.name, self.options, deal, (), (), ((),) * 4, tableau, (0,) * 13, ())

    def extra_problems(self, p: Position) -> list[str]:
        """Every card is dealt face up, and none is ever turned down."""
        return [
            f"t{k + 1}: every card is face up in {self.title}" for k, d in enumerate(p.down) if d
        ]

    def empty_rank(self, p: Position) -> int | None:
        """An empty pile stays empty, or takes a King with kings=empty-piles."""
        return KING if self.option["kings"] == "empty-piles" else None
