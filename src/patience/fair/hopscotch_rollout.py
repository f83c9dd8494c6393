"""The game's Hopscotch advice: the labels policy improved by rollouts (issue 55).

Where the waste card does not go home, each reserve it may go on is scored by
``PLAYOUTS`` playouts of the labels policy (``fair/hopscotch.py``) from the state after
it, over random orders of the unseen ranks (the same orders for every reserve, from the
seed: the view and the seed alone), played in C (``_hopscotch.playouts``); the most won
is taken, the policy's own choice on a tie. ``labels_move`` is the advice the hint gives
and the study's bot plays, from the state the game's history leaves
(``hopscotch_history.replayed``)."""

from __future__ import annotations

from collections.abc import Collection, Hashable
from types import ModuleType

from ..cards import RANK
from ..moves import Move
from ..position import Position
from .hopscotch import PLAYOUT_SEARCH, PLAYOUTS, State, _left, place
from .hopscotch_history import replayed


def labels_move(
    position: Position,
    history: Collection[Hashable] = (),
    playouts: int = PLAYOUTS,
    seed: int = 0,
) -> Move | None:
    """The game's advice in ``position`` after ``history`` (``state_key`` of the game's
    positions): a reserve top home, the waste card's place, or the deal; None: no move.
    The waste card's reserve is chosen by ``playouts`` rollouts of the labels policy a
    reserve (``rollout``); 0, or without the native module: the labels policy's own."""
    s = replayed(position, history)
    move = s.settle_move()
    if move is not None:
        return move
    if position.waste:
        left = _left(position.waste, position.foundations, position.reserve)
        r = RANK[position.waste[-1]]
        if playouts > 0 and _native() is not None:
            return rollout(s, r, left, playouts, seed + len(position.stock))[1]
        return place(s, r, left)[1]
    return Move.deal() if position.stock else None


def playout(s: State, waste: int | None, stock: list[int], left: list[int]) -> bool:
    """Whether the policy wins from its state ``s`` (left as it is) with the waste card of
    rank ``waste`` (None: none) and a stock of ranks ``stock`` (its top card last);
    ``left``: the cards of each rank unseen now. The reserve tops that go are sent home
    first, as ``labels_move`` sends them.

    The playout stops, lost, at the first card the policy has to place closing a cycle
    (no option, and no labelling found by the rescue): measured on deals 10001..10040,
    the policy won none of the 24 games where that happened, and 83% of a playout's time
    was spent after it (docs/fair-play.md).

    Played by the native module (``_hopscotch.playout``, the same moves,
    tests/test_hopscotch_rollout.py) when it is built and the labels have no cycle."""
    native = _native()
    if native is not None and s.acyclic():
        return bool(native.playout(*native_state(s), s.last, waste or 0, bytes(left), bytes(stock)))
    return _playout(s, waste, stock, left)


def _playout(s: State, waste: int | None, stock: list[int], left: list[int]) -> bool:
    """``playout`` in Python."""
    s = s.clone()
    while s.settle_move() is not None:
        pass
    left = list(left)
    cards = list(stock)
    r = waste
    while r is not None or cards:
        if r is None:
            r = cards.pop()
            left[r] -= 1
        s, move = place(s, r, left)
        if move.dst[0] == "r" and not s.acyclic():
            return False
        r = None
    return sum(s.cnt) == 52


def native_state(s: State) -> tuple[bytes, list[bytes], list[bytes]]:
    """``s`` as ``_hopscotch.playouts`` takes it: the foundation sizes, each reserve's
    ranks and labels (k * 13 + i), bottom first."""
    return (
        bytes(s.cnt),
        [bytes(c[0] for c in p) for p in s.piles],
        [bytes(c[1] * 13 + c[2] for c in p) for p in s.piles],
    )


def from_native(t: tuple[bytes, list[bytes], list[bytes]]) -> State:
    """``native_state``'s inverse."""
    cnt, ranks, labels = t
    piles = [
        [(r, e // 13, e % 13) for r, e in zip(a, b, strict=True)]
        for a, b in zip(ranks, labels, strict=True)
    ]
    return State(list(cnt), piles)


def candidates(s: State, r: int, left: list[int]) -> list[tuple[int, State]]:
    """The reserves the waste card of rank ``r`` (which does not go home) may go on (an
    empty one stands for them all), each with the state after it, labelled as the
    policy labels a card put there (``_label_on``) and settled; the policy's own choice
    (``place``'s) first. A reserve where only a cycle is left is not a candidate, unless
    no reserve is left (then the policy's fallback, a lost game)."""
    from ..solver import _hopscotch

    native = native_state(s)
    left_b = bytes(left)
    found: list[tuple[int, int, tuple[bytes, list[bytes], list[bytes]]]] = []
    empty = False
    for j in range(4):
        if not s.piles[j]:
            if empty:
                continue
            empty = True
        out = _hopscotch.label_on(*native, r, j, left_b)
        if out is not None:
            found.append((j, out[3], out[:3]))
    options = [f for f in found if f[1] >= 0]
    if options:
        own = min(options, key=lambda f: f[1])  # the first of the cheapest, as ``place``
    elif found:
        own = min(found, key=lambda f: len(s.piles[f[0]]))  # ``place``'s rescue order
    else:
        s2, move = place(s.copy(), r, left)
        return [(int(move.dst[1:]) - 1, s2)]
    return [(j, from_native(t)) for j, _, t in [own] + [f for f in found if f is not own]]


def _native() -> ModuleType | None:
    from ..solver.hopscotch import native

    return native


def rollout(
    s: State, r: int, left: list[int], playouts: int, seed: int, search: int = PLAYOUT_SEARCH
) -> tuple[State, Move, int]:
    """Where the waste card of rank ``r`` goes, by rollouts: home when it fits (as the
    policy); otherwise each reserve it may go on (``candidates``) is scored by the labels
    policy played out from the state after it over ``playouts`` stock orders of the
    unseen ranks ``left`` (the same orders for every reserve, drawn from ``seed`` by the
    native module: the view and the seed alone), and the most won is taken, the policy's
    own choice on a tie. The state after, the move, the playouts won after it (-1: no
    choice was played out)."""
    home = s.copy()
    q = home.take(r, None)
    if q is not None:
        home.cnt[q] += 1
        home.settle()
        return home, Move("w", f"f{q + 1}"), -1
    cands = candidates(s, r, left)
    if len(cands) == 1:
        return cands[0][1], Move("w", f"r{cands[0][0] + 1}"), -1
    native = _native()
    assert native is not None
    best: tuple[int, int, State] | None = None
    for j, sj in cands:
        won = native.playouts(*native_state(sj), 0, 0, bytes(left), playouts, seed, search)
        if best is None or won > best[0]:
            best = won, j, sj
    assert best is not None
    return best[2], Move("w", f"r{best[1] + 1}"), best[0]
