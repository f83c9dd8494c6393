"""Winning lines without their detours.

A depth-first search returns the first winning line it finds, which can wander: in
Baker's Dozen, where a card goes back and forth between piles, a deal the search wins
after 2,754 states came with a line of 2,792 moves (deal 48), and the longest line of
the study had 96,711. A player shown the line ("Show me", the command line's ``solve``)
should not watch it wander.
"""

from __future__ import annotations

from ..games import game_for
from ..moves import Move
from ..position import Position


def shorten(position: Position, line: list[Move]) -> list[Move]:
    """``line`` (legal from ``position``) with every detour cut: from each position it
    passes, one move straight to the latest position of the line that one move reaches.

    The result passes only positions of ``line``, in the same order, and ends where
    ``line`` ends, so it wins if ``line`` wins; it is never longer. The cost is one move
    made for each move of ``line``, and one for each legal move of each position the
    result passes."""
    game = game_for(position)
    passed = [position]
    for m in line:
        passed.append(game.apply(passed[-1], m))
    latest = {p.key(): k for k, p in enumerate(passed)}
    out: list[Move] = []
    k = 0
    while k < len(line):
        here = passed[k]
        best, move = k + 1, line[k]
        for m in game.legal_moves(here):
            j = latest.get(game.apply(here, m).key(), -1)
            if j > best:
                best, move = j, m
        out.append(move)
        k = best
    return out
