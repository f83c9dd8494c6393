"""Baker's Dozen: thirteen open piles, Kings at the bottom, one card at a time."""

from __future__ import annotations

from ..cards import KING, RANK, Card, pysol_order
from ..position import Position
from ..rules import ANY_SUIT, IN_SUIT, OTHER_SUIT, Game
from ..rules.declare import N_, Arrangement, Row, Slot, Table, help_of, piles, row


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


HELP = help_of(
    N_(
        "Baker's Dozen deals every card face up into thirteen piles: nothing is hidden, "
        "so careful planning wins most games."
    ),
    (
        N_("Setup"),
        [
            N_("All 52 cards are dealt face up in rows into 13 tableau piles of four."),
            N_(
                "In every pile, Kings are moved underneath the other cards, so that no King "
                "covers a lower card."
            ),
            N_("The four foundations start empty. There is no stock and no waste."),
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
            N_("Only the top card of a pile moves, one card at a time."),
            N_(
                "On the tableau, a card goes onto a card one rank higher, whatever the suit or "
                "colour."
            ),
            N_("An emptied tableau pile stays empty for the rest of the game."),
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
            (
                N_("Kings dealt to the bottom"),
                N_(
                    "The default: Kings start at the bottom of their piles, and empty piles stay "
                    "empty."
                ),
            ),
            (
                N_("Kings fill empty piles"),
                N_(
                    "Kings are left where the deal puts them, and an empty pile accepts a King and "
                    "nothing else."
                ),
            ),
            (
                N_("Build down regardless of suit"),
                N_("The default: any card one rank lower may be placed, whatever its suit."),
            ),
            (
                N_("Build down on another suit"),
                N_("The card placed must differ in suit from the card it covers."),
            ),
        ],
    ),
    (
        N_("Tips"),
        [
            N_("Every card is in view: plan several moves ahead before you start."),
            N_("Find the Aces and 2s and clear the cards lying on them."),
            N_("Avoid piling many cards on one that a foundation will need soon."),
        ],
    ),
    (
        N_("Strategy"),
        [
            N_(
                "Begin by finding each Ace and 2 and counting the cards above them: free the "
                "most deeply buried low cards first."
            ),
            N_(
                "When you move a card out of the way, put it on a card that goes to the "
                "foundations late, where it will not be in the way again."
            ),
            N_(
                "Do not build long runs in haste: a run comes apart one card at a time, from "
                "the top, before the cards beneath it are free."
            ),
            N_(
                "With Kings filling empty piles, emptying a pile is worth it when a King is "
                "sitting on cards you need."
            ),
        ],
    ),
)


class BakersDozen(Game):
    """Baker's Dozen, with the traditional any-suit build by default."""

    name = "bakers-dozen"
    title = "Baker's Dozen"
    help = HELP
    solver_adapter = "patience.solver.bakers_dozen:BakersDozenAdapter"
    option_spec = {
        "kings": ("to-bottom", "empty-piles"),
        "build": ("any-suit", "other-suit"),
    }
    tableau_piles = 13
    has_stock = False
    max_run = 1
    foundation_build = IN_SUIT
    option_labels = {
        "kings": N_("Kings"),
        "kings=to-bottom": N_("Kings dealt to the bottom"),
        "kings=empty-piles": N_("Kings fill empty piles"),
        "build": N_("Build"),
        "build=any-suit": N_("Build down regardless of suit"),
        "build=other-suit": N_("Build down on another suit"),
    }

    def table(self) -> Table:
        """The foundations above one row of thirteen piles, or above two rows (7 and 6)
        where that gives bigger cards (a phone held upright), or in a column beside the
        thirteen piles (a phone on its side, a long pile), or above three rows (5, 4, 4)."""
        one = Arrangement(
            13,
            (
                row(piles("f", 1, 4), 4.5),
                row(piles("t", 1, 13), fan="down", height=2.6, grows=True),
            ),
        )
        two = Arrangement(
            7,
            (
                row(piles("f", 1, 4), 1.5),
                row(piles("t", 1, 7), fan="down", height=2.2, grows=True),
                row(piles("t", 8, 13), 0.5, fan="down", height=2.2, grows=True),
            ),
        )
        # A narrow, tall screen (a phone held upright): three rows of 5, 4 and 4 piles.
        three = Arrangement(
            5,
            (
                row(piles("f", 1, 4), 0.5),
                row(piles("t", 1, 5), fan="down", height=2, grows=True),
                row(piles("t", 6, 9), 0.5, fan="down", height=2, grows=True),
                row(piles("t", 10, 13), 0.5, fan="down", height=2, grows=True),
            ),
        )
        # A wide, low screen (a phone on its side): the foundations in a column on the
        # left, so that the piles have the whole height for a long fan.
        side = Arrangement(
            14,
            (
                Row(
                    tuple(Slot(f"f{i + 1}", 0, line=i) for i in range(4))
                    + row(piles("t", 1, 13), 1, fan="down").slots,
                    height=4,
                    grows=True,
                ),
            ),
        )
        return Table((one, two, side, three))

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
