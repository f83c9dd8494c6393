"""Arrangements of the unseen cards consistent with what the player has seen.

The unseen cards lie in the unseen slots: face-down tableau cards and unturned stock
cards that were never seen. ``sample`` deals the unseen cards over those slots by a
uniform shuffle, every seen card staying where it is. It reads only what the player
knows (the unseen cards as a sorted set, the slots in a fixed order), so two positions
with the same view give the same arrangement from the same random state.
"""

from __future__ import annotations

import random
from dataclasses import replace

from ..cards import Card
from ..position import Pile, Position
from .knowledge import Knowledge


def _slots(position: Position, hidden: set[Card]) -> tuple[list[int], list[tuple[int, int]]]:
    """The unseen slots: stock indexes, then (pile, index) in the tableau, bottom first."""
    stock = [k for k, c in enumerate(position.stock) if c in hidden]
    tableau = [
        (i, k)
        for i, (pile, down) in enumerate(zip(position.tableau, position.down, strict=True))
        for k in range(down)
        if pile[k] in hidden
    ]
    return stock, tableau


def sample(position: Position, knowledge: Knowledge, rng: random.Random) -> Position:
    """A position with the unseen cards of ``position`` dealt uniformly at random over
    its unseen slots, every seen card in place (``deal`` is None: it is no numbered
    deal). With no unseen card this is ``position`` itself, less its deal number."""
    unseen = knowledge.unseen(position)
    stock_slots, tableau_slots = _slots(position, set(unseen))
    cards = list(unseen)
    rng.shuffle(cards)
    stock = list(position.stock)
    for k in stock_slots:
        stock[k] = cards.pop()
    tableau = [list(pile) for pile in position.tableau]
    for i, k in tableau_slots:
        tableau[i][k] = cards.pop()
    piles: tuple[Pile, ...] = tuple(tuple(pile) for pile in tableau)
    return replace(position, deal=None, stock=tuple(stock), tableau=piles)


def arrangement(position: Position, knowledge: Knowledge) -> tuple[Card, ...]:
    """The unseen cards of ``position`` in slot order (what ``sample`` shuffles): two
    positions with the same view differ exactly in this."""
    hidden = set(knowledge.unseen(position))
    stock_slots, tableau_slots = _slots(position, hidden)
    return tuple(position.stock[k] for k in stock_slots) + tuple(
        position.tableau[i][k] for i, k in tableau_slots
    )
