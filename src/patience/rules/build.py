"""Build policies: which card may go on which, by suit and by rank."""

from __future__ import annotations

from ..cards import RED, SUIT, Card

ALTERNATE_COLOUR = "alternate-colour"
ANY_SUIT = "any-suit"
OTHER_SUIT = "other-suit"
IN_SUIT = "in-suit"


def suits_match(policy: str, lower: Card, upper: Card) -> bool:
    """Whether ``upper`` may lie on ``lower`` as far as suit and colour go."""
    if policy == ALTERNATE_COLOUR:
        return RED[lower] != RED[upper]
    if policy == OTHER_SUIT:
        return SUIT[lower] != SUIT[upper]
    if policy == IN_SUIT:
        return SUIT[lower] == SUIT[upper]
    return True


def next_rank(rank: int, step: int, cyclic: bool) -> int | None:
    """The rank ``step`` above (negative: below) ``rank``; None past A or K unless cyclic."""
    r = rank + step
    if cyclic:
        return (r - 1) % 13 + 1
    return r if 1 <= r <= 13 else None
