"""Hopscotch: the stock order is known, so the search is over where each card goes.

Suits play no part in Hopscotch (foundations ignore them, reserves take anything), so
the solver sees only ranks. Foundation ``fk`` takes a fixed sequence of ranks; call
taking its ``i``-th card the *event* ``(k, i)``. Every card left out must end on some
foundation, and each foundation takes each of its ranks once, so the cards of rank r
still out are exactly as many as the events of rank r still to come.

The own search (:meth:`HopscotchAdapter.decide`) gives every card a *label*: the event
it will fill. Each rule it relies on, with its proof:

1. Labels lose nothing. Any win fills every event with one card of its rank, which
   labels every card. The search tries, for each card dealt, every event of its rank
   not yet claimed (and, at the root, every way to label the cards already on the
   reserves), so every win is the win of some labelled line.
2. A labelled card goes home the moment it can (it is the waste card or a reserve top
   and its foundation is at its event). Take a labelled win that plays it later, at
   time T. Until T its foundation takes nothing (the event is this card's), cards put
   on its reserve meanwhile are also taken off before T (it was a top again at T), and
   the card under it is not played before T. Playing it now and then the same moves
   is legal move by move (those cards sit one lower) and reaches the same position
   at T, so a win is still there.
3. No cycles. With labels fixed, a card above another on a reserve leaves first, so
   its event comes first; the events of one foundation come in order. A card placed
   where these "comes first" relations close a cycle can never leave: that child is
   cut. (Checked when a card is placed, the only time an edge is added, and for each
   card labelled at the root; two labelled cards of one reserve are ordered whatever
   lies between them, so a partial labelling with a cycle is abandoned at once.)
4. The four reserves are interchangeable (any card may go on any of them, and only
   their tops play, to a foundation): the state key lists them sorted, and a card goes
   on only one of several reserves holding the same labelled cards.

So a search that ends without cutting anything by its time or discrepancy limits has
searched every labelled line, and ``lost`` is proven (whatever order it tried moves
in). Wins come first from limited-discrepancy passes ordered by a cheap schedule (the
earliest time each event can happen: its card's arrival, blocking ignored; best-fit
piles first), then from short passes with jittered scores, then the exhaustive pass.

The own search runs in C (``_hopscotch.c``, through :func:`native_decide`) when the
package was built with it, else in Python (``_Solver``): the same labellings, children,
order and passes (see the C file for what differs without changing a verdict).

The generic search (used when the own search is not called) keeps rank-only keys, the
reserves as a set, and the one safe move proven without labels (rule 2 for a rank with
a single event left: that card's label is forced).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from types import ModuleType

from ..cards import RANK
from ..moves import Move
from ..position import Position
from .base import Adapter, Child, Tag
from .schedule import Budget, Outcome, Runner, Schedule, Stage, Verdict

native: ModuleType | None
try:  # the labelled search at native speed, built with the package (_hopscotch.c)
    from . import _hopscotch as native
except ImportError:  # pragma: no cover - without a C compiler: the same search in Python
    native = None

_SEQ: tuple[tuple[int, ...], ...] = tuple(
    tuple((k - 1 + k * i) % 13 + 1 for i in range(13)) + (0,) for k in range(1, 5)
)
"""The rank of each foundation's i-th card (index 13: 0, nothing more)."""

_EVENTS: tuple[tuple[int, ...], ...] = tuple(
    tuple(k * 16 + i for k in range(4) for i in range(1, 13) if _SEQ[k][i] == r) for r in range(14)
)
"""The events (k * 16 + i) that take a card of each rank."""

_BIG = 1 << 20
# Ordering weights (measured on deals 1-40): a pile whose top is due before the card
# comes after every good fit; an empty pile ranks like a fit 20 turns loose; a card
# that waits long is placed later.
_BAD, _WAIT, _EMPTY = 1000, 1, 20
SCHEDULE = Schedule(passes=0.7, plain=4, restarts=0.7, restart_limit=3, restart_slice=1.0)
"""Plain discrepancy passes 0..3 until 0.7 of the time; then, until 0.7 too, probes:
passes of 3 discrepancies, each for at most 1 s, with scores jittered by up to _NOISE
(a fixed seed), which escape one heuristic's blind spots far sooner than deeper plain
passes (measured); then the exhaustive pass. The share for discrepancy passes: fresh
deals are nearly all won, by the passes, but positions in play are often lost, or won
only where the passes do not look, and a hint has 2 s. Measured with the native search
at 2 s on 160 positions 10 to 90 random moves into deals 1..80 (two samples) and on
deals 1..400: 0.9 left 40 and 3 undecided, 0.7 left 35 and 3, 0.5 left 15 of the first
80 (as 0.7) and 4, 0.2 left 13 and 7. Deals 1..200 at 30 s are all won either way."""
_NOISE = 100
"""The largest jitter added to a score in a probe."""

_DEAL = Move.deal()
_W_TO_F = tuple(Move("w", f"f{k + 1}") for k in range(4))
_W_TO_R = tuple(Move("w", f"r{j + 1}") for j in range(4))
_R_TO_F = tuple(tuple(Move(f"r{j + 1}", f"f{k + 1}") for k in range(4)) for j in range(4))
_CODES = (_DEAL, *_W_TO_F, *_W_TO_R, *(m for row in _R_TO_F for m in row))
"""The native module's move codes: 0 deal, 1 + k w>f, 5 + j w>r, 9 + 4 j + k r>f."""

Stacks = tuple[tuple[int, ...], ...]


