"""FreeCell: eight open cascades, four free cells of one card each, nothing hidden."""

from __future__ import annotations

from ..cards import pysol_order
from ..position import Position
from ..rules import ALTERNATE_COLOUR, IN_SUIT, Game
from ..rules.declare import N_, Arrangement, Row, Slot, Table, help_of, piles, row

HELP = help_of(
    N_(
        "FreeCell deals every card face up into eight cascades, with four free cells to "
        "hold a card each: nothing is hidden, and nearly every deal can be won."
    ),
    (
        N_("Setup"),
        [
            N_(
                "All 52 cards are dealt face up in rows into eight cascades: the first four "
                "get seven cards, the other four six."
            ),
            N_("The four free cells and the four foundations start empty. There is no stock."),
        ],
    ),
    (
        N_("Goal"),
        [
            N_("Build the four foundations up in suit, from Ace to King."),
        ],
    ),
    (
        N_("Rules"),
        [
            N_(
                "On a cascade, a card goes onto a card one rank higher of the other colour "
                "(a red 9 on a black 10)."
            ),
            N_("An empty cascade takes any card, or any run."),
            N_(
                "A free cell holds one card, taken from the top of a cascade; it may go back "
                "onto a cascade or up to a foundation."
            ),
            N_(
                "A run moves as a unit when there would be room to move it card by card: at "
                "most (empty free cells + 1) × 2 to the power of the empty cascades, the "
                "cascade it goes to not counted."
            ),
            N_("A card placed on a foundation stays there."),
        ],
    ),
    (
        N_("Scoring"),
        [
            N_("One point for each card on the foundations; 52 means you have won."),
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
            N_("Keep the free cells empty: each one used halves the runs you can move."),
            N_("An empty cascade is worth more than a free cell: it doubles the runs you move."),
            N_("Look for the Aces first, and count the cards lying on them."),
        ],
    ),
    (
        N_("Strategy"),
        [
            N_(
                "Before you start, plan how to free the first two Aces: the easiest deal "
                "begins with a cascade that can be emptied."
            ),
            N_(
                "Park a card in a free cell only when you see how it will leave: a cell that "
                "stays full for long is a cell lost."
            ),
            N_(
                "Empty a short cascade early, then fill it with a long run led by a high card, "
                "not with a single low one."
            ),
            N_(
                "Send low cards home at once, but keep a 5 or a 6 on the cascades while 4s of "
                "the other colour still need a place."
            ),
        ],
    ),
)


class FreeCell(Game):
    """FreeCell as Microsoft dealt it: deal N is Windows's (and PySolFC's) game N."""

    name = "freecell"
    title = "FreeCell"
    help = HELP
    solver_adapter = "patience.solver.freecell:FreeCellAdapter"
    tableau_piles = 8
    reserve_piles = 4
    has_stock = False
    tableau_build = ALTERNATE_COLOUR
    empty_takes_any = True
    foundation_build = IN_SUIT
    reserve_to_tableau = True
    reserve_from_tableau = True
    reserve_capacity = 1
    reserve_names = (N_("Free cells"), N_("free cell {n}"))

    def table(self) -> Table:
        """The free cells and the foundations in a row above the eight cascades; on a
        wide, low screen (a phone on its side) the free cells in a column on the left and
        the foundations in one on the right, so that the cascades have the whole height; on
        a narrow, tall one (a phone held upright) two rows of four cascades, where that
        gives bigger cards."""
        top = Row(row(piles("r", 1, 4)).slots + row(piles("f", 1, 4), 4).slots)
        one = Arrangement(8, (top, row(piles("t", 1, 8), fan="down", height=3, grows=True)))
        side = Arrangement(
            10,
            (
                Row(
                    tuple(Slot(f"r{i + 1}", 0, line=i) for i in range(4))
                    + row(piles("t", 1, 8), 1, fan="down").slots
                    + tuple(Slot(f"f{i + 1}", 9, line=i) for i in range(4)),
                    height=4,
                    grows=True,
                ),
            ),
        )
        # A narrow, tall screen (a phone held upright): four columns, the free cells over
        # the foundations over two rows of four cascades.
        tall = Arrangement(
            4,
            (
                row(piles("r", 1, 4)),
                row(piles("f", 1, 4)),
                row(piles("t", 1, 4), fan="down", height=2.2, grows=True),
                row(piles("t", 5, 8), fan="down", height=2.2, grows=True),
            ),
        )
        return Table((one, side, tall))

    def layout(self, deal: int) -> Position:
        """Microsoft's (and PySolFC's) FreeCell deal ``deal``: the shuffle dealt in rows."""
        order = pysol_order(deal)
        tableau = tuple(tuple(order[k] for k in range(i, 52, 8)) for i in range(8))
        return Position(
            self.name, self.options, deal, (), (), ((),) * 4, tableau, (0,) * 8, ((),) * 4
        )

    def max_run_for(self, p: Position, src: int, dst: int) -> int:
        """Room to move a run card by card: (empty free cells + 1) × 2^(empty cascades),
        the target not counted when it is empty itself."""
        cells = sum(1 for r in p.reserve if not r)
        empty = sum(1 for t in p.tableau if not t) - (0 if p.tableau[dst] else 1)
        return (cells + 1) << empty

    def extra_problems(self, p: Position) -> list[str]:
        """Every card is dealt face up, and none is ever turned down."""
        return [
            f"t{k + 1}: every card is face up in {self.title}" for k, d in enumerate(p.down) if d
        ]
