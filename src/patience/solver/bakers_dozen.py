"""Baker's Dozen: canonical keys, safe foundation moves, move ordering.

Safe foundation moves (proof). Let card c of rank r be playable home with every card
of rank r-1 already home (or r = 1). Foundations never give a card back, so in any
winning line W from S nothing is ever built on c (only rank r-1 cards could be). S'
is S with c home; drop c's moves from W. Every other move stays legal: c was only ever
the top card of some pile, so removing it only uncovers a card earlier, the other
tops are unchanged, every foundation is at least as high, and an empty pile of S_k is
still empty in S'_k (with kings=empty-piles, an emptied pile is only a gain). The
build rule (any suit or another suit) plays no part in the argument.
"""

from __future__ import annotations

from ..cards import RANK, SUIT
from ..moves import Move
from ..position import Position
from .alternating import heights
from .base import Adapter, Child


class BakersDozenAdapter(Adapter):
    """Baker's Dozen with either option."""

    def key(self, p: Position) -> bytes:
        """Foundations by suit and the tableau as a set of piles."""
        piles = sorted(bytes(pile) for pile in p.tableau)
        return bytes(heights(p)) + b"\xfe" + b"\xff".join(piles)

    def auto(self, p: Position) -> tuple[list[Move], Position]:
        """Play cards home while every card of the rank below is home."""
        played: list[Move] = []
        h = heights(p)
        progress = True
        while progress:
            progress = False
            low = min(h)
            for i, pile in enumerate(p.tableau):
                if not pile:
                    continue
                c = pile[-1]
                r = RANK[c]
                if h[SUIT[c]] != r - 1 or (r > 1 and low < r - 1):
                    continue
                j = _home(p, c)
                m = Move(f"t{i + 1}", f"f{j + 1}")
                p = self.game.apply(p, m)
                played.append(m)
                h[SUIT[c]] = r
                low = min(h)
                progress = True
        return played, p

    def children(self, p: Position) -> list[Child]:
        """Foundation moves first, then moves off the piles that hide the lowest cards."""
        g = self.game
        ranked: list[tuple[int, int, Move]] = []
        for n, m in enumerate(g.legal_moves(p)):
            i = int(m.src[1:]) - 1
            if m.dst.startswith("f"):
                score = 0
            else:
                pile = p.tableau[i]
                if len(pile) == 1:
                    score = 1
                else:
                    score = 2 + min(RANK[c] for c in pile[:-1])
            ranked.append((score, n, m))
        ranked.sort(key=lambda t: (t[0], t[1]))
        return [((m,), g.apply(p, m)) for _, _, m in ranked]


def _home(p: Position, c: int) -> int:
    if RANK[c] == 1:
        return next(j for j, f in enumerate(p.foundations) if not f)
    s = SUIT[c]
    return next(j for j, f in enumerate(p.foundations) if f and SUIT[f[0]] == s)
