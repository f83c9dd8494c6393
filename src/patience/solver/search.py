"""The public entry points: a verdict (``solve``), a hint, the next winnable deal.

Each game's adapter says how to search it (``base.Adapter``) and its pass schedule
(``schedule.Schedule``); ``decide`` runs that schedule on the adapter's native
search where there is one, else on the reference search (``dfs``).
"""

from __future__ import annotations

import importlib
import math
import threading
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from functools import cache

from ..games import game_for, get_game
from ..moves import Move
from ..position import Position
from ..rules import Game
from . import clock
from .base import Adapter
from .dfs import DEFAULT_TABLE_SIZE, reference_runner
from .lines import shorten
from .schedule import Budget, Outcome, Verdict, run

__all__ = [
    "DEFAULT_TABLE_SIZE",
    "Hint",
    "SolveResult",
    "Verdict",
    "adapter_for",
    "decide",
    "find_winnable",
    "find_winnable_within",
    "hint",
    "replay",
    "safe_moves",
    "solve",
]


@cache
def adapter_class(path: str | None) -> type[Adapter]:
    """The adapter class a game declares (``module:Class``), or the generic one."""
    if path is None:
        return Adapter
    module, _, name = path.partition(":")
    found: type[Adapter] = getattr(importlib.import_module(module), name)
    return found


@dataclass(frozen=True)
class SolveResult:
    """A verdict: ``won`` with a winning line, ``lost`` (proven), or ``unknown``.

    ``result`` is a ``Verdict`` (equal to its string), typed ``str`` for the callers
    that build on it as text."""

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
    return adapter_class(game.solver_adapter)(game)


def safe_moves(position: Position) -> list[Move]:
    """The moves to the foundations that are proven safe from ``position``, in order: the
    game's own rule (its adapter's ``auto``, which the search makes without trying
    anything else), so that a player's auto-play and the solver share one proof."""
    return adapter_for(game_for(position)).auto(position)[0]


def decide(
    position: Position,
    adapter: Adapter,
    budget: Budget,
    table_size: int = DEFAULT_TABLE_SIZE,
) -> Outcome:
    """Run the adapter's schedule on ``position`` within ``budget``: on the adapter's
    own search, else its native runner, else the reference search (which has no
    looser game and no search by classes). The line is not replayed here (``solve``
    does). Nothing starts once the budget is spent (cancelled, out of time or states)."""
    if budget.spent():
        return Verdict.UNKNOWN, [], budget.states
    own = adapter.own_search(position, budget, table_size)
    if own is not None:
        return (*own, budget.states)
    runner = adapter.runner(position, budget, table_size)
    schedule = adapter.schedule
    if runner is None:
        runner = reference_runner(position, adapter, budget.cancel, table_size)
        schedule = replace(schedule, looser=0.0, classes=0.0)
    verdict, moves = run(schedule, budget, runner)
    return verdict, moves, budget.states


def replay(position: Position, moves: list[Move]) -> Position:
    """Play ``moves`` through the engine's checked ``play`` (raises if one is illegal)."""
    game = game_for(position)
    for m in moves:
        position = game.play(position, m)
    return position


def solve(
    position: Position,
    timeout: float | None = 60.0,
    max_states: int | None = None,
    cancel: threading.Event | None = None,
    *,
    table_size: int = DEFAULT_TABLE_SIZE,
    check: bool = True,
    window: float | None = None,
) -> SolveResult:
    """Decide ``position``: ``won`` with a winning line, ``lost`` (proven) or ``unknown``.

    ``timeout`` None: bounded by ``max_states`` alone, so the verdict is the same on every
    machine (``find_winnable_within``). ``check`` False skips replaying a winning line
    through the engine's checked ``play`` (the guard against a wrong ``won``) and
    returns the line as the search found it, detours and all (``lines.shorten``): for
    a caller that makes many solves, needs their verdicts, and plays any move it takes
    through ``play`` itself (the fair advisor's sampled arrangements). The verdict is
    the same either way (the native verdicts are tested against the reference search
    with the check on). ``window``: the seconds the schedule's stages are laid over, if
    not the timeout (``Budget.window``). ``seconds`` is the search's time, to its
    verdict."""
    start = clock.now()
    game = game_for(position)
    adapter = adapter_for(game)
    deadline = math.inf if timeout is None else start + timeout
    budget = Budget(start, deadline, max_states, cancel, window=window)
    verdict, moves, states = decide(position, adapter, budget, table_size)
    seconds = clock.now() - start
    if verdict == Verdict.WON and check:
        if not adapter.direct_lines:
            moves = shorten(position, moves)
        # The line must stand up to the engine's own checks: never a wrong verdict.
        end = replay(position, moves)
        if not game.is_won(end):
            raise AssertionError("solver line does not win")  # pragma: no cover
    return SolveResult(verdict, moves, states, seconds)


def hint(position: Position, timeout: float = 2.0, cancel: threading.Event | None = None) -> Hint:
    """The move to make: the first of a winning line, or a best guess when undecided."""
    game = game_for(position)
    if game.is_won(position):
        return Hint("winnable", None, [])
    result = solve(position, timeout=timeout, cancel=cancel)
    if result.result == Verdict.WON:
        return Hint("winnable", result.moves[0], result.moves)
    if result.result == Verdict.LOST:
        return Hint("lost", None, [])
    return Hint("unknown", adapter_for(game).guess(position), [])


def find_winnable(
    game: str | Game,
    options: Mapping[str, str] | None,
    start: int,
    budget: float = 10.0,
    per_deal: float = 2.0,
    cancel: threading.Event | None = None,
) -> int | None:
    """The first deal number >= ``start`` proven winnable, or None if the budget ran out
    or ``cancel`` was set."""
    rules = get_game(game, options) if isinstance(game, str) else game
    end = clock.now() + budget
    deal = start
    while True:
        left = end - clock.now()
        if left <= 0 or (cancel is not None and cancel.is_set()):
            return None
        p = rules.new_position(deal)
        if solve(p, timeout=min(per_deal, left), cancel=cancel).result == Verdict.WON:
            return deal
        deal += 1


def find_winnable_within(
    game: Game,
    start: int,
    states: int,
    deals: int,
    cancel: threading.Event | None = None,
) -> int | None:
    """The first of ``deals`` deals from ``start`` on proven winnable within ``states``
    states each, with no time limit: the same deal on every machine (the native search's
    counts). None when none of them was, or when ``cancel`` was set."""
    for deal in range(start, start + deals):
        if cancel is not None and cancel.is_set():
            return None
        result = solve(game.new_position(deal), timeout=None, max_states=states, cancel=cancel)
        if result.result == Verdict.WON:
            return deal
    return None
