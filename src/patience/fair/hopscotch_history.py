"""A Hopscotch game's history replayed for the labels policy (``fair/hopscotch.py``):
the labels are the policy's memory of its plan, so a decision starts from the state the
policy would have reached playing the moves the player made, read from what the player
saw of each position (the waste card, the foundations, the reserves), not from the view
alone. A game's next decision resumes from the state its last one kept."""

from __future__ import annotations

from collections.abc import Collection, Hashable

from ..cards import RANK
from ..position import Position
from .hopscotch import State, _home, _label_on, _left, view_state

Seen = tuple[int, tuple[int, ...], tuple[tuple[int, ...], ...], tuple[tuple[int, ...], ...]]
"""What the player saw of a position: the stock's size, the waste, the foundations and
the reserves."""


def _seen(p: Position) -> Seen:
    return len(p.stock), p.waste, p.foundations, p.reserve


def _seen_of_key(key: Hashable) -> Seen | None:
    """The seen part of a ``greedy.state_key`` (stock, waste, foundations, tableau, down,
    reserve): the stock's size only, never its cards."""
    if not isinstance(key, tuple) or len(key) != 6:
        return None
    stock, waste, foundations, _, _, reserve = key
    return len(stock), waste, foundations, reserve


def replayed(position: Position, history: Collection[Hashable]) -> State:
    """The policy's labelled state at ``position``, replayed along ``history`` (the
    ``state_key`` of the game's positions; unordered: Hopscotch's are ordered by the
    stock's size, then the waste card first, then the cards home). Without a history
    that starts at a deal, the labels are read from the view."""
    path = sorted(
        {seen for seen in map(_seen_of_key, history) if seen is not None} | {_seen(position)},
        key=lambda v: (-v[0], -len(v[1]), sum(len(f) for f in v[2])),
    )
    first = path[0]
    if any(len(f) != 1 for f in first[2]) or any(first[3]) or path[-1] != _seen(position):
        return view_state(position)
    key = tuple(path)
    s, done = State([1, 1, 1, 1], [[], [], [], []]), 1
    for cut in range(len(key), max(len(key) - RESUME, 1), -1):
        cached = _REPLAYS.get(key[:cut])
        if cached is not None:
            s, done = cached.clone(), cut
            break
    for a, b in zip(path[done - 1 :], path[done:], strict=False):
        if not _step(s, a, b):
            return view_state(position)  # not a game of this history: read the view
    if len(_REPLAYS) >= REPLAYS:
        _REPLAYS.clear()
    _REPLAYS[key] = s.clone()
    return s


REPLAYS = 4096
"""Replayed states kept (``replayed``): a game's next decision resumes from its last."""
RESUME = 8
"""How many steps back ``replayed`` looks for a state it kept."""
_REPLAYS: dict[tuple[Seen, ...], State] = {}


def _step(s: State, a: Seen, b: Seen) -> bool:
    """Replay on ``s`` the step from what was seen ``a`` to ``b``; False: ``b``'s reserves
    are not what the step leaves (not a game of this history)."""
    grown = [q for q in range(4) if len(b[2][q]) > len(a[2][q])]
    if a[1] and not b[1]:  # the waste card went home or onto a reserve
        s.last = 0
        r = RANK[a[1][-1]]
        if grown:
            _home(s, r, grown[0], None)
        else:
            j = next(j for j in range(4) if len(b[3][j]) > len(a[3][j]))
            _label_on(s, r, j, _left(b[1], b[2], b[3]))
    elif grown:  # a reserve top went home
        j = next(j for j in range(4) if len(b[3][j]) < len(a[3][j]))
        r, k, i = s.piles[j].pop()
        _home(s, r, grown[0], (k, i))
        s.last = j
    return [[c[0] for c in p] for p in s.piles] == [[RANK[c] for c in p] for p in b[3]]
