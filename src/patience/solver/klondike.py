"""Klondike: canonical keys, safe foundation moves and the stock cycle as one macro move.

The stock macro. Dealing only changes which waste card is on top, and moves that do
not touch the waste commute with deals, so any winning line can be rearranged so that
deals come only right before a move from the waste. The search therefore never plays
``deal`` alone: its children include, for every card that some number of deals brings
to the top of the waste (within the redeals left), each move of that card, expanded
into the real ``deal`` moves and the waste move. Reaching a card with fewer redeals
used leaves the same stock and waste with more redeals in hand, which dominates, so
only the cheapest way to each card is kept.

The dealing order: ``waste + reversed(stock)`` is the order in which the cards come
up, pass after pass (a redeal turns the waste over, keeping that order); the number
of cards in the waste is the pointer into it. Keys: with unlimited redeals the redeal
counter is left out (with a limit it is the state's cost instead: the same state with
fewer redeals used dominates), and so is the pointer in draw-1 (every pointer reaches every
other by dealing alone); in draw-3 every pointer that is a multiple of 3 or the end
of the sequence reaches the same waste tops, so those share one key. The rest of the
pointer is a cost, where dealing alone takes a state to every state of higher cost
with the same cards in the same places: in draw-1 with a limit, (redeals used,
pointer) compared in that order (deal to the end and redeal, then deal up to the
pointer); in draw-3 with unlimited redeals, the pointer among those with the same
remainder by 3 (the key keeps the remainder). The state of lower cost can do all the
other can: its macro moves (below) reach each stock card for no more redeals, and lead
to the same states or ones of no higher cost.

Arrangements: with the cuts on, a state is named by its arrangement of runs on twin
parents (``alternating.arrangement`` and ``swapped_runs``, where the proofs are).

Cards home that would come straight back, and returns from the foundations: see
``klondike_returns``.
"""

from __future__ import annotations

from ..cards import RANK, RED, SUIT
from ..games.klondike import Klondike
from ..moves import DEAL, Move
from ..position import Position
from ..rules import Game
from .alternating import (
    EMPTIED,
    arrangement,
    below_home,
    heights,
    is_safe,
    native_position,
    native_runner,
    obligation,
    swapped_runs,
    tableau_key,
)
from .base import Adapter, Child, Tag, Twin
from .klondike_returns import Returns, comes_back, movable, only_pile
from .klondike_stock import brought_up, played_out, played_out3
from .relaxed import LostMemo, Ordered, Relaxed
from .schedule import Budget, Runner, Schedule

_MOVES: dict[tuple[str, str, int], Move] = {}


def _move(src: str, dst: str, count: int = 1) -> Move:
    """An interned move (the search makes the same few hundred again and again)."""
    m = _MOVES.get((src, dst, count))
    if m is None:
        m = _MOVES[src, dst, count] = Move(src, dst, count)
    return m


WIDEN = 2.0
"""Every mode's passes widen their limit's step while a pass searches less than twice
the states of the one before (``Schedule.widen``): a pass searches again most of what
the one before it did (draw 3, 50001..50100 at 30 s: 0.10 CPU s a deal, not 0.14)."""

STEP = 3
"""Every mode's passes go 3 discrepancies apart at least, from limit 2 on
(``Schedule.step``): a pass one discrepancy wider searched only two or three times the
states of the last (draw 3, 60001..60300: 26.3 s in all, not 31.6; session 38)."""

PASSES_SECONDS = 0.15
"""Draw 1, unlimited redeals: a timed search's passes end after this many seconds if
sooner than their share (``Schedule.passes_seconds``): a loss no pass proves paid the
share first (1.5 s of 30; 20104's exhaustive proof is 0.34 s; session 40)."""

THREE_SECONDS = (0.1, 0.4, 0.6)
"""Draw 3, in a timed search: the passes stop for the looser proof after 0.1 s and end
after 0.4 s of passes; the looser rules' passes end 0.6 s after the start (each if
sooner than its share; ``Schedule.looser_from_seconds``, ``passes_seconds``,
``looser_passes_seconds``): a deal the looser proof decides paid the passes' share
first (20003..29993, every 10th: 113 CPU s to 101; session 40, tail3)."""


