"""Lady Jane: canonical keys, safe foundation moves from every source, move ordering.

Lady Jane is Klondike in relative ranks (see ``alternating``), so the same proof makes
a card safe to play home; here it may come from the tableau, a reserve, the waste or
the last stock card. Reserves receive the stock in a fixed order (the stock's top card
to r1, ...), so they are told apart while deals remain; once the stock holds two cards
or fewer nothing is dealt to them again, and as piles that only give their top card
they are then interchangeable, compared as a set.
"""

from __future__ import annotations

from ..cards import SUIT
from ..moves import FOUNDATION, PILES, RESERVE, TABLEAU, Move
from ..position import Position
from .alternating import heights, is_safe, relative_rank, tableau_key
from .base import Adapter, Child


class LadyJaneAdapter(Adapter):
    """Lady Jane (no options)."""

    def key(self, p: Position) -> bytes:
        """Foundations by suit, tableau as a set, reserves as a set after the last deal."""
        res = [bytes(r) for r in p.reserve]
        if len(p.stock) <= 2:
            res.sort()
        return (
            bytes(heights(p))
            + b"\xfe"
            + bytes(p.stock)
            + b"\xfe"
            + bytes(p.waste)
            + b"\xfe"
            + b"\xff".join(res)
            + b"\xfe"
            + tableau_key(p)
        )

    def auto(self, p: Position) -> tuple[list[Move], Position]:
        """Play cards home from any source while it is provably safe."""
        played: list[Move] = []
        g = self.game
        rel = relative_rank(p)
        while True:
            h = heights(p)
            step = None
            for m in g.legal_moves(p):
                if not m.dst.startswith("f"):
                    continue
                skind, i = PILES[m.src]
                if skind == FOUNDATION:
                    continue
                c = _top(p, m.src)
                if is_safe(c, rel[c], h):
                    step = m
                    break
            if step is None:
                return played, p
            p = g.apply(p, step)
            played.append(step)

    def finish(self, p: Position) -> list[Move] | None:
        """Nothing left but face-up tableau runs: playing home always wins."""
        if p.stock or p.waste or any(p.down) or any(p.reserve):
            return None
        moves = self.game.auto_finish(p)
        return moves if len(moves) + sum(len(f) for f in p.foundations) == 52 else None

    def children(self, p: Position) -> list[Child]:
        """Every legal move, the most promising first."""
        g = self.game
        ranked: list[tuple[int, int, Move]] = []
        for n, m in enumerate(g.legal_moves(p)):
            if m.is_deal:
                score = 40
            else:
                skind, i = PILES[m.src]
                dkind, j = PILES[m.dst]
                if dkind == FOUNDATION:
                    score = 0
                elif skind == TABLEAU:
                    rest = len(p.tableau[i]) - m.count
                    if rest == 0 and not p.tableau[j]:
                        continue  # a whole pile to an empty pile: the same position
                    if rest == 0:
                        score = 30
                    elif rest <= p.down[i]:
                        score = 10 - min(p.down[i], 9)
                    else:
                        score = 50
                elif skind == RESERVE:
                    score = 20
                elif skind == FOUNDATION:
                    score = 60
                else:
                    score = 25
            ranked.append((score, n, m))
        ranked.sort(key=lambda t: (t[0], t[1]))
        return [((m,), p, m) for _, _, m in ranked]


def _top(p: Position, src: str) -> int:
    kind, i = PILES[src]
    if src == "s":
        return p.stock[-1]
    if src == "w":
        return p.waste[-1]
    if kind == RESERVE:
        return p.reserve[i][-1]
    return p.tableau[i][-1]


__all__ = ["LadyJaneAdapter", "SUIT"]
