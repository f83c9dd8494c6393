"""Depth-first search with a bounded transposition table, and the public entry points.

The search is exact: it answers ``won`` only with a line that the engine accepts move
by move (checked before returning), and ``lost`` only when every reachable state was
searched. The transposition table may forget states when it is full; that costs time,
never correctness, because the states on the current path are kept apart and a
forgotten state is simply searched again.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Hashable, Mapping
from dataclasses import dataclass, field
from typing import Any

from ..games import game_for, get_game
from ..moves import Move
from ..position import Position
from ..rules import Game
from .base import Adapter, Tag

DEFAULT_TABLE_SIZE = 2_000_000
"""States the transposition table remembers before it starts forgetting old ones."""

WON, LOST, UNKNOWN = "won", "lost", "unknown"


@dataclass(frozen=True)
class SolveResult:
    """A verdict: ``won`` with a winning line, ``lost`` (proven), or ``unknown``."""

    result: str
    moves: list[Move] = field(default_factory=list)
    states: int = 0
    seconds: float = 0.0


@dataclass(frozen=True)
class Hint:
    """Advice for a player: the verdict and the move to make."""

    verdict: str
    move: Move | None = None
    line: list[Move] = field(default_factory=list)


def adapter_for(game: Game) -> Adapter:
    """The search adapter of ``game`` (the per-game pruning, or the generic one)."""
    from .bakers_dozen import BakersDozenAdapter
    from .hopscotch import HopscotchAdapter
    from .klondike import KlondikeAdapter
    from .lady_jane import LadyJaneAdapter

    adapters: dict[str, type[Adapter]] = {
        "klondike": KlondikeAdapter,
        "lady-jane": LadyJaneAdapter,
        "bakers-dozen": BakersDozenAdapter,
        "hopscotch": HopscotchAdapter,
    }
    return adapters.get(game.name, Adapter)(game)


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
) -> tuple[str, list[Move], int]:
    """Search from ``root``: (verdict, winning line or [], states expanded).

    With ``discrepancies`` set, the search is a limited-discrepancy one: taking a
    node's k-th choice (0 = the adapter's first) spends k, and a line may spend at
    most ``discrepancies``. It says ``lost``
    only if that limit never cut anything off (the search was then exhaustive).
    """
    game = adapter.game
    apply = game.apply
    table = _Table(table_size)
    on_path: set[Hashable] = set()
    line: list[tuple[Move, ...]] = []
    # Each frame: [children, next index, key, discrepancies left].
    stack: list[list[Any]] = []
    states = 0
    cut = False
    limited = discrepancies is not None

    def enter(p: Position, moves: tuple[Move, ...], left: int, tag: Tag) -> bool:
        """Open a node; True when it is a win (the line then ends with it)."""
        nonlocal states
        auto_moves, p = adapter.auto(p)
        if auto_moves:
            moves = moves + tuple(auto_moves)
            # The safe moves changed the position the obligation was about; dropping
            # it only widens the search, which is always sound.
            tag = None
        if game.is_won(p):
            line.append(moves)
            return True
        finish = adapter.finish(p)
        if finish is not None:
            line.append(moves + tuple(finish))
            return True
        key: Hashable = adapter.key(p)
        if limited:
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
        if key in on_path or table.covers(key, cost):
            return False
        table.add(key, cost)
        states += 1
        if states & 511 == 0:
            if deadline is not None and time.monotonic() > deadline:
                raise _Stop
            if cancel is not None and cancel.is_set():
                raise _Stop
        if max_states is not None and states > max_states:
            raise _Stop
        on_path.add(key)
        line.append(moves)
        stack.append([adapter.children(p, tag), 0, key, left])
        return False

    def won() -> list[Move]:
        return [m for step in line for m in step]

    try:
        if enter(root, (), discrepancies or 0, None):
            return WON, won(), states
        while stack:
            frame = stack[-1]
            kids, i, key, left = frame
            if i >= len(kids):
                stack.pop()
                on_path.discard(key)
                line.pop()
                continue
            frame[1] = i + 1
            if limited and i:
                if left < i:
                    cut = True
                    frame[1] = len(kids)
                    continue
                left -= i
            moves, base, last, tag = kids[i]
            if enter(apply(base, last), moves, left, tag):
                return WON, won(), states
    except _Stop:
        return UNKNOWN, [], states
    return (UNKNOWN if cut or adapter.incomplete else LOST), [], states


def replay(position: Position, moves: list[Move]) -> Position:
    """Play ``moves`` through the engine's checked ``play`` (raises if one is illegal)."""
    game = game_for(position)
    for m in moves:
        position = game.play(position, m)
    return position


