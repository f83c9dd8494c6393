"""Baker's Dozen searched by classes of states (Kings to the bottom): the reference
search, twin of ``_bd_classes.h``, which proves losses whose proofs state by state are
far too large (docs/solver-log.md, sessions 30 and 31). Only the tests and
``bench/groups.py`` run it: the solver runs the native search, and rebuilds its wins'
lines with ``patience.solver.bakers_dozen_lines``.

Classes (proof). A card c lying on a card it may be built on (a *parent*: one rank
higher, of another suit with build=other-suit) at a pile's top may move onto another
parent q at a pile's top (a *rearrangement*); c then lies on q, its old parent is a
top, and c may move back: rearrangements go both ways. The states they connect make a
*class*; every state of a class reaches every other, so a class is won or lost as a
whole, and a line from it is rearrangements and then some other move: a card home, or
a top card lying on no parent moved onto a parent (never a pile's last card: such
moves are never needed, ``bakers_dozen.py``). So a search that meets each class once
and makes from it every other move of every one of its states is exact.

Groups. Piles are joined when a rearrangement of some state moves a card from one to
the other; each group's *arrangements* are the states of its piles that its own
rearrangements reach. Two groups are joined as well when a card that one can bring to
a top lying on a parent may go onto a card the other can bring to a top (arranged
apart, neither saw the other's other arrangements, and arrangements of different
groups combine freely); a group and a pile of no group when the group's card may go
onto the pile's top, or the pile's top lies on a parent and may go onto a card the
group can bring to a top. Then no rearrangement of any combination leaves a group:
the combinations are closed under rearrangements, each group's arrangements are
connected, and so the class is their product. A move other than a rearrangement
changes one or two piles; from each arrangement of the group(s) it touches, with the
other groups as they lie, it gives every child up to rearrangements of the untouched
groups, which stay legal after it (they involve only their own piles), so the children
met are every child class (the safe moves home after a move keep its verdict).

Keys. No pile is special (Kings go to the bottom, an empty pile stays empty), so
positions are compared with their piles as a set, and a class is keyed by each group
in its least arrangement and the other piles. Moves home are the adapter's safe ones
(``auto``) and a state the adapter's relaxation (``dead``) or the looser game
(``bd_looser_oracle.py``) proves lost is lost with its class.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from dataclasses import replace

from bd_looser_oracle import LooserGame
from patience.cards import RANK, SUIT
from patience.position import Position
from patience.solver import bakers_dozen_lines, clock
from patience.solver.alternating import heights
from patience.solver.bakers_dozen import BakersDozenAdapter
from patience.solver.bakers_dozen_lines import Heights, PileMove, Tableau
from patience.solver.schedule import Verdict

Group = tuple[tuple[int, ...], set[tuple[tuple[int, ...], ...]]]
"""The piles of a group and every arrangement of those piles' cards."""


