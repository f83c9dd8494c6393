"""FreeCell: a canonical key, safe moves home, and the moves worth trying, best first.

Moves come from the engine's ``legal_moves`` (nothing is generated here), so every child
is a legal move; every winning line is still replayed through ``play``.

Canonical key (proof). Which cascade holds a pile, which free cell holds a card and
which foundation holds a suit change no rule: every rule reads a cascade's cards, the
count of empty cascades and free cells, and each suit's height at home. Positions equal
up to the order of the cascades, of the free cells and of the foundations therefore
have the same future (a line of one is a line of the other with the piles renamed), and
the key is (the cascades sorted, the free cells' cards sorted, each suit's height).

Safe moves home (proof). Let card c of rank r be playable home, with both cards of rank
r - 1 of the other colour home already (every Ace: nothing lies on an Ace). Foundations
never give a card back, so from now on nothing is ever built on c: only those two cards
could be. Take a winning line W from S; S' is S with c home, and W' is W without c's
moves. c is the top of its cascade or in a free cell in S, and stays a top (or in its
cell) until W moves it; a run that W moves with c in it has c on top, and W' moves the
same run less c. Every move of W' is legal: the positions of W' differ from W's only by
c gone (a card uncovered earlier, a free cell or a cascade emptied earlier), and each
rule only gains from that (more room for a run, a foundation at least as high); the
target of a move onto c's pile in W lay on c, which nothing can. So W' wins, and c can
go home at once.

Cuts (no win lost). Moves whose children have the same key as another child are tried
once: a card into the first empty free cell only, a card or run into the first empty
cascade only (the key sorts both). A whole cascade moved into an empty cascade gives the
parent's own key, a cycle: left out.

Native twin. Where ``_freecell.c`` was built, ``FreeCellAdapter.own_search`` runs the
search there instead (:func:`native_decide`): the same key (exact, not hashed), the same
safe moves, the same moves, searched best first by ``NATIVE_ESTIMATES`` in turns until
one wins or one has opened every state reachable (a proven loss). Without it, the
schedule below runs on the reference search in Python.
"""

from __future__ import annotations

import threading
from collections.abc import Hashable
from types import ModuleType

from ..cards import RANK, RED, SUIT
from ..moves import Move
from ..position import Position
from . import clock
from .base import Adapter, Child, Tag
from .schedule import Budget, Outcome, Schedule, Verdict

native: ModuleType | None
try:  # the search at native speed, built with the package (_freecell.c)
    from . import _freecell as native
except ImportError:  # pragma: no cover - without a C compiler: the same search in Python
    native = None

_F_NAMES = ("f1", "f2", "f3", "f4")


WEIGHTS = ((1, 1, 2, 3, 3), (1, 1, 1, 2, 2), (1, 1, 2, 2, 4), (2, 1, 2, 3, 3))
"""The estimates' weights (``FreeCellAdapter.estimate``). The first won the most of
Microsoft's deals 1-40 within 10,000 states each (39 of 40; equal weights won 35); the
others win deals it leaves (24, 82, 106, 178) within 30,000 (docs/solver.md)."""


NATIVE_ESTIMATES = ((2, 1, 2, 3, 3), (1, 1, 2, 2, 4), (1, 2, 1, 2, 2), (1, 1, 1, 3, 3))
"""The native search's estimates (``WEIGHTS``' terms), one best-first search each, taking
turns of 256 states after the first has had ``NATIVE_FIRST`` alone. Chosen on Microsoft's
deals 1-2000, each weighting searched alone up to 100,000 states: 2-1-2-3-3 wins the
most alone (1,978) in the fewest states (a mean of 3,551, capped), and these four in
turns after 3,000 states of the first leave none undecided in the fewest states (a
mean of about 2,650; docs/solver.md)."""

NATIVE_FIRST = 3000
"""The states the first native estimate opens alone before the others join it."""

NATIVE_STATES = 2
"""The native search keeps up to this many times ``table_size`` states (its key is 40
bytes, and it forgets none: a proof of loss needs them all)."""

_PILES = (*(f"t{i + 1}" for i in range(8)), "r1", "r2", "r3", "r4", *_F_NAMES)
"""The native module's pile numbers, as the engine names them."""


def _heights(p: Position) -> list[int]:
    """Each suit's height at home (0: its foundation not started)."""
    h = [0, 0, 0, 0]
    for f in p.foundations:
        if f:
            h[SUIT[f[0]]] = len(f)
    return h


