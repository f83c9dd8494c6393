"""Klondike, in AisleRiot's four deal modes."""

from __future__ import annotations

from dataclasses import replace

from ..cards import KING, Card, pysol_order
from ..position import Pile, Position
from ..rules import ALTERNATE_COLOUR, IN_SUIT, Game, Refusal

# mode -> (cards per deal, redeals allowed; None = unlimited)
MODES: dict[str, tuple[int, int | None]] = {
    "single": (1, 2),
    "three": (3, None),
    "no-redeal": (1, 0),
    "unlimited": (1, None),
}


def klondike_tableau(order: list[Card]) -> tuple[tuple[Pile, ...], tuple[int, ...]]:
    """Lay the first 28 cards of ``order`` as PySolFC's Klondike does.

    PySolFC deals the face-down rows first (to t2-t7, then t3-t7, ...) and the
    face-up row last; ``pysol_cards`` lists the piles from t7 to t1, hence the
    reversal. Deal N is therefore game N of PySolFC exactly.
    """
    cols: list[list[Card]] = [[] for _ in range(7)]
    k = 0
    for row in range(6, 0, -1):
        for i in range(row):
            cols[i].append(order[k])
            k += 1
    for i in range(7):
        cols[i].append(order[k])
        k += 1
    cols.reverse()
    return tuple(tuple(c) for c in cols), tuple(len(c) - 1 for c in cols)


class Klondike(Game):
    """Klondike: seven piles built down in alternate colours, one to three redeals."""

    name = "klondike"
    title = "Klondike"
    option_spec = {"mode": tuple(MODES)}
    tableau_piles = 7
    tableau_build = ALTERNATE_COLOUR
    foundation_build = IN_SUIT
    foundation_to_tableau = True

    @property
    def draw(self) -> int:
        """Cards turned by one deal."""
        return MODES[self.option["mode"]][0]

    @property
    def max_redeals(self) -> int | None:
        """Redeals allowed (None: unlimited)."""
        return MODES[self.option["mode"]][1]

    def layout(self, deal: int) -> Position:
        """PySolFC's Klondike game ``deal``."""
        order = pysol_order(deal)
        tableau, down = klondike_tableau(order)
        stock = tuple(reversed(order[28:]))
        return Position(self.name, self.options, deal, stock, (), ((),) * 4, tableau, down, ())

    def empty_rank(self, p: Position) -> int | None:
        """Only a King (or a run led by one) fills an empty pile."""
        return KING

    def deal_refusal(self, p: Position) -> Refusal | None:
        """Dealing needs a card in the stock, or a waste to turn over and a redeal left."""
        if p.stock:
            return None
        if not p.waste:
            return Refusal("the stock and the waste are both empty")
        limit = self.max_redeals
        if limit is not None and p.redeals >= limit:
            return Refusal(
                "no redeals left ({limit} allowed in mode {mode})",
                limit=limit,
                mode=self.option["mode"],
            )
        return None

    def dealt(self, p: Position) -> Position:
        """Turn 1 or 3 cards to the waste, or turn the waste over (one redeal)."""
        if p.stock:
            n = min(self.draw, len(p.stock))
            turned = tuple(reversed(p.stock[-n:]))
            return replace(p, stock=p.stock[:-n], waste=p.waste + turned)
        return replace(p, stock=tuple(reversed(p.waste)), waste=(), redeals=p.redeals + 1)

    def extra_problems(self, p: Position) -> list[str]:
        """Redeals within the mode's limit."""
        limit = self.max_redeals
        if limit is not None and p.redeals > limit:
            return [f"redeals is {p.redeals}, more than the {limit} of mode {self.option['mode']}"]
        return []
