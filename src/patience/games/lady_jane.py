"""Lady Jane: Klondike's tableau with seven reserves, a base rank and cyclic builds."""

from __future__ import annotations

from dataclasses import replace

from ..cards import RANK, pysol_order
from ..position import Position
from ..rules import ALTERNATE_COLOUR, IN_SUIT, Game, Refusal, next_rank
from ..rules.declare import N_, Arrangement, Row, Table, help_of, piles, row, stock_row
from .klondike import klondike_tableau

STOCK_SIZES = (16, 9, 2, 1, 0)
"""The stock only ever holds these counts: 16, deal 7, deal 7, then the last two."""


HELP = help_of(
    N_(
        "Lady Jane is a cousin of Klondike with a twist: the foundations start from a "
        "rank chosen by the deal and wrap round from King to Ace, and seven reserve piles"
        " feed the game."
    ),
    (
        N_("Setup"),
        [
            N_(
                "The tableau is dealt as in Klondike: seven piles of one to seven cards, only the"
                " top card face up."
            ),
            N_(
                "Then one card goes face up onto each of the seven reserve piles, and one onto "
                "the first foundation. That card's rank is the base rank of the deal."
            ),
            N_("The last 16 cards make the stock."),
        ],
    ),
    (
        N_("Goal"),
        [
            N_(
                "Complete the four foundations, thirteen cards each, every one starting from the "
                "base rank."
            ),
        ],
    ),
    (
        N_("Rules"),
        [
            N_(
                "A foundation starts with any card of the base rank and climbs in its suit, going"
                " on from King to Ace: with a base of 9, it runs 9, 10, J, Q, K, A, 2 and so on "
                "up to 8."
            ),
            N_(
                "On the tableau, build downwards in alternating colours, also round the corner: a"
                " King may go on an Ace."
            ),
            N_("A card of the base rank closes a sequence: nothing may be put on it."),
            N_("Runs in sequence move as one unit."),
            N_(
                "An empty tableau pile takes only a card one rank below the base rank (a King "
                "when the base is an Ace), or a run led by such a card."
            ),
            N_(
                "Only the top card of a reserve can be played, to the tableau or to a foundation."
                " Nothing is ever put on a reserve: an emptied one waits for the next deal."
            ),
            N_(
                "Each deal puts one card on every reserve, empty or not; there are two such "
                "deals. The last two cards then come out one at a time: one goes to the waste, "
                "the other stays face up on the stock, and both are in play."
            ),
            N_(
                "There is no redeal. The top card of a foundation may come back down onto the "
                "tableau."
            ),
        ],
    ),
    (
        N_("Scoring"),
        [
            N_(
                "The score counts the cards on the foundations. It starts at 1, for the base "
                "card, and reaches 52 when you win."
            ),
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
            N_(
                "Note the base rank first: it tells you which cards start the foundations and "
                "which cards can fill an empty pile."
            ),
            N_("Before you deal, use what the reserves offer: every deal covers their top cards."),
            N_("An empty tableau pile is precious here: keep it for a long run."),
        ],
    ),
    (
        N_("Strategy"),
        [
            N_(
                "Every deal buries the reserve cards still waiting, so the reserves are the "
                "cards to use first, while they can still be reached."
            ),
            N_(
                "The deeper a card lies in the tableau, the harder it is to free: work on the "
                "piles with the most face-down cards."
            ),
            N_(
                "Think round the corner: after the King comes the Ace, so with a high base rank"
                " the low cards are needed late and the high ones early."
            ),
            N_("Keep the deals for when the tableau and the reserves have nothing more to give."),
        ],
    ),
)


class LadyJane(Game):
    """Lady Jane (AisleRiot's "Dama Jane" / "Mademoiselle Jane")."""

    name = "lady-jane"
    title = "Lady Jane"
    help = HELP
    solver_adapter = "patience.solver.lady_jane:LadyJaneAdapter"
    tableau_piles = 7
    reserve_piles = 7
    tableau_build = ALTERNATE_COLOUR
    tableau_cyclic = True
    base_ends_sequence = True
    foundation_build = IN_SUIT
    foundation_cyclic = True
    foundation_to_tableau = True
    reserve_to_tableau = True

    def table(self) -> Table:
        """Klondike's top row, the seven reserves (up to three cards deep), the tableau; on a
        wide, low screen (a phone held sideways) the reserves beside the top row."""
        # The reserves take the height their cards need (three after two deals), sized as
        # for a card and two: a fixed row let the third card run into the tableau.
        reserves = row(piles("r", 1, 7), fan="down", height=1.44, grows=True)
        tableau = row(piles("t", 1, 7), fan="down", height=2.4, grows=True)
        top = stock_row(2.5).slots + row(piles("r", 1, 7), 7, fan="down").slots
        wide = Arrangement(
            14,
            (
                Row(top, height=1.44, grows=True),
                row(piles("t", 1, 7), 3.5, fan="down", height=2.4, grows=True),
            ),
        )
        return Table((Arrangement(7, (stock_row(3), reserves, tableau)), wide))

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
        return problems