class ClassSearch:
    """The search by classes from one position of Baker's Dozen with Kings to the
    bottom (either ``build``); ``classes``, ``arrangements`` and ``states`` (the
    children made) count its work."""

    def __init__(self, adapter: BakersDozenAdapter, start: Position) -> None:
        if adapter.kings_move:
            raise ValueError("the search by classes needs kings=to-bottom")
        self.start = start
        self.adapter = adapter
        self.valid = bakers_dozen_lines.valid_of(adapter.parents)
        self.classes = 0
        self.arrangements = 0
        self.states = 0
        self.looser = LooserGame(adapter.parents, adapter.looser_states)
        self.deadline = float("inf")
        """When ``solve`` must end (``clock.now()``), looked at inside a group's
        enumeration too: one group can have millions of arrangements."""

    # --- moves ---------------------------------------------------------------------

    def rearrangements(self, tab: Tableau) -> Iterator[PileMove]:
        return bakers_dozen_lines.rearrangements(tab, self.valid)

    def other_moves(self, tab: Tableau, h: Heights) -> Iterator[PileMove]:
        """A top card home; a top card not lying on a card it may be built on onto
        another top (never a pile's last card: an empty pile stays empty)."""
        valid = self.valid
        for i, pile in enumerate(tab):
            if not pile:
                continue
            c = pile[-1]
            if h[SUIT[c]] == RANK[c] - 1:
                yield i, -1
            if len(pile) > 1 and not valid(c, pile[-2]):
                for j, other in enumerate(tab):
                    if j != i and other and valid(c, other[-1]):
                        yield i, j

    play = staticmethod(bakers_dozen_lines.play)

    def position(self, tab: Tableau, h: Heights) -> Position:
        """The deal's position with this tableau and these cards home."""
        found = tuple(tuple(s * 13 + r for r in range(h[s])) for s in range(4))
        return replace(self.start, tableau=tab, foundations=found)

    def settle(self, tab: Tableau, h: Heights) -> tuple[Tableau, Heights]:
        """After the adapter's safe moves home (``auto``)."""
        _, p = self.adapter.auto(self.position(tab, h))
        return tuple(tuple(pile) for pile in p.tableau), tuple(heights(p))

    def dead(self, tab: Tableau, h: Heights) -> bool:
        """The adapter's relaxation, then the looser game (``bd_looser_oracle.py``):
        each proves a state lost (and so its class)."""
        return self.adapter.dead(self.position(tab, h), list(h)) or self.looser.lost(tab)

    # --- classes -------------------------------------------------------------------

    def groups(self, tab: Tableau) -> list[Group]:
        """The groups of piles the rearrangements touch, each with its arrangements:
        piles are joined while some arrangement of a group has a rearrangement that
        reaches outside it, until none does."""
        root = list(range(len(tab)))

        def find(a: int) -> int:
            while root[a] != a:
                root[a] = root[root[a]]
                a = root[a]
            return a

        for i, j in self.rearrangements(tab):
            root[find(i)] = find(j)
        while True:
            touched = sorted({find(i) for m in self.rearrangements(tab) for i in m})
            found: list[Group] = []
            for r in touched:
                piles = tuple(k for k in range(len(tab)) if find(k) == r)
                arrangements = self._arrangements(tab, piles, find, root)
                if arrangements is None:
                    break  # joined with another group: start again
                found.append((piles, arrangements))
            else:
                if not self._join_across(found, find, root):
                    return found

    def _join_across(self, found: list[Group], find: Callable[[int], int], root: list[int]) -> bool:
        """Join two groups where a card one of them can bring to the top lying on a card
        it may be built on, may go onto a top the other can bring up: each group was
        arranged with the other as it lies, and their arrangements combine freely."""
        valid = self.valid
        ends = []
        for piles, arrangements in found:
            movable = {
                a[k][-1]
                for a in arrangements
                for k in range(len(piles))
                if len(a[k]) > 1 and valid(a[k][-1], a[k][-2])
            }
            tops = {a[k][-1] for a in arrangements for k in range(len(piles)) if a[k]}
            ends.append((piles[0], movable, tops))
        joined = False
        for x, (i, movable, _) in enumerate(ends):
            for y, (j, _, tops) in enumerate(ends):
                if (
                    x != y
                    and find(i) != find(j)
                    and any(valid(c, q) for c in movable for q in tops)
                ):
                    root[find(i)] = find(j)
                    joined = True
        return joined

    def _arrangements(
        self, tab: Tableau, piles: tuple[int, ...], find: Callable[[int], int], root: list[int]
    ) -> set[tuple[tuple[int, ...], ...]] | None:
        """Every arrangement of ``piles`` that their rearrangements reach from ``tab``;
        None (after joining the groups) when one reaches another pile."""
        inside = set(piles)
        seen = {tuple(tab[k] for k in piles)}
        todo = [tab]
        while todo:
            if len(seen) % 4096 == 0 and clock.now() > self.deadline:
                raise _OutOfTime
            state = todo.pop()
            for i, j in self.rearrangements(state):
                if i not in inside and j not in inside:
                    continue
                if i not in inside or j not in inside:
                    root[find(i)] = find(j)
                    return None
                u, _ = self.play(state, (), (i, j))
                arrangement = tuple(u[k] for k in piles)
                if arrangement not in seen:
                    seen.add(arrangement)
                    todo.append(u)
        return seen

    with_arrangement = staticmethod(bakers_dozen_lines.with_arrangement)

    def key(self, tab: Tableau, h: Heights, groups: list[Group]) -> tuple[object, ...]:
        """The class's key: each group in its least arrangement, the piles as a set."""
        for piles, arrangements in groups:
            tab = self.with_arrangement(tab, piles, min(arrangements, key=sorted))
        return tuple(sorted(tab)), h

    def children(
        self, tab: Tableau, h: Heights, groups: list[Group]
    ) -> list[tuple[Tableau, Heights]]:
        """The states every move other than a rearrangement reaches from some state of
        the class: in the state, and in each group's arrangements (with the other
        group's, where the move joins two)."""
        group_of = {k: g for g, (piles, _) in enumerate(groups) for k in piles}
        kids = [self.play(tab, h, m) for m in self.other_moves(tab, h)]
        for g, (piles, arrangements) in enumerate(groups):
            for a in arrangements:
                arranged = self.with_arrangement(tab, piles, a)
                for m in self.other_moves(arranged, h):
                    ends = {e for e in (group_of.get(m[0]), group_of.get(m[1])) if e is not None}
                    if g not in ends:
                        continue
                    ends.discard(g)
                    if not ends:
                        kids.append(self.play(arranged, h, m))
                        continue
                    o_piles, o_arrangements = groups[ends.pop()]
                    for b in o_arrangements:
                        u = self.with_arrangement(arranged, o_piles, b)
                        if m in set(self.other_moves(u, h)):
                            kids.append(self.play(u, h, m))
        return list(dict.fromkeys(kids))

    def solve(
        self,
        deadline: float = float("inf"),
        max_states: int | None = None,
        cancel: threading.Event | None = None,
    ) -> Verdict:
        """WON, LOST, or UNKNOWN once ``deadline`` (``clock.now()``) or ``max_states``
        children are passed, or ``cancel`` is set."""
        seen: set[tuple[object, ...]] = set()
        stack: list[Iterator[tuple[Tableau, Heights]]] = []

        def enter(tab: Tableau, h: Heights) -> bool:
            tab, h = self.settle(tab, h)
            if sum(h) == 52:
                return True
            if self.dead(tab, h):
                return False
            groups = self.groups(tab)
            key = self.key(tab, h, groups)
            if key in seen:
                return False
            seen.add(key)
            self.classes += 1
            self.arrangements += sum(len(a) for _, a in groups)
            kids = self.children(tab, h, groups)
            self.states += len(kids)
            stack.append(iter(kids))
            return False

        self.deadline = deadline
        try:
            if enter(tuple(tuple(p) for p in self.start.tableau), tuple(heights(self.start))):
                return Verdict.WON
            while stack:
                if (
                    (max_states is not None and self.states >= max_states)
                    or clock.now() >= deadline
                    or (cancel is not None and cancel.is_set())
                ):
                    return Verdict.UNKNOWN
                child = next(stack[-1], None)
                if child is None:
                    stack.pop()
                elif enter(*child):
                    return Verdict.WON
            return Verdict.LOST
        except _OutOfTime:
            return Verdict.UNKNOWN


class _OutOfTime(Exception):
    """A group's enumeration passed the search's deadline."""
