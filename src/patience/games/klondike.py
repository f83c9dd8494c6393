"""Klondike, in AisleRiot's four deal modes."""

from __future__ import annotations

from dataclasses import replace

from ..cards import KING, Card, pysol_order
from ..position import Pile, Position
from ..rules import ALTERNATE_COLOUR, IN_SUIT, Game, Refusal
from ..rules.declare import N_, Arrangement, Fan, Row, Slot, Table, help_of, piles, row, stock_row

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
    for depth in range(6, 0, -1):
        for i in range(depth):
            cols[i].append(order[k])
            k += 1
    for i in range(7):
        cols[i].append(order[k])
        k += 1
    cols.reverse()
    return tuple(tuple(c) for c in cols), tuple(len(c) - 1 for c in cols)


HELP = help_of(
    N_(
        "Klondike is the best known patience: turn up the hidden cards of seven piles and"
        " build the four suits from Ace to King."
    ),
    (
        N_("Setup"),
        [
            N_(
                "Seven tableau piles are dealt in rows from left to right: the first pile gets "
                "one card, the seventh gets seven. Only the top card of each pile lies face up."
            ),
            N_(
                "The other 24 cards wait face down in the stock, at the top left. The waste, "
                "beside it, starts empty, and so do the four foundations at the top right."
            ),
        ],
    ),
    (
        N_("Goal"),
        [
            N_("Move all 52 cards onto the foundations, one suit on each, from Ace up to King."),
        ],
    ),
    (
        N_("Rules"),
        [
            N_(
                "On the tableau, build downwards in alternating colours: a red 6 on a black 7, a "
                "black Jack on a red Queen."
            ),
            N_("A face-up run that already follows that pattern moves as one unit."),
            N_("Only a King, or a run led by a King, may fill an empty tableau pile."),
            N_("When a face-down card is left on top of a pile, it turns face up at once."),
            N_(
                "Deal turns cards from the stock onto the waste. Only the top card of the waste "
                "can be played."
            ),
            N_(
                "When the stock is empty, dealing again turns the whole waste back into the "
                "stock, in the same order: that is a redeal."
            ),
            N_(
                "The top card of a foundation may come back down onto the tableau when it fits "
                "there."
            ),
        ],
    ),
    (
        N_("Scoring"),
        [
            N_(
                "The score is the number of cards on the foundations: 52 is a won game. Taking a "
                "card back from a foundation costs a point."
            ),
        ],
    ),
    (
        N_("Options"),
        [
            (
                N_("Draw one, two redeals"),
                N_(
                    "One card per deal and two redeals, so three passes through the stock. This is "
                    "the usual game and the default."
                ),
            ),
            (
                N_("Draw three, unlimited redeals"),
                N_(
                    "Three cards per deal, as many redeals as you like. Only the last card turned "
                    "can be played."
                ),
            ),
            (
                N_("Draw one, no redeal"),
                N_("One card per deal and a single pass through the stock."),
            ),
            (
                N_("Draw one, unlimited redeals"),
                N_("One card per deal, as many redeals as you like."),
            ),
        ],
    ),
    (
        N_("Tips"),
        [
            N_("Free the hidden cards first: the piles on the right hold the most."),
            N_("Do not empty a pile until a King is ready to fill it."),
            N_(
                "Do not rush every card to the foundations: a 5 left on the tableau may be the "
                "only place for a 4 of the other colour."
            ),
            N_(
                "Double-click a card to send it to its foundation; double-click a foundation to "
                "play up every card that can go."
            ),
        ],
    ),
    (
        N_("Strategy"),
        [
            N_(
                "Early on, turning hidden cards up matters most: prefer the move that uncovers "
                "a face-down card, and among those, the one on the pile with the most hidden "
                "cards."
            ),
            N_(
                "With a limited stock, go through it once before you commit to a plan: a card "
                "you let pass comes back only with the next redeal, if there is one."
            ),
            N_(
                "When play stalls, the foundations are a reserve too: taking a card back down "
                "may free a move that was blocked."
            ),
            N_(
                "Before filling an empty pile, choose the King by its colour: it decides which "
                "Queens, Jacks and tens can follow it there."
            ),
        ],
    ),
)


class Klondike(Game):
    """Klondike: seven piles built down in alternate colours, one to three redeals."""

    name = "klondike"
    title = "Klondike"
    help = HELP
    solver_adapter = "patience.solver.klondike:KlondikeAdapter"
    option_spec = {"mode": tuple(MODES)}
    tableau_piles = 7
    tableau_build = ALTERNATE_COLOUR
    foundation_build = IN_SUIT
    foundation_to_tableau = True
    has_redeals = True
    option_labels = {
        "mode": N_("Deal mode"),
        "mode=single": N_("Draw one, two redeals"),
        "mode=three": N_("Draw three, unlimited redeals"),
        "mode=no-redeal": N_("Draw one, no redeal"),
        "mode=unlimited": N_("Draw one, unlimited redeals"),
    }

    def table(self) -> Table:
        """Stock, waste and foundations above seven piles; dealing three fans the waste.
        On a wide, low screen (a phone held sideways) the piles take the whole height: the
        stock over the waste on their left and the foundations two by two on their right,
        or (dealing one, on a narrower screen) all six two by two on their left."""
        waste_fan: Fan = "right" if self.draw > 1 else "none"
        top = stock_row(3, waste_fan)
        tableau = row(piles("t", 1, 7), fan="down", height=2.7, grows=True)
        t1 = 2 if self.draw > 1 else 1  # a fanned waste takes the next column too
        side = (
            Slot("stock", 0),
            Slot("waste", 0, waste_fan, line=1),
            *row(piles("t", 1, 7), t1, fan="down").slots,
            *(Slot(f"f{i + 1}", t1 + 7 + i % 2, line=i // 2) for i in range(4)),
        )
        arrangements = [
            Arrangement(7, (top, tableau)),
            Arrangement(t1 + 9, (Row(side, height=2.3, grows=True),)),
        ]
        if self.draw == 1:
            block = (Slot("stock", 0), Slot("waste", 1)) + tuple(
                Slot(f"f{i + 1}", i % 2, line=1 + i // 2) for i in range(4)
            )
            beside = row(piles("t", 1, 7), 2, fan="down").slots
            arrangements.append(Arrangement(9, (Row(block + beside, height=3.2, grows=True),)))
        return Table(tuple(arrangements), waste_shown=self.draw)

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