class HopscotchAdapter(Adapter):
    """Hopscotch (no options): its own labelled search, and rank-only generic hooks."""

    schedule = SCHEDULE

    def own_search(
        self, p: Position, budget: Budget, table_size: int
    ) -> tuple[Verdict, list[Move]] | None:
        """The labelled search in the native module, which runs the schedule itself
        (``native_decide``); None without it (``runner``: the same search in Python)."""
        if native is None:
            return None
        verdict, moves, states = native_decide(
            p, budget.deadline, budget.cancel, budget.left(), table_size
        )
        budget.states += states
        return verdict, moves

    def runner(self, p: Position, budget: Budget, table_size: int) -> Runner | None:
        """The labelled search in Python (``_Solver``), stage by stage."""
        return _Solver(p, budget, table_size).stage

    def key(self, p: Position) -> bytes:
        """Stock size, waste, foundation sizes, the reserves as a set (ranks only)."""
        res = sorted(bytes(RANK[c] for c in r) for r in p.reserve)
        waste = tuple(RANK[c] for c in p.waste)
        head = bytes((len(p.stock), *waste, 255, *(len(f) for f in p.foundations)))
        return head + b"\xfe" + b"\xff".join(res)

    def auto(self, p: Position) -> tuple[list[Move], Position]:
        """Play home a waste card or reserve top whose rank has one event left (rule 2)."""
        g = self.game
        moves: list[Move] = []
        while True:
            left = [0] * 14
            ready: dict[int, int] = {}
            for k, f in enumerate(p.foundations):
                for i in range(len(f), 13):
                    left[_SEQ[k][i]] += 1
                if len(f) < 13:
                    ready.setdefault(_SEQ[k][len(f)], k)
            move = None
            if p.waste and left[RANK[p.waste[-1]]] == 1 and RANK[p.waste[-1]] in ready:
                move = _W_TO_F[ready[RANK[p.waste[-1]]]]
            else:
                for j, pile in enumerate(p.reserve):
                    if pile and left[RANK[pile[-1]]] == 1 and RANK[pile[-1]] in ready:
                        move = _R_TO_F[j][ready[RANK[pile[-1]]]]
                        break
            if move is None:
                return moves, p
            moves.append(move)
            p = g.apply(p, move)

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
                ranks = tuple(RANK[c] for c in pile)
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


def native_decide(
    p: Position,
    deadline: float,
    cancel: threading.Event | None = None,
    max_states: int | None = None,
    table_size: int = 2_000_000,
    schedule: Schedule = SCHEDULE,
) -> Outcome:
    """``_Solver``'s search run by the native module (``_hopscotch.c``), which plays
    ``schedule`` out itself (as ``schedule.run`` does), with this module's ordering
    weights: (verdict, winning moves, states). ``schedule.passes`` 0: only the
    exhaustive pass."""
    if native is None:
        raise RuntimeError("the native Hopscotch search was not built")
    assert schedule.restart_limit is not None and schedule.restart_slice is not None
    assert schedule.restarts == schedule.passes, "the probes run until the passes end"
    verdict, line, states = native.search(
        arrivals=bytes(RANK[c] for c in (*p.waste, *reversed(p.stock))),
        waste_first=bool(p.waste),
        foundations=bytes(len(f) for f in p.foundations),
        reserves=[bytes(RANK[c] for c in r) for r in p.reserve],
        seconds=max(0.0, deadline - time.monotonic()),
        max_states=-1 if max_states is None else max_states,
        table_size=max(1000, table_size),
        cancel=cancel,
        plain=schedule.plain,
        probe=schedule.restart_limit,
        noise=_NOISE,
        slice=schedule.restart_slice,
        lds_share=schedule.passes,
        bad=_BAD,
        wait=_WAIT,
        empty=_EMPTY,
    )
    return Verdict.of_code(verdict), [_CODES[c] for c in line], states


def _need(p: Position) -> list[int]:
    """For each rank, how many cards the readiest foundation takes before that rank."""
    need = [99] * 14
    for k, f in enumerate(p.foundations):
        if len(f) >= 13:
            continue
        rank = RANK[f[-1]]
        for j in range(13 - len(f)):
            rank = (rank + k) % 13 + 1
            if j < need[rank]:
                need[rank] = j
    return need


class _Jitter:
    """The probes' jitter: splitmix64 from 0, each draw 53 bits scaled to [0, _NOISE),
    exactly as ``_hopscotch.c`` draws it (so both searches try the same children)."""

    def __init__(self) -> None:
        self.state = 0

    def __call__(self) -> float:
        """The next jitter."""
        mask = (1 << 64) - 1
        self.state = z = (self.state + 0x9E3779B97F4A7C15) & mask
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & mask
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & mask
        return ((z ^ (z >> 31)) >> 11) * 2.0**-53 * _NOISE


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
                    out.append(_R_TO_F[j][k])
            res[j] = pile


class _Solver:
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
        # nxt[s][r]: the first arrival index >= s of rank r (_BIG: none).
        self.nxt = [[_BIG] * 14 for _ in range(n + 1)]
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
            events = [e for e in _EVENTS[r] if e & 15 >= ptr[e >> 4]]
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
        left = _BIG if limit is None else limit
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
        if time.monotonic() > self.pass_deadline or self.stopped():
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
            seq = _SEQ[k]
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
        for e in _EVENTS[w]:
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
                score = tx - due if tx >= due else _BAD + due - tx
                ranked.append((score + _WAIT * wait + noise(), j, e))
            if empty >= 0:
                ranked.append((_EMPTY + _WAIT * wait + noise(), empty, e))
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
                out.append(_DEAL)
            k = e >> 4
            if j < 0:
                ptr[k] += 1
                out.append(_W_TO_F[k])
            else:
                res[j] = res[j] + (e,)
                out.append(_W_TO_R[j])
            _settle(ptr, res, out)
        return out
