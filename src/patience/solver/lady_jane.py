"""Lady Jane: canonical keys, safe foundation moves from every source, move ordering.

Lady Jane is Klondike in relative ranks (see ``alternating``), so the same proof makes
a card safe to play home; here it may come from the tableau, a reserve, the waste or
the last stock card. Reserves receive the stock in a fixed order (the stock's top card
to r1, ...), so they are told apart while deals remain; once the stock holds two cards
or fewer nothing is dealt to them again, and as piles that only give their top card
they are then interchangeable, compared as a set.
"""

from __future__ import annotations

from collections.abc import Iterator

from ..cards import RED, SUIT
from ..moves import FOUNDATION, PILES, RESERVE, TABLEAU, Move
from ..position import Position
from ..rules import Game
from .alternating import (
    EMPTIED,
    arrangement,
    below_home,
    heights,
    honours,
    is_safe,
    native_position,
    native_runner,
    obligation,
    relative_rank,
    tableau_key,
)
from .base import Adapter, Child, Tag, Twin
from .klondike_returns import Returns, comes_back, only_pile
from .relaxed import LostMemo, Ordered, Relaxed
from .schedule import Budget, Runner, Schedule


class LadyJaneAdapter(Adapter):
    """Lady Jane (no options)."""

    schedule = Schedule(passes=0.1)
    """The passes end at 0.1 of the time (6 s of 60): most Lady Jane deals that take
    long are losses, which only the exhaustive search proves. 54 deals that took over
    3 s at 60 s: 56% less CPU time (522 s instead of 1,200 with passes until 0.5), two
    more decided, one win the passes found at 9 s now undecided (docs/solver-log.md,
    "The passes made short")."""

    def __init__(self, game: Game) -> None:
        super().__init__(game)
        self._lost = LostMemo(self._relaxed_lost)

    def runner(self, p: Position, budget: Budget, table_size: int) -> Runner | None:
        """This adapter's search at native speed (``alternating.native_runner``; None
        with the cuts off: the tests that check them use the reference search)."""
        if not self.prune:
            return None
        assert p.base is not None
        args = (
            *native_position(p),
            [bytes(r) for r in p.reserve],
            p.base,
            self.prune,
        )
        return native_runner("lady_jane", args, budget, table_size)

    def lost(self, p: Position) -> bool:
        """Whether even a relaxed game (``relaxed.Relaxed``, then
        ``relaxed.Ordered``) is lost: then so is this one.

        The stock and reserves in the relaxed games: what a deal brings does not depend
        on play, and a deal only covers reserve cards, so every possible move is made
        before each deal.
        """
        reserves = b"\xff".join(bytes(r) for r in p.reserve)
        rest = bytes(p.stock) + b"\xfd" + bytes(p.waste) + b"\xfd" + reserves
        return self._lost(p, rest, _relative(p.base)) or self._ordered_lost(p)

    def _relaxed_lost(self, p: Position) -> bool:
        """``Relaxed`` lost, without the cache."""
        return self._played_out(p, Relaxed(p, _relative(p.base)))

    def _ordered_lost(self, p: Position) -> bool:
        """``Ordered`` lost."""
        return self._played_out(p, Ordered(p, _relative(p.base)))

    @staticmethod
    def _played_out(p: Position, game: Relaxed | Ordered) -> bool:
        """Whether relaxed ``game`` is lost, with the stock dealt as ``lost`` says."""
        reserves = [list(r) for r in p.reserve]
        stock, waste = list(p.stock), list(p.waste)
        while True:
            game.settle()
            played = False
            for r in reserves:
                while r and game.take(r[-1]):
                    r.pop()
                    played = True
            if waste and game.take(waste[-1]):
                waste.pop()
                played = True
            if len(stock) == 1 and game.take(stock[0]):
                stock.pop()
                played = True
            if played:
                continue
            if len(stock) > 7:  # as the engine deals: the stock's top card to r1, ...
                for r, c in zip(reserves, stock[-7:][::-1], strict=True):
                    r.append(c)
                del stock[-7:]
            elif len(stock) == 2:
                waste.append(stock.pop())
            else:
                return not game.won()

    def key(self, p: Position) -> bytes:
        """Foundations by suit, tableau as a set (with the cuts on, in its arrangement:
        ``alternating.arrangement``), reserves as a set after the last deal."""
        res = [bytes(r) for r in p.reserve]
        if len(p.stock) <= 2:
            res.sort()
        return (
            bytes(heights(p))
            + b"\xfe"
            + bytes(p.stock)
            + b"\xfe"
            + bytes(p.waste)
            + b"\xfe"
            + b"\xff".join(res)
            + b"\xfe"
            + tableau_key(p, arrangement(p, _relative(p.base)) if self.prune else None)
        )

    def auto(self, p: Position) -> tuple[list[Move], Position]:
        """Play cards home from any source while it is provably safe, and with the cuts
        on, every tableau top card that would come straight back (``klondike_returns``),
        and the top card of a reserve or the waste, or a one-card stock, as soon as
        every card two ranks below it is home (as in Klondike's stock:
        ``KlondikeAdapter.auto`` has the proof; taking it away only uncovers the card
        under it sooner)."""
        played: list[Move] = []
        g = self.game
        rel = _relative(p.base)
        h = heights(p)
        while True:
            step = None
            for src, pile in self._sources(p):
                if not pile:
                    continue
                c = pile[-1]
                r = rel[c]
                if h[SUIT[c]] != r - 1:
                    continue
                if src[0] != "t":
                    go = below_home(r, h) if self.prune else is_safe(c, r, h)
                else:
                    go = is_safe(c, r, h) or self.prune and comes_back(p, int(src[1:]) - 1, rel)
                if go:
                    step = Move(src, _F[_home(p, c, r)])
                    h[SUIT[c]] += 1
                    break
            if step is None:
                return played, p
            p = g.apply(p, step)
            played.append(step)

    @staticmethod
    def _sources(p: Position) -> Iterator[tuple[str, tuple[int, ...]]]:
        """Each pile whose top card is in play, by name (the stock's, once it is alone)."""
        yield from zip(_T, p.tableau, strict=False)
        yield from zip(_R, p.reserve, strict=False)
        yield "w", p.waste
        if len(p.stock) == 1:
            yield "s", p.stock

    def finish(self, p: Position) -> list[Move] | None:
        """Nothing left but face-up tableau runs: playing home always wins."""
        if p.stock or p.waste or any(p.down) or any(p.reserve):
            return None
        moves = self.game.auto_finish(p)
        return moves if len(moves) + sum(len(f) for f in p.foundations) == 52 else None

    def children(self, p: Position, tag: Tag = None) -> list[Child]:
        """Every legal move that meets the obligation ``tag`` (see
        ``alternating.obligation``), the most promising first; returns from the
        foundations only in blocks that bring back a card to build on
        (``klondike_returns``), last."""
        g = self.game
        if self.prune and self.lost(p):
            return []
        rel = _relative(p.base)
        ranked: list[tuple[int, int, Move, Tag]] = []
        for n, m in enumerate(g.legal_moves(p)):
            if tag is not None and (m.is_deal or not honours(p, tag, m.src, m.dst)):
                continue
            t: Tag = None
            if m.is_deal:
                score = 40
            else:
                skind, i = PILES[m.src]
                dkind, j = PILES[m.dst]
                if dkind == FOUNDATION:
                    score = 0
                elif skind == TABLEAU:
                    rest = len(p.tableau[i]) - m.count
                    if rest == 0 and not p.tableau[j]:
                        continue  # a whole pile to an empty pile: the same position
                    if dkind == TABLEAU and self.prune:
                        t = obligation(p, i, m.count, rel)
                        if t is not None and t != EMPTIED:
                            t = Twin(t)  # the run left its parent for the parent's twin
                    if rest == 0:
                        score = 30
                    elif rest <= p.down[i]:
                        score = 10 - min(p.down[i], 9)
                    else:
                        score = 50
                elif skind == RESERVE:
                    score = 20
                elif skind == FOUNDATION:
                    continue  # returns: below
                else:
                    score = 25
            ranked.append((score, n, m, t))
        ranked.sort(key=lambda r: (r[0], r[1]))
        outside = [pile[-1] for src, pile in self._sources(p) if src[0] != "t" and pile]
        returns = Returns(self, rel, self._outside_builds)
        compound = returns.children(p, only_pile(p, tag), outside)
        return [((m,), p, m, t) for _, _, m, t in ranked] + compound

    def _outside_builds(self, q: Position, j: int, prefix: tuple[Move, ...]) -> list[Child]:
        """After the returns ``prefix``, the top cards of the reserves, the waste and the
        last stock card that go on pile ``j`` (``klondike_returns.Sources``)."""
        rel = _relative(q.base)
        d = q.tableau[j][-1]
        out: list[Child] = []
        for src, pile in self._sources(q):
            if src[0] == "t" or not pile:
                continue
            c = pile[-1]
            if rel[c] == rel[d] - 1 and RED[c] != RED[d]:
                m = Move(src, _T[j])
                out.append(((*prefix, m), q, m, None))
        return out


_RELATIVE: dict[int | None, tuple[int, ...]] = {}
_T = tuple(f"t{i + 1}" for i in range(7))
_R = tuple(f"r{i + 1}" for i in range(7))
_F = tuple(f"f{i + 1}" for i in range(4))


def _relative(base: int | None) -> tuple[int, ...]:
    """Each card's rank relative to ``base`` (cached: there are only 13 bases)."""
    table = _RELATIVE.get(base)
    if table is None:
        table = _RELATIVE[base] = relative_rank(base)
    return table


def _home(p: Position, c: int, rel: int) -> int:
    """The foundation that takes ``c`` (a base card: the first empty one)."""
    if rel == 1:
        return next(j for j, f in enumerate(p.foundations) if not f)
    s = SUIT[c]
    return next(j for j, f in enumerate(p.foundations) if f and SUIT[f[0]] == s)
