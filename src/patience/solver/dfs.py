"""The reference search: depth-first, with a bounded transposition table.

Written once, in Python, over any ``Adapter``: the generic search, and the reference
that the native searches (``_tableau.c``) are held against in the tests (the same
moves in the same order, the same cuts, the same verdicts).

The search is exact: it answers ``won`` only with a line that the engine accepts move
by move (``search.solve`` checks it before returning), and ``lost`` only when every
reachable state was searched. The transposition table may forget states when it is
full; that costs time, never correctness, because the states on the current path are
kept apart and a forgotten state is simply searched again.
"""

from __future__ import annotations

import random
import threading
from collections.abc import Hashable
from typing import Any

from ..moves import Move
from ..position import Position
from . import best, clock
from .base import Adapter, Tag, Twin
from .schedule import Outcome, Runner, Stage, Verdict

INF = 1 << 30
"""A cost above every other: a state searched at any cost covers it."""

DEFAULT_TABLE_SIZE = 2_000_000
"""States the transposition table remembers before it starts forgetting old ones."""


class _Table:
    """A bounded map of key -> lowest cost seen, in two generations: the older one is
    dropped when the newer fills up (forgetting costs time, never correctness)."""

    def __init__(self, size: int) -> None:
        self.half = max(1, size // 2)
        self.new: dict[Hashable, int] = {}
        self.old: dict[Hashable, int] = {}

    def covers(self, key: Hashable, cost: int) -> bool:
        """Whether the state was searched already at a cost no higher than ``cost``."""
        seen = self.new.get(key)
        if seen is None:
            seen = self.old.get(key)
        return seen is not None and seen <= cost

    def add(self, key: Hashable, cost: int) -> None:
        self.new[key] = cost
        if len(self.new) >= self.half:
            self.old = self.new
            self.new = {}


class _Stop(Exception):
    """The budget ran out."""


def search(
    root: Position,
    adapter: Adapter,
    *,
    deadline: float | None = None,
    max_states: int | None = None,
    cancel: threading.Event | None = None,
    table_size: int = DEFAULT_TABLE_SIZE,
    discrepancies: int | None = None,
) -> Outcome:
    """Search from ``root``: (verdict, winning line or [], states expanded).

    With ``discrepancies`` set, the search is a limited-discrepancy one: taking a
    node's k-th choice (0 = the adapter's first) spends k, and a line may spend at
    most ``discrepancies``. It says ``lost``
    only if that limit never cut anything off (the search was then exhaustive).
    """
    run = _Search(adapter, deadline, max_states, cancel, table_size, discrepancies)
    try:
        if run.enter(root, (), discrepancies or 0, None):
            return Verdict.WON, run.won(), run.states
        if run.walk():
            return Verdict.WON, run.won(), run.states
    except _Stop:
        return Verdict.UNKNOWN, [], run.states
    return (Verdict.UNKNOWN if run.cut or adapter.incomplete else Verdict.LOST), [], run.states


class _Search:
    """One search's state: the table of states searched, the keys on the current path, the
    line of moves to it, and the stack of nodes still to finish."""

    def __init__(
        self,
        adapter: Adapter,
        deadline: float | None,
        max_states: int | None,
        cancel: threading.Event | None,
        table_size: int,
        discrepancies: int | None,
    ) -> None:
        self.adapter = adapter
        self.game = adapter.game
        self.deadline = deadline
        self.max_states = max_states
        self.cancel = cancel
        self.table = _Table(table_size)
        self.on_path: set[Hashable] = set()
        self.line: list[tuple[Move, ...]] = []
        self.stack: list[list[Any]] = []
        """Each frame: [children, next index, key, discrepancies left]."""
        self.states = 0
        self.cut = False
        """Whether the discrepancy limit left a child out (then no loss is proved)."""
        self.limited = discrepancies is not None

    def walk(self) -> bool:
        """Take the stack's nodes' children in order, depth first; True at a win."""
        apply, stack, limited = self.game.apply, self.stack, self.limited
        while stack:
            frame = stack[-1]
            kids, i, key, left = frame
            if i >= len(kids):
                stack.pop()
                self.on_path.discard(key)  # None for a node not tabled (open_twin)
                self.line.pop()
                continue
            frame[1] = i + 1
            if limited and i:
                if left < i:
                    self.cut = True
                    frame[1] = len(kids)
                    continue
                left -= i
            moves, base, last, tag = kids[i]
            if self.enter(apply(base, last), moves, left, tag):
                return True
        return False

    def enter(self, p: Position, moves: tuple[Move, ...], left: int, tag: Tag) -> bool:
        """Open a node; True when it is a win (the line then ends with it)."""
        adapter, table = self.adapter, self.table
        auto_moves, p = adapter.auto(p)
        if auto_moves:
            moves = moves + tuple(auto_moves)
            # The moves made at once changed the position the obligation was about; dropping
            # it only widens the search, which is always sound.
            tag = None
        if self.game.is_won(p):
            self.line.append(moves)
            return True
        finish = adapter.finish(p)
        if finish is not None:
            self.line.append(moves + tuple(finish))
            return True
        if isinstance(tag, Twin):
            return self.open_twin(p, moves, left, tag)
        key: Hashable = adapter.key(p)
        if self.limited:
            # A state searched with at least as many discrepancies left is covered.
            key, cost = (key, adapter.cost(p)), -left
        else:
            cost = adapter.cost(p)
        if tag is not None:
            # The same state searched with no obligation covers it: an obligation only
            # narrows the choice of moves.
            if table.covers(key, cost):
                return False
            key = (key, tag)
        # An ancestor with the same key had a cost no higher (costs never fall along a
        # line), so meeting it again is a cycle.
        if key in self.on_path or table.covers(key, cost):
            return False
        if not self.limited and any(table.covers(d, INF) for d in adapter.dominators(p)):
            return False
        table.add(key, cost)
        self.count()
        self.on_path.add(key)
        self.line.append(moves)
        self.stack.append([adapter.children(p, tag), 0, key, left])
        return False

    def open_twin(self, p: Position, moves: tuple[Move, ...], left: int, tag: Twin) -> bool:
        """Open the node after a run moved from its parent to the parent's twin. Its
        position has its parent's key, and only its parent's search makes it: a move to
        a twin is the one tableau move that leaves the card ``tag`` free without turning
        a card, so no other line reaches it under this obligation, and it is not tabled.
        Of its children, the one by a move to a twin is the run moved back (a run that
        fits on the card freed lay on neither of its two parents: the card was covered
        by this run, its twin was a pile's top), whose children are the parent's own:
        it is left out. A cycle through this node runs through its children, which are
        tabled."""
        self.count()
        self.line.append(moves)
        kids = [k for k in self.adapter.children(p, tag) if not isinstance(k[3], Twin)]
        self.stack.append([kids, 0, None, left])
        return False

    def count(self) -> None:
        """One more state searched, within the budget."""
        self.states += 1
        if self.states & 511 == 0:
            if self.deadline is not None and clock.now() > self.deadline:
                raise _Stop
            if self.cancel is not None and self.cancel.is_set():
                raise _Stop
        if self.max_states is not None and self.states > self.max_states:
            raise _Stop

    def won(self) -> list[Move]:
        """The winning line, once ``enter`` found a win."""
        return [m for step in self.line for m in step]


def reference_runner(
    position: Position, adapter: Adapter, cancel: threading.Event | None, table_size: int
) -> Runner:
    """A runner (``schedule.run``) of the reference search from ``position``: a jittered
    stage sets the adapter's ``jitter`` while it runs."""

    def stage(s: Stage, max_states: int | None) -> Outcome:
        if s.estimate is not None:
            return best.search(
                position,
                adapter,
                s.estimate,
                deadline=s.until,
                max_states=max_states,
                cancel=cancel,
            )
        adapter.jitter = random.Random(s.seed) if s.seed else None
        adapter.shuffle = s.shuffle
        try:
            return search(
                position,
                adapter,
                deadline=s.until,
                max_states=max_states,
                cancel=cancel,
                table_size=table_size,
                discrepancies=s.limit,
            )
        finally:
            adapter.jitter = None
            adapter.shuffle = False

    return stage