_F = tuple(f"f{i + 1}" for i in range(4))
_T = tuple(f"t{i + 1}" for i in range(7))
_TO_F = {(i, j): Move(f"t{i + 1}", f"f{j + 1}") for i in range(7) for j in range(4)}
"""Each move of a tableau card home, made once for every adapter (a solve makes an
adapter: 39 moves made each time were a tenth of a millisecond of a deal's solve)."""
_W = {dst: Move("w", dst) for dst in _F + _T}
"""Each move from the waste, likewise."""


class KlondikeAdapter(Adapter):
    """Klondike in all four modes."""

    def __init__(self, game: Game) -> None:
        super().__init__(game)
        assert isinstance(game, Klondike)
        self.draw = game.draw
        self.limit = game.max_redeals
        # Each mode's stages, tuned on CPU time at 30 and 60 s a deal; the measurements
        # behind every share are in docs/solver-log.md (sessions 29, 30, 36, 37 and 39).
        if self.limit == 0:
            # No redeal: most deals are lost, and only an exhaustive search proves it;
            # short passes, then the looser game's proof until 0.4, then the search.
            self.schedule = Schedule(passes=0.03, looser=0.4, widen=WIDEN, step=STEP)
        elif (self.draw, self.limit) == (1, None):
            # Draw 1, unlimited passes: the passes win most deals at once; the long
            # deals are losses the exhaustive search proves.
            self.schedule = Schedule(
                passes=0.05, passes_seconds=PASSES_SECONDS, widen=WIDEN, step=STEP
            )
        else:
            # Single and three: short passes, then the proof under looser rules (draw
            # 1, unlimited redeals) with its own passes first, where most deals are won
            # at once; draw 3 then tries its own exhaustive search capped at 2^18 states
            # (8498: 200,076 states, 25 million under the looser rules), and gives the
            # proof until 0.9 (4275: lost under those rules in 25 s alone).
            three = self.draw == 3
            from_s, passes_s, looser_s = THREE_SECONDS if three else (float("inf"),) * 3
            self.schedule = Schedule(
                passes=0.02 if three else 0.05,
                passes_seconds=passes_s,
                looser=0.9 if three else 0.8,
                looser_passes=0.05 if three else 0.1,
                looser_passes_seconds=looser_s,
                looser_from=0.01 if three else 0.1,
                looser_from_seconds=from_s,
                exhaustive_probe=1 << 18 if three else 0,
                widen=WIDEN,
                step=STEP,
            )
        self._to_f = _TO_F
        self._w = _W
        self._lost = LostMemo(self._relaxed_lost)
        self._returns = Returns(self, RANK, self._waste_builds)

    def runner(self, p: Position, budget: Budget, table_size: int) -> Runner | None:
        """This adapter's search at native speed (``alternating.native_runner``; None
        with the cuts off: the tests that check them use the reference search)."""
        if not self.prune:
            return None
        args = (
            *native_position(p),
            p.redeals,
            self.draw,
            -1 if self.limit is None else self.limit,
            self.prune,
        )
        # Draw 1 with unlimited redeals is looser than every other mode: it allows every
        # line they allow (a redeal limit only removes deals, and dealing three at a
        # time only brings up cards that dealing one at a time can bring up too, in
        # the same order: see ``lost``), so a position it loses is lost.
        looser = None if (self.draw, self.limit) == (1, None) else (*args[:6], 1, -1, True)
        return native_runner("search", args, budget, table_size, looser, memo=True)

    def key(self, p: Position, tail: bytes | None = None) -> bytes:
        """Foundations by suit, the tableau as a set of piles (with the cuts on, as above),
        the stock cycle canonical (``tail``: what of the pointer it keeps, if not p's)."""
        if tail is None and self.draw == 1:
            tail = b""  # unlimited: no state; limited: in the cost
        elif tail is None and self.limit is None:
            tail = bytes((self.cost(p) % 3,))  # 0: a pointer that reaches the same cards
        elif tail is None:
            tail = bytes((len(p.waste),))
        seq = bytes(p.waste) + bytes(reversed(p.stock))
        runs = swapped_runs(arrangement(p, RANK), p.down, RANK) if self.prune else None
        tableau = tableau_key(p, runs)
        return bytes(heights(p)) + b"\xfe" + seq + b"\xfe" + tail + b"\xfe" + tableau

    def dominators(self, p: Position) -> tuple[bytes, ...]:
        """Draw 3, unlimited redeals, with the cuts on: a state of cost 0 (its pointer a
        multiple of 3 or the cycle's end) is dominated by the same state with the
        pointer anywhere else, at any cost (the keys with a tail of 1 or 2).

        Proof. From pointer p dealing alone reaches the cycle's end, then after a redeal
        every multiple of 3: p brings up every card such a pointer does, the stock
        macro's child being the same state whatever the pointer it dealt from; a move
        off the stock keeps the two so related; nothing else reads the pointer in draw
        3 (no stock card goes home at once). So a line of this state is one of the
        other, searched or on the search's path (the table's usual argument)."""
        if not (self.prune and self.draw == 3 and self.limit is None and self.cost(p) == 0):
            return ()
        return (self.key(p, b"\x01"), self.key(p, b"\x02"))

    def cost(self, p: Position) -> int:
        """What of the redeals used and the pointer is left out of the key: a state of
        lower cost reaches the other by dealing, so it can do all the other can."""
        ptr = len(p.waste)
        if self.limit is not None:
            return p.redeals * 64 + ptr if self.draw == 1 else p.redeals
        if self.draw == 1 or ptr % 3 == 0 or ptr == len(p.waste) + len(p.stock):
            return 0
        return ptr

    def auto(self, p: Position) -> tuple[list[Move], Position]:
        """Play tableau cards home while it is provably safe (see ``alternating``), and
        with the cuts on, every top card that would come straight back (see above).

        With the cuts on and one card a deal, the waste's top card goes home too, and
        with unlimited redeals every card of the stock and waste (dealt up first), as
        soon as it can go home with every card two ranks below it home.

        Proof. Let c, of rank r, be such a card in position S (its suit holds r-1, every
        suit at least r-2), and S' be S with c home. With one card a deal, taking c out
        of the stock cycle changes nothing for the other cards: the deals that bring
        each of them up are the same, less one past c, and the redeals the same; with
        unlimited redeals dealing alone brings any card up (the key ignores the
        pointer), and the waste's top needs no deal. Take a winning line W from S. Call
        L the cards of rank r-2 or lower and c's suit's r-1: all home in S. Only cards
        of L can be built on a card of L, so those W brings back lie in blocks on top
        of piles; drop every move of a card of L from W, and cut those blocks off the
        runs W moves, as in the proof in ``alternating``. Where W plays c from the
        stock or waste onto a card, play it from its foundation there instead: it is
        that foundation's top, as W cannot play its suit's r+1 home before c. Where W
        plays c home, drop the move. Every other move stays legal, so S' is won too.
        A card on the tableau needs more (``is_safe``): there it is a card to build on,
        in its place (unlimited 6042's proof: 17 million states to 0.5; session 28)."""
        played: list[Move] = []
        h = heights(p)
        pool = self.prune and self.draw == 1
        progress = True
        while progress:
            progress = False
            for i, pile in enumerate(p.tableau):
                if not pile:
                    continue
                c = pile[-1]
                r = RANK[c]
                if h[SUIT[c]] != r - 1:
                    continue
                if not is_safe(c, r, h) and not (self.prune and comes_back(p, i, RANK)):
                    continue
                j = self._home(p, c)
                m = self._to_f[i, j]
                p = self.game.apply(p, m)
                played.append(m)
                h[SUIT[c]] = r
                progress = True
            seq = p.waste + tuple(reversed(p.stock))
            ptr = len(p.waste)
            # With a limit, only the waste's top (no deal); else all, dealt up first.
            first, end = (0, len(seq)) if self.limit is None else (max(ptr - 1, 0), ptr)
            for idx in range(first, end) if pool else ():
                c = seq[idx]
                r = RANK[c]
                if h[SUIT[c]] != r - 1 or not below_home(r, h):
                    continue
                if idx >= ptr - 1:
                    deals, redeals = idx + 1 - ptr, p.redeals
                else:  # deal to the end, turn the waste over, deal up to it
                    deals, redeals = len(seq) - ptr + idx + 2, p.redeals + 1
                m = self._w[_F[self._home(p, c)]]
                p = self.game.apply(brought_up(p, seq, idx, redeals), m)
                played += [DEAL] * deals + [m]
                h[SUIT[c]] = r
                progress = True
                break
        return played, p

    @staticmethod
    def _home(p: Position, c: int) -> int:
        """The foundation that takes ``c`` (an Ace: the first empty one)."""
        if RANK[c] == 1:
            return next(j for j, f in enumerate(p.foundations) if not f)
        s = SUIT[c]
        return next(j for j, f in enumerate(p.foundations) if f and SUIT[f[0]] == s)

    def finish(self, p: Position) -> list[Move] | None:
        """With no stock, no waste and no face-down card, playing home always wins."""
        if p.stock or p.waste or any(p.down):
            return None
        moves = self.game.auto_finish(p)
        return moves if len(moves) + sum(len(f) for f in p.foundations) == 52 else None

    def children(self, p: Position, tag: Tag = None) -> list[Child]:
        """Tableau and foundation moves, plus every waste card the stock can bring up.

        Under an obligation (see ``alternating.obligation``) only the moves that meet
        it are made: onto the uncovered card, or into the emptied pile (``only``), or
        the uncovered card home.

        A card from the waste to the tableau carries an obligation too, with one card
        a deal and unlimited redeals: the next move must build on it (or play it
        home). Proof. There, dealing alone brings any card of the stock or waste to
        the waste top, whatever else they hold, and the key ignores the pointer. Take
        a winning line W that plays card X from the waste onto P, and leave X in the
        stock or waste until W first builds on X: every move before that stays legal
        (W never uses P while X covers it, a run with P in it moves without X, a move
        of X onward or home is made from the waste instead, and every other stock
        card is still within reach), and then X goes onto P, still uncovered, and the
        lines meet.
        """
        if self.prune and self.lost(p):
            return []
        only = only_pile(p, tag)
        ranked: list[tuple[int, int, Child]] = []
        n = 0
        for m, i, count in self._plain_moves(p, only):
            if m.dst[0] == "f":
                score = 0
            else:
                rest = len(p.tableau[i]) - count
                if rest == 0:
                    score = 3
                elif rest <= p.down[i]:
                    score = 1 if p.down[i] else 3
                else:
                    score = 5
            order = -p.down[i] if score == 1 else 0
            t = obligation(p, i, count, RANK) if self.prune and m.dst[0] == "t" else None
            if t is not None and t != EMPTIED:
                t = Twin(t)  # the run left its parent for the parent's twin
            ranked.append((score * 64 + order, n, ((m,), p, m, t)))
            n += 1
        lazy = self.prune and self.draw == 1 and self.limit is None
        for score, moves, base, last in self._waste_moves(p, only):
            t = base.waste[-1] if lazy and last.dst[0] == "t" else None
            ranked.append((score * 64, n, (moves, base, last, t)))
            n += 1
        for child in self._returns.children(p, only, {*p.stock, *p.waste}):
            ranked.append((6 * 64, n, child))
            n += 1
        ranked.sort(key=lambda t: (t[0], t[1]))
        return [c for _, _, c in ranked]

    def lost(self, p: Position) -> bool:
        """Whether even a relaxed game (``relaxed.Relaxed``, then
        ``relaxed.Ordered``) is lost: then so is this one. The stock is dealt in them
        as ``klondike_stock`` says, one card or three a deal."""
        left = 255 if self.limit is None else self.limit - p.redeals  # a byte: unlimited
        rest = bytes((len(p.waste), left)) + bytes(p.waste) + bytes(p.stock)
        return self._lost(p, rest, RANK) or self._ordered_lost(p)

    def _relaxed_lost(self, p: Position) -> bool:
        """``Relaxed`` lost, without the cache."""
        return self._played_out(p, Relaxed(p, RANK, self._stacks(p)))

    def _ordered_lost(self, p: Position) -> bool:
        """``Ordered`` lost."""
        return self._played_out(p, Ordered(p, RANK, self._stacks(p)))

    def _stacks(self, p: Position) -> list[tuple[int, ...]]:
        """With one card a deal and no redeal left, the waste is a stack: its cards
        leave from the top (see ``Relaxed``)."""
        if self.draw == 1 and self.limit is not None and p.redeals >= self.limit:
            return [p.waste]
        return []

    def _played_out(self, p: Position, game: Relaxed | Ordered) -> bool:
        """Whether relaxed ``game`` is lost, with the stock dealt as ``lost`` says."""
        seq = p.waste + tuple(reversed(p.stock))
        if self.draw == 3:
            redeal = self.limit is None or p.redeals < self.limit
            return played_out3(seq, len(p.waste), redeal, game)
        left = -1 if self.limit is None else self.limit - p.redeals
        return played_out(seq, len(p.waste), left, game)

    def _plain_moves(self, p: Position, only: int = -1) -> list[tuple[Move, int, int]]:
        """The legal moves that do not touch the stock, the waste or a foundation's top
        (returns: ``klondike_returns``), with their source pile index and card count: a
        subset of the engine's ``legal_moves``, less those that lead to the same
        canonical state as another (to a second empty pile or empty foundation, a whole
        pile to an empty pile). With ``only`` >= 0, just the moves onto that pile and
        of its top card home.

        Found from the destinations: only two cards can go on a given card, so each
        movable card's place is looked up instead of trying every pair of piles.
        """
        tab = p.tableau
        h = heights(p)
        fidx = [-1, -1, -1, -1]
        empty_f = -1
        for k, f in enumerate(p.foundations):
            if f:
                fidx[SUIT[f[0]]] = k
            elif empty_f < 0:
                empty_f = k
        loc = movable(p, RANK)
        moves: list[tuple[Move, int, int]] = []
        add = moves.append
        empty_done = False
        for j, dest in enumerate(tab):
            if only >= 0 and j != only:
                continue
            if dest:
                d = dest[-1]
                r = RANK[d]
                if r == 1:
                    continue
                wanted = [s * 13 + r - 2 for s in ((0, 2) if RED[d] else (1, 3))]
            elif empty_done:
                continue
            else:
                empty_done = True
                wanted = [s * 13 + 12 for s in range(4)]
            for c in wanted:
                at = loc.get(c)
                if at is not None:
                    i, count = at
                    if not dest and count == len(tab[i]):
                        continue  # a whole pile to an empty pile: the same position
                    add((_move(_T[i], _T[j], count), i, count))
        for i, pile in enumerate(tab):
            if not pile or (only >= 0 and i != only):
                continue
            top_card = pile[-1]
            top = RANK[top_card]
            s = SUIT[top_card]
            if h[s] == top - 1:
                add((_move(_T[i], _F[fidx[s] if top > 1 else empty_f]), i, 1))
        return moves

    def _waste_builds(self, q: Position, j: int, prefix: tuple[Move, ...]) -> list[Child]:
        """After the returns ``prefix``, the cards the stock brings to the waste's top
        that go on pile ``j`` (``klondike_returns.Sources``)."""
        d = q.tableau[j][-1]
        kids = [s * 13 + RANK[d] - 2 for s in ((0, 2) if RED[d] else (1, 3))]
        if not any(x in q.stock or x in q.waste for x in kids):
            return []
        return [
            ((*prefix, *moves), base, last, None)
            for _, moves, base, last in self._waste_moves(q)
            if last.dst == _T[j]
        ]

    def _waste_moves(
        self, p: Position, only: int = -1
    ) -> list[tuple[int, tuple[Move, ...], Position, Move]]:
        """Every move of a card that dealing brings to the waste top, with its deals
        (with ``only`` >= 0, just those onto that tableau pile)."""
        seq = p.waste + tuple(reversed(p.stock))
        total = len(seq)
        if not total:
            return []
        ptr, r0 = len(p.waste), p.redeals
        reach: dict[int, tuple[int, int]] = {}
        if ptr:
            reach[ptr - 1] = (0, r0)
        q, r, k = ptr, r0, 0
        cap = r0 + 1 if self.limit is None else min(self.limit, r0 + 1)
        while True:
            if q < total:
                q = min(q + self.draw, total)
            elif r < cap:
                q, r = 0, r + 1
            else:
                break
            k += 1
            if q and q - 1 not in reach:
                reach[q - 1] = (k, r)
        h = heights(p)
        tops = [pile[-1] if pile else -1 for pile in p.tableau]
        out: list[tuple[int, tuple[Move, ...], Position, Move]] = []
        for idx, (deals, redeals) in reach.items():
            c = seq[idx]
            rank = RANK[c]
            dests: list[tuple[int, str]] = []
            if h[SUIT[c]] == rank - 1 and only < 0:
                dests.append((0, _F[self._home(p, c)]))
            empty_done = False
            for j, top in enumerate(tops):
                if only >= 0 and j != only:
                    continue
                if top < 0:
                    if rank == 13 and not empty_done:
                        empty_done = True  # empty piles are interchangeable
                        dests.append((2, _T[j]))
                elif RANK[top] == rank + 1 and RED[top] != RED[c]:
                    dests.append((2, _T[j]))
            if not dests:
                continue
            base = brought_up(p, seq, idx, redeals)
            # A card that costs a redeal comes after the tableau's own moves.
            extra = 4 if redeals > r0 else 0
            for score, dst in dests:
                score += extra
                m = self._w[dst]
                out.append((score, (DEAL,) * deals + (m,), base, m))
        return out
