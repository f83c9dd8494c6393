"""Klondike and Lady Jane: cards home that would come straight back, and the returns
that bring cards back from the foundations (both adapters' ``auto`` and ``children``
use them). Lady Jane is Klondike in relative ranks (``alternating``), and the same
holds there, with "King" read as the rank below the base rank and with the tops of
its reserves, its waste and its last stock card among the cards that can be built on
a card brought back; everything below is in relative ranks.

Cards home that would come straight back (proof). Let c, playable home, be the top
card of a tableau pile and lie face up on the card it is built on, or be a King alone
in its pile. From the position with c home, c comes back onto that same card (the
King into the emptied pile) in one move; from the position with c in place, c goes
home in one move. So the two are won or lost alike, and the search (with its cuts on)
plays every such card home at once, safe or not: positions that differ only in where
such cards wait become one. Playing a card home never stops another from going (it
only uncovers a card, or lets the next of its suit follow), so the order they go in
does not matter. A line that needs such a card on the tableau brings it back when it
builds on it (the next paragraph); a return alone would only send it home again.
Why no win is lost: play a winning line W beside the search. The search's position is
always W's position with some cards that would come straight back sent home (in the
order they went, each still lying as it did when it went). Each move of W is then
either one the search makes too, after bringing back in one block of returns (next
paragraph) the cards it builds on, with what lies above them on their foundations,
each onto the card it lay on; or it only moves cards the search has already sent
home (W moving them on, home or elsewhere); and the positions after it stay so
matched. When W is won, so is the search's position.

Cards back from the foundations (proof). A return matters only through a later move
that uses it: a build on the returned card, or a return that needs it off the
foundation (the card beneath it) or on the tableau (a card returned onto it). Take a
winning line W and a return in it that no move uses before the next move that is not
a return: it can be postponed past that move (a run carried along with the returned
card on top is the same run without it, and the returned card comes back onto the
run's top where it lies by then), or dropped if nothing ever uses it. So some winning
line makes returns only in blocks, each followed at once by a build, from a tableau
run or the waste, onto a card the block returned, every return of the block used,
directly or through another, by that build. The search makes exactly such blocks
(``Returns``): for each card t home that a tableau run or a waste card could go
on, it brings back the cards above t on its foundation, top first, each onto a parent
at the top of a pile or onto a parent it brings back first in the same way, then t
onto a parent so placed, trying every choice of parent; then each build onto t. Each
card of a block lies on a card the block found at a pile's top or brought back, and
no two on the same card, so every block that ends in t's build is among those. A block
of more than ``RETURN_DEPTH`` returns is cut, and the search then no longer claims
``lost``.
"""

from __future__ import annotations

from collections.abc import Callable, Collection

from ..cards import RED, SUIT
from ..moves import PILES, Move
from ..position import Position
from ..rules import Game
from .alternating import EMPTIED, heights, obligation
from .base import Adapter, Child

RETURN_DEPTH = 30
"""Most returns from the foundations in one compound move."""

_RESTORE, _PLACE = 0, 1  # the goals of ``_restore``
_F = tuple(f"f{i + 1}" for i in range(4))
_T = tuple(f"t{i + 1}" for i in range(7))

Sources = Callable[[Position, int, tuple[Move, ...]], list[Child]]
"""The builds onto pile j's top from outside the tableau, after the moves ``prefix``."""


def card_of(suit: int, rank: int, base: int | None) -> int:
    """The card of ``suit`` and relative ``rank`` (``base``: the base rank; None: the
    rank itself, as in Klondike)."""
    return suit * 13 + (rank - 1 if base is None else (base + rank - 2) % 13)


def comes_back(p: Position, i: int, rel: tuple[int, ...]) -> bool:
    """Whether the top card of pile ``i``, once home, would come straight back to
    where it lies: it lies face up on the card it is built on, or is a King alone."""
    pile = p.tableau[i]
    c = pile[-1]
    if len(pile) == 1:
        return not p.down[i] and rel[c] == 13
    if len(pile) - 2 < p.down[i]:
        return False
    below = pile[-2]
    return rel[below] == rel[c] + 1 and RED[below] != RED[c]


def movable(p: Position, rel: tuple[int, ...]) -> dict[int, tuple[int, int]]:
    """Where each card that can move is: (pile, cards from it to the top), for the
    cards of each pile's top run (the face-up alternating sequence that can move)."""
    loc: dict[int, tuple[int, int]] = {}
    for i, pile in enumerate(p.tableau):
        if not pile:
            continue
        k = len(pile) - 1
        c = pile[k]
        loc[c] = (i, 1)
        low = p.down[i]
        while k > low:
            below = pile[k - 1]
            if rel[below] != rel[c] + 1 or RED[below] == RED[c]:
                break
            k -= 1
            c = below
            loc[c] = (i, len(pile) - k)
    return loc


