"""Hopscotch (AisleRiot's "Rayuela"): four foundations climbing by 1, 2, 3 and 4."""

from __future__ import annotations

from dataclasses import replace

from ..cards import CLUBS, RANK, TEXT, make_card, pysol_order
from ..position import Position
from ..rules import ANY_SUIT, Game, Refusal
from ..rules.declare import N_, Arrangement, Row, Slot, Table, help_of, piles, row, stock_row

START_CARDS = tuple(make_card(k, CLUBS) for k in (1, 2, 3, 4))


HELP = help_of(
    N_(
        "Hopscotch is a counting game: each foundation climbs by its own step, and four "
        "reserve piles hold the cards that cannot go up yet."
    ),
    (
        N_("Setup"),
        [
            N_("The Ace, 2, 3 and 4 of clubs start on the four foundations, in that order."),
            N_(
                "The other 48 cards form the stock, face down. The waste and the four reserves "
                "start empty."
            ),
        ],
    ),
    (
        N_("Goal"),
        [
            N_("Bring every card up onto the foundations; each one ends on a King."),
        ],
    ),
    (
        N_("Rules"),
        [
            N_(
                "The first foundation climbs by one rank at a time, the second by two, the third "
                "by three and the fourth by four. Suits do not matter."
            ),
            N_(
                "Counting goes on past the King: the second foundation runs 2, 4, 6, 8, 10, Q, A,"
                " 3, 5, 7, 9, J, K."
            ),
            N_("A foundation is finished after thirteen cards, with a King on top."),
            N_(
                "Deal turns one card onto the waste. The waste holds a single card: play it to a "
                "foundation or onto any reserve before the next deal."
            ),
            N_(
                "Only the top card of a reserve can be played, and only to a foundation. A "
                "reserve card never moves to another reserve."
            ),
            N_("There is no redeal."),
        ],
    ),
    (
        N_("Scoring"),
        [
            N_("One point for each card moved to a foundation; the best score is 48."),
        ],
    ),
    (
        N_("Options"),
        [
            N_("This game has no options."),
        ],
    ),
    (
        N_("Tips"),
        [
            N_("Give each reserve a job, for instance one reserve per foundation."),
            N_("Do not cover a card needed soon with one that is needed much later."),
            N_(
                "Every foundation ends on a King: keeping the Kings together in one reserve is "
                "often safe."
            ),
        ],
    ),
    (
        N_("Strategy"),
        [
            N_(
                "Skill counts for more than luck here: before you place a card, work out when "
                "each foundation will need it."
            ),
            N_(
                "A reserve gives back its cards last in, first out: keep the card that will be "
                "needed soonest on top."
            ),
            N_(
                "Count ahead on each foundation (the fourth runs 4, 8, Q, 3, 7, J, 2 and on), "
                "so that you know at once where a turned card fits."
            ),
            N_(
                "Keep a reserve short or empty when you can: it leaves room for the card that "
                "will be needed next."
            ),
        ],
    ),
)


class Hopscotch(Game):
    """Hopscotch: one card at a time from the stock to a foundation or a reserve."""

    name = "hopscotch"
    title = "Hopscotch"
    help = HELP
    solver_adapter = "patience.solver.hopscotch:HopscotchAdapter"
    reserve_piles = 4
    foundation_build = ANY_SUIT
    foundation_cyclic = True
    waste_to_reserve = True
    score_offset = 4

    def table(self) -> Table:
        """The top row (room under the foundations for their steps), the four reserves
        under the foundations, fanned down as far as the table goes; on a wide, low screen
        (a phone held sideways) the reserves beside the top row; and with a reserve too long
        for either, each reserve a row of its own, fanned across the table's width; on a
        narrow, tall screen (a phone held upright) four columns: the stock and the waste,
        the foundations under them, and the reserves under the foundations."""
        reserves = row(piles("r", 1, 4), 3, fan="down", height=2.6, grows=True)
        tall = Arrangement(
            4,
            (
                Row((Slot("stock", 0), Slot("waste", 1))),
                row(piles("f", 1, 4), extra=22),
                row(piles("r", 1, 4), fan="down", height=2.6, grows=True),
            ),
        )
        side = stock_row(2.5).slots + row(piles("r", 1, 4), 7, fan="down").slots
        wide = Arrangement(11, (Row(side, height=2.6, grows=True),))
        across = Arrangement(
            13, (stock_row(3, extra=22), *(row([f"r{i}"], fan="across") for i in range(1, 5)))
        )
        first = Arrangement(7, (stock_row(3, extra=22), reserves))
        return Table((first, wide, across, tall))

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
        """Foundations on AC 2C 3C 4C, a waste of one card at most."""
        # A first card of the wrong rank is named by the generic check already.
        problems = [
            f"f{i + 1} must start with {TEXT[card]}"
            for i, card in enumerate(START_CARDS)
            if not p.foundations[i]
            or (p.foundations[i][0] != card and RANK[p.foundations[i][0]] == RANK[card])
        ]
        if len(p.waste) > 1:
            problems.append("the waste holds one card at most")
        return problems
