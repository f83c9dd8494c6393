"""Hopscotch's own fair policy: labels, as the solver's (``solver/hopscotch.py``).

Hindsight is blind in Hopscotch: nearly every sampled stock order can be won knowing it,
so every move looks equally good to the sampled solves. This policy reasons instead
about what the player can see (the foundations, the reserves, the waste card, and which
ranks are still unseen), with the solver's idea: give every reserve card a *label*, the
foundation event it will fill (foundation k's i-th card). With labels fixed, a card
above another leaves first and a foundation's events come in order; every reserve card
can go home iff these "comes first" relations have no cycle. So each card is placed
(a free event of its rank, a reserve) without closing a cycle, keeping room for the
cards to come:

- a card whose event has come goes home (a reserve top may take a current event of
  another foundation: the deeper copy of its rank then takes its label, if the order
  stays acyclic); the waste card goes home when it fits;
- otherwise each (free event, reserve) that closes no cycle is an option, scored by how
  it leaves the next card's choices (for each rank still unseen, how many reserves could
  take it: none costs 100, one 30, two 5, three 1, times the cards of that rank unseen)
  plus twice its fit (the estimated wait between the card and the one it covers, in
  foundation steps, 5 more when it covers a card needed sooner; an empty reserve 6);
- when no option is left, every reserve card is labelled again from scratch (a search
  over labellings) with the new card on each reserve in turn.

Labels are the policy's memory of its plan: read again from the view alone it plays
worse (docs/fair-play.md). So ``labels_move`` replays the game's history (the positions
so far, ordered by the stock's size, the waste and the foundations; only what the
player saw of each is read: the waste card, the foundations, the reserves), labelling
each card where the player put it as the policy would have, and decides from there.

The game's advice improves on the policy by rollouts (``rollout``, issue 55): where the
waste card does not go home, each reserve it may go on is scored by ``PLAYOUTS`` playouts
of the policy itself from the state after it, over random orders of the unseen ranks
(the same orders for every reserve, from the seed: the view and the seed alone), played
in C (``_hopscotch.playouts``); the most won is taken, the policy's own choice on a tie.
"""

from __future__ import annotations

from collections.abc import Collection, Hashable
from types import ModuleType

from ..cards import RANK
from ..moves import Move
from ..position import Position

Event = tuple[int, int]
"""(foundation, index): foundation k's i-th card (index 0 is its starting club)."""
Card = tuple[int, int, int]
"""A labelled reserve card: (rank, foundation, index)."""

SEQ = tuple(tuple(((k + 1) * (i + 1)) % 13 or 13 for i in range(13)) for k in range(4))
"""SEQ[k][i]: the rank of foundation k's i-th card."""
POS = tuple(tuple(SEQ[k].index(r) if r else 0 for r in range(14)) for k in range(4))
"""POS[k][r]: where rank r comes on foundation k."""

CROWD = (100.0, 30.0, 5.0, 1.0, 0.0)
"""The cost of an unseen card whose rank that many reserves could take (0, 1, 2, 3, 4+)."""
EMPTY = 6.0
"""The fit of a card put on an empty reserve."""
FIT = 2.0
"""The weight of the fit beside the crowding."""
SEARCH = 5_000
"""Tries of a labelling search before it gives up."""
PLAYOUTS = 40
"""The rollouts of the labels policy a candidate reserve, for the game's advice and its
bot (``labels_move``; tuned on deals 5041..5120: 20 won 55 of 80, 40 won 60, the labels
policy alone 30)."""
PLAYOUT_SEARCH = 300
"""Tries of a playout's rescue (the game's own rescue keeps ``SEARCH``): 300 won as many
of the tuning deals as 5,000 (rollouts of 20: 10 of the 14 both played), 4 times faster."""


def _below(piles: list[list[Card]]) -> dict[Event, list[Event]]:
    below: dict[Event, list[Event]] = {}
    for p in piles:
        for h in range(1, len(p)):
            below.setdefault((p[h][1], p[h][2]), []).append((p[h - 1][1], p[h - 1][2]))
    return below


def _reach(edges: dict[Event, list[Event]], src: Event, dst: Event | None = None) -> set[Event]:
    """The events ``src`` comes before (itself included); stops early at ``dst``."""
    seen: set[Event] = set()
    stack = [src]
    while stack:
        e = stack.pop()
        if e in seen:
            continue
        seen.add(e)
        if e == dst:
            break
        if e[1] < 12:
            stack.append((e[0], e[1] + 1))
        stack.extend(edges.get(e, ()))
    return seen