def only_pile(p: Position, tag: object) -> int:
    """The pile an obligation ``tag`` is about (``alternating.obligation``: the pile
    whose top is the card, or the first empty one), -1 for none."""
    if tag is None:
        return -1
    for j, pile in enumerate(p.tableau):
        if (pile[-1] == tag) if pile else tag == EMPTIED:
            return j
    return -1


class Returns:
    """The compound moves of one position: a block of returns that brings back a card t
    home, then a build on t, from a tableau run or a card of ``avail`` outside the
    tableau (``sources``), for every card t home that such a card could go on (see
    above). Under an obligation (``only`` >= 0) only the blocks with a return onto
    that pile.

    Built directly rather than from ``legal_moves`` (each move made here is one the
    engine lists: the line is replayed through ``play`` before it is reported).
    """

    def __init__(self, adapter: Adapter, rel: tuple[int, ...], sources: Sources) -> None:
        self.adapter = adapter
        self.game: Game = adapter.game
        self.rel = rel
        self.sources = sources

    def children(self, p: Position, only: int, outside: Collection[int]) -> list[Child]:
        """The compound moves from ``p``; ``outside``: the cards outside the tableau
        that could be built on a card brought back."""
        h = heights(p)
        loc = movable(p, self.rel)
        out: list[Child] = []
        for s in range(4):
            for r in range(h[s], 1, -1):
                t = card_of(s, r, p.base)
                kids = [card_of(u, r - 1, p.base) for u in ((0, 2) if RED[t] else (1, 3))]
                if any(x in loc or x in outside for x in kids):
                    self._restore(p, ((_RESTORE, t),), (), only, False, out)
        return out

    def _restore(
        self,
        q: Position,
        goals: tuple[tuple[int, int], ...],
        prefix: tuple[Move, ...],
        only: int,
        hit: bool,
        out: list[Child],
    ) -> None:
        """Work through ``goals``, the last first: ``_RESTORE`` c brings card c home to
        the top of a pile (the cards above it on its foundation first), ``_PLACE`` c
        returns c, its foundation's top, onto a parent at a pile's top, or brings such
        a parent back first; with none left, the builds onto the card returned last."""
        if not goals:
            if only < 0 or hit:
                self._builds_onto(q, prefix, out)
            return
        kind, c = goals[-1]
        s = SUIT[c]
        r = self.rel[c]
        h = heights(q)
        if kind == _RESTORE:
            if h[s] > r:  # the cards above it on its foundation go first
                b = card_of(s, h[s], q.base)
                if all(g[1] != b for g in goals):
                    self._restore(q, (*goals, (_PLACE, b)), prefix, only, hit, out)
            elif h[s] == r:
                self._restore(q, (*goals[:-1], (_PLACE, c)), prefix, only, hit, out)
            return
        if h[s] != r:
            return
        tops = [pile[-1] if pile else -1 for pile in q.tableau]
        slots: list[int] = []
        if r == 13:
            if -1 in tops:
                slots.append(tops.index(-1))
        else:
            for u in (0, 2) if RED[c] else (1, 3):
                parent = card_of(u, r + 1, q.base)
                if parent in tops:
                    slots.append(tops.index(parent))
                elif h[u] > r and all(g[1] != parent for g in goals):
                    self._restore(q, (*goals, (_RESTORE, parent)), prefix, only, hit, out)
        home = next(f for f, cards in enumerate(q.foundations) if cards and SUIT[cards[0]] == s)
        for j in slots:
            if len(prefix) >= RETURN_DEPTH:
                self.adapter.incomplete = True
                return
            m = Move(_F[home], _T[j])
            after = self.game.apply(q, m)
            self._restore(after, goals[:-1], (*prefix, m), only, hit or j == only, out)

    def _builds_onto(self, q: Position, prefix: tuple[Move, ...], out: list[Child]) -> None:
        """The compound moves ``prefix`` (returns, the last onto pile j) and a build onto
        pile j: a tableau run, or a card from outside the tableau (``sources``)."""
        j = PILES[prefix[-1].dst][1]
        d = q.tableau[j][-1]
        rank = self.rel[d]
        for s in (0, 2) if RED[d] else (1, 3):
            x = card_of(s, rank - 1, q.base)
            for i, pile in enumerate(q.tableau):
                if i == j or x not in pile[q.down[i] :]:
                    continue
                count = len(pile) - pile.index(x)
                if count <= self.game.run_length(q, i):
                    m = Move(_T[i], _T[j], count)
                    t = obligation(q, i, count, self.rel) if self.adapter.prune else None
                    out.append(((*prefix, m), q, m, t))
                break
        out.extend(self.sources(q, j, prefix))
