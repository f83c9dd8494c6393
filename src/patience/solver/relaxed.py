"""The two relaxed games that prove a Klondike or Lady Jane position lost, and the memo
of their verdicts (``_relaxed.h`` is the same in C).

A relaxed game lets every real move be made (and more), so a position it loses is
lost; its facts only ever grow, so it is played to its end in any order. ``Relaxed``
pools the face-up cards; ``Ordered`` keeps each tableau card in its place. The game's
adapter drives the stock and the reserves (``klondike.py``, ``lady_jane.py``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from ..cards import RED, SUIT
from ..position import Position
from .alternating import CARD_OF, SUIT_RANK, heights, send_home


class Relaxed:
    """A relaxed game, for proofs of loss: the piles, the foundations and the face-up
    cards, with the places of the face-up cards forgotten.

    Forget where each face-up tableau card lies, except the lowest card of each pile
    (the one on its face-down cards): every other face-up card is in a common pool,
    free to go home whenever the card below it in its suit is home, and free to take a
    card whatever covers it. A card joins the pool (from the waste, a reserve, the
    stock, or as the lowest card of a pile, turning the next face-down card) when it
    can go home, or when one of the two cards it could be built on is *available*, or
    when it is a (relative) King and some pile has been emptied. Every real move is a
    relaxed move or changes nothing in the relaxed state, so a position lost relaxed
    is lost.

    Available (``avail``): a card that has been in the pool or lowest in a pile, or a
    card home that could come back: one of its own two parents is available, or it is
    a King and some pile has been emptied. A card on the tableau got there from its
    deal, by turning, or by a move onto a parent on the tableau (or a King into an
    empty pile) — a move back from home too, which is why a card home is a parent
    only once its own parent is one. So every card face up on the real tableau is
    available in the relaxed game by then (the relaxed game is ahead: its foundations
    hold at least the real ones).

    One more condition keeps twins apart (``twin``). Twins (same rank, same colour,
    no King) share their two parents. A card that sits on one of its parents stays on
    one of the two until it goes home: it can only move onto a parent, go home, or
    come back from home onto a parent. Let X be the twin of Y, and either sit on one
    of its parents now, or lie above Y in a pile (both face down or lowest: X leaves
    first, for a parent or home), or above Y in another ``stack`` whose cards leave
    from the top (the caller names them: Klondike's waste once no redeal is left,
    dealing one card at a time). Then when Y leaves for a parent, X is home or on the
    other parent, so both are in play: Y joins the pool only when both parents are
    available, or one is and X is home. This condition only ever becomes true as the
    relaxed game grows, and the real move meets it, so the argument above stands.
    (Besides what the memo keys on, it reads which face-up cards do not sit on a
    parent: ``loose``, none in a position reached by play.)

    Everything here only ever grows: the pool, the foundations, the cards that can be
    built on, the emptied piles. So making every possible move (``settle``) is never
    worse than any other order; the game's adapter drives the stock and the piles
    that only give their top card, and says why its own order is never worse.
    """

    def __init__(
        self, p: Position, rel: tuple[int, ...], stacks: Iterable[Sequence[int]] = ()
    ) -> None:
        self.rel = rel
        self.h = h = heights(p)
        self.parents = CARD_OF[rel]
        self.avail = avail = [False] * 52
        of = SUIT_RANK[rel]
        self.children = _CHILDREN[rel]
        self.pool: list[int] = []
        self.downs: list[list[int]] = []
        self.lows: list[int] = []
        self.empty = False
        self.twin = stacked_twins(p, rel, stacks)
        parents = self.parents
        for pile, d in zip(p.tableau, p.down, strict=True):
            for k in range(d + 1, len(pile)):
                x = pile[k]
                r = rel[x]
                if r != 13 and pile[k - 1] in parents[r + 1][x]:
                    self.twin[of[SUIT[x] ^ 2][r]] = x
        for pile, d in zip(p.tableau, p.down, strict=True):
            if not pile:
                self.empty = True
                self.downs.append([])
                self.lows.append(-1)
                continue
            self.downs.append(list(pile[:d]))
            self.lows.append(pile[d])
            for c in pile[d:]:
                avail[c] = True
            self.pool.extend(pile[d + 1 :])
        for s in range(4):
            for r in range(1, h[s] + 1):
                self._recall(of[s][r])
        for c in range(52):
            if avail[c]:
                self._open(c)

    def fits(self, c: int) -> int:
        """2: ``c`` can go home; 1: it can join the pool; 0: neither, for now."""
        r = self.rel[c]
        if self.h[SUIT[c]] == r - 1:
            return 2
        if r == 13:
            return 1 if self.empty else 0
        a, b = self.parents[r + 1][c]
        x = self.twin.get(c)
        if x is not None and self.h[SUIT[x]] < self.rel[x]:
            return 1 if self.avail[a] and self.avail[b] else 0
        return 1 if self.avail[a] or self.avail[b] else 0

    def take(self, c: int) -> bool:
        """Play ``c`` (a card that only the adapter's piles hold) if it fits anywhere."""
        f = self.fits(c)
        if not f:
            return False
        if f == 2:
            self.h[SUIT[c]] += 1
            self._recall(c)
        else:
            self.pool.append(c)
            self._open(c)
        return True

    def _recall(self, c: int) -> None:
        """``c`` is home: available if it could come back."""
        if self.avail[c]:
            return
        r = self.rel[c]
        if self.empty if r == 13 else any(self.avail[q] for q in self.parents[r + 1][c]):
            self._open(c)

    def _open(self, c: int) -> None:
        """``c`` is available, and so is every card home that could come back onto it."""
        self.avail[c] = True
        todo = [c]
        while todo:
            for x in self.children[todo.pop()]:
                if not self.avail[x] and self.h[SUIT[x]] >= self.rel[x]:
                    self.avail[x] = True
                    todo.append(x)

    def _emptied(self) -> None:
        """A pile is empty: Kings home could come back."""
        if not self.empty:
            self.empty = True
            for s in range(4):
                if self.h[s] == 13:
                    self._recall(SUIT_RANK[self.rel][s][13])

    def settle(self) -> None:
        """Make every move within the tableau and pool until none is left."""
        h, rel, lows, downs = self.h, self.rel, self.lows, self.downs
        changed = True
        while changed:
            changed = False
            if self.pool:
                self.pool, sent = send_home(self.pool, h, rel)
                changed = changed or sent
            for i, c in enumerate(lows):
                if c < 0 or not self.take(c):
                    continue
                changed = True
                if downs[i]:
                    c = lows[i] = downs[i].pop()
                    self._open(c)
                else:
                    lows[i] = -1
                    self._emptied()

    def won(self) -> bool:
        """Whether every card is home."""
        return sum(self.h) == 52


def stacked_twins(
    p: Position, rel: tuple[int, ...], stacks: Iterable[Sequence[int]] = ()
) -> dict[int, int]:
    """For each card Y with its twin X above it in a stack whose cards leave from the
    top (a pile's face-down cards and lowest face-up card, or one of ``stacks``): Y ->
    X. X leaves first, for a parent or home (see ``Relaxed``)."""
    twin = {}
    piles = [pile[: d + 1] for pile, d in zip(p.tableau, p.down, strict=True)]
    for stack in (*piles, *stacks):
        for k, y in enumerate(stack):
            for x in stack[k + 1 :]:
                if rel[x] == rel[y] != 13 and RED[x] == RED[y]:
                    twin[y] = x
    return twin


class Ordered:
    """A second relaxed game, for proofs of loss: every tableau card keeps its place,
    and what lies on it must move first.

    ``Relaxed`` frees every face-up card at once; in a position whose face-down cards
    wait under long runs that is what leaves a lost position unproven (of 3,314 states
    sampled inside the proof of Klondike deal 72, unlimited redeals, ``Relaxed``
    proves 2 lost and this game 3,297). Here each tableau card c has the card that
    lies on it now, ``above[c]``, and c is *clear* once that card has moved (or when
    nothing lies on it). The game keeps three kinds of facts, each of which only ever
    becomes true:

    - ``moved[c]``: c left its place, as the base of a run (it is face up: face up
      now, or clear; and a card it could be built on is ``top``, or it is a King and
      some pile has been emptied) or for home;
    - ``top[c]``: c has been the top of a tableau pile, so a card could be built on
      it: a tableau card once clear, any other card once it could be put on the
      tableau (onto a ``top`` parent, or a King into an emptied pile), which includes
      a card home coming back;
    - home: c's suit holds the card below it, and c is clear (a tableau card) or
      given by the adapter (the waste's top, a reserve's top) or put on the tableau.

    Proof that a position lost here is lost. In any real line, the first time c
    leaves its place as the base of a run or for home, the card on it then is the
    card on it now, or one that came after that card moved: a card lies on c until
    it moves itself as a base (a run moved from lower down carries it along) or goes
    home. So c is clear, in this game, whenever it is the top of a real pile, and
    each real move has its counterpart here: a run's base moves when a parent is the
    top of a pile (``top``), a card goes home when it is the top, a card from the
    stock, a reserve or a foundation goes onto a top parent. Facts only grow, so the
    game is played to its end in any order (``settle``), and with the adapter
    driving the stock and the reserves as it does for ``Relaxed``; every card real
    play sends home goes home here too.

    Twins kept apart, as in ``Relaxed``: when a card Y's twin X lies above it in a
    stack whose cards leave from the top (``stacked_twins``), X leaves first, for a
    parent (then ``top``) or home, and stays on one of the two parents until it goes
    home. So until X is home, Y goes onto a parent, or comes back from home onto one,
    only once both parents are ``top``. (A twin that sits on a parent now needs no
    rule here: that parent is ``top`` only once the twin has moved.)
    """

    def __init__(
        self, p: Position, rel: tuple[int, ...], stacks: Iterable[Sequence[int]] = ()
    ) -> None:
        self.rel = rel
        self.h = heights(p)
        self.parents = CARD_OF[rel]
        self.twin = stacked_twins(p, rel, stacks)
        self.above = [-1] * 52
        self.moved = [False] * 52
        self.top = [False] * 52
        self.up = [False] * 52  # face up now
        self.cards: list[int] = []  # tableau cards not yet home
        self.bottoms: list[int] = []
        self.given: list[int] = []  # cards the adapter gave that are not yet home
        self.empty = False
        for pile, d in zip(p.tableau, p.down, strict=True):
            if not pile:
                self.empty = True
                continue
            self.bottoms.append(pile[0])
            for k, c in enumerate(pile):
                self.cards.append(c)
                self.up[c] = k >= d
                if k + 1 < len(pile):
                    self.above[c] = pile[k + 1]

    def _fits(self, c: int) -> bool:
        """Whether ``c`` could be put on the tableau: onto a ``top`` parent, or a King
        into an emptied pile."""
        r = self.rel[c]
        if r == 13:
            return self.empty
        a, b = self.parents[r + 1][c]
        x = self.twin.get(c)
        if x is not None and self.h[SUIT[x]] < self.rel[x]:
            return self.top[a] and self.top[b]
        return self.top[a] or self.top[b]

    def take(self, c: int) -> bool:
        """Play ``c`` (a card that only the adapter's piles hold) if it fits anywhere."""
        if self.h[SUIT[c]] == self.rel[c] - 1:
            self.h[SUIT[c]] += 1
            return True
        if not self._fits(c):
            return False
        self.top[c] = True
        self.given.append(c)
        return True

    def settle(self) -> None:
        """Make every move until none is left."""
        h, rel, above, moved, top = self.h, self.rel, self.above, self.moved, self.top
        changed = True
        while changed:
            changed = False
            stay = []
            for c in self.cards:
                clear = above[c] < 0 or moved[above[c]]
                if clear and not top[c]:
                    top[c] = changed = True
                if clear and h[SUIT[c]] == rel[c] - 1:
                    h[SUIT[c]] += 1
                    moved[c] = changed = True
                    continue
                stay.append(c)
                if not moved[c] and (clear or self.up[c]) and self._fits(c):
                    moved[c] = changed = True
            self.cards = stay
            if not self.empty and any(moved[b] for b in self.bottoms):
                self.empty = changed = True
            self.given, sent = send_home(self.given, h, rel)
            changed = changed or sent
            for s in range(4):  # cards home that could come back
                for r in range(1, h[s] + 1):
                    c = SUIT_RANK[rel][s][r]
                    if not top[c] and self._fits(c):
                        top[c] = changed = True

    def won(self) -> bool:
        """Whether every card is home."""
        return sum(self.h) == 52


def loose(p: Position, rel: tuple[int, ...]) -> bytes:
    """The face-up cards above a pile's lowest that do not sit on a card they could be
    built on (none in a position reached by play; a loaded one may have some)."""
    parents = CARD_OF[rel]
    return bytes(
        pile[k]
        for pile, d in zip(p.tableau, p.down, strict=True)
        for k in range(d + 1, len(pile))
        if rel[pile[k]] == 13 or pile[k - 1] not in parents[rel[pile[k]] + 1][pile[k]]
    )


class LostMemo:
    """The relaxed game's verdicts, remembered by what they read: the foundations, the
    cards outside the tableau (``rest``, laid out by the game), each pile's face-down
    cards and lowest face-up card, and the ``loose`` cards. Many states share these.
    Bounded: it starts afresh when full."""

    def __init__(self, lost: Callable[[Position], bool], size: int = 500_000) -> None:
        self.lost = lost
        self.size = size
        self.seen: dict[bytes, bool] = {}

    def __call__(self, p: Position, rest: bytes, rel: tuple[int, ...]) -> bool:
        """Whether the relaxed game from ``p`` is lost (``rest``: no byte 254; ``rel``:
        the ranks)."""
        piles = sorted(bytes(pile[: d + 1]) for pile, d in zip(p.tableau, p.down, strict=True))
        sig = bytes(heights(p)) + b"\xfe" + rest + b"\xfe" + b"\xff".join(piles)
        sig += b"\xfe" + loose(p, rel)
        known = self.seen.get(sig)
        if known is None:
            if len(self.seen) >= self.size:
                self.seen.clear()
            known = self.seen[sig] = self.lost(p)
        return known


class _Children(dict[tuple[int, ...], list[list[int]]]):
    """For a relative-rank table: the two cards that could be built on each card (none
    on an Ace)."""

    def __missing__(self, rel: tuple[int, ...]) -> list[list[int]]:
        of = SUIT_RANK[rel]
        children = [
            [of[s][rel[x] - 1] for s in ((0, 2) if RED[x] else (1, 3))] if rel[x] > 1 else []
            for x in range(52)
        ]
        self[rel] = children
        return children


_CHILDREN = _Children()
