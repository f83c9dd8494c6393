"""The reference best-first search: the state that looks closest to a win first.

Written once, in Python, over any ``Adapter`` with an ``estimate``; the native twin
(``_best.h``) is held to it in the tests (the same states in the same order, the same
line). Where a depth-first search keeps following the line it started, even when one
early move led it into a large region with no win, a best-first search goes on from
whichever state its estimate rates best, wherever it lies: in Baker's Dozen it wins
deals that the depth-first stages leave undecided after millions of states, often
within a few thousand (docs/solver-log.md). Each of the adapter's estimates rates the
states differently, and they win different deals, so a schedule runs them in turn.

The search is exact: ``won`` with a line of the adapter's moves (replayed by ``solve``
as always), ``lost`` only when every state reachable through the adapter's children
was opened (its cuts are proven), ``unknown`` when the budget ran out. A state is
opened at most once: a new child goes into the table when it is made, and a child
already there is dropped. Ties go to the state made first.
"""

from __future__ import annotations

import heapq
import threading

from ..moves import Move
from ..position import Position
from . import clock
from .base import Adapter
from .schedule import Outcome, Verdict


def search(
    root: Position,
    adapter: Adapter,
    estimate: int,
    *,
    deadline: float | None = None,
    max_states: int | None = None,
    cancel: threading.Event | None = None,
) -> Outcome:
    """Best-first from ``root`` with the adapter's estimate number ``estimate``:
    (verdict, winning line or [], states made)."""
    game = adapter.game
    rate = adapter.estimate
    seen: set[object] = set()
    # Every state made: the moves into it and the state it was made from (-1: the root).
    made: list[tuple[tuple[Move, ...], int]] = []
    positions: list[Position | None] = []
    heap: list[tuple[int, int]] = []
    states = 0

    def line(i: int) -> list[Move]:
        steps = []
        while i >= 0:
            moves, i = made[i]
            steps.append(moves)
        return [m for step in reversed(steps) for m in step]

    def make(p: Position, moves: tuple[Move, ...], parent: int) -> list[Move] | None:
        """Record a new state (after its safe moves); its line when it is a win."""
        nonlocal states
        auto_moves, p = adapter.auto(p)
        moves += tuple(auto_moves)
        if game.is_won(p):
            made.append((moves, parent))
            return line(len(made) - 1)
        finish = adapter.finish(p)
        if finish is not None:
            made.append((moves + tuple(finish), parent))
            return line(len(made) - 1)
        key = adapter.key(p)
        if key in seen:
            return None
        seen.add(key)
        states += 1
        made.append((moves, parent))
        positions.append(p)
        heapq.heappush(heap, (rate(p, estimate), len(made) - 1))
        return None

    def spent() -> bool:
        if max_states is not None and states > max_states:
            return True
        if states & 511 == 0:
            if deadline is not None and clock.now() > deadline:
                return True
            if cancel is not None and cancel.is_set():
                return True
        return False

    won = make(root, (), -1)
    if won is not None:
        return Verdict.WON, won, states
    while heap:
        _, i = heapq.heappop(heap)
        p = positions[i]
        positions[i] = None  # opened: its position is no longer needed
        assert p is not None
        for moves, base, last, _tag in adapter.children(p):
            won = make(game.apply(base, last), moves, i)
            if won is not None:
                return Verdict.WON, won, states
            if spent():
                return Verdict.UNKNOWN, [], states
    return (Verdict.UNKNOWN if adapter.incomplete else Verdict.LOST), [], states
