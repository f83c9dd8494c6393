"""Hopscotch's advice played out: the chance that a player who follows the game's fair
advice (``hopscotch_rollout.labels_move``, rollouts of the labels policy) from here wins.

The advice's whole decision loop runs in C (``_hopscotch.advice_game``,
``_hopscotch.advice_playouts``): each card is decided as ``hopscotch_rollout.rollout`` decides
it (``PLAYOUTS`` playouts of the labels policy a candidate reserve, seeded by the seed
plus the cards left in the stock, as ``labels_move`` seeds it), so a playout is a game
the hint's own advice would play on that stock order (tests/test_hopscotch_advice.py,
move for move against the Python ``rollout``). The chance is the share of ``count``
such games won over stock orders drawn uniformly from the unseen cards (their ranks: in
Hopscotch every card out of the stock has been seen, and none in it) from the seed: the
view and the seed alone decide it, never the hidden order, nor the machine's load (the
clock only cuts, and says so).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from types import ModuleType

from .hopscotch import PLAYOUT_SEARCH, PLAYOUTS, State
from .hopscotch_rollout import from_native, native_state

CHANCE_PLAYOUTS = 10
"""Games of the advice played out for the chance the hint and the page show: at a
deal's start about 0.19 CPU s a game (bench/hopscotch_chance.py --cost), so 10 take
1.9 CPU s, about 1 s on the two threads (``THREADS``)."""
THREADS = 2
"""Threads the playouts are shared over (the C releases the GIL)."""
BATCH = 1
"""Playouts a thread runs between two looks at the clock."""


def _native() -> ModuleType:
    from ..solver.hopscotch import native

    if native is None or not hasattr(native, "advice_playouts"):
        raise RuntimeError("Hopscotch's advice chance needs the native module _hopscotch")
    return native


def advice_game(
    s: State,
    waste: int | None,
    stock: list[int],
    left: list[int],
    inner: int = PLAYOUTS,
    seed: int = 0,
    search: int = PLAYOUT_SEARCH,
) -> tuple[bool, list[int]]:
    """The advice played from its state ``s`` with the waste card of rank ``waste``
    (None: none) on the stock of ranks ``stock`` (its top last; ``left``: the cards of
    each rank unseen, those of the stock): won or not, and each card's move (1 + q home
    to foundation q, 5 + j onto reserve j; the list stops at a card only a cycle is left
    for, a lost game). The reserve tops that go are sent home first, from ``s.last``."""
    won, moves = _native().advice_game(
        *native_state(s), s.last, waste or 0, bytes(left), bytes(stock), inner, seed, search
    )
    return bool(won), list(moves)


def advice_until(
    s: State,
    waste: int | None,
    stock: list[int],
    left: list[int],
    upto: int,
    inner: int = PLAYOUTS,
    seed: int = 0,
    search: int = PLAYOUT_SEARCH,
) -> tuple[State, int, list[int]] | None:
    """``advice_game`` until ``upto`` cards are left in the stock, the next card turned:
    the state then (settled, that card not yet decided), the card's rank and the cards of
    each rank unseen; None: the game was lost before."""
    out = _native().advice_until(
        *native_state(s), s.last, waste or 0, bytes(left), bytes(stock), inner, seed, search, upto
    )
    if out is None:
        return None
    (cnt, ranks, labels, r), unseen = out
    return from_native((cnt, ranks, labels)), r, list(unseen)


def advice_wins(
    s: State,
    waste: int | None,
    left: list[int],
    first: int,
    count: int,
    seed: int = 0,
    inner: int = PLAYOUTS,
    search: int = PLAYOUT_SEARCH,
) -> int:
    """Of the advice's playouts ``first`` .. ``first + count - 1`` from ``s`` (stock orders
    of the unseen ranks ``left`` drawn from ``seed``), the games won."""
    return int(
        _native().advice_playouts(
            *native_state(s), s.last, waste or 0, bytes(left), first, count, seed, inner, 0, search
        )
    )


def advice_chance(
    s: State,
    waste: int | None,
    left: list[int],
    count: int = CHANCE_PLAYOUTS,
    seed: int = 0,
    out: Callable[[], bool] = lambda: False,
    threads: int = THREADS,
) -> tuple[int, int]:
    """The advice's games won and played out of ``count`` from ``s`` (the waste card of
    rank ``waste``, the unseen ranks ``left``), shared over ``threads``; ``out()`` True
    stops the run between playouts (then fewer are played: the caller says so)."""
    if count <= 0:
        return 0, 0
    todo = list(range(0, count, BATCH))

    def run(_: int) -> tuple[int, int]:
        won = played = 0
        while True:
            try:
                first = todo.pop(0)
            except IndexError:
                return won, played
            if out():
                return won, played
            n = min(BATCH, count - first)
            won += advice_wins(s, waste, left, first, n, seed)
            played += n

    if threads <= 1:
        return run(0)
    with ThreadPoolExecutor(threads) as pool:
        parts = list(pool.map(run, range(threads)))
    return sum(w for w, _ in parts), sum(p for _, p in parts)


PRIOR: dict[int, tuple[float, float]] = {
    24: (2.8592, 0.6515),
    14: (1.2202, 0.216),
    8: (0.512, 0.0727),
    4: (0.3595, 0.0262),
}
"""The Beta prior (a, b) of the advice's chance where that many cards are left in the
stock, fitted by beta-binomial maximum likelihood of the playouts won at the advice's own
decisions in games of deals it was not tuned on (``bench/hopscotch_chance.py --fit`` on
the committed rows ``results/hopscotch.chance.jsonl.gz``, deals 30001..32100 with 24 or
14 cards left, and ``results/hopscotch.chance-fit.jsonl.gz``, deals 30001..31050 with 8
or 4 left; docs/decisions.md). Between two fitted stages the prior's mean and the log of
its weight ``a + b`` are interpolated; beyond the first or the last, its prior is used
(above 24 cards left, at a deal's start, not checked: docs/fair-play.md)."""


def prior(cards_left: int) -> tuple[float, float]:
    """The Beta prior (a, b) of the advice's chance with ``cards_left`` in the stock
    (``PRIOR``, interpolated between its stages)."""
    stages = sorted(PRIOR)
    if cards_left in PRIOR or cards_left < stages[0] or cards_left > stages[-1]:
        return PRIOR[min(max(cards_left, stages[0]), stages[-1])]
    hi = next(c for c in stages if c >= cards_left)
    lo = stages[stages.index(hi) - 1]
    t = (cards_left - lo) / (hi - lo)
    (a0, b0), (a1, b1) = PRIOR[lo], PRIOR[hi]
    mean = (1 - t) * a0 / (a0 + b0) + t * a1 / (a1 + b1)
    weight = math.exp((1 - t) * math.log(a0 + b0) + t * math.log(a1 + b1))
    return mean * weight, (1 - mean) * weight
