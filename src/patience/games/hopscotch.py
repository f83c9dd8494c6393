"""Hopscotch (AisleRiot's "Rayuela"): four foundations climbing by 1, 2, 3 and 4."""

from __future__ import annotations

from dataclasses import replace

from ..cards import CLUBS, make_card, pysol_order
from ..position import Position
from ..rules import ANY_SUIT, Game, Refusal

START_CARDS = tuple(make_card(k, CLUBS) for k in (1, 2, 3, 4))


class Hopscotch(Game):
    """Hopscotch: one card at a time from the stock to a foundation or a reserve."""

    name = "hopscotch"
    title = "Hopscotch"
    reserve_piles = 4
    foundation_build = ANY_SUIT
    foundation_cyclic = True
    waste_to_reserve = True
    score_offset = 4

    def layout(self, deal: int) -> Position:
        """The shared shuffle less AC 2C 3C 4C (on f1-f4), the rest to the stock in order."""
        rest = [c for c in pysol_order(deal) if c not in START_CARDS]
        foundations = tuple((c,) for c in START_CARDS)
        return Position(
            self.name,
            self.options,
            deal,
            tuple(reversed(rest)),
            (),
            foundations,
            (),
            (),
            ((),) * 4,
        )

    def foundation_start(self, p: Position, i: int) -> int:
        """Foundation fk starts with rank k."""
        return i + 1

    def foundation_step(self, i: int) -> int:
        """Foundation fk climbs by k."""
        return i + 1

    def deal_refusal(self, p: Position) -> Refusal | None:
        """Dealing needs an empty waste and a card in the stock."""
        if p.waste:
            return Refusal("the waste card must be played (to a foundation or a reserve) first")
        if not p.stock:
            return Refusal("the stock is empty, and {game} has no redeal", game=self.title)
        return None

    def dealt(self, p: Position) -> Position:
        """Turn one card onto the empty waste."""
        return replace(p, stock=p.stock[:-1], waste=p.stock[-1:])

    def extra_problems(self, p: Position) -> list[str]:
        """A waste of one card at most, no redeals."""
        problems = []
        if len(p.waste) > 1:
            problems.append("the waste holds one card at most")
        if p.redeals:
            problems.append("Hopscotch has no redeal: 'redeals' must be 0")
        return problems
