"""Hopscotch's labelled search in Python (the rules and their proofs are in
``hopscotch.py``), and the data it shares with the native one (``_hopscotch.c``): the
events each rank fills, the ordering weights, the move codes.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from ..cards import RANK
from ..moves import Move
from ..position import Position
from . import clock
from .schedule import Budget, Outcome, Stage, Verdict

SEQ: tuple[tuple[int, ...], ...] = tuple(
    tuple((k - 1 + k * i) % 13 + 1 for i in range(13)) + (0,) for k in range(1, 5)
)
"""The rank of each foundation's i-th card (index 13: 0, nothing more)."""

EVENTS: tuple[tuple[int, ...], ...] = tuple(
    tuple(k * 16 + i for k in range(4) for i in range(1, 13) if SEQ[k][i] == r) for r in range(14)
)
"""The events (k * 16 + i) that take a card of each rank."""

BIG = 1 << 20
# Ordering weights (measured on deals 1-40): a pile whose top is due before the card
# comes after every good fit; an empty pile ranks like a fit 20 turns loose; a card
# that waits long is placed later.
BAD, WAIT, EMPTY = 1000, 1, 20
NOISE = 100
"""The largest jitter added to a score in a probe."""

DEAL = Move.deal()
W_TO_F = tuple(Move("w", f"f{k + 1}") for k in range(4))
W_TO_R = tuple(Move("w", f"r{j + 1}") for j in range(4))
R_TO_F = tuple(tuple(Move(f"r{j + 1}", f"f{k + 1}") for k in range(4)) for j in range(4))
CODES = (DEAL, *W_TO_F, *W_TO_R, *(m for row in R_TO_F for m in row))
"""The native module's move codes: 0 deal, 1 + k w>f, 5 + j w>r, 9 + 4 j + k r>f."""

Stacks = tuple[tuple[int, ...], ...]


class _Jitter:
    """The probes' jitter: splitmix64 from 0, each draw 53 bits scaled to [0, NOISE),
    exactly as ``_hopscotch.c`` draws it (so both searches try the same children)."""

    def __init__(self) -> None:
        self.state = 0

    def __call__(self) -> float:
        """The next jitter."""
        mask = (1 << 64) - 1
        self.state = z = (self.state + 0x9E3779B97F4A7C15) & mask
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & mask
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & mask
        return ((z ^ (z >> 31)) >> 11) * 2.0**-53 * NOISE


class _Stop(Exception):
    """The budget ran out."""


def _settle(ptr: list[int], res: list[tuple[int, ...]], out: list[Move] | None) -> None:
    """Play every reserve top whose event is due (rule 2), in place; log moves to ``out``."""
    moved = True
    while moved:
        moved = False
        for j in range(4):
            pile = res[j]
            while pile:
                e = pile[-1]
                k = e >> 4
                if ptr[k] != e & 15:
                    break
                ptr[k] += 1
                pile = pile[:-1]
                moved = True
                if out is not None:
                    out.append(R_TO_F[j][k])
            res[j] = pile