def _generic(
    position: Position,
    adapter: Adapter,
    lds_end: float,
    deadline: float,
    max_states: int | None,
    cancel: threading.Event | None,
    table_size: int,
) -> tuple[str, list[Move], int]:
    """The generic search: limited-discrepancy passes (0, 1, 2, ... departures from the
    preferred move) until ``lds_end``, as they find most wins far sooner than a plain
    depth-first search, which can sink its whole budget under one bad early move; then
    the exhaustive search, which alone can prove a loss."""
    states = 0
    verdict, moves = UNKNOWN, list[Move]()
    for limit in range(64):
        if time.monotonic() >= lds_end or (cancel is not None and cancel.is_set()):
            break
        verdict, moves, n = search(
            position,
            adapter,
            deadline=min(lds_end, deadline),
            max_states=None if max_states is None else max(0, max_states - states),
            cancel=cancel,
            table_size=table_size,
            discrepancies=limit,
        )
        states += n
        if verdict != UNKNOWN:
            break
    if verdict == UNKNOWN:
        verdict, moves, n = search(
            position,
            adapter,
            deadline=deadline,
            max_states=None if max_states is None else max(0, max_states - states),
            cancel=cancel,
            table_size=table_size,
        )
        states += n
    return verdict, moves, states


def solve(
    position: Position,
    timeout: float = 60.0,
    max_states: int | None = None,
    cancel: threading.Event | None = None,
    *,
    table_size: int = DEFAULT_TABLE_SIZE,
) -> SolveResult:
    """Decide ``position``: ``won`` with a winning line, ``lost`` (proven) or ``unknown``."""
    start = time.monotonic()
    game = game_for(position)
    adapter = adapter_for(game)
    deadline = start + timeout
    # A game whose adapter has a search of its own (on a faster representation) uses it.
    direct = adapter.decide(position, deadline, cancel, max_states, table_size)
    if direct is not None:
        verdict, moves, states = direct
    else:
        verdict, moves, states = _generic(
            position,
            adapter,
            start + timeout * adapter.lds_share,
            deadline,
            max_states,
            cancel,
            table_size,
        )
    if verdict == WON:
        # The line must stand up to the engine's own checks: never a wrong verdict.
        end = replay(position, moves)
        if not game.is_won(end):
            raise AssertionError("solver line does not win")  # pragma: no cover
    return SolveResult(verdict, moves, states, time.monotonic() - start)


def hint(position: Position, timeout: float = 2.0, cancel: threading.Event | None = None) -> Hint:
    """The move to make: the first of a winning line, or a best guess when undecided."""
    game = game_for(position)
    if game.is_won(position):
        return Hint("winnable", None, [])
    result = solve(position, timeout=timeout, cancel=cancel)
    if result.result == WON:
        return Hint("winnable", result.moves[0], result.moves)
    if result.result == LOST:
        return Hint("lost", None, [])
    return Hint("unknown", adapter_for(game).guess(position), [])


def find_winnable(
    game: str | Game,
    options: Mapping[str, str] | None,
    start: int,
    budget: float = 10.0,
    per_deal: float = 2.0,
) -> int | None:
    """The first deal number >= ``start`` proven winnable, or None if the budget ran out."""
    rules = get_game(game, options) if isinstance(game, str) else game
    end = time.monotonic() + budget
    deal = start
    while True:
        left = end - time.monotonic()
        if left <= 0:
            return None
        p = rules.new_position(deal)
        if solve(p, timeout=min(per_deal, left)).result == WON:
            return deal
        deal += 1
