"""The baseline: a greedy player that looks one move ahead and never at a hidden card.

Its preference, first legal move of the best class (in the engine's move order):
1. a card to a foundation;
2. a tableau move that turns a face-down card;
3. a card from the stock, the waste or a reserve to the tableau;
4. a card from the waste to a reserve (Hopscotch): onto the card needed soonest after
   it, else onto an empty reserve, else onto the card needed latest before it (when
   the foundations need each card is counted from their top cards);
5. ``deal``;
6. any other tableau move.
It never takes a card back from a foundation, and never makes a move that brings back
a position it has been in (``avoid``). Every test reads only face-up cards and pile
sizes, so the choice depends only on what the player can see.
"""

from __future__ import annotations

from collections.abc import Collection, Hashable

from ..cards import RANK
from ..games import game_for
from ..moves import Move
from ..position import Position
from ..rules import Game
from ..rules.build import next_rank

EMPTY_RESERVE = 13
"""The cost of putting a card on an empty reserve: more than any placement that covers
no card needed sooner (those cost 0 to 12), less than one that does (100 and up)."""


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
    return 4, _placement_cost(p, m)


def shuffles(p: Position, m: Move) -> bool:
    """Whether ``m`` is the greedy player's last resort: a tableau move that turns no card
    and takes none home (class 6), which can move cards to and fro without end."""
    return _class(p, m) == (6, 0)


def _wait(game: Game, p: Position, rank: int) -> int:
    """How many cards the foundations need before a card of ``rank`` goes up (0: it goes
    up now), the least over the foundations; 13 when none of them needs it. Reads the
    foundations only, which are face up."""
    best = 13
    for i, f in enumerate(p.foundations):
        accepts = game.foundation_accepts(p, i)
        r = None if accepts is None else accepts[0]
        for n in range(13 - len(f)):
            if r is None or n >= best:
                break
            if r == rank:
                best = n
                break
            r = next_rank(r, game.foundation_step(i), game.foundation_cyclic)
    return best


def _placement_cost(p: Position, m: Move) -> int:
    """How bad it is to put the waste card on the reserve ``m`` goes to (lower is better):
    on a card needed later, the gap in cards; on an empty pile, ``EMPTY_RESERVE``; on a
    card needed sooner, which it buries, 100 plus how much sooner."""
    pile = p.reserve[int(m.dst[1:]) - 1]
    if not pile:
        return EMPTY_RESERVE
    game = game_for(p)
    mine, under = _wait(game, p, RANK[p.waste[-1]]), _wait(game, p, RANK[pile[-1]])
    return under - mine if under >= mine else 100 + mine - under


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