class FreeCellAdapter(Adapter):
    """FreeCell's search: the canonical key, safe moves home, ordered and deduplicated
    children."""

    schedule = Schedule(best=0.5, estimates=len(WEIGHTS), passes=0.6)
    """Best-first searches first, one per estimate (they win most deals within a few
    thousand states, and each wins deals the others miss), then the discrepancy passes,
    then the exhaustive search, which alone proves a loss."""

    direct_lines = native is not None
    """The native search's line is a path of its tree, each state reached from the first
    opened state that made it: a state one move from an earlier state of the line would
    have been made by that one first, so ``lines.shorten`` finds nothing to cut (none of
    20,457 moves over deals 1..200; tests/test_freecell_native.py) and costs 12 ms of a
    20 ms solve. docs/solver.md, FreeCell."""

    def own_search(
        self, p: Position, budget: Budget, table_size: int
    ) -> tuple[Verdict, list[Move]] | None:
        """The native search (``native_decide``), or None without it: the schedule then
        runs on the reference search."""
        if native is None:
            return None
        verdict, moves, states = native_decide(
            p, budget.deadline, budget.cancel, budget.left(), table_size
        )
        budget.states += states
        return verdict, moves

    def estimate(self, p: Position, which: int) -> int:
        """How far ``p`` looks from a win, by the weights ``WEIGHTS[which]`` of: the cards
        not home, the cards lying on the next card of a suit to go home, the cards out of
        sequence (each must move once at least), the free cells in use, and (taken off)
        the empty cascades."""
        h = _heights(p)
        away = 52 - sum(h)
        need = unsorted = 0
        for pile in p.tableau:
            n = len(pile)
            for k, c in enumerate(pile):
                if RANK[c] == h[SUIT[c]] + 1:
                    need += n - 1 - k
                if k and not (RANK[pile[k - 1]] == RANK[c] + 1 and RED[pile[k - 1]] != RED[c]):
                    unsorted += 1
        cells = sum(1 for r in p.reserve if r)
        empty = sum(1 for t in p.tableau if not t)
        w = WEIGHTS[which]
        return w[0] * away + w[1] * need + w[2] * unsorted + w[3] * cells - w[4] * empty

    def key(self, p: Position) -> Hashable:
        """The cascades sorted, the free cells as a set, each suit's height at home."""
        return (
            tuple(sorted(p.tableau)),
            tuple(sorted(c for r in p.reserve for c in r)),
            tuple(_heights(p)),
        )

    def auto(self, p: Position) -> tuple[list[Move], Position]:
        """Send home, again and again, every top card whose rank-below cards of the other
        colour are both home (proof in the module's docstring)."""
        played: list[Move] = []
        while True:
            move = self._safe_move(p)
            if move is None:
                return played, p
            played.append(move)
            p = self.game.apply(p, move)

    def _safe_move(self, p: Position) -> Move | None:
        h = _heights(p)
        for pile in (*p.reserve, *p.tableau):
            if not pile:
                continue
            c = pile[-1]
            s, r = SUIT[c], RANK[c]
            if h[s] != r - 1:
                continue
            if r > 1 and any(h[o] < r - 1 for o in range(4) if RED[o * 13] != RED[c]):
                continue
            return Move(self._name(p, pile), self._home(p, s), 1)
        return None

    @staticmethod
    def _name(p: Position, pile: tuple[int, ...]) -> str:
        for i, r in enumerate(p.reserve):
            if r is pile:
                return f"r{i + 1}"
        for i, t in enumerate(p.tableau):
            if t is pile:
                return f"t{i + 1}"
        raise ValueError("no such pile")  # pragma: no cover

    @staticmethod
    def _home(p: Position, suit: int) -> str:
        """The foundation that takes the next card of ``suit``: its own, or for an Ace the
        first empty one (the engine's first move home)."""
        for i, f in enumerate(p.foundations):
            if f and SUIT[f[0]] == suit:
                return _F_NAMES[i]
        return _F_NAMES[next(i for i, f in enumerate(p.foundations) if not f)]

    def children(self, p: Position, tag: Tag = None) -> list[Child]:
        """The legal moves, one per child key where one move into an empty pile or cell
        stands for all, best first: home, onto a card (longer runs first), out of a free
        cell into an empty cascade, a cascade's cards into an empty cascade, into a cell."""
        empty_t = next((f"t{i + 1}" for i, t in enumerate(p.tableau) if not t), None)
        empty_r = next((f"r{i + 1}" for i, r in enumerate(p.reserve) if not r), None)
        ranked: list[tuple[int, int, Move]] = []
        for k, m in enumerate(self.game.legal_moves(p)):
            dst = m.dst
            if dst[0] == "f":
                rank = 0
            elif dst[0] == "r":
                if dst != empty_r:
                    continue
                rank = 5
            elif p.tableau[int(dst[1:]) - 1]:
                rank = 1 if m.src[0] == "t" else 2
            else:
                if dst != empty_t:
                    continue
                if m.src[0] == "t" and m.count == len(p.tableau[int(m.src[1:]) - 1]):
                    continue  # the whole cascade into an empty one: the same key
                rank = 3 if m.src[0] == "r" else 4
            ranked.append((rank, -m.count * 64 + k, m))
        ranked.sort(key=lambda x: (x[0], x[1]))
        return [((m,), p, m, None) for _, _, m in ranked]


def native_decide(
    p: Position,
    deadline: float,
    cancel: threading.Event | None = None,
    max_states: int | None = None,
    table_size: int = 2_000_000,
    estimates: tuple[tuple[int, int, int, int, int], ...] = NATIVE_ESTIMATES,
    first: int = NATIVE_FIRST,
) -> Outcome:
    """The search of ``_freecell.c`` from ``p`` until ``deadline`` (on this thread's clock,
    ``clock.py``): (verdict, the engine's moves of a win, states met)."""
    if native is None:
        raise RuntimeError("the native FreeCell search was not built")
    native.use_cpu_clock(clock.on_cpu_time())
    verdict, line, states = native.search(
        tableau=[bytes(t) for t in p.tableau],
        cells=[bytes(r) for r in p.reserve],
        foundations=[bytes(f) for f in p.foundations],
        seconds=max(0.0, deadline - clock.now()),
        max_states=-1 if max_states is None else max_states,
        max_nodes=max(1000, NATIVE_STATES * table_size),
        cancel=cancel,
        estimates=estimates,
        first=first,
    )
    moves = [
        Move(_PILES[line[k]], _PILES[line[k + 1]], line[k + 2]) for k in range(0, len(line), 3)
    ]
    return Verdict.of_code(verdict), moves, states
