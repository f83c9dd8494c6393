"""Hopscotch: the stock order is known, so the search is over where each card goes.

Foundations are told apart (each climbs by its own step); the four reserves are
interchangeable (any waste card may go on any of them, and only their top card plays,
to a foundation), so they are compared as a set, and a waste card goes to only one of
several equal reserves. Suits play no part in Hopscotch at all (foundations ignore
them, reserves take anything), so cards of the same rank are interchangeable too:
keys and the equal-reserve test see only ranks.
"""

from __future__ import annotations

from ..cards import RANK
from ..moves import Move
from ..position import Position
from .base import Adapter, Child, Tag


class HopscotchAdapter(Adapter):
    """Hopscotch (no options)."""

    # An exhaustive search of a whole Hopscotch deal is out of reach; wins come from the
    # limited-discrepancy passes, so they get most of the time.
    lds_share = 0.9

    def key(self, p: Position) -> bytes:
        """Stock size, waste, foundation sizes, the reserves as a set."""
        res = sorted(bytes(_RANKS[c] for c in r) for r in p.reserve)
        waste = tuple(_RANKS[c] for c in p.waste)
        head = bytes((len(p.stock), *waste, 255, *(len(f) for f in p.foundations)))
        return head + b"\xfe" + b"\xff".join(res)

    def children(self, p: Position, tag: Tag = None) -> list[Child]:
        """Foundation moves first; the waste card to each distinct reserve, best fit first.

        A card on a reserve should come off before the card it covers: each rank's
        *need* is how many cards some foundation still takes before it, and a reserve
        whose top is needed soon after the waste card (a tight fit) is tried first,
        then an empty reserve, then one that buries a card needed sooner.
        """
        g = self.game
        need = _need(p)
        ranked: list[tuple[int, int, Move]] = []
        seen: set[tuple[int, ...]] = set()  # reserves as rank sequences
        w = need[RANK[p.waste[-1]]] if p.waste else 0
        for n, m in enumerate(g.legal_moves(p)):
            if m.is_deal:
                score = 1000
            elif m.dst.startswith("f"):
                score = 0
            else:
                pile = p.reserve[int(m.dst[1:]) - 1]
                ranks = tuple(_RANKS[c] for c in pile)
                if ranks in seen:
                    continue
                seen.add(ranks)
                if not pile:
                    score = 50
                else:
                    t = need[RANK[pile[-1]]]
                    score = 1 + t - w if w <= t else 100 + w - t
            ranked.append((score, n, m))
        ranked.sort(key=lambda t: (t[0], t[1]))
        return [((m,), p, m, None) for _, _, m in ranked]


_RANKS = RANK


def _need(p: Position) -> list[int]:
    """For each rank, how many cards the readiest foundation takes before that rank."""
    need = [99] * 14
    for k, f in enumerate(p.foundations, start=1):
        if len(f) >= 13:
            continue
        rank = RANK[f[-1]]
        for j in range(13 - len(f)):
            rank = (rank + k - 1) % 13 + 1
            if j < need[rank]:
                need[rank] = j
    return need
