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
package was built with it, else in Python (``LabelledSearch``): the same labellings, children,
order and passes (see the C file for what differs without changing a verdict).

The generic search (used when the own search is not called) keeps rank-only keys, the
reserves as a set, and the one safe move proven without labels (rule 2 for a rank with
a single event left: that card's label is forced).
"""

from __future__ import annotations

import threading
from types import ModuleType

from ..cards import RANK
from ..moves import Move
from ..position import Position
from . import clock
from .base import Adapter, Child, Tag
from .hopscotch_labels import (
    BAD,
    CODES,
    EMPTY,
    NOISE,
    R_TO_F,
    SEQ,
    W_TO_F,
    WAIT,
    LabelledSearch,
)
from .schedule import Budget, Outcome, Runner, Schedule, Verdict, for_budget

native: ModuleType | None
try:  # the labelled search at native speed, built with the package (_hopscotch.c)
    from . import _hopscotch as native
except ImportError:  # pragma: no cover - without a C compiler: the same search in Python
    native = None

SCHEDULE = Schedule(passes=0.7, plain=4, restarts=0.7, restart_limit=3, restart_slice=1.0)
"""Plain discrepancy passes 0..3 until 0.7 of the time; then, until 0.7 too, probes:
passes of 3 discrepancies, each for at most 1 s, with scores jittered by up to NOISE
(a fixed seed), which escape one heuristic's blind spots far sooner than deeper plain
passes (measured); then the exhaustive pass. The share for discrepancy passes: fresh
deals are nearly all won, by the passes, but positions in play are often lost, or won
only where the passes do not look, and a hint has 2 s. Measured with the native search
at 2 s on 160 positions 10 to 90 random moves into deals 1..80 (two samples) and on
deals 1..400: 0.9 left 40 and 3 undecided, 0.7 left 35 and 3, 0.5 left 15 of the first
80 (as 0.7) and 4, 0.2 left 13 and 7. Deals 1..200 at 30 s are all won either way."""


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
            p,
            budget.deadline,
            budget.cancel,
            budget.left(),
            table_size,
            for_budget(self.schedule, budget),
        )
        budget.states += states
        return verdict, moves

    def runner(self, p: Position, budget: Budget, table_size: int) -> Runner | None:
        """The labelled search in Python (``LabelledSearch``), stage by stage."""
        return LabelledSearch(p, budget, table_size).stage

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
                    left[SEQ[k][i]] += 1
                if len(f) < 13:
                    ready.setdefault(SEQ[k][len(f)], k)
            move = None
            if p.waste and left[RANK[p.waste[-1]]] == 1 and RANK[p.waste[-1]] in ready:
                move = W_TO_F[ready[RANK[p.waste[-1]]]]
            else:
                for j, pile in enumerate(p.reserve):
                    if pile and left[RANK[pile[-1]]] == 1 and RANK[pile[-1]] in ready:
                        move = R_TO_F[j][ready[RANK[pile[-1]]]]
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
    """``LabelledSearch``'s search run by the native module (``_hopscotch.c``), which plays
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
        seconds=max(0.0, deadline - clock.now()),
        max_states=-1 if max_states is None else max_states,
        table_size=max(1000, table_size),
        cancel=cancel,
        plain=schedule.plain,
        probe=schedule.restart_limit,
        noise=NOISE,
        slice=schedule.restart_slice,
        lds_share=schedule.passes,
        bad=BAD,
        wait=WAIT,
        empty=EMPTY,
    )
    return Verdict.of_code(verdict), [CODES[c] for c in line], states


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
