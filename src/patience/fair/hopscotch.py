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
worse (docs/fair-play.md). So the game's history is replayed (``hopscotch_history``:
the positions so far, ordered by the stock's size, the waste and the foundations; only
what the player saw of each is read: the waste card, the foundations, the reserves),
labelling each card where the player put it as the policy would have, and the advice
decides from there.

The game's advice improves on the policy by rollouts (``hopscotch_rollout``, issue 55):
``PLAYOUTS`` playouts of the policy itself for each reserve the waste card may go on.
"""

from __future__ import annotations

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

    def clone(self) -> State:
        """A copy that keeps ``last`` too (``copy``'s starts at 0), so that it settles
        as this state would."""
        c = self.copy()
        c.last = self.last
        return c

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