class LabelledSearch:
    """The labelled search over one position (see the module docstring)."""

    def __init__(
        self,
        p: Position,
        budget: Budget,
        table_size: int,
    ) -> None:
        self.arr = [RANK[c] for c in p.waste] + [RANK[c] for c in reversed(p.stock)]
        self.waste_first = bool(p.waste)
        self.ptr0 = tuple(len(f) for f in p.foundations)
        self.ranks0 = tuple(tuple(RANK[c] for c in r) for r in p.reserve)
        self.deadline = budget.deadline
        self.cancel = budget.cancel
        self.max_states = budget.max_states
        self.table_size = max(1000, table_size)
        n = len(self.arr)
        # nxt[s][r]: the first arrival index >= s of rank r (BIG: none).
        self.nxt = [[BIG] * 14 for _ in range(n + 1)]
        for s in range(n - 1, -1, -1):
            row = self.nxt[s + 1][:]
            row[self.arr[s]] = s
            self.nxt[s] = row
        self.states = 0
        self.memo: dict[tuple[object, ...], int] = {}
        self.cut = False
        self.limited = False
        self.pass_deadline = budget.deadline
        self.path: list[tuple[int, int]] = []
        self.noise: Callable[[], float] = lambda: 0.0

    # --- the root: labelling the cards already on the reserves -----------------------

    def labellings(self) -> Iterator[Stacks]:
        """Every acyclic labelling of the reserve cards, likeliest first.

        Cards are labelled from the tops down, each with an unclaimed event of its rank,
        sooner events first (so a card nearer a top gets an earlier event), and a
        partial labelling that already closes a cycle is abandoned."""
        ptr = self.ptr0
        spots = [
            (j, h)
            for depth in range(max(map(len, self.ranks0), default=0))
            for j, pile in enumerate(self.ranks0)
            if (h := len(pile) - 1 - depth) >= 0
        ]
        options = []
        for j, h in spots:
            r = self.ranks0[j][h]
            events = [e for e in EVENTS[r] if e & 15 >= ptr[e >> 4]]
            events.sort(key=lambda e: (e & 15) - ptr[e >> 4])
            options.append(events)
        res = [[-1] * len(pile) for pile in self.ranks0]
        loc: dict[int, tuple[int, int]] = {}  # labelled event -> (reserve, height)
        work = 0

        def below(j: int, h: int) -> int:
            """The nearest labelled card under height ``h`` of reserve ``j`` (-1: none)."""
            pile = res[j]
            for x in range(h - 1, -1, -1):
                if pile[x] >= 0:
                    return pile[x]
            return -1

        def closes_cycle(e: int, j: int, h: int) -> bool:
            """Whether labelling (j, h) with ``e`` closes a cycle (the rest has none).

            ``e`` comes before the nearest labelled card under it and the next labelled
            event of its foundation, and after the nearest labelled card over it and the
            previous event of its foundation: a cycle runs from one of the former to
            one of the latter."""
            k, i = e >> 4, e & 15
            pile = res[j]
            before = {x for x in pile[h + 1 :] if x >= 0}  # all over it come first
            later = [x for x in loc if x >> 4 == k]
            before.update(x for x in later if x & 15 < i)
            todo = [x for x in later if x & 15 > i]
            down = below(j, h)
            if down >= 0:
                todo.append(down)
            seen: set[int] = set()
            while todo:
                y = todo.pop()
                if y in before:
                    return True
                if y in seen:
                    continue
                seen.add(y)
                jy, hy = loc[y]
                z = below(jy, hy)
                if z >= 0:
                    todo.append(z)
                ky, iy = y >> 4, y & 15
                todo.extend(x for x in loc if x >> 4 == ky and x & 15 > iy)
            return False

        def label(n: int) -> Iterator[Stacks]:
            nonlocal work
            if n == len(spots):
                yield tuple(tuple(pile) for pile in res)
                return
            j, h = spots[n]
            for e in options[n]:
                if e in loc:
                    continue
                work += 1
                if work & 63 == 0:
                    self.tick()
                if closes_cycle(e, j, h):
                    continue
                res[j][h] = e
                loc[e] = (j, h)
                yield from label(n + 1)
                del loc[e]
                res[j][h] = -1

        yield from label(0)

    # --- the search -------------------------------------------------------------------

    def stage(self, s: Stage, max_states: int | None) -> Outcome:
        """One stage of the schedule (``schedule.run``): a plain or jittered pass of
        ``s.limit`` discrepancies, or the exhaustive pass (the state budget is the
        whole search's, counted here): (verdict, moves, states it searched)."""
        before = self.states
        if s.seed == 1:
            self.noise = _Jitter()  # one stream of jitter through all the probes
        elif not s.seed:
            self.noise = lambda: 0.0
        found = self.pass_(s.limit, s.until)
        verdict, moves = found or (Verdict.UNKNOWN, [])
        return verdict, moves, self.states - before

    def pass_(self, limit: int | None, deadline: float) -> tuple[Verdict, list[Move]] | None:
        """One pass (limit None: exhaustive); None when a discrepancy limit, its time or
        the budget cut it short."""
        self.memo = {}
        self.cut = False
        self.limited = limit is not None
        self.pass_deadline = deadline
        left = BIG if limit is None else limit
        try:
            for i, stacks in enumerate(self.labellings()):
                if i > left:
                    self.cut = True
                    break
                self.path = []
                if self.dfs(0, self.ptr0, stacks, left - i if self.limited else left):
                    return Verdict.WON, self.moves(stacks)
        except _Stop:
            return None
        if self.cut:
            return None
        return Verdict.LOST, []

    def tick(self) -> None:
        """Raise _Stop when the pass's time is up, the caller cancelled, or the budget is spent."""
        if clock.now() > self.pass_deadline or self.stopped():
            raise _Stop

    def stopped(self) -> bool:
        """Whether the caller cancelled or the state budget is spent."""
        if self.cancel is not None and self.cancel.is_set():
            return True
        return self.max_states is not None and self.states > self.max_states

    def dfs(self, s: int, ptr0: tuple[int, ...], res0: Stacks, left: int) -> bool:
        """Search from a state; True (with ``self.path`` filled) when it wins."""
        ptr = list(ptr0)
        piles = list(res0)
        _settle(ptr, piles, None)
        arr = self.arr
        if s == len(arr):
            return not any(piles)
        key = (s, *ptr, *sorted(piles))
        memo = self.memo
        seen = memo.get(key)
        if seen is not None and seen >= left:
            return False
        if len(memo) >= self.table_size:
            memo.clear()  # forgetting costs time, never correctness
        memo[key] = left
        self.states += 1
        if self.states & 511 == 0:
            self.tick()
        elif self.max_states is not None and self.states > self.max_states:
            raise _Stop
        res = tuple(piles)
        pt = tuple(ptr)
        for i, (j, e) in enumerate(self.children(s, pt, res)):
            if i > left:
                self.cut = True
                return False
            k = e >> 4
            if j < 0:
                kid_ptr = pt[:k] + (pt[k] + 1,) + pt[k + 1 :]
                kid_res = res
            else:
                kid_ptr = pt
                kid_res = res[:j] + (res[j] + (e,),) + res[j + 1 :]
            if self.dfs(s + 1, kid_ptr, kid_res, left - i if self.limited else left):
                self.path.append((j, e))
                return True
        return False

    def children(self, s: int, ptr: tuple[int, ...], res: Stacks) -> list[tuple[int, int]]:
        """Where the card dealt at ``s`` may go, best first: (reserve or -1 home, event)."""
        w = self.arr[s]
        labelled: list[list[int]] = [[], [], [], []]
        loc: dict[int, tuple[int, int]] = {}
        for j, pile in enumerate(res):
            for h, e in enumerate(pile):
                labelled[e >> 4].append(e & 15)
                loc[e] = (j, h)
        # The earliest time each event can happen: its card's first possible arrival
        # (now, for a card on a reserve), and not before the event before it; blocking
        # and competing events ignored. Only an ordering guess.
        when: dict[int, int] = {}
        arrival = self.nxt[s]
        for k in range(4):
            t = s
            seq = SEQ[k]
            for i in range(ptr[k], 13):
                e = k * 16 + i
                if e not in loc:
                    a = arrival[seq[i]]
                    if a > t:
                        t = a
                when[e] = t

        def reach(x: int) -> list[int]:
            """Per foundation, the lowest event that must come after ``x``."""
            low = [99, 99, 99, 99]
            todo = [x]
            while todo:
                y = todo.pop()
                ky, iy = y >> 4, y & 15
                old = low[ky]
                if iy >= old:
                    continue
                low[ky] = iy
                for i2 in labelled[ky]:
                    if iy <= i2 < old:
                        j, h = loc[ky * 16 + i2]
                        todo.extend(res[j][:h])
            return low

        tops: list[tuple[int, int, list[int]]] = []
        empty = -1
        seen: set[tuple[int, ...]] = set()
        for j, pile in enumerate(res):
            if pile in seen:
                continue
            seen.add(pile)
            if pile:
                tops.append((j, pile[-1], reach(pile[-1])))
            else:
                empty = j
        home: list[tuple[int, int]] = []
        ranked: list[tuple[float, int, int]] = []
        noise = self.noise
        for e in EVENTS[w]:
            k, i = e >> 4, e & 15
            if i < ptr[k] or e in loc:
                continue
            if i == ptr[k]:
                home.append((-1, e))
                continue
            due = when[e]
            wait = due - s
            for j, x, low in tops:
                if low[k] < i:
                    continue  # rule 3: x must come before an event before e
                tx = when[x]
                score = tx - due if tx >= due else BAD + due - tx
                ranked.append((score + WAIT * wait + noise(), j, e))
            if empty >= 0:
                ranked.append((EMPTY + WAIT * wait + noise(), empty, e))
        ranked.sort()
        return home + [(j, e) for _, j, e in ranked]

    def moves(self, stacks: Stacks) -> list[Move]:
        """The engine moves of the winning line in ``self.path``."""
        out: list[Move] = []
        ptr = list(self.ptr0)
        res = list(stacks)
        _settle(ptr, res, out)
        for s, (j, e) in enumerate(reversed(self.path)):
            if s or not self.waste_first:
                out.append(DEAL)
            k = e >> 4
            if j < 0:
                ptr[k] += 1
                out.append(W_TO_F[k])
            else:
                res[j] = res[j] + (e,)
                out.append(W_TO_R[j])
            _settle(ptr, res, out)
        return out
