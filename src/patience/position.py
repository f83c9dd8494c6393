"""The immutable game position (its JSON form, which needs the game's rules, is in
``games.position_json``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .cards import Card

Pile = tuple[Card, ...]
Options = tuple[tuple[str, str], ...]


@dataclass(frozen=True, slots=True)
class Position:
    """A whole game position, enough to continue the game exactly.

    Piles are tuples of cards, bottom to top. A tableau pile ``tableau[i]`` has its
    bottom ``down[i]`` cards face down. ``base`` is Lady Jane's base rank (1..13).
    Build positions with a game's ``new_position`` or ``games.position_from_json``: those
    check every rule; the constructor itself checks nothing.
    """

    game: str
    options: Options
    deal: int | None
    stock: Pile
    waste: Pile
    foundations: tuple[Pile, ...]
    tableau: tuple[Pile, ...]
    down: tuple[int, ...]
    reserve: tuple[Pile, ...]
    redeals: int = 0
    base: int | None = None

    def key(self) -> tuple[Any, ...]:
        """The canonical state key: equal keys mean the same game state."""
        return (
            self.stock,
            self.waste,
            self.foundations,
            self.tableau,
            self.down,
            self.reserve,
            self.redeals,
        )

    def cards_in_play(self) -> list[Card]:
        """Every card of the position, pile by pile."""
        cards = list(self.stock) + list(self.waste)
        for pile in (*self.foundations, *self.tableau, *self.reserve):
            cards.extend(pile)
        return cards


def heading(title: str, options: Options, deal: int | None = None) -> str:
    """``Klondike (mode=three), deal 42``: the game, its options, the deal if numbered."""
    text = title
    if options:
        text += " (" + ", ".join(f"{k}={v}" for k, v in options) + ")"
    if deal is not None:
        text += f", deal {deal}"
    return text