def _labelling(
    cnt: list[int], piles: list[list[int]], bottom_up: bool
) -> dict[tuple[int, int], Event] | None:
    """Distinct labels for every reserve card with no cycle (None: none found within
    ``SEARCH`` tries). Top down: each card its earliest free event first; bottom up: a
    pile's bottom card its earliest, each card above the event that best fits the one
    under it."""
    order = []
    for level in range(max((len(p) for p in piles), default=0)):
        for j, p in enumerate(piles):
            if level < len(p):
                order.append((j, level if bottom_up else len(p) - 1 - level))
    labels: dict[tuple[int, int], Event] = {}
    used: set[Event] = set()
    edges: dict[Event, list[Event]] = {}
    tries = [SEARCH]

    def wait(e: Event) -> int:
        return e[1] - cnt[e[0]]

    def go(n: int) -> bool:
        if n == len(order):
            return True
        tries[0] -= 1
        if tries[0] < 0:
            return False
        j, h = order[n]
        r = piles[j][h]
        near = labels.get((j, h - 1 if bottom_up else h + 1))
        events = [(k, POS[k][r]) for k in range(4) if POS[k][r] >= cnt[k]]
        if bottom_up and near is not None:
            t = wait(near)
            events.sort(key=lambda e: (t - wait(e)) if t >= wait(e) else 5 + wait(e) - t)
        else:
            events.sort(key=wait)
        for e in events:
            if e in used:
                continue
            pair = None if near is None else ((e, near) if bottom_up else (near, e))
            if pair is not None and pair[0] in _reach(edges, pair[1], pair[0]):
                continue  # the lower card already comes before the upper one: a cycle
            labels[(j, h)] = e
            used.add(e)
            if pair is not None:
                edges.setdefault(pair[0], []).append(pair[1])
            if go(n + 1):
                return True
            if pair is not None:
                edges[pair[0]].pop()
            del labels[(j, h)]
            used.discard(e)
        return False

    return dict(labels) if go(0) else None


class State:
    """The foundations' counts and the labelled reserves (bottom first)."""

    def __init__(self, cnt: list[int], piles: list[list[Card]]) -> None:
        self.cnt = cnt
        self.piles = piles
        self.last = 0
        """The reserve the last card home came from (0 after the waste card moved)."""

    def copy(self) -> State:
        return State(list(self.cnt), [list(p) for p in self.piles])

    def claimed(self) -> set[Event]:
        return {(c[1], c[2]) for p in self.piles for c in p}

    def free(self, r: int, claimed: set[Event]) -> list[Event]:
        return [
            (k, POS[k][r])
            for k in range(4)
            if POS[k][r] >= self.cnt[k] and (k, POS[k][r]) not in claimed
        ]

    def wait(self, e: Event) -> int:
        return e[1] - self.cnt[e[0]]

    def acyclic(self) -> bool:
        edges = _below(self.piles)
        for p in self.piles:
            for h in range(1, len(p)):
                lower, upper = (p[h - 1][1], p[h - 1][2]), (p[h][1], p[h][2])
                if upper in _reach(edges, lower, upper):
                    return False
        return True

    def holder(self, e: Event) -> tuple[int, int] | None:
        for j, p in enumerate(self.piles):
            for h, c in enumerate(p):
                if (c[1], c[2]) == e:
                    return j, h
        return None

    def current(self, r: int) -> list[int]:
        """The foundations whose next card is of rank ``r``."""
        return [q for q in range(4) if self.cnt[q] < 13 and SEQ[q][self.cnt[q]] == r]

    def take(self, r: int, mine: Event | None) -> int | None:
        """Give rank ``r`` (labelled ``mine``, or unlabelled: the waste card) a current
        event: the foundation it goes to, relabelling a reserve copy that held that event
        (it takes ``mine``, or else a free event, if the order stays acyclic); None."""
        if mine is not None and self.cnt[mine[0]] == mine[1] and SEQ[mine[0]][mine[1]] == r:
            return mine[0]
        for q in self.current(r):
            e = (q, self.cnt[q])
            held = self.holder(e)
            if held is None:
                return q
            jj, hh = held
            old = self.piles[jj][hh]
            others = [mine] if mine is not None else self.free(r, self.claimed())
            for f in others:
                self.piles[jj][hh] = (r, *f)
                if self.acyclic():
                    return q
            self.piles[jj][hh] = old
        return None

    def pop(self, j: int) -> Move | None:
        """Reserve ``j``'s top home if it goes now (its move, the state updated)."""
        p = self.piles[j]
        if not p:
            return None
        r, k, i = p[-1]
        q = self.take(r, (k, i))
        if q is None:
            return None
        p.pop()
        self.cnt[q] += 1
        return Move(f"r{j + 1}", f"f{q + 1}")

    def settle_move(self) -> Move | None:
        """The next reserve top home in ``settle``'s order, from reserve ``last`` on (the
        one the last card home came from: its pile is emptied first)."""
        for j in (*range(self.last, 4), *range(self.last)):
            move = self.pop(j)
            if move is not None:
                return move
        return None

    def settle(self) -> None:
        """Every reserve top home that goes: each reserve in turn emptied as far as it
        goes, then again from the first, until none goes."""
        moved = True
        while moved:
            moved = False
            for j in range(4):
                while self.pop(j) is not None:
                    moved = True


