"""Hopscotch: the stock order is known, so the search is over where each card goes.

Foundations are told apart (each climbs by its own step); the four reserves are
interchangeable (any waste card may go on any of them, and only their top card plays,
to a foundation), so they are compared as a set, and a waste card goes to only one of
several equal reserves.
"""

from __future__ import annotations

from ..moves import Move
from ..position import Position
from .base import Adapter, Child


class HopscotchAdapter(Adapter):
    """Hopscotch (no options)."""

    def key(self, p: Position) -> bytes:
        """Stock size, waste, foundation sizes, the reserves as a set."""
        res = sorted(bytes(r) for r in p.reserve)
        head = bytes((len(p.stock), *p.waste, 255, *(len(f) for f in p.foundations)))
        return head + b"\xfe" + b"\xff".join(res)

    def children(self, p: Position) -> list[Child]:
        """Foundation moves first; the waste card to each distinct reserve; then deal."""
        g = self.game
        ranked: list[tuple[int, int, Move]] = []
        seen: set[tuple[int, ...]] = set()
        for n, m in enumerate(g.legal_moves(p)):
            if m.is_deal:
                score = 5
            elif m.dst.startswith("f"):
                score = 0
            else:
                pile = p.reserve[int(m.dst[1:]) - 1]
                if pile in seen:
                    continue
                seen.add(pile)
                score = 2 if not pile else 3
            ranked.append((score, n, m))
        ranked.sort(key=lambda t: (t[0], t[1]))
        return [((m,), g.apply(p, m)) for _, _, m in ranked]
