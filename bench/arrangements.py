"""Why some Baker's Dozen proofs never end: the arrangements of the built cards.

A card that lies on a card it may be built on (one rank higher; another suit with
build=other-suit) can move onto any other such card at a pile's top, and back: the
cards built in runs can be rearranged without changing anything else, and a proof of
loss visits every arrangement. For each deal this prints:

- *arrangements*: for states met by the reference depth-first search (every
  ``--every``-th of its first ``--states``), how many positions those moves reach
  (counted up to ``--cap``): median, 90th percentile and most;
- *without arrangements*: the verdict of a looser game that forgets them. Its state is
  each pile's *base* (the cards up to the lowest card of the run at its top) and the
  set of *built* cards (the rest of that run); a built card goes home, or a base's top
  card goes home or onto another card, whenever some placement of the built cards,
  each on a card it may be built on and at most one on each card, leaves the card (and
  the card it goes onto) uncovered. Every move of the game is one of these, so a deal
  this game loses is lost; a deal it wins may still be lost, by the order in which the
  built cards can be moved.

    python bench/arrangements.py --deals 2259,417,5027
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable

from patience.cards import RANK, SUIT
from patience.games import get_game
from patience.solver.bakers_dozen import BakersDozenAdapter

Tableau = tuple[tuple[int, ...], ...]
Valid = Callable[[int, int], bool]


def parents_of(other_suit: bool) -> tuple[tuple[int, ...], ...]:
    """For each card, the cards it may be built on: the solver's own list."""
    options = {"build": "other-suit" if other_suit else "any-suit", "kings": "to-bottom"}
    return BakersDozenAdapter(get_game("bakers-dozen", options)).parents


def may_lie_on(other_suit: bool) -> Valid:
    """Whether card c may be built on card q."""
    parents = parents_of(other_suit)
    return lambda c, q: q in parents[c]


def heights(left: set[int]) -> list[int]:
    """The cards home in each suit, when ``left`` are the cards not home."""
    return [sum(1 for r in range(13) if s * 13 + r not in left) for s in range(4)]


def rearrangements(tab: Tableau, valid: Valid, cap: int) -> int:
    """Positions reached from ``tab`` by moving built cards between parents (to ``cap``)."""
    seen = {tuple(sorted(tab))}
    todo = [tab]
    while todo and len(seen) < cap:
        t = todo.pop()
        for i, pile in enumerate(t):
            if len(pile) < 2 or not valid(pile[-1], pile[-2]):
                continue
            for j, other in enumerate(t):
                if j != i and other and valid(pile[-1], other[-1]):
                    u = list(t)
                    u[i], u[j] = pile[:-1], other + (pile[-1],)
                    key = tuple(sorted(u))
                    if key not in seen:
                        seen.add(key)
                        todo.append(tuple(u))
    return len(seen)


def arrangement_sizes(
    game_options: dict[str, str], deal: int, states: int, every: int, cap: int
) -> list[int]:
    """The rearrangements of every ``every``-th state of the reference search's first."""
    game = get_game("bakers-dozen", game_options)
    adapter = BakersDozenAdapter(game)
    valid = may_lie_on(game_options["build"] == "other-suit")
    seen: set[bytes] = set()
    todo = [game.new_position(deal)]
    sizes: list[int] = []
    while todo and len(seen) < states:
        p = todo.pop()
        key = adapter.key(p)
        if key in seen:
            continue
        seen.add(key)
        if len(seen) % every == 0:
            sizes.append(rearrangements(tuple(tuple(x) for x in p.tableau), valid, cap))
        _, p = adapter.auto(p)
        todo.extend(game.apply(p, m) for _, _, m, _ in adapter.children(p))
    return sizes


def split(pile: tuple[int, ...], valid: Valid) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """A pile's base (to the lowest card of its top run) and the cards built above it."""
    i = len(pile) - 1
    while i > 0 and valid(pile[i], pile[i - 1]):
        i -= 1
    return pile[: i + 1], pile[i + 1 :]


