"""The baseline: a greedy player that looks one move ahead and never at a hidden card.

Its preference, first legal move of the best class (in the engine's move order):
1. a card to a foundation;
2. a tableau move that turns a face-down card;
3. a card from the stock, the waste or a reserve to the tableau;
4. a card from the waste to a reserve (Hopscotch): an empty reserve first, then the
   reserve holding the fewest cards;
5. ``deal``;
6. any other tableau move.
It never takes a card back from a foundation, and never makes a move that brings back
a position it has been in (``avoid``). Every test reads only face-up cards and pile
sizes, so the choice depends only on what the player can see.
"""

from __future__ import annotations

from collections.abc import Collection, Hashable

from ..games import game_for
from ..moves import Move
from ..position import Position


def _class(p: Position, m: Move) -> tuple[int, int] | None:
    """The move's class (lower is better) and a tie-break, or None to never make it."""
    if m.is_deal:
        return 5, 0
    if m.src.startswith("f"):
        return None
    if m.dst.startswith("f"):
        return 1, 0
    if m.src.startswith("t"):
        i = int(m.src[1:]) - 1
        turns = p.down[i] > 0 and len(p.tableau[i]) - m.count == p.down[i]
        return (2, 0) if turns else (6, 0)
    if m.dst.startswith("t"):
        return 3, 0
    return 4, len(p.reserve[int(m.dst[1:]) - 1])


def state_key(p: Position) -> Hashable:
    """The position without its redeal count: a bot never needs to come back to the same
    cards with more redeals used (it can do no more than before), and with unlimited
    redeals the count alone would let it deal round the stock for ever."""
    return p.key()[:-1]


def greedy_move(position: Position, avoid: Collection[Hashable] = ()) -> Move | None:
    """The greedy player's move in ``position`` (None: it has none it would make).
    ``avoid``: ``state_key`` of the positions not to go back to."""
    game = game_for(position)
    best: tuple[tuple[int, int], Move] | None = None
    for m in game.legal_moves(position):
        rank = _class(position, m)
        if rank is None or (best is not None and rank >= best[0]):
            continue
        if avoid and state_key(game.apply(position, m)) in avoid:
            continue
        best = rank, m
    return None if best is None else best[1]
