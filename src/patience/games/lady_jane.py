"""Lady Jane: Klondike's tableau with seven reserves, a base rank and cyclic builds."""

from __future__ import annotations

from dataclasses import replace

from ..cards import RANK, pysol_order
from ..position import Position
from ..rules import ALTERNATE_COLOUR, IN_SUIT, Game, Refusal, next_rank
from .klondike import klondike_tableau

STOCK_SIZES = (16, 9, 2, 1, 0)
"""The stock only ever holds these counts: 16, deal 7, deal 7, then the last two."""


class LadyJane(Game):
    """Lady Jane (AisleRiot's "Dama Jane" / "Mademoiselle Jane")."""

    name = "lady-jane"
    title = "Lady Jane"
    tableau_piles = 7
    reserve_piles = 7
    tableau_build = ALTERNATE_COLOUR
    tableau_cyclic = True
    base_ends_sequence = True
    foundation_build = IN_SUIT
    foundation_cyclic = True
    foundation_to_tableau = True
    reserve_to_tableau = True

    def layout(self, deal: int) -> Position:
        """Klondike's tableau of the same deal, then r1-r7, then f1, then 16 to the stock."""
        order = pysol_order(deal)
        tableau, down = klondike_tableau(order)
        reserve = tuple((c,) for c in order[28:35])
        base_card = order[35]
        stock = tuple(reversed(order[36:]))
        foundations = ((base_card,), (), (), ())
        return Position(
            self.name,
            self.options,
            deal,
            stock,
            (),
            foundations,
            tableau,
            down,
            reserve,
            0,
            RANK[base_card],
        )

    def empty_rank(self, p: Position) -> int | None:
        """The rank one below the base (a King when the base is an Ace)."""
        assert p.base is not None
        return next_rank(p.base, -1, True)

    def foundation_start(self, p: Position, i: int) -> int:
        """Every foundation starts with a card of the base rank."""
        assert p.base is not None
        return p.base

    def stock_playable(self, p: Position) -> bool:
        """After the last deal, the stock's one card lies face up and is in play."""
        return len(p.stock) == 1

    def deal_refusal(self, p: Position) -> Refusal | None:
        """Dealing needs more than 7 cards in the stock, or its last two."""
        n = len(p.stock)
        if n > 7 or n == 2:
            return None
        if n == 1:
            return Refusal("the stock's last card is face up: play it from the stock")
        return Refusal("the stock is empty, and {game} has no redeal", game=self.title)

    def dealt(self, p: Position) -> Position:
        """One card to each reserve while the stock holds more than 7; then the last two."""
        if len(p.stock) > 7:
            dealt = p.stock[-7:][::-1]
            reserve = tuple(r + (c,) for r, c in zip(p.reserve, dealt, strict=True))
            stock, waste = p.stock[:-7], p.waste
        else:
            reserve, stock, waste = p.reserve, p.stock[:1], p.waste + p.stock[1:]
        return replace(p, stock=stock, waste=waste, reserve=reserve)

    def extra_problems(self, p: Position) -> list[str]:
        """Stock and waste sizes that a real game can reach."""
        problems = []
        if len(p.stock) not in STOCK_SIZES:
            problems.append(
                f"the stock holds {len(p.stock)} cards; it can only hold 16, 9, 2, 1 or 0"
            )
        if len(p.waste) > 1 or (p.waste and len(p.stock) > 1):
            problems.append("the waste holds a card only after the last deal, and one at most")
        if p.redeals:
            problems.append("Lady Jane has no redeal: 'redeals' must be 0")
        return problems