def crowding(s: State, left: list[int]) -> float:
    """How badly the reserves would take the cards still unseen (lower is better)."""
    claimed = s.claimed()
    edges = _below(s.piles)
    tops = [_reach(edges, (p[-1][1], p[-1][2])) if p else None for p in s.piles]
    empty = sum(1 for p in s.piles if not p)
    total = 0.0
    for r in range(1, 14):
        if not left[r] or s.current(r):
            continue
        events = s.free(r, claimed)
        n = empty + sum(
            1 for reach in tops if reach is not None and any(e not in reach for e in events)
        )
        total += left[r] * CROWD[min(n, 4)]
    return total


def _scored(s: State, r: int, j: int, e: Event, left: list[int]) -> tuple[float, State]:
    """The card of rank ``r`` labelled ``e`` on reserve ``j``: the cost ``place`` ranks
    its options by (how the reserves would take the cards unseen, and how the card fits
    the one it covers), and the state after it, settled."""
    p = s.piles[j]
    if p:
        ty, tx = s.wait((p[-1][1], p[-1][2])), s.wait(e)
        fit: float = (ty - tx) if ty >= tx else 5 + tx - ty
    else:
        fit = EMPTY
    s2 = s.copy()
    s2.piles[j].append((r, *e))
    s2.settle()
    return crowding(s2, left) + FIT * fit, s2


def place(s: State, r: int, left: list[int]) -> tuple[State, Move]:
    """Where the waste card of rank ``r`` goes: the state after it (settled) and the move."""
    q = s.take(r, None)
    if q is not None:
        s.cnt[q] += 1
        s.settle()
        return s, Move("w", f"f{q + 1}")
    best: tuple[float, State, int] | None = None
    claimed = s.claimed()
    edges = _below(s.piles)
    empty_seen = False
    for j, p in enumerate(s.piles):
        if not p:
            if empty_seen:
                continue
            empty_seen = True
        reach = _reach(edges, (p[-1][1], p[-1][2])) if p else set()
        for e in s.free(r, claimed):
            if e in reach:
                continue  # the card under it would have to come first: a cycle
            cost, s2 = _scored(s, r, j, e, left)
            if best is None or cost < best[0]:
                best = cost, s2, j
    if best is not None:
        return best[1], Move("w", f"r{best[2] + 1}")
    for j in sorted(range(4), key=lambda j: len(s.piles[j])):
        ranks = [[c[0] for c in p] for p in s.piles]
        ranks[j].append(r)
        found = _labelling(s.cnt, ranks, bottom_up=False)
        if found is not None:
            piles = [[(c, 0, 0) for c in p] for p in ranks]
            for (jj, hh), e in found.items():
                piles[jj][hh] = (ranks[jj][hh], *e)
            s2 = State(list(s.cnt), piles)
            s2.settle()
            return s2, Move("w", f"r{j + 1}")
    j = min(range(4), key=lambda j: len(s.piles[j]))
    s.piles[j].append((r, *s.free(r, claimed)[0]))  # a cycle: the game is lost
    return s, Move("w", f"r{j + 1}")


