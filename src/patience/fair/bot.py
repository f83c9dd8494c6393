"""A fair bot: plays a whole deal knowing only what a player would, and records the result.

The engine holds the real position and shows the bot what a player would see; the bot
keeps its ``Knowledge`` up to date after every move (the real game reveals the cards)
and decides from it alone. A plan (``Advice.plan``) ends at the next card shown, so
nothing new is learnt while it runs: the bot follows it without deciding again.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Collection, Hashable
from dataclasses import dataclass, field

from ..games import game_for
from ..moves import Move
from ..position import Position
from .advisor import Settings, advise
from .greedy import greedy_move, state_key
from .knowledge import Knowledge

Chooser = Callable[[Position, Knowledge, Collection[Hashable], int], tuple[Move, ...]]
"""(position, knowledge, keys to avoid, seed) -> the moves to make (empty: give up)."""

MAX_MOVES = 1_000
"""A game still running after this many moves counts as lost (a bot going round). A
plan under way is played to its end first: it is a line of known length, not a bot
going round (a winning line of Baker's Dozen can be longer than this)."""


@dataclass(frozen=True, slots=True)
class Record:
    """One deal played: won or not, the moves, and the seconds each decision took."""

    won: bool
    moves: tuple[Move, ...]
    decisions: tuple[float, ...] = field(default=())


def advisor_chooser(settings: Settings) -> Chooser:
    """The fair advisor as a bot's chooser."""

    def choose(
        position: Position, knowledge: Knowledge, avoid: Collection[Hashable], seed: int
    ) -> tuple[Move, ...]:
        return advise(position, knowledge, settings, seed=seed, avoid=avoid).plan

    return choose


def greedy_chooser(
    position: Position, knowledge: Knowledge, avoid: Collection[Hashable], seed: int
) -> tuple[Move, ...]:
    """The greedy baseline as a bot's chooser."""
    move = greedy_move(position, avoid)
    return () if move is None else (move,)


def _look_again(legal: list[Move]) -> list[Move]:
    """When the bot would give up (no move to a new position, or none it would make):
    turn the stock over, as a player looks through it again and may play it otherwise
    this time; nothing when there is no stock to deal."""
    return [m for m in legal if m.is_deal][:1]


def play_deal(start: Position, choose: Chooser, stock_known: bool = False, seed: int = 0) -> Record:
    """Play ``start`` to the end with ``choose`` deciding from the player's knowledge.

    A position with a single legal move (not going back) needs no decision. The
    seed of each decision is ``seed`` plus the number of moves made so far. Where it
    would give up, the bot still deals, even back to a position seen before (a redeal
    that brings the stock back unchanged, then the cards of that pass again), for as
    many moves without reaching a new position as the stock and waste hold cards."""
    game = game_for(start)
    p = start
    knowledge = Knowledge.start(p, stock_known)
    visited: set[Hashable] = {state_key(p)}
    moves: list[Move] = []
    decisions: list[float] = []
    plan: list[Move] = []
    stale = 0  # moves in a row into positions seen before
    while not game.is_won(p) and (plan or len(moves) < MAX_MOVES):
        if not plan:
            every = game.legal_moves(p)
            legal = [m for m in every if state_key(game.apply(p, m)) not in visited]
            if len(legal) <= 1:
                plan = legal
            else:
                t0 = time.perf_counter()
                plan = list(choose(p, knowledge, visited, seed + len(moves)))
                decisions.append(time.perf_counter() - t0)
            if not plan and stale <= len(p.stock) + len(p.waste):
                plan = _look_again(every)
            if not plan:
                break
        move = plan.pop(0)
        p = game.play(p, move)
        moves.append(move)
        key = state_key(p)
        stale = stale + 1 if key in visited else 0
        visited.add(key)
        knowledge = knowledge.observe(p)
    return Record(game.is_won(p), tuple(moves), tuple(decisions))
