"""Baker's Dozen searched by classes of states (Kings to the bottom): the reference
search, twin of ``_bd_classes.h``, which proves losses whose proofs state by state are
far too large (docs/solver-log.md, sessions 30 and 31).

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
(``bakers_dozen_looser.py``) proves lost is lost with its class.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from dataclasses import replace
from typing import TYPE_CHECKING

from ..cards import RANK, SUIT
from ..moves import Move
from ..position import Position
from . import clock
from .alternating import heights
from .bakers_dozen_looser import LooserGame
from .schedule import Verdict

if TYPE_CHECKING:  # the adapter runs this search: no import at run time
    from .bakers_dozen import BakersDozenAdapter

Tableau = tuple[tuple[int, ...], ...]
Heights = tuple[int, ...]
PileMove = tuple[int, int]
"""(pile, pile), or (pile, -1) for a card home."""
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
        parents = adapter.parents
        self.valid: Callable[[int, int], bool] = lambda c, q: q in parents[c]
        self.classes = 0
        self.arrangements = 0
        self.states = 0
        self.looser = LooserGame(parents, adapter.looser_states)
        self.deadline = float("inf")
        """When ``solve`` must end (``clock.now()``), looked at inside a group's
        enumeration too: one group can have millions of arrangements."""

    # --- moves ---------------------------------------------------------------------

    def rearrangements(self, tab: Tableau) -> Iterator[PileMove]:
        valid = self.valid
        for i, pile in enumerate(tab):
            if len(pile) > 1 and valid(pile[-1], pile[-2]):
                for j, other in enumerate(tab):
                    if j != i and other and valid(pile[-1], other[-1]):
                        yield i, j

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

    @staticmethod
    def play(tab: Tableau, h: Heights, m: PileMove) -> tuple[Tableau, Heights]:
        i, j = m
        out = list(tab)
        c = out[i][-1]
        out[i] = out[i][:-1]
        if j < 0:
            hh = list(h)
            hh[SUIT[c]] += 1
            return tuple(out), tuple(hh)
        out[j] = out[j] + (c,)
        return tuple(out), h

    def position(self, tab: Tableau, h: Heights) -> Position:
        """The deal's position with this tableau and these cards home."""
        found = tuple(tuple(s * 13 + r for r in range(h[s])) for s in range(4))
        return replace(self.start, tableau=tab, foundations=found)

    def settle(self, tab: Tableau, h: Heights) -> tuple[Tableau, Heights]:
        """After the adapter's safe moves home (``auto``)."""
        _, p = self.adapter.auto(self.position(tab, h))
        return tuple(tuple(pile) for pile in p.tableau), tuple(heights(p))

    def dead(self, tab: Tableau, h: Heights) -> bool:
        """The adapter's relaxation, then the looser game (``bakers_dozen_looser.py``):
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

    @staticmethod
    def with_arrangement(
        tab: Tableau, piles: tuple[int, ...], arrangement: tuple[tuple[int, ...], ...]
    ) -> Tableau:
        out = list(tab)
        for k, cards in zip(piles, arrangement, strict=True):
            out[k] = cards
        return tuple(out)

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


def line_of(
    adapter: BakersDozenAdapter,
    start: Position,
    children: list[bytes],
    deadline: float = float("inf"),
) -> list[Move] | None:
    """The winning line that the native search by classes found from ``start``, as
    engine moves (None if not made by ``deadline``): ``children`` are its moves from one
    class to the next, each the state it was made from (packed: each pile's cards, then
    255) and, at bytes 66 and 67, the pile it takes a card from and the pile it goes to
    (255: home). Before each, every group's rearrangements bring its piles to that
    state; after each, the safe moves home. Piles are known by their bottom card, which
    no rearrangement moves."""
    line, p = adapter.auto(start)
    line = list(line)
    for child in children:
        piles = bytes(child[:66]).split(b"\xff")[:13]
        where = {pile[0]: i for i, pile in enumerate(p.tableau) if pile}
        want = {where[pile[0]]: tuple(pile) for pile in piles if pile}
        path = _rearrange(adapter, p, want, deadline)
        if path is None:
            return None
        for m in path:
            line.append(m)
            p = adapter.game.apply(p, m)
        source = f"t{where[piles[child[66]][0]] + 1}"
        if child[67] == 255:
            home = adapter.game.foundation_move(p, source)
            if home is None:
                return None  # pragma: no cover - the search moved a card it could play
            m = home
        else:
            m = Move(source, f"t{where[piles[child[67]][0]] + 1}")
        p = adapter.game.apply(p, m)
        done, p = adapter.auto(p)
        line += [m, *done]
    return line


def _rearrange(
    adapter: BakersDozenAdapter, p: Position, want: dict[int, tuple[int, ...]], deadline: float
) -> list[Move] | None:
    """Rearrangements that take the piles of ``p`` to ``want`` (pile -> cards): a
    breadth-first search over the arrangements of the piles that differ, joined by
    the piles their rearrangements reach when it fails (a group's piles at most, not
    the whole class); None at ``deadline``."""
    tab = tuple(tuple(pile) for pile in p.tableau)
    search = ClassSearch(adapter, p)
    piles = tuple(sorted(k for k, cards in want.items() if tab[k] != cards))
    while piles:
        goal = tuple(want[k] for k in piles)
        first = tuple(tab[k] for k in piles)
        came: dict[Tableau, tuple[Tableau, Move] | None] = {first: None}
        todo = [first]
        reached: set[int] = set()
        for at in todo:
            if at == goal:
                break
            if clock.now() > deadline:
                return None
            full = ClassSearch.with_arrangement(tab, piles, at)
            for i, j in search.rearrangements(full):
                if i not in piles or j not in piles:
                    reached.update((i, j))
                    continue
                nxt, _ = search.play(full, (), (i, j))
                key = tuple(nxt[k] for k in piles)
                if key not in came:
                    came[key] = (at, Move(f"t{i + 1}", f"t{j + 1}"))
                    todo.append(key)
        else:
            if reached <= set(piles):
                return None  # pragma: no cover - the search's states are its class's
            piles = tuple(sorted(reached | set(piles)))
            continue
        path: list[Move] = []
        step = came[goal]
        while step is not None:
            path.append(step[1])
            step = came[step[0]]
        return path[::-1]
    return []
