"""What Klondike and Lady Jane share: alternating-colour tableaux and safe foundation moves.

Both games build down in alternating colours and up in suit on the foundations, and
let a foundation's top card come back. Lady Jane is Klondike in *relative* ranks: with
base rank B, a card's relative rank is ``(rank - B) % 13 + 1`` (the base card acts as
an Ace, the rank below the base as a King: it fills empty piles and nothing goes on a
base card). Everything below is written in those relative ranks.

Safe foundation moves (proof). Let card c of relative rank r be playable to its
foundation, with both opposite-colour cards of rank r-1 and every card of rank <= r-2
already on the foundations (so c's own suit holds r-1, the other suit of c's colour
at least r-2). Call L those foundation cards. From position S, let W be any winning
line; S' is S with c played home. Only cards of L can ever be built on c or on a card
of L (they rank r-1 or lower and the colours must alternate; the other rank r-1 card
of c's colour cannot go on c), and no card outside L + {c} can be built on them, so
in every position S_k of W the cards of L + {c} that are in the tableau lie in a
block on top of their piles. Drop from W every move of a card of L + {c} and cut off
that block from every run W moves: each remaining move is legal in the matching S'_k
(the same tops, at least as many face-up cards, the same foundation tops for every
other card, empty piles still empty), and S'_n is won like S_n. So c may go home at
once: no win is lost. The argument holds for c on a tableau pile, a reserve, the
waste or Lady Jane's last stock card, since the card it uncovers is only a gain; it
does not hold for a Klondike waste card, whose removal shifts what later deals turn.
"""

from __future__ import annotations

from ..cards import RANK, RED, SUIT
from ..position import Position


def heights(p: Position) -> list[int]:
    """Cards on the foundation of each suit (index = suit)."""
    h = [0, 0, 0, 0]
    for f in p.foundations:
        if f:
            h[SUIT[f[0]]] = len(f)
    return h


def relative_rank(base: int | None) -> tuple[int, ...]:
    """Each card's rank relative to the base rank (Klondike, no base: the rank itself)."""
    if base is None:
        return RANK
    return tuple((RANK[c] - base) % 13 + 1 for c in range(52))


def is_safe(card: int, rank: int, h: list[int]) -> bool:
    """Whether ``card`` (relative ``rank``, playable home) may go home at once (see above)."""
    s = SUIT[card]
    red = RED[card]
    for t in range(4):
        if t == s:
            continue
        if bool(t & 1) != red:
            if h[t] < rank - 1:
                return False
        elif h[t] < rank - 2:
            return False
    return True


def tableau_key(p: Position) -> bytes:
    """The tableau as a set of piles (their order never matters): sorted, down counts kept."""
    keys = sorted(bytes((d,)) + bytes(pile) for pile, d in zip(p.tableau, p.down, strict=True))
    return b"\xff".join(keys)
