"""Baker's Dozen: canonical keys, safe foundation moves, move ordering.

Safe foundation moves (proof). Let card c of rank r be playable home with every card
of rank r-1 already home (or r = 1). Foundations never give a card back, so in any
winning line W from S nothing is ever built on c (only rank r-1 cards could be). S'
is S with c home; drop c's moves from W. Every other move stays legal: c was only ever
the top card of some pile, so removing it only uncovers a card earlier, the other
tops are unchanged, every foundation is at least as high, and an empty pile of S_k is
still empty in S'_k (with kings=empty-piles, an emptied pile is only a gain). The
build rule (any suit or another suit) plays no part in the argument.

Dead positions (proof). A card x that lies above a lower card of its own suit can
never go home first, so it must leave its pile onto a parent: a card of rank x+1 (of
another suit with build=other-suit), or an empty pile if x is a King and kings=
empty-piles. If every such parent is already home (foundations never give cards back)
or lies beneath x in x's own pile (it cannot be uncovered while x is there), x never
moves, never goes home, and the position is lost: it gets no children.
"""

from __future__ import annotations

from ..cards import RANK, SUIT
from ..moves import Move
from ..position import Position
from ..rules import Game
from .alternating import heights
from .base import Adapter, Child, Tag


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

    def __init__(self, game: Game) -> None:
        super().__init__(game)
        self.other_suit = game.option["build"] == "other-suit"
        self.kings_move = game.option["kings"] == "empty-piles"

    def dead(self, p: Position) -> bool:
        """Whether some card can provably never move (see the module docstring)."""
        h = heights(p)
        other_suit = self.other_suit
        if self.kings_move:
            top_rank = 12  # a King can always go to an empty pile: never frozen
        else:
            top_rank = 13
        where: dict[int, tuple[int, int]] = {}
        for i, pile in enumerate(p.tableau):
            for k, c in enumerate(pile):
                where[c] = (i, k)
        for i, pile in enumerate(p.tableau):
            lowest = [14, 14, 14, 14]
            for k, x in enumerate(pile):
                s, r = SUIT[x], RANK[x]
                if lowest[s] < r <= top_rank:
                    for t in range(4):
                        if h[t] >= r + 1 or (other_suit and t == s) or r == 13:
                            continue
                        j, m = where[t * 13 + r]
                        if j != i or m > k:
                            break  # a parent that may yet be uncovered
                    else:
                        return True
                if r < lowest[s]:
                    lowest[s] = r
        return False

    def children(self, p: Position, tag: Tag = None) -> list[Child]:
        """Foundation moves first, then moves off the piles that hide the lowest cards."""
        g = self.game
        if self.dead(p):
            return []
        # How far each pile's most urgent card is from going home: uncover urgent
        # cards, and do not bury them.
        h = heights(p)
        urgency = [min((RANK[c] - h[SUIT[c]] for c in pile), default=99) for pile in p.tableau]
        ranked: list[tuple[int, int, Move]] = []
        for n, m in enumerate(g.legal_moves(p)):
            i = int(m.src[1:]) - 1
            if m.dst.startswith("f"):
                score = 0
            else:
                pile = p.tableau[i]
                j = int(m.dst[1:]) - 1
                below = min((RANK[c] - h[SUIT[c]] for c in pile[:-1]), default=0)
                score = 1 + 4 * below + max(0, 14 - urgency[j])
                # A card on the next card of its own suit will go home right after it.
                if p.tableau[j] and SUIT[p.tableau[j][-1]] == SUIT[pile[-1]]:
                    score = max(1, score - 3)
            ranked.append((score, n, m))
        ranked.sort(key=lambda t: (t[0], t[1]))
        return [((m,), p, m, None) for _, _, m in ranked]


def _home(p: Position, c: int) -> int:
    if RANK[c] == 1:
        return next(j for j, f in enumerate(p.foundations) if not f)
    s = SUIT[c]
    return next(j for j, f in enumerate(p.foundations) if f and SUIT[f[0]] == s)