def view_state(position: Position) -> State:
    """The foundations and the reserves of ``position``, labelled from the view."""
    cnt = [len(f) for f in position.foundations]
    ranks = [[RANK[c] for c in p] for p in position.reserve]
    found = _labelling(cnt, ranks, bottom_up=True) or _labelling(cnt, ranks, bottom_up=False)
    if found is None:  # a cycle whatever the labels (a lost game): any distinct ones
        used: set[Event] = set()
        found = {}
        for j, p in enumerate(ranks):
            for h, r in enumerate(p):
                e = next(
                    ((k, POS[k][r]) for k in range(4) if POS[k][r] >= cnt[k])
                    if not used
                    else (
                        (k, POS[k][r])
                        for k in range(4)
                        if POS[k][r] >= cnt[k] and (k, POS[k][r]) not in used
                    ),
                    (0, POS[0][r]),
                )
                used.add(e)
                found[(j, h)] = e
    piles = [[(ranks[j][h], *found[(j, h)]) for h in range(len(p))] for j, p in enumerate(ranks)]
    return State(cnt, piles)


def _left(
    waste: tuple[int, ...],
    foundations: tuple[tuple[int, ...], ...],
    reserve: tuple[tuple[int, ...], ...],
) -> list[int]:
    """The cards of each rank the player has not seen: four less those in sight (in the
    real game every card not in the stock has been seen, and none in it)."""
    left = [0] + [4] * 13
    for pile in (waste, *foundations, *reserve):
        for c in pile:
            left[RANK[c]] -= 1
    return left


def opening(stock: list[int]) -> tuple[State, list[int]]:
    """A deal's start in the rank-only model: the table with each foundation's base out
    and nothing on the reserves, and the cards of each rank unseen, those of ``stock``
    (its ranks, top last) every one."""
    left = [0] * 14
    for r in stock:
        left[r] += 1
    return State([1, 1, 1, 1], [[], [], [], []]), left


def left_unseen(position: Position) -> list[int]:
    """The cards of each rank the player of ``position`` has not seen."""
    return _left(position.waste, position.foundations, position.reserve)


def _home(s: State, r: int, q: int, mine: Event | None) -> None:
    """Mirror a card of rank ``r`` (labelled ``mine``: a reserve card) going to
    foundation ``q``: a reserve card that held that event takes ``mine`` or a free one."""
    e = (q, s.cnt[q])
    held = s.holder(e)
    if held is not None and (mine is None or held != s.holder(mine)):
        jj, hh = held
        old = s.piles[jj][hh]
        for f in ([mine] if mine is not None else []) + s.free(r, s.claimed()):
            s.piles[jj][hh] = (r, *f)
            if s.acyclic():
                break
        else:
            s.piles[jj][hh] = old
    s.cnt[q] += 1


def _label_on(s: State, r: int, j: int, left: list[int]) -> None:
    """Mirror the waste card of rank ``r`` put on reserve ``j``: the label the policy
    would give it there."""
    claimed = s.claimed()
    p = s.piles[j]
    reach = _reach(_below(s.piles), (p[-1][1], p[-1][2])) if p else set()
    best: tuple[float, Event] | None = None
    for e in s.free(r, claimed):
        if e in reach:
            continue
        cost, _ = _scored(s, r, j, e, left)  # as ``place`` scores it
        if best is None or cost < best[0]:
            best = cost, e
    if best is not None:
        p.append((r, *best[1]))
        return
    ranks = [[c[0] for c in q] for q in s.piles]
    ranks[j].append(r)
    found = _labelling(s.cnt, ranks, bottom_up=False)
    if found is None:
        p.append((r, *s.free(r, claimed)[0]))  # a cycle: the game is lost
        return
    s.piles = [
        [(ranks[jj][hh], *found[(jj, hh)]) for hh in range(len(q))] for jj, q in enumerate(ranks)
    ]


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
            s, done = _copied(cached), cut
            break
    for a, b in zip(path[done - 1 :], path[done:], strict=False):
        if not _step(s, a, b):
            return view_state(position)  # not a game of this history: read the view
    if len(_REPLAYS) >= REPLAYS:
        _REPLAYS.clear()
    _REPLAYS[key] = _copied(s)
    return s


REPLAYS = 4096
"""Replayed states kept (``replayed``): a game's next decision resumes from its last."""
RESUME = 8
"""How many steps back ``replayed`` looks for a state it kept."""
_REPLAYS: dict[tuple[Seen, ...], State] = {}


def _copied(s: State) -> State:
    c = s.copy()
    c.last = s.last
    return c


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
    s, last = s.copy(), s.last
    s.last = last
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
