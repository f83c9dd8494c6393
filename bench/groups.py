"""Baker's Dozen searched by classes of states: what a proof of loss needs when the
arrangements of the built cards are enumerated group by group, not as their product.

A card lying on a card it may be built on can move onto another such card at a pile's
top, and back (a *rearrangement*): the states these moves connect make one *class*,
every state of which can reach every other, so all of them are won or none is. The
piles they touch split into *groups* that never touch each other's piles, and a class
is the product of its groups' arrangements (417: 2, 18 and 126 arrangements, 4,536
states). This search keys a class by each group's least arrangement, finds every other
move (a card home, a card not lying on a card it may be built on moved onto another
card) in each group's arrangements, the two groups' arrangements combined when such a
move joins two groups, and so meets each class once: its verdict is exact (a prototype
in Python, before a native one; docs/solver-log.md, session 30). For each deal it
prints the verdict, the classes searched, the arrangements enumerated and the CPU s:

    python bench/groups.py --deals 6826,2110 --max-classes 100000
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable, Iterator
from dataclasses import replace

from patience.cards import RANK, SUIT
from patience.games import get_game
from patience.position import Position
from patience.solver.bakers_dozen import BakersDozenAdapter

Tableau = tuple[tuple[int, ...], ...]
Heights = tuple[int, ...]
Move = tuple[int, int]
"""(pile, pile), or (pile, -1) for a card home."""
Group = tuple[tuple[int, ...], set[tuple[tuple[int, ...], ...]]]
"""The piles of a group and every arrangement of those piles' cards."""


class ClassSearch:
    """The search by classes for one game (``build`` either option, Kings to the bottom)."""

    def __init__(self, deal: int, other_suit: bool) -> None:
        build = "other-suit" if other_suit else "any-suit"
        game = get_game("bakers-dozen", {"build": build, "kings": "to-bottom"})
        self.start = game.new_position(deal)
        self.adapter = BakersDozenAdapter(game)
        parents = self.adapter.parents
        self.valid: Callable[[int, int], bool] = lambda c, q: q in parents[c]
        self.classes = 0
        self.arrangements = 0

    # --- moves ---------------------------------------------------------------------

    def rearrangements(self, tab: Tableau) -> Iterator[Move]:
        valid = self.valid
        for i, pile in enumerate(tab):
            if len(pile) > 1 and valid(pile[-1], pile[-2]):
                for j, other in enumerate(tab):
                    if j != i and other and valid(pile[-1], other[-1]):
                        yield i, j

    def other_moves(self, tab: Tableau, h: Heights) -> Iterator[Move]:
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
    def play(tab: Tableau, h: Heights, m: Move) -> tuple[Tableau, Heights]:
        i, j = m
        t = list(tab)
        c = t[i][-1]
        t[i] = t[i][:-1]
        if j < 0:
            hh = list(h)
            hh[SUIT[c]] += 1
            return tuple(t), tuple(hh)
        t[j] = t[j] + (c,)
        return tuple(t), h

    def position(self, tab: Tableau, h: Heights) -> Position:
        """The deal's position with this tableau and these cards home."""
        found = tuple(tuple(s * 13 + r for r in range(h[s])) for s in range(4))
        return replace(self.start, tableau=tab, foundations=found)

    def settle(self, tab: Tableau, h: Heights) -> tuple[Tableau, Heights]:
        """After the adapter's safe moves home (``auto``)."""
        _, p = self.adapter.auto(self.position(tab, h))
        home = [0, 0, 0, 0]
        for f in p.foundations:
            if f:
                home[SUIT[f[0]]] = len(f)
        return tuple(tuple(pile) for pile in p.tableau), tuple(home)

    def dead(self, tab: Tableau, h: Heights) -> bool:
        """The adapter's relaxation, which proves a state lost (and so its class)."""
        return self.adapter.dead(self.position(tab, h), list(h))

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
                return found

    def _arrangements(
        self, tab: Tableau, piles: tuple[int, ...], find: Callable[[int], int], root: list[int]
    ) -> set[tuple[tuple[int, ...], ...]] | None:
        """Every arrangement of ``piles`` that their rearrangements reach from ``tab``;
        None (after joining the groups) when one reaches another pile."""
        inside = set(piles)
        seen = {tuple(tab[k] for k in piles)}
        todo = [tab]
        while todo:
            t = todo.pop()
            for i, j in self.rearrangements(t):
                if i not in inside and j not in inside:
                    continue
                if i not in inside or j not in inside:
                    root[find(i)] = find(j)
                    return None
                u, _ = self.play(t, (), (i, j))
                arrangement = tuple(u[k] for k in piles)
                if arrangement not in seen:
                    seen.add(arrangement)
                    todo.append(u)
        return seen

    @staticmethod
    def with_arrangement(
        tab: Tableau, piles: tuple[int, ...], arrangement: tuple[tuple[int, ...], ...]
    ) -> Tableau:
        t = list(tab)
        for k, cards in zip(piles, arrangement, strict=True):
            t[k] = cards
        return tuple(t)

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
                t = self.with_arrangement(tab, piles, a)
                for m in self.other_moves(t, h):
                    ends = {group_of.get(m[0]), group_of.get(m[1])}
                    if g not in ends:
                        continue
                    ends -= {g, None}
                    if not ends:
                        kids.append(self.play(t, h, m))
                        continue
                    o_piles, o_arrangements = groups[ends.pop()]
                    for b in o_arrangements:
                        u = self.with_arrangement(t, o_piles, b)
                        if m in set(self.other_moves(u, h)):
                            kids.append(self.play(u, h, m))
        return list(dict.fromkeys(kids))

    def solve(self, max_classes: int) -> str:
        """``won``, ``lost``, or ``unknown`` after ``max_classes`` classes."""
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
            stack.append(iter(self.children(tab, h, groups)))
            return False

        if enter(tuple(tuple(p) for p in self.start.tableau), (0, 0, 0, 0)):
            return "won"
        while stack:
            if self.classes > max_classes:
                return "unknown"
            child = next(stack[-1], None)
            if child is None:
                stack.pop()
            elif enter(*child):
                return "won"
        return "lost"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--deals", required=True, help="comma-separated deal numbers")
    ap.add_argument("--build", default="other-suit", choices=("any-suit", "other-suit"))
    ap.add_argument("--max-classes", type=int, default=100_000)
    args = ap.parse_args()
    print(" deal  verdict    classes   arrangements     CPU s")
    for deal in (int(d) for d in args.deals.split(",")):
        start = time.process_time()
        search = ClassSearch(deal, args.build == "other-suit")
        verdict = search.solve(args.max_classes)
        print(
            f"{deal:>5}  {verdict:>7}  {search.classes:>9,}  {search.arrangements:>13,}"
            f"  {time.process_time() - start:>8.1f}"
        )


if __name__ == "__main__":
    main()