def without_arrangements(tab: Tableau, other_suit: bool, max_states: int) -> tuple[str, int]:
    """The looser game's verdict (won, lost, or unknown after ``max_states``) and states."""
    parents = parents_of(other_suit)
    valid = may_lie_on(other_suit)

    def placeable(built: frozenset[int], parents_left: set[int]) -> bool:
        """Whether every built card fits on its own parent among ``parents_left``."""
        on: dict[int, int] = {}

        def place(c: int, tried: set[int]) -> bool:
            for q in parents[c]:
                if q in parents_left and q not in tried:
                    tried.add(q)
                    if q not in on or place(on[q], tried):
                        on[q] = c
                        return True
            return False

        return all(place(c, set()) for c in built)

    def state(bases: list[tuple[int, ...]], built: set[int]) -> tuple[Tableau, frozenset[int]]:
        """The state, after every card whose suit's lower cards are home and which no
        card left can lie on (every card of the rank below is home) goes home: such a
        card is never covered, and with it gone every placement is still possible."""
        bases = [b for b in bases if b]
        built = set(built)
        left = {c for b in bases for c in b} | built
        home = heights(left)
        moved = True
        while moved:
            moved = False
            for c in [*built, *(b[-1] for b in bases)]:
                r = RANK[c]
                if home[SUIT[c]] == r - 1 and (r == 1 or min(home) >= r - 1):
                    home[SUIT[c]] += 1
                    moved = True
                    if c in built:
                        built.discard(c)
                    else:
                        i = next(k for k, b in enumerate(bases) if b[-1] == c)
                        bases, above = without_top(bases, i)
                        built |= above
                    break
        return tuple(sorted(bases)), frozenset(built)

    def without_top(bases: list[tuple[int, ...]] | Tableau, i: int) -> tuple[list, set[int]]:
        """The bases with pile i's top card gone, and the cards that then lie built."""
        base, above = split(bases[i][:-1], valid) if len(bases[i]) > 1 else ((), ())
        rest = [*bases[:i], *bases[i + 1 :]]
        return ([*rest, base] if base else rest), set(above)

    bases0: list[tuple[int, ...]] = []
    built0: set[int] = set()
    for pile in tab:
        if pile:
            b, a = split(pile, valid)
            bases0.append(b)
            built0.update(a)
    seen: set[tuple[Tableau, frozenset[int]]] = set()
    todo = [state(bases0, built0)]
    while todo:
        bases, built = todo.pop()
        if (bases, built) in seen:
            continue
        seen.add((bases, built))
        if len(seen) > max_states:
            return "unknown", len(seen)
        left = {c for b in bases for c in b} | built
        if not left:
            return "won", len(seen)
        home = heights(left)
        tops = {b[-1] for b in bases} | built
        for c in built:
            if home[SUIT[c]] == RANK[c] - 1 and placeable(built, tops - {c}):
                todo.append(state(list(bases), built - {c}))
        for i, b in enumerate(bases):
            c = b[-1]
            if home[SUIT[c]] == RANK[c] - 1 and placeable(built, tops - {c}):
                rest, above = without_top(bases, i)
                todo.append(state(rest, built | above))
            for q in parents[c]:
                if q in tops and placeable(built, tops - {c, q}):
                    rest, above = without_top(bases, i)
                    todo.append(state(rest, built | above | {c}))
    return "lost", len(seen)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--deals", required=True, help="comma-separated deal numbers")
    ap.add_argument("--build", default="other-suit", choices=("any-suit", "other-suit"))
    ap.add_argument("--states", type=int, default=30_000)
    ap.add_argument("--every", type=int, default=10)
    ap.add_argument("--cap", type=int, default=5_000)
    ap.add_argument(
        "--max-states",
        type=int,
        default=1_000_000,
        help="states of the looser game before it says unknown",
    )
    args = ap.parse_args()
    if args.every > args.states:
        ap.error("--every must not exceed --states: no state would be counted")
    options = {"build": args.build, "kings": "to-bottom"}
    print("deal  arrangements: median    p90    most   without arrangements   states     CPU s")
    for deal in (int(d) for d in args.deals.split(",")):
        sizes = arrangement_sizes(options, deal, args.states, args.every, args.cap)
        sizes.sort()
        start = time.process_time()
        tab = tuple(tuple(x) for x in get_game("bakers-dozen", options).new_position(deal).tableau)
        verdict, n = without_arrangements(tab, args.build == "other-suit", args.max_states)
        print(
            f"{deal:>5}  {statistics.median(sizes):>20,.0f} {sizes[int(len(sizes) * 0.9)]:>6,}"
            f" {sizes[-1]:>7,}   {verdict:>20}   {n:>9,} {time.process_time() - start:>8.1f}"
        )


if __name__ == "__main__":
    main()
